// The node lifecycle controller's pass costs per changed node. monitorNodeHealth
// (pkg/controller/nodelifecycle/node_lifecycle_controller.go) reads every node at every
// --node-monitor-period; for a node that is Ready, that nothing wrote since and whose kubelet renews its
// Lease on the computed schedule (cluster/lease-steadiness.ts), a pass changes nothing but the
// controller's probeTimestamp: tryUpdateNodeHealth sets it to the pass's time when it finds a newer
// spec.renewTime ("Always update the probe time if node lease is renewed"). No two renewals are more
// than `steadyGap` apart, so while that gap is shorter than --node-monitor-grace-period the node
// cannot cross it ("node ... hasn't been updated for ..."): such a node is quiet and its passes are
// skipped. When it wakes (a write to the Node, or its Lease leaving the schedule: a partition, a
// power-off, the kubelet stopped, the Lease deleted) the controller works out what the skipped passes
// would have seen: the latest renewal, first seen at the first pass at or after it (a computed
// renewal at a pass's instant is seen by it), so probeTimestamp is that pass's time.

import type { Cluster } from "../cluster/context.ts";
import { type LeaseSteadiness, leaseSteadiness } from "../cluster/lease-steadiness.ts";
import type { NodeHealth } from "./node-health.ts";

/** Margin between the longest renewal gap and the grace period (seconds): far above the grid's rounding. */
const GAP_MARGIN = 0.001;

/**
 * Whether quiet nodes' passes are skipped: always, but a test turns it off to check that the
 * skipped passes and the full ones give the same run, byte for byte.
 */
export const quietSkipping = { enabled: true };

export class QuietNodes {
  /** The times of the recent passes, oldest first: those a woken node's latest renewal can fall before. */
  private passes: number[] = [];
  private readonly leases: Map<string, LeaseSteadiness>;

  constructor(
    private readonly cluster: Cluster,
    /** --node-monitor-grace-period */
    private readonly grace: number,
    /** --node-monitor-period */
    private readonly period: number,
  ) {
    this.leases = leaseSteadiness(cluster.store);
  }

  /** A pass starts now: kept while a renewal a quiet node may wake with can be seen first by it. */
  pass(now: number): void {
    this.passes.push(now);
    const keep = now - this.grace - 2 * this.period;
    while (this.passes.length > 1 && this.passes[0]! < keep) this.passes.shift();
  }

  /**
   * After a full look at a node found it Ready and left it so: quiet if nothing wrote it during the
   * pass and its Lease (the one the pass read) is on a schedule with gaps shorter than the grace period.
   */
  maybeQuiet(h: NodeHealth, wake: (h: NodeHealth) => void): void {
    if (h.written || !h.lease || !quietSkipping.enabled) return;
    const steady = this.leases.get(h.leaseKey);
    if (!steady || !(steady.steadyGap + GAP_MARGIN < this.grace)) return;
    if (!this.cluster.store.exists(h.lease)) return;
    h.quiet = true;
    steady.onUnsteady = () => wake(h);
  }

  /** A write to a quiet Node: the next pass looks at it in full, after catching up (`woke`). */
  written(h: NodeHealth): void {
    if (!h.quiet) return;
    h.quiet = false;
    h.woke = true;
    const steady = this.leases.get(h.leaseKey);
    if (steady) steady.onUnsteady = undefined;
  }

  /** The node is forgotten (deleted): no word from its Lease any more. */
  forget(h: NodeHealth): void {
    if (!h.quiet) return;
    h.quiet = false;
    const steady = this.leases.get(h.leaseKey);
    if (steady) steady.onUnsteady = undefined;
  }

  /**
   * What the skipped passes saw of the Lease: its renewTime now (at a pass, or when it left the
   * schedule: no draw then), if newer than the last one seen, was first seen at the first pass at or
   * after it; none yet if no pass ran since.
   */
  catchUp(h: NodeHealth): void {
    h.quiet = false;
    h.woke = false;
    const lease = h.lease;
    if (!lease) return;
    const r = lease.spec.renewTime;
    if (!(r > h.leaseRenewTime)) return;
    for (const p of this.passes)
      if (p >= r) {
        h.leaseRenewTime = r;
        if (p > h.probeTimestamp) h.probeTimestamp = p;
        return;
      }
  }
}
