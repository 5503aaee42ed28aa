// The Kubernetes objects the models read and write, with the fields they use. Field names and
// shapes follow the Kubernetes API (k8s.io/api core/v1, apps/v1, policy/v1, coordination/v1,
// discovery/v1, storage/v1) so that real manifests load unchanged. Times are virtual seconds.

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

export interface Container {
  name: string;
  image?: string;
  ports?: { containerPort: number; name?: string; protocol?: string }[];
  resources?: { requests?: ResourceList; limits?: ResourceList };
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  lifecycle?: { preStop?: { sleep?: { seconds: number }; exec?: unknown; httpGet?: unknown } };
}

export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  topologyKey: string;
}

export interface Affinity {
  podAntiAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
    preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
  };
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: "DoNotSchedule" | "ScheduleAnyway";
  labelSelector?: LabelSelector;
}

export interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string };
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
  metadata: { name: string };
  spec: { accessModes?: string[] };
}

export interface PersistentVolumeClaim {
  kind: "PersistentVolumeClaim";
  metadata: ObjectMeta & { namespace: string };
  spec: { accessModes: string[] };
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
  spec: { selector?: LabelSelector; minAvailable?: number | string; maxUnavailable?: number | string };
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
  | Service
  | PodDisruptionBudget
  | EndpointSlice
  | VolumeAttachment;

export type Kind = KubeObject["kind"];

/** The workload kinds a manifest may declare and the models use. */
export const MODELLED_MANIFEST_KINDS = [
  "Pod",
  "Deployment",
  "ReplicaSet",
  "StatefulSet",
  "DaemonSet",
  "Service",
  "PersistentVolumeClaim",
  "PodDisruptionBudget",
] as const;
export type ManifestKind = (typeof MODELLED_MANIFEST_KINDS)[number];
