// The scenario file as its author writes it (YAML or JSON), before load/ checks and resolves it into
// `Scenario` (types.ts): durations as written ("15m", "1h30m", 250ms, or seconds), nodes as a list or
// a group, manifests as paths or inline objects. It is the source of schemas/scenario.schema.json
// (scripts/schemas.ts), the schema editors read through the yaml-language-server modeline:
//   # yaml-language-server: $schema=https://unpkg.com/faultline/schemas/scenario.schema.json
// The loader stays the judge: it checks every range, name and reference with a located message; the
// schema holds the shape, the names of the fields and the values an enumeration allows. `traffic` and
// `network` are checked field by field by the loader only (load/scenario/traffic.ts).

import type { FaultAction, KubernetesVersion, ProfileName } from "./types.ts";

/**
 * A duration as Go's time.ParseDuration reads it (units ns, us, µs, ms, s, m, h), or seconds as a
 * number (load/units.ts parseDuration).
 */
export type DurationValue = number | DurationText;
/** @pattern ^\s*[+-]?(((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+|\d+(\.\d*)?|\.\d+)\s*$ */
export type DurationText = string;

/** The scenario file (load/scenario/parse.ts SCENARIO_FIELDS). */
export interface ScenarioFile {
  /** the scenario's name (default: the file's name) */
  name?: string;
  /** the Kubernetes version whose defaults apply (default: the newest supported, or the dump's kubelets') */
  kubernetesVersion?: KubernetesVersion;
  /** the PRNG seed (simulate --seed), 0 to 4294967295; default 1 */
  seed?: number;
  /** simulated time of the run, e.g. 15m */
  duration: DurationValue;
  /** "running": the cluster settled at t=0 (default); "created": the objects just applied */
  start?: "running" | "created";
  /** the nodes: a list, or a group {count, zones…} */
  nodes?: NodeFile[] | NodeGroupFile;
  /** a cluster dump (kubectl get … -o yaml|json): a file or folder, instead of nodes */
  cluster?: string;
  /** Kubernetes objects: files or folders (relative to the scenario file), or objects inline */
  manifests?: ManifestEntryFile | ManifestEntryFile[];
  /** kube-controller-manager flags (load/scenario/settings.ts CONTROL_PLANE_FIELDS) */
  controlPlane?: ControlPlaneFile;
  /** KubeletConfiguration fields */
  kubelet?: KubeletFile;
  /** how a workload's containers behave, by workload name (or name/container) */
  behaviour?: Record<string, BehaviourFile>;
  /** what happens when */
  timeline?: TimelineStepFile[];
  /** callers of Services (load/scenario/traffic.ts) */
  traffic?: Record<string, unknown>[];
  /** kube-proxy, load balancer and DNS settings (load/scenario/traffic.ts parseNetwork) */
  network?: Record<string, unknown>;
  /** a named set of settings (a platform's, or measured), or a profile file as `faultline compare --fit` writes one */
  profile?: ProfileName | ProfilePath;
  /** Cluster Autoscaler or Karpenter adding nodes for unschedulable pods (load/scenario/autoscaler.ts) */
  autoscaler?: Record<string, unknown>;
  /** the platform profile's node auto-repair on or off (absent: as the platform creates a node pool; EKS's is off) */
  autoRepair?: boolean;
}

/**
 * A profile file's path, relative to the scenario file (load/scenario/profile-file.ts isProfilePath).
 * @pattern ^(\.{0,2}/.*|.*\.(ya?ml|json|YA?ML|JSON))$
 */
export type ProfilePath = string;

/** A path to a file or folder of manifests, or one Kubernetes object inline. */
export type ManifestEntryFile = string | ({ apiVersion: string; kind: string } & Record<string, unknown>);

/** One node (load/scenario/nodes.ts NODE_FIELDS). */
export interface NodeFile {
  name: string;
  zone?: string;
  region?: string;
  labels?: Record<string, string>;
  capacity?: CapacityFile;
  taints?: TaintFile[];
  unschedulable?: boolean;
}

/** `count` nodes named worker-1…, spread over the zones in turn (NODE_GROUP_FIELDS). */
export interface NodeGroupFile {
  /** @minimum 1 */
  count: number;
  zones?: string[];
  region?: string;
  labels?: Record<string, string>;
  capacity?: CapacityFile;
  taints?: TaintFile[];
}

/** Allocatable resources as quantities (cpu: "4", memory: 16Gi, pods: 110); other names are extended resources. */
export type CapacityFile = Record<string, string | number>;

export interface TaintFile {
  key: string;
  value?: string;
  effect: "NoSchedule" | "PreferNoSchedule" | "NoExecute";
}

export interface ControlPlaneFile {
  nodeMonitorGracePeriod?: DurationValue;
  nodeMonitorPeriod?: DurationValue;
  nodeStartupGracePeriod?: DurationValue;
  nodeEvictionRate?: number;
  secondaryNodeEvictionRate?: number;
  largeClusterSizeThreshold?: number;
  unhealthyZoneThreshold?: number;
  defaultNotReadyTolerationSeconds?: number;
  defaultUnreachableTolerationSeconds?: number;
  disableForceDetachOnTimeout?: boolean;
  terminatedPodGCThreshold?: number;
  /** false: --controllers=*,-taint-eviction-controller (KEP-3902; 1.29 and later) */
  taintEvictionController?: boolean;
}

export interface KubeletFile {
  nodeLeaseDurationSeconds?: number;
  nodeStatusUpdateFrequency?: DurationValue;
  nodeStatusReportFrequency?: DurationValue;
  /** when the prober runs: as the kubelet does, or at the end of each period (kubernetes/configuration.ts) */
  probeSchedule?: "kubernetes" | "period-end";
  /** KubeletConfiguration crashLoopBackOff (KEP-4603): true, false or {maxContainerRestartPeriod} */
  crashLoopBackOff?: boolean | { maxContainerRestartPeriod?: DurationValue };
  /** kubelet feature gates by name */
  featureGates?: Record<string, boolean>;
  /** KubeletConfiguration shutdownGracePeriod (KEP-2000): all the graceful node shutdown may take; 0s (the default) is none */
  shutdownGracePeriod?: DurationValue;
  /** KubeletConfiguration shutdownGracePeriodCriticalPods: the last part of shutdownGracePeriod, for priority >= 2000000000 */
  shutdownGracePeriodCriticalPods?: DurationValue;
  /** KubeletConfiguration shutdownGracePeriodByPodPriority (KEP-2712): a period per priority group, instead of the two above */
  shutdownGracePeriodByPodPriority?: { priority: number; shutdownGracePeriodSeconds?: number }[];
}

export interface BehaviourFile {
  bootSeconds?: DurationValue;
  readyAfterSeconds?: DurationValue;
  exitCode?: number;
  shutdownSeconds?: DurationValue;
  preStopSeconds?: DurationValue;
  exitAfterSeconds?: DurationValue;
  capacityRps?: number;
  serviceTimeMs?: number;
  healthSharesRequestQueue?: boolean;
}

/** One step of the timeline (load/scenario/timeline.ts STEP_FIELDS). */
export interface TimelineStepFile {
  at: DurationValue;
  do: FaultAction;
  node?: string;
  /** `<namespace>/<name>`, `<Kind>/<name>` or `<Kind>/<name>[i]` */
  pod?: string;
  /** drain: kubectl drain --force */
  force?: boolean;
  /** drain: kubectl drain --delete-emptydir-data */
  deleteEmptyDirData?: boolean;
  /** drain: kubectl drain --ignore-daemonsets (default true) */
  ignoreDaemonSets?: boolean;
}
