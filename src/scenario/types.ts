// The scenario: what the user asks faultline to simulate, after loading and validation.
// The YAML contract is documented in README.md ("Scenario file"); load/ turns a file into this.

import type { Ipv4Cidr } from "../kubernetes/cidr.ts";
import type { ClientName } from "../kubernetes/client-defaults.ts";
import type { KubeObject, ManifestKind, ResourceList, Taint } from "../kubernetes/objects.ts";
import type { NetworkOverrides, ProfileFile } from "./network.ts";
import type { NotReadyAtStart } from "./not-ready-at-start.ts";
import type { ScenarioOrigin } from "./source.ts";

// The versions and settings a scenario may give, defined beside their defaults (kubernetes/).
export {
  type ControlPlaneOverrides,
  type KubeletFeatureGates,
  type KubeletOverrides,
  type KubernetesVersion,
  NEWEST_VERSION,
  SUPPORTED_VERSIONS,
} from "../kubernetes/configuration.ts";
export type { NetworkOverrides, NetworkSettings, ProfileFile } from "./network.ts";
export type { NotReadyAtStart } from "./not-ready-at-start.ts";
export type { ManifestFile, Patch, ScenarioOrigin, ScenarioSource } from "./source.ts";

import type {
  ControlPlaneOverrides,
  KubeletOverrides,
  KubernetesVersion,
} from "../kubernetes/configuration.ts";

/** Where something came from in the user's files, for messages. */
export interface SourcePos {
  file: string;
  line: number;
  col: number;
}

export interface NodeSpec {
  name: string;
  zone?: string;
  region?: string;
  labels: Record<string, string>;
  taints: Taint[];
  capacity: ResourceList;
  /** status.allocatable when it differs from capacity (a Node of a cluster dump); absent: the capacity */
  allocatable?: ResourceList;
  /** spec.unschedulable: the node is cordoned from the start (a Node of a cluster dump) */
  unschedulable?: boolean;
  /** `labels` are the Node's labels as they were (a cluster dump): the kubelet adds none of its own */
  labelsAsRegistered?: boolean;
  /** status.volumesInUse of a Node of a cluster dump: the claims its running pods mount (load/cluster/dump.ts) */
  volumesInUse?: string[];
  /** NotReady when the cluster was dumped: it starts so (run/not-ready-at-start.ts) */
  notReady?: NotReadyAtStart;
  /** spec.podCIDR(s) of a Node of a cluster dump, its IPv4 one: new pods' addresses come from it */
  podCIDR?: Ipv4Cidr;
  /** spec.providerID of a Node of a cluster dump (`aws:///eu-west-1a/i-…`): names its cloud */
  providerID?: string;
  /** status.addresses of a Node of a cluster dump (faultline serve shows them; no model reads them) */
  addresses?: { type: string; address: string }[];
  /** status.nodeInfo of a Node of a cluster dump, its string fields (served as read) */
  nodeInfo?: Record<string, string>;
}

export type FaultAction =
  | "power-off"
  /** the OS is asked to shut down (`systemctl poweroff`, a cloud's stop): the kubelet's graceful node shutdown, then power-off */
  | "shutdown"
  /** the instance is deleted (a scale-in, a spot reclaim, an operator): power off, and the cloud no longer knows it */
  | "vm-terminated"
  /** the cloud reclaims a spot instance: the platform's notice, then vm-terminated (platforms/<name>.ts spot) */
  | "spot-interruption"
  | "power-on"
  | "network-partition"
  | "network-heal"
  | "kubelet-stop"
  | "kubelet-start"
  | "runtime-down"
  | "runtime-up"
  | "cordon"
  | "uncordon"
  | "drain"
  | "delete-node"
  | "taint-out-of-service"
  | "force-delete-pod"
  | "deadlock"
  | "crash"
  | "dependency-down"
  | "dependency-up"
  | "recover"
  /** `kubectl rollout restart statefulset/<name>` (pod: StatefulSet/<name>): a new template revision, rolled out */
  | "rollout-restart";

