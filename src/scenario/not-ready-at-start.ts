// A node of a cluster dump that was NotReady when dumped, as the scenario carries it (run/not-ready-at-start.ts
// starts it so): a type of its own, beside scenario/types.ts, which re-exports it.

import type { Taint } from "../kubernetes/objects.ts";

/**
 * A node of a cluster dump whose Ready condition was not True. Times are virtual seconds, the dump's
 * time being t=0 (so they are ≤ 0).
 */
export interface NotReadyAtStart {
  /** the Ready condition as dumped */
  ready: {
    status: "False" | "Unknown";
    reason?: string;
    message?: string;
    lastHeartbeatTime?: number;
    lastTransitionTime?: number;
  };
  /**
   * How the run keeps it NotReady, from what the dump supports: Ready=Unknown (the kubelet stopped
   * posting) → its machine is off; Ready=False (the kubelet posts NotReady) → its container runtime
   * is down, the one cause of a posted NotReady faultline models.
   */
  machine: "powered-off" | "runtime-down";
  /** the node lifecycle controller's taints (unreachable, not-ready) with their timeAdded */
  taints: Taint[];
  /** spec.renewTime of its Lease (kube-node-lease), when the dump holds it */
  leaseRenewTime?: number;
}
