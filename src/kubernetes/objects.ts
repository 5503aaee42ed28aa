// The Kubernetes objects the models read and write, with the fields they use. Field names and
// shapes follow the Kubernetes API (k8s.io/api core/v1, apps/v1, policy/v1, coordination/v1,
// discovery/v1, storage/v1) so that real manifests load unchanged. Times are virtual seconds.
// Three sections live in siblings re-exported here: ObjectMeta and label selectors (objects-meta.ts),
// affinity and topology spread (objects-affinity.ts), storage (objects-storage.ts), Services and
// EndpointSlices (objects-service.ts), Jobs and CronJobs (objects-batch.ts).

export * from "./objects-affinity.ts";
export * from "./objects-batch.ts";
export * from "./objects-meta.ts";
export * from "./objects-service.ts";
export * from "./objects-storage.ts";

import type { Affinity, TopologySpreadConstraint } from "./objects-affinity.ts";
import type { CronJobOf, JobOf, JobSpecOf } from "./objects-batch.ts";
import type { LabelSelector, ObjectMeta } from "./objects-meta.ts";
import type { EndpointSlice, Service } from "./objects-service.ts";
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  PersistentVolumeClaimTemplate,
  StorageClass,
  VolumeAttachment,
} from "./objects-storage.ts";

export type TaintEffect = "NoSchedule" | "PreferNoSchedule" | "NoExecute";

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
  timeAdded?: number;
}

export interface Toleration {
  key?: string;
  operator?: "Exists" | "Equal";
  value?: string;
  effect?: TaintEffect | "";
  tolerationSeconds?: number;
}

export type ConditionStatus = "True" | "False" | "Unknown";

export interface NodeCondition {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
  lastHeartbeatTime?: number;
  lastTransitionTime?: number;
}

export interface ResourceList {
  cpu?: number; // cores
  memory?: number; // bytes
  pods?: number;
  /**
   * Every other resource the scheduler counts, by name, as the quantity's number (bytes for
   * ephemeral-storage and hugepages-<size>, a count for an extended resource such as nvidia.com/gpu):
   * framework.Resource's EphemeralStorage and ScalarResources (pod-resources.ts isScalarResourceName).
   */
  scalar?: Record<string, number>;
}

export interface Node {
  kind: "Node";
  metadata: ObjectMeta;
  spec: { unschedulable?: boolean; taints?: Taint[] };
  status: {
    capacity: ResourceList;
    allocatable: ResourceList;
    conditions: NodeCondition[];
    /** The kubelet's version, as `kubectl get node` shows it (`v1.32.0`). */
    nodeInfo?: { kubeletVersion: string };
    /**
     * The volumes the kubelet reports mounted (its volume manager's GetVolumesInUse, posted with the
     * node status): here each is the claim `<namespace>/<name>` whose volume it is. The attach/detach
     * controller detaches a volume still listed only on timeout or out of service.
     */
    volumesInUse?: string[];
  };
}

export interface Lease {
  kind: "Lease";
  metadata: ObjectMeta;
  spec: { holderIdentity: string; leaseDurationSeconds: number; renewTime: number };
}

export interface HTTPGetAction {
  path?: string;
  port: number | string;
  scheme?: string;
}

/** A lifecycle hook: exactly one handler (validated on load). */
export interface LifecycleHandler {
  sleep?: { seconds: number };
  exec?: { command: string[] };
  httpGet?: HTTPGetAction;
  tcpSocket?: { port: number | string };
}

export interface Probe {
  httpGet?: HTTPGetAction;
  tcpSocket?: { port: number | string };
  grpc?: { port: number; service?: string };
  exec?: { command: string[] };
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

export interface ContainerPort {
  containerPort: number;
  name?: string;
  protocol?: string;
  /** the node's port the container's is exposed on (1–65535; unset: none), which NodePorts reserves */
  hostPort?: number;
  /** the node's address of hostPort (unset: 0.0.0.0, every address) */
  hostIP?: string;
}

export interface Container {
  name: string;
  image?: string;
  ports?: ContainerPort[];
  resources?: { requests?: ResourceList; limits?: ResourceList };
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  lifecycle?: { preStop?: LifecycleHandler };
  /**
   * An init container's `restartPolicy: Always` makes it a sidecar (KEP-753, SidecarContainers: alpha
   * 1.28, beta and on by default 1.29, GA 1.33): it keeps running beside the app containers.
   */
  restartPolicy?: "Always" | "OnFailure" | "Never";
  /** KEP-5307 (ContainerRestartRules: alpha 1.34, beta and on 1.35): the first rule whose exit codes match decides */
  restartPolicyRules?: ContainerRestartRule[];
}

/** core/v1 ContainerRestartRule: `Restart` when the exit code is (In) or is not (NotIn) among the values. */
export interface ContainerRestartRule {
  action: "Restart";
  exitCodes?: { operator: "In" | "NotIn"; values: number[] };
}

export interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string };
  /** present for an emptyDir volume (kubectl drain refuses such pods without --delete-emptydir-data) */
  emptyDir?: Record<string, never>;
}

export interface PodSpec {
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
  containers: Container[];
  initContainers?: Container[];
  restartPolicy?: "Always" | "OnFailure" | "Never";
  terminationGracePeriodSeconds?: number;
  affinity?: Affinity;
  topologySpreadConstraints?: TopologySpreadConstraint[];
  volumes?: Volume[];
  readinessGates?: { conditionType: string }[];
  hostNetwork?: boolean;
  hostname?: string;
  subdomain?: string;
  /** the ServiceAccount as written (serviceAccountName, else the deprecated serviceAccount); the API serves "default" when unset */
  serviceAccountName?: string;
  /** the PriorityClass the Priority admission plugin resolves (kubernetes/priority.ts) */
  priorityClassName?: string;
  /** written by the Priority admission plugin from the class (or read from a dump's pod) */
  priority?: number;
  /** written by admission from the class: PreemptLowerPriority (the default) or Never */
  preemptionPolicy?: PreemptionPolicy;
}