export const NODE_ACTIONS: readonly FaultAction[] = [
  "power-off",
  "shutdown",
  "vm-terminated",
  "spot-interruption",
  "power-on",
  "network-partition",
  "network-heal",
  "kubelet-stop",
  "kubelet-start",
  "runtime-down",
  "runtime-up",
  "cordon",
  "uncordon",
  "drain",
  "delete-node",
  "taint-out-of-service",
];
export const POD_ACTIONS: readonly FaultAction[] = [
  "force-delete-pod",
  "deadlock",
  "crash",
  "dependency-down",
  "dependency-up",
  "recover",
  "rollout-restart",
];

export interface TimelineStep {
  at: number;
  do: FaultAction;
  node?: string;
  /** `<namespace>/<name>`, `<Kind>/<name>` or `<Kind>/<name>[i]`. */
  pod?: string;
  /** `pod`, resolved by load/ against the manifests (set whenever `pod` is). */
  target?: PodTarget;
  /** drain: kubectl drain --force (pods no controller manages may go). */
  force?: boolean;
  /** drain: kubectl drain --delete-emptydir-data (pods with emptyDir volumes may go). */
  deleteEmptyDirData?: boolean;
  /** drain: kubectl drain --ignore-daemonsets (absent: true, as nearly every drain is run; false: DaemonSet pods stop the drain). */
  ignoreDaemonSets?: boolean;
  pos: SourcePos;
}

/** The pod (or pods) a timeline step names, resolved against the manifests. */
export interface PodTarget {
  namespace: string;
  /** The workload the pod belongs to; a bare Pod is its own workload. */
  kind: "Pod" | "Deployment" | "StatefulSet" | "DaemonSet" | "ReplicaSet";
  workload: string;
  /** `<Kind>/<name>[i]` or a StatefulSet pod `<sts>-<i>`: the pod's index. Absent: any pod of the workload. */
  index?: number;
  /** `<namespace>/<name>`: the pod name as written (for a Deployment, a generated name such as web-7d4b9-x2x). */
  podName?: string;
}

/** How the application in a workload behaves (issue: probes); keyed by workload name or "name/container". */
export interface Behaviour {
  bootSeconds?: number;
  readyAfterSeconds?: number;
  exitCode?: number;
  /** seconds the process takes to exit after SIGTERM; default 0 (exits at once). */
  shutdownSeconds?: number;
  /** seconds an exec or httpGet preStop hook takes (default: an exec's `sleep N`, else at once) */
  preStopSeconds?: number;
  /**
   * The process exits by itself (with exitCode, default 1) this long after every start: a bad
   * configuration's CrashLoopBackOff.
   */
  exitAfterSeconds?: number;
  capacityRps?: number;
  serviceTimeMs?: number;
  healthSharesRequestQueue?: boolean;
}

export interface ManifestObject {
  object: KubeObject;
  kind: ManifestKind;
  pos: SourcePos;
}

/** A valid Kubernetes field no model reads, listed once: where it first appears. */
export interface NotModelledField {
  /** API type and field, e.g. `DeploymentSpec.strategy`, `Container.resources.limits` */
  field: string;
  /** `file:line` */
  where: string;
}

export interface IgnoredObject {
  apiVersion: string;
  kind: string;
  name: string;
  pos: SourcePos;
  /** Why, when it is not that faultline does not model the kind (a pod on a node not in the dump) */
  reason?: string;
  /** What `faultline serve` shows of a ConfigMap, Secret or ServiceAccount (no model reads it) */
  view?: IgnoredView;
}

/** A ConfigMap, Secret or ServiceAccount as served: a Secret's keys only, never its values. */
export interface IgnoredView {
  namespace: string;
  labels?: Record<string, string>;
  /** metadata.creationTimestamp of a dumped object, RFC 3339 */
  created?: string;
  /** a ConfigMap's data as written */
  data?: Record<string, string>;
  /** a ConfigMap's binaryData keys, a Secret's data and stringData keys */
  keys?: string[];
  /** a Secret's type (default Opaque) */
  type?: string;
}

