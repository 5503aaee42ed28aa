// The Kubernetes objects the models read and write, with the fields they use. Field names and
// shapes follow the Kubernetes API (k8s.io/api core/v1, apps/v1, policy/v1, coordination/v1,
// discovery/v1, storage/v1) so that real manifests load unchanged. Times are virtual seconds.
// One file over 400 lines on purpose: type declarations only, read as one union (KubeObject), in the
// order of the API groups; splitting them would scatter what a reader compares side by side.

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  creationTimestamp?: number;
  deletionTimestamp?: number;
  deletionGracePeriodSeconds?: number;
  ownerReferences?: OwnerReference[];
  generateName?: string;
}

export interface OwnerReference {
  kind: string;
  name: string;
  controller?: boolean;
}

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

export interface LabelSelectorRequirement {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
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
}

export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  topologyKey: string;
  /** Namespaces the term selects pods in; with neither this nor namespaceSelector, the pod's own. */
  namespaces?: string[];
  /** Namespaces by their labels; `{}` selects every namespace. */
  namespaceSelector?: LabelSelector;
}

export interface PodAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
}

/** A node selector requirement (core/v1 NodeSelectorRequirement): Gt and Lt compare integers. */
export interface NodeSelectorRequirement {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt";
  values?: string[];
}

/** One term of a node selector: its requirements are ANDed. */
export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  /** Only `metadata.name` is a node field (nodeaffinity.extractNodeFields). */
  matchFields?: NodeSelectorRequirement[];
}

/** A node selector (core/v1 NodeSelector): its terms are ORed. */
export interface NodeSelector {
  nodeSelectorTerms: NodeSelectorTerm[];
}

export interface PreferredSchedulingTerm {
  /** 1–100 */
  weight: number;
  preference: NodeSelectorTerm;
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
  preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[];
}

export interface Affinity {
  nodeAffinity?: NodeAffinity;
  podAffinity?: PodAffinity;
  podAntiAffinity?: PodAffinity;
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: "DoNotSchedule" | "ScheduleAnyway";
  labelSelector?: LabelSelector;
  /** Pod label keys whose values (the pod's own) are ANDed into the selector (1.27+ beta). */
  matchLabelKeys?: string[];
  /** With fewer eligible domains than this, the global minimum counts as 0. */
  minDomains?: number;
  /** Honor (default): only nodes matching the pod's node selector and required affinity count. */
  nodeAffinityPolicy?: "Honor" | "Ignore";
  /** Ignore (default): tainted nodes count too. */
  nodeTaintsPolicy?: "Honor" | "Ignore";
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
}

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
    /** why the pod is in its phase (graceful node shutdown: Terminated) */
    reason?: string;
    message?: string;
  };
}

export interface PodTemplateSpec {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: PodSpec;
}

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
  };
}

export interface DaemonSet {
  kind: "DaemonSet";
  metadata: ObjectMeta & { namespace: string };
  spec: { selector: LabelSelector; template: PodTemplateSpec };
}

export interface PersistentVolumeClaimTemplate {
  /** getPersistentVolumeClaims copies the template's annotations into each claim */
  metadata: { name: string; annotations?: Record<string, string> };
  /** the claims' spec (getPersistentVolumeClaims copies it): class, request, access modes */
  spec: { accessModes?: string[]; storageClassName?: string; storage?: number };
}

export interface PersistentVolumeClaim {
  kind: "PersistentVolumeClaim";
  metadata: ObjectMeta & { namespace: string };
  spec: {
    accessModes: string[];
    /** absent: the cluster's default StorageClass; "": no class (bind to a PV without one) */
    storageClassName?: string;
    /** the PersistentVolume to bind to, when set by the user or the binder */
    volumeName?: string;
    /** bytes requested (resources.requests.storage) */
    storage?: number;
  };
  /** written by the PersistentVolume controller when it binds the claim */
  status?: { phase: "Pending" | "Bound" | "Lost" };
}

/** core/v1 PersistentVolume (cluster-scoped), with what binding and scheduling read. */
export interface PersistentVolume {
  kind: "PersistentVolume";
  metadata: ObjectMeta;
  spec: {
    /** bytes (capacity.storage) */
    capacity: number;
    accessModes: string[];
    /** the claim this volume is bound or reserved to */
    claimRef?: { namespace: string; name: string; uid?: string };
    /** the nodes that can reach the volume (a zonal disk: its zone) */
    nodeAffinity?: { required: NodeSelector };
    storageClassName?: string;
    persistentVolumeReclaimPolicy: "Retain" | "Delete" | "Recycle";
    volumeMode: "Filesystem" | "Block";
  };
  /** Available until the PersistentVolume controller binds it (absent: Available) */
  status?: { phase: "Pending" | "Available" | "Bound" | "Released" | "Failed" };
}

/** core/v1 TopologySelectorTerm: a StorageClass's allowedTopologies term. */
export interface TopologySelectorTerm {
  matchLabelExpressions: { key: string; values: string[] }[];
}

/** storage.k8s.io/v1 StorageClass (cluster-scoped): its fields sit beside metadata, not in a spec. */
export interface StorageClass {
  kind: "StorageClass";
  metadata: ObjectMeta;
  provisioner: string;
  parameters?: Record<string, string>;
  /** Delete (the API's default) or Retain */
  reclaimPolicy: "Delete" | "Retain";
  /** Immediate (the API's default) or WaitForFirstConsumer */
  volumeBindingMode: "Immediate" | "WaitForFirstConsumer";
  allowedTopologies?: TopologySelectorTerm[];
  allowVolumeExpansion?: boolean;
}

export interface ServicePort {
  name?: string;
  port: number;
  targetPort?: number | string;
  nodePort?: number;
  protocol?: string;
}

export interface Service {
  kind: "Service";
  metadata: ObjectMeta & { namespace: string };
  spec: {
    selector?: Record<string, string>;
    type?: "ClusterIP" | "NodePort" | "LoadBalancer" | "ExternalName";
    externalTrafficPolicy?: "Cluster" | "Local";
    internalTrafficPolicy?: "Cluster" | "Local";
    publishNotReadyAddresses?: boolean;
    ports?: ServicePort[];
    clusterIP?: string;
  };
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

export interface Endpoint {
  addresses: string[];
  conditions: { ready: boolean; serving: boolean; terminating: boolean };
  nodeName?: string;
  zone?: string;
  targetRef: { kind: "Pod"; namespace: string; name: string };
}

export interface EndpointSlice {
  kind: "EndpointSlice";
  metadata: ObjectMeta & { namespace: string };
  service: string;
  endpoints: Endpoint[];
}

/** storage.k8s.io/v1 VolumeAttachment, reduced to what the attach/detach controller tracks. */
export interface VolumeAttachment {
  kind: "VolumeAttachment";
  metadata: ObjectMeta;
  spec: { nodeName: string; claim: string };
  status: { attached: boolean };
}

export type KubeObject =
  | Node
  | Lease
  | Pod
  | Deployment
  | ReplicaSet
  | StatefulSet
  | DaemonSet
  | PersistentVolumeClaim
  | PersistentVolume
  | StorageClass
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
  "Service",
  "PersistentVolumeClaim",
  "PodDisruptionBudget",
  "PersistentVolume",
  "StorageClass",
] as const;
export type ManifestKind = (typeof MODELLED_MANIFEST_KINDS)[number];

/** The manifest kinds that run pods (a bare Pod is its own workload). */
export const WORKLOAD_KINDS = ["Pod", "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"] as const;
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
      return object.spec.template.spec;
    default:
      return undefined;
  }
}