export type PreemptionPolicy = "PreemptLowerPriority" | "Never";

export interface PodCondition {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
  lastTransitionTime?: number;
}

export interface ContainerStatus {
  name: string;
  ready: boolean;
  started: boolean;
  restartCount: number;
  state: "waiting" | "running" | "terminated";
  reason?: string;
  startedAt?: number;
  exitCode?: number;
}

export type PodPhase = "Pending" | "Running" | "Succeeded" | "Failed" | "Unknown";

export interface Pod {
  kind: "Pod";
  metadata: ObjectMeta & { namespace: string };
  spec: PodSpec;
  status: {
    phase: PodPhase;
    conditions: PodCondition[];
    podIP?: string;
    containerStatuses: ContainerStatus[];
    /** the init containers' statuses, in spec.initContainers' order (written once the sandbox is up) */
    initContainerStatuses?: ContainerStatus[];
    /** the node DefaultPreemption nominated for the pod while its victims terminate */
    nominatedNodeName?: string;
    /** why the pod is in its phase (graceful node shutdown: Terminated) */
    reason?: string;
    message?: string;
  };
}

export interface PodTemplateSpec {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: PodSpec;
}

export type JobSpec = JobSpecOf<PodTemplateSpec>;
export type Job = JobOf<PodTemplateSpec>;
export type CronJob = CronJobOf<PodTemplateSpec>;

export interface Deployment {
  kind: "Deployment";
  metadata: ObjectMeta & { namespace: string };
  spec: { replicas: number; selector: LabelSelector; template: PodTemplateSpec };
}

export interface ReplicaSet {
  kind: "ReplicaSet";
  metadata: ObjectMeta & { namespace: string };
  spec: { replicas: number; selector: LabelSelector; template: PodTemplateSpec };
}

export interface StatefulSet {
  kind: "StatefulSet";
  metadata: ObjectMeta & { namespace: string };
  spec: {
    replicas: number;
    selector: LabelSelector;
    serviceName?: string;
    template: PodTemplateSpec;
    volumeClaimTemplates?: PersistentVolumeClaimTemplate[];
    podManagementPolicy?: "OrderedReady" | "Parallel";
    /** apps/v1 StatefulSetUpdateStrategy; maxUnavailable kept only where MaxUnavailableStatefulSet is on */
    updateStrategy?: {
      type?: "RollingUpdate" | "OnDelete";
      rollingUpdate?: { partition?: number; maxUnavailable?: number | string };
    };
  };
}

export interface DaemonSet {
  kind: "DaemonSet";
  metadata: ObjectMeta & { namespace: string };
  spec: { selector: LabelSelector; template: PodTemplateSpec };
}

/** scheduling.k8s.io/v1 PriorityClass (cluster-scoped): its fields sit beside metadata, not in a spec. */
export interface PriorityClass {
  kind: "PriorityClass";
  metadata: ObjectMeta;
  value: number;
  globalDefault: boolean;
  /** PreemptLowerPriority when absent (SetDefaults_PriorityClass) */
  preemptionPolicy: PreemptionPolicy;
}

export interface PodDisruptionBudget {
  kind: "PodDisruptionBudget";
  metadata: ObjectMeta & { namespace: string };
  spec: {
    selector?: LabelSelector;
    minAvailable?: number | string;
    maxUnavailable?: number | string;
    /** absent: IfHealthyBudget's behaviour (policy/v1) */
    unhealthyPodEvictionPolicy?: "IfHealthyBudget" | "AlwaysAllow";
  };
}

export type KubeObject =
  | Node
  | Lease
  | Pod
  | Deployment
  | ReplicaSet
  | StatefulSet
  | DaemonSet
  | Job
  | CronJob
  | PersistentVolumeClaim
  | PersistentVolume
  | StorageClass
  | PriorityClass
  | Service
  | PodDisruptionBudget
  | EndpointSlice
  | VolumeAttachment;

export type Kind = KubeObject["kind"];

/** The kinds a manifest may declare, loaded as typed objects (any other kind is listed as ignored). */
export const MODELLED_MANIFEST_KINDS = [
  "Pod",
  "Deployment",
  "ReplicaSet",
  "StatefulSet",
  "DaemonSet",
  "Job",
  "CronJob",
  "Service",
  "PersistentVolumeClaim",
  "PodDisruptionBudget",
  "PersistentVolume",
  "StorageClass",
  "PriorityClass",
] as const;
export type ManifestKind = (typeof MODELLED_MANIFEST_KINDS)[number];

/** The manifest kinds that run pods (a bare Pod is its own workload). */
export const WORKLOAD_KINDS = [
  "Pod",
  "Deployment",
  "ReplicaSet",
  "StatefulSet",
  "DaemonSet",
  "Job",
  "CronJob",
] as const;
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

export function isWorkload(kind: string): kind is WorkloadKind {
  return (WORKLOAD_KINDS as readonly string[]).includes(kind);
}

/** The pod spec an object runs: a Pod's own, a workload's template's; undefined for other kinds. */
export function podSpecOf(object: KubeObject): PodSpec | undefined {
  switch (object.kind) {
    case "Pod":
      return object.spec;
    case "Deployment":
    case "ReplicaSet":
    case "StatefulSet":
    case "DaemonSet":
    case "Job":
      return object.spec.template.spec;
    case "CronJob":
      return object.spec.jobTemplate.spec.template.spec;
    default:
      return undefined;
  }
}