/** What a scenario's `cluster:` dump held besides the nodes and objects it became. */
export interface ClusterDumpInfo {
  /** the dump's files, as messages name them */
  files: string[];
  /** objects the models make again from the others, by kind: EndpointSlice, ControllerRevision… */
  rebuilt: Record<string, number>;
  /** the newest status.nodeInfo.kubeletVersion of the dump's nodes, e.g. `v1.31.4` */
  kubeletVersion?: string;
  /** the run's Kubernetes version is the kubelets' (the scenario gave no kubernetesVersion) */
  versionFromKubelets?: boolean;
  /** nodes whose Ready condition was not True when the dump was taken (they start NotReady) */
  notReady: string[];
  /** when the dump was taken, t=0 (RFC 3339), and what says so */
  takenAt?: { time: string; from: "node Leases" | "node status" };
  /** the managed platform the dump's Nodes name (spec.providerID, node-group labels), if any */
  platform?: DumpPlatform;
}

export interface DumpPlatform {
  name: "eks" | "gke" | "aks" | "doks";
  /** what told it: `spec.providerID aws://… on Node ip-10-0-1-12…` */
  evidence: string;
  /** the node groups (node pools) the nodes' labels name */
  nodeGroups: string[];
  /** the run's profile is the platform's (the scenario and --profile gave none) */
  profileFromDump: boolean;
}

export interface Scenario {
  name: string;
  file: string;
  kubernetesVersion: KubernetesVersion;
  /**
   * The patch release, when `kubernetesVersion` names one ("1.35.2" → 2): where a behaviour flipped
   * within a minor (MaxUnavailableStatefulSet in 1.35.4). Absent: the minor's first, .0.
   */
  kubernetesPatch?: number;
  seed: number;
  duration: number;
  start: "running" | "created";
  nodes: NodeSpec[];
  manifests: ManifestObject[];
  ignored: IgnoredObject[];
  /** The `cluster:` dump the nodes and objects came from, if any. */
  cluster?: ClusterDumpInfo;
  /** Valid fields of the manifests that no model reads (they may change the answer): said, never dropped. */
  notModelled: NotModelledField[];
  controlPlane: ControlPlaneOverrides;
  kubelet: KubeletOverrides;
  behaviour: Record<string, Behaviour>;
  timeline: TimelineStep[];
  /** Raw scenario settings not yet modelled by this version, kept for later stages. */
  extra: Record<string, unknown>;
  /** Callers of Services: every request simulated. Absent or empty: no traffic model. */
  traffic?: TrafficSpec[];
  /** Data-plane timings: kube-proxy, load balancer, propagation (over the profile's). */
  network?: NetworkOverrides;
  /** A named set of settings (src/scenario/profiles.ts); default "stock" (upstream defaults). */
  profile?: ProfileName;
  /** `profile: ./FILE.yaml`: a profile read from a file (as `faultline compare --fit` writes one). */
  profileFile?: ProfileFile;
  /** The `autoscaler:` section: Cluster Autoscaler or Karpenter adds nodes for unschedulable pods. */
  autoscaler?: AutoscalerSpec;
  /**
   * `autoRepair:` the platform's node auto-repair on or off (absent: `enabledByDefault`, platforms/;
   * EKS's is opt-in, a managed node group's `nodeRepairConfig.enabled`, on in EKS Auto Mode).
   */
  autoRepair?: boolean;
  /**
   * What the scenario was loaded from: its files' texts and the patches applied to them, so that
   * whatif/ can make a variant by patching the source and loading it again (never read by the run).
   * Absent on a scenario built by hand.
   */
  origin?: ScenarioOrigin;
}

/**
 * The `autoscaler:` section. Cluster Autoscaler (kubernetes/autoscaler cluster-autoscaler/FAQ.md):
 * every --scan-interval (10s) it scales up a node group whose template fits the unschedulable pods,
 * giving up on a node not registered within --max-node-provision-time (15m). Karpenter
 * (karpenter.sh/docs/concepts/scheduling, settings BATCH_IDLE_DURATION 1s / BATCH_MAX_DURATION 10s):
 * it batches pending pods for 1s of quiet (10s at most) and launches a NodeClaim from a NodePool.
 */
