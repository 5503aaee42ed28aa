// Events of kube-scheduler, and of the volume binding it waits on (the PersistentVolume controller
// and the external provisioner). Fields only; report/messages/scheduling.ts writes the prose.

import type { PodRow } from "../kubernetes/kubectl.ts";

/**
 * Why a filter plugin turned a node down, one code per reason kube-scheduler writes (the plugin
 * that writes it in parentheses; report/messages/scheduling.ts has the words and their sources).
 */
export type FilterReason =
  /** NodeUnschedulable: spec.unschedulable (a cordon) without the toleration */
  | "Unschedulable"
  /** TaintToleration: a NoSchedule or NoExecute taint the pod does not tolerate (`taint`) */
  | "UntoleratedTaint"
  /** NodeAffinity: nodeSelector or required node affinity */
  | "NodeAffinity"
  /** NodePorts: a host port the pod wants is in use on the node */
  | "NodePorts"
  /** NodeResourcesFit */
  | "TooManyPods"
  | "InsufficientCPU"
  | "InsufficientMemory"
  /** NodeResourcesFit: any other resource (`resource`: ephemeral-storage, hugepages-2Mi, nvidia.com/gpu…) */
  | "InsufficientResource"
  /** VolumeBinding: a bound volume's node affinity excludes the node */
  | "VolumeNodeAffinityConflict"
  /** VolumeBinding: no PersistentVolume to bind and none can be provisioned for this node */
  | "VolumeBindConflict"
  /** VolumeBinding: a claim is bound to a PersistentVolume that does not exist */
  | "VolumePVNotExist"
  /** VolumeZone: a bound volume's zone labels exclude the node */
  | "VolumeZoneConflict"
  /** PodTopologySpread: the skew would exceed maxSkew */
  | "TopologySpread"
  /** PodTopologySpread: the node lacks a constraint's topologyKey */
  | "TopologySpreadMissingLabel"
  /** InterPodAffinity: required pod affinity */
  | "PodAffinity"
  /** InterPodAffinity: the pod's required anti-affinity */
  | "PodAntiAffinity"
  /** InterPodAffinity: a pod already there has required anti-affinity against this one */
  | "ExistingPodsAntiAffinity";

/** How many of the nodes checked failed for one reason. */
export interface FilterCount {
  reason: FilterReason;
  nodes: number;
  /** the untolerated taint, for UntoleratedTaint */
  taint?: { key: string; value: string };
  /** the resource's name, for InsufficientResource */
  resource?: string;
}

/** What DefaultPreemption found for a pod no node passes (see FailedScheduling). */
export interface PreemptionVerdict {
  notHelpful: number;
  noVictims: number;
  unfit?: FilterCount[];
  notEligible?: string;
  nominated?: { node: string; victims: string[] };
}

/** Why the scheduling cycle stopped before the filters (a PreFilter plugin's verdict). */
export type PreFilterFailure =
  /** VolumeBinding: the pod mounts a claim that does not exist */
  | { reason: "ClaimNotFound"; claim: string }
  /** VolumeBinding: a claim of an Immediate class (or no class) is not bound yet */
  | { reason: "UnboundImmediateClaims" };

/** The pod as `kubectl get pod -o wide` shows it at the event. */
export interface PodRowFields {
  podRow: PodRow;
}

export interface SchedulingEventFields {
  PodScheduled: PodRowFields &
    (
      | {
          by: "scheduler";
          /** nodes in the cluster */
          nodes: number;
          /** nodes the filters looked at (the walk stops at numFeasibleNodesToFind) */
          checked: number;
          /** numFeasibleNodesToFind, when the walk stopped before the last node */
          stoppedAt?: number;
          /** nodes that passed every filter */
          feasible: number;
          /** the nodes turned down, in the order the walk first met each reason */
          filtered: FilterCount[];
          /** the pod's controller (`ReplicaSet/<ns>/<name>`), whose pods the default spreading counts */
          owner?: string;
          /** the attempt that succeeded, when earlier ones failed (the scheduling queue's backoff) */
          attempt?: number;
          /** claims bound in this cycle (PreBind), as `<ns>/<claim>` */
          boundClaims?: string[];
        }
      /** The DaemonSet controller places its pods itself (node affinity metadata.name = node). */
      | { by: "daemonset-controller" }
    );
  FailedScheduling: PodRowFields & {
    /** nodes in the cluster */
    nodes: number;
    /** a PreFilter plugin rejected the pod before any node was filtered */
    preFilter?: PreFilterFailure;
    /** per reason, the nodes turned down (every node is checked when none passes) */
    filtered: FilterCount[];
    /**
     * DefaultPreemption's PostFilter (plugins/default-preemption.ts): per node, preemption cannot help
     * (the node was UnschedulableAndUnresolvable), finds no lower-priority pod there, or the pod
     * does not fit even without them (`unfit`, the filters' reasons then); or the pod may not
     * preempt (`notEligible`, PodEligibleToPreemptOthers's words); or victims were chosen on
     * `nominated` (then the FitError has no preemption sentence).
     */
    preemption: PreemptionVerdict;
    /** the pod's bound claims and the zone of each one's volume (its node affinity), if it has one */
    volumes?: { claim: string; zone?: string }[];
  };
  /** The external provisioner created a PersistentVolume for a claim; the PV controller bound them. */
  ProvisioningSucceeded: {
    volume: string;
    storageClass: string;
    /** the class was not in the scenario: the managed clouds' default was assumed */
    assumedClass: boolean;
    /** the zone the volume was created in (its node affinity), if the nodes have zones */
    zone?: string;
    /** WaitForFirstConsumer: the node the scheduler chose for the first pod (volume.kubernetes.io/selected-node) */
    selectedNode?: string;
  };
  /** The PV controller bound a claim to an existing PersistentVolume. */
  ClaimBound: { volume: string };
  /**
   * An Immediate claim that no PersistentVolume matches and nothing provisions: its class does not
   * exist (ProvisioningFailed), it has no class (FailedBinding), or its class names a provisioner
   * that never comes, such as kubernetes.io/no-provisioner (ExternalProvisioning).
   */
  ClaimPending:
    | { cause: "StorageClassNotFound"; storageClass: string }
    | { cause: "NoStorageClass" }
    | { cause: "ExternalProvisioner"; provisioner: string };
}
