// A managed platform as faultline models it: what its cloud controller manager does with a lost
// machine, how it repairs a node that stays NotReady, the notice a spot reclaim gives, its default
// StorageClass and load balancer health check, its node autoscaler, and how a dump names it (the
// Nodes' spec.providerID scheme and node-group label). Plain data, each value with its source; the
// models read it through the profile (scenario/profiles.ts).

export const PLATFORM_NAMES = ["eks", "gke", "aks", "doks"] as const;
export type PlatformName = (typeof PLATFORM_NAMES)[number];

/** What the platform does to a node that stays NotReady (its auto-repair), as its documentation says. */
import type { ShutdownConfig } from "../kubernetes/defaults.ts";

export interface AutoRepair {
  /** on for a node pool as the platform creates it */
  enabledByDefault: boolean;
  /** seconds the node must stay not Ready before the platform acts */
  afterSeconds: number;
  /**
   * - `recreate`: the VM is deleted and created again under the same name (GKE);
   * - `reboot`: the VM restarts (AKS's first step; reimage and redeploy follow if it stays unhealthy);
   * - `replace`: a new node with a new name replaces it (EKS).
   */
  action: "recreate" | "reboot" | "replace";
  /** the repaired node comes back under the same Node name (so its pods' bindings and its zone stay) */
  sameName: boolean;
  /** seconds from the action to the node Ready again (the platform's `bootToReady`, unless a reboot's estimate) */
  bootSeconds: number;
  /** taints under which the platform does not repair (AKS: a shut-down node) */
  skipTaints: readonly string[];
  /**
   * Further node conditions the repair watches besides Ready, each unhealthy when not True for its
   * own wait (EKS: the node monitoring agent's conditions). A node without the condition (no agent
   * installed) is not judged by it.
   */
  conditions?: readonly RepairCondition[];
  /**
   * When the platform starts no repair in a node group: more than `moreThanNodes` nodes in the group
   * (by `groupLabel`; nodes without it form one group) and more than `unhealthyFraction` of them
   * unhealthy. Repairs already under way go on.
   */
  pause?: { moreThanNodes: number; unhealthyFraction: number; groupLabel: string; source: string };
  /** the Kubernetes Event the platform records on the Node when it acts, if documented */
  event?: { reason: string; message: string; source: string };
  source: string;
}

export interface RepairCondition {
  type: string;
  afterSeconds: number;
  action: AutoRepair["action"];
}

export interface StorageClassDefault {
  name: string;
  provisioner: string;
  volumeBindingMode: "WaitForFirstConsumer" | "Immediate";
  /** the disk lives in one zone: a pod using it can only move within that zone */
  zonal: boolean;
  /** from this minor version on, a new cluster's class has no default annotation (EKS 1.30) */
  notDefaultFromMinor?: number;
  source: string;
}

export interface LoadBalancerDefaults {
  /** which load balancer a `type: LoadBalancer` Service gets */
  kind: string;
  healthCheckInterval: number;
  healthCheckTimeout: number;
  unhealthyThreshold: number;
  healthyThreshold: number;
  source: string;
}

/** The notice a spot (preemptible) instance gets before it is reclaimed. */
export interface SpotNotice {
  seconds: number;
  /**
   * What happens on the node during the notice: `drain` (cordon and evict through the Eviction API:
   * AWS Node Termination Handler, Karpenter), `graceful-shutdown` (the kubelet's, KEP-2000: its pods
   * end Failed), `none` (no handler: the instance just goes at the end).
   */
  action: "drain" | "graceful-shutdown" | "none";
  /** what acts on the notice on the node (drains it, or the kubelet's graceful shutdown) */
  handledBy: string;
  /** graceful-shutdown: the kubelet's KEP-2000 settings the platform gives its spot nodes */
  kubelet?: ShutdownConfig;
  source: string;
}

export interface AutoscalerDefaults {
  kind: "cluster-autoscaler" | "karpenter";
  /** --scan-interval (cluster-autoscaler), seconds */
  scanInterval: number;
  /** --max-node-provision-time, seconds */
  maxNodeProvisionTime: number;
  /** seconds from the scale-up decision to the new node Ready (the platform's `bootToReady`) */
  bootToReadySeconds: number;
  source: string;
}

/**
 * Seconds from a node's VM being asked for (a scale-up, a repair's re-creation) to the Node Ready,
 * and where the figure comes from: `documented` (the platform's or the autoscaler's own docs),
 * `measured` (a published measurement, named in `source`), `reported` (a figure stated in a public
 * answer, without its measurement), `estimate` (no source gives one: faultline's).
 */
export interface BootToReady {
  seconds: number;
  basis: "documented" | "measured" | "reported" | "estimate";
  source: string;
}

export interface Platform {
  name: PlatformName;
  title: string;
  /** spec.providerID's scheme on its Nodes (`aws://`, `gce://`, …) */
  providerIdScheme: string;
  /** the label naming a node's node group (node pool) */
  nodeGroupLabel: string;
  /** what the platform documents of its control plane's node-failure settings */
  controlPlaneNote: string;
  autoRepair?: AutoRepair;
  /** why there is no auto-repair, when there is none */
  noAutoRepair?: string;
  storageClass: StorageClassDefault;
  loadBalancer: LoadBalancerDefaults;
  spot: SpotNotice;
  /** a new or re-created node's boot to Ready: the autoscaler's and auto-repair's default */
  bootToReady: BootToReady;
  autoscaler: AutoscalerDefaults;
}