export interface AutoscalerSpec {
  kind: "cluster-autoscaler" | "karpenter";
  /** seconds between two looks at the pending pods (CA's --scan-interval; Karpenter's batch idle time) */
  scanInterval: number;
  maxNodeProvisionTime: number;
  /** seconds from the scale-up to the new node Ready (a VM's boot, the kubelet's registration) */
  bootSeconds: number;
  nodeGroups: NodeGroupSpec[];
  pos: SourcePos;
}

/** A node group (node pool, NodePool): the nodes it adds are like its template node. */
export interface NodeGroupSpec {
  name: string;
  /** the node new ones are made like: its capacity, zone and labels */
  template: NodeSpec;
  /** how many nodes the group may add beyond those the scenario has */
  maxNewNodes: number;
  /** the scenario's nodes in the group at the start (its template alone when given by `like`) */
  size: number;
}

export const PROFILE_NAMES = ["stock", "doks-measured", "eks", "gke", "aks", "doks"] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export type TrafficEntry = "load-balancer" | "node-port" | "cluster-ip" | "dns";

/**
 * Envoy's `config.cluster.v3.OutlierDetection`, consecutive-failure part
 * (api/envoy/config/cluster/v3/outlier_detection.proto): every field defaults as Envoy does.
 */
export interface OutlierDetectionSpec {
  /** consecutive_5xx, 5: with split_external_local_origin_errors false, timeouts, resets and refusals count too */
  consecutive5xx: number;
  /** interval, 10s: the ejection sweep, which returns hosts whose ejection time is over */
  interval: number;
  /** base_ejection_time, 30s: an ejection lasts base × times ejected */
  baseEjectionTime: number;
  /** max_ejection_time, 300s (or baseEjectionTime if larger) */
  maxEjectionTime: number;
  /** max_ejection_percent, 10: at least one host is always ejectable */
  maxEjectionPercent: number;
}

/** Linkerd's retry budget (retryRatio 0.2, minRetriesPerSecond 10, ttl 10s). */
export interface RetryBudgetSpec {
  ratio: number;
  minRetriesPerSecond: number;
}

/** One `traffic:` entry: a population of callers of one Service. */
export interface TrafficSpec {
  /** `<namespace>/<name>` of a Service in the manifests */
  service: string;
  /** requests per second, open loop (Poisson arrivals) */
  rate: number;
  /** callers, each with its own connection pool */
  clients: number;
  keepAlive: boolean;
  /** the library whose pool the callers use (kubernetes/client-defaults.ts) */
  client: ClientName;
  /** connections per client at most (+∞: another opens when all are busy); past it, requests queue in the caller */
  poolSize: number;
  /** idle connections a client keeps alive; the others close when their request ends */
  maxIdle: number;
  /** seconds a kept-alive connection may stay idle before the client closes it (+∞: never) */
  idleTimeout: number;
  /** one connection per client carries poolSize concurrent requests (HTTP/2 streams: gRPC) */
  multiplexed: boolean;
  /** each client sends its next request only after the previous answer */
  closedLoop: boolean;
  /** seconds, per attempt */
  timeout: number;
  /** seconds: a request answered ok but slower than this counts as slow ("lost or slow") */
  slo?: number;
  /** extra attempts per request after a failure */
  retries: number;
  retryBudget?: RetryBudgetSpec;
  entry: TrafficEntry;
  outlierDetection?: OutlierDetectionSpec;
  /** seconds from t=0 when callers start; default 0 */
  start: number;
  /** entry: dns: the least seconds between two resolutions (gRPC's min resolution interval) */
  dnsRefresh?: number;
  /** entry: dns: gRPC keepalive's Time (absent: off, grpc-go's default) and Timeout (20s) */
  keepaliveTime?: number;
  keepaliveTimeout?: number;
  pos: SourcePos;
}
