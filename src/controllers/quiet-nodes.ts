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

//
// The powered-off nodes' passes too: a node whose Ready condition is already Unknown, that is already
// tainted node.kubernetes.io/unreachable:NoExecute and in its zone's queue's set, and whose Lease is
// renewed by no computed schedule, gives a pass nothing to do. tryUpdateNodeHealth finds the same
// heartbeat and renewTime (so the same probeTimestamp) and sets nothing Unknown again ("Unknown"
// already); processTaintBaseEviction's markNodeForTainting removes nothing (the taint is there) and
// its Add is a no-op (the value is in the set), so the node keeps its place in the queue. Such a node
// is dormant: its pass is one count of a not-Ready node in its zone's tally, until the Node is written
// (a status post, a taint, a cordon, its delete) or its Lease is (a renewal after power-on or a healed
// partition is a write: kubelet/node-lease.ts; so is a delete). A node waiting in the queue without
// its taint is not dormant: its pass's Remove and Add move it to the back.

import type { Cluster } from "../cluster/context.ts";
import { type LeaseSteadiness, leaseSteadiness } from "../cluster/lease-steadiness.ts";
import type { ConditionStatus, Node } from "../kubernetes/objects.ts";
import { hasTaint, TAINT_UNREACHABLE } from "../kubernetes/taints.ts";
import type { NodeHealth } from "./node-health.ts";
import type { RateLimitedTimedQueue } from "./rate-limited-queue.ts";

/** Margin between the longest renewal gap and the grace period (seconds): far above the grid's rounding. */
const GAP_MARGIN = 0.001;

/**
 * Whether quiet nodes' passes are skipped: always, but a test turns it off to check that the
 * skipped passes and the full ones give the same run, byte for byte.
 */
export const quietSkipping = { enabled: true };

/**
 * Whether dormant nodes' passes are skipped: always, but a test turns it off (as quietSkipping), and
 * counts the node passes skipped (`skipped`) to see that its scenarios have dormant nodes.
 */
export const dormantSkipping = { enabled: true, skipped: 0 };

export class QuietNodes {
  /** The times of the recent passes, oldest first: those a Lease's latest renewal can be first seen at. */
  private passes: number[] = [];
  private readonly leases: Map<string, LeaseSteadiness>;

  constructor(
    private readonly cluster: Cluster,
    /** the shorter of --node-monitor-grace-period and --node-startup-grace-period */
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
   * pass and its Lease (the one the pass read, or left unread) is on a schedule with gaps shorter
   * than the grace period.
   */
  maybeQuiet(h: NodeHealth, wake: (h: NodeHealth) => void): void {
    if (h.written || !h.lease || !quietSkipping.enabled) return;
    if (h.leaseUnread) {
      h.quiet = true;
      return;
    }
    const steady = this.leases.get(h.leaseKey);
    if (!steady || !(steady.steadyGap + GAP_MARGIN < this.grace)) return;
    if (!this.cluster.store.exists(h.lease)) return;
    h.quiet = true;
    h.leaseUnread = true;
    steady.onUnsteady = () => wake(h);
  }

  /**
   * After a full look at a node that found it Unknown before and after its update: dormant if it
   * has its unreachable:NoExecute taint, is in its zone's queue's set, nothing wrote it during the
   * pass, its Lease was read (not left unread on a schedule) and no computed schedule renews it.
   */
  maybeDormant(node: Node, h: NodeHealth, observed: ConditionStatus, queue: RateLimitedTimedQueue): void {
    if (observed !== "Unknown" || h.ready?.status !== "Unknown" || h.written || h.leaseUnread) return;
    if (!dormantSkipping.enabled) return;
    if (!hasTaint(node.spec.taints, TAINT_UNREACHABLE, "NoExecute")) return;
    if (!h.queued || !queue.has(node.metadata.name)) return;
    const steady = this.leases.get(h.leaseKey);
    if (steady && !Number.isNaN(steady.steadyGap)) return;
    h.dormant = true;
  }

  /**
   * A write to a quiet Node: the next pass looks at it in full (its Ready condition, its taints), its
   * Lease still unread while it stays on its schedule.
   */
  written(h: NodeHealth): void {
    h.quiet = false;
  }

  /** The node is forgotten (deleted): no word from its Lease any more. */
  forget(h: NodeHealth): void {
    h.quiet = false;
    if (!h.leaseUnread) return;
    h.leaseUnread = false;
    const steady = this.leases.get(h.leaseKey);
    if (steady) steady.onUnsteady = undefined;
  }

  /**
   * The Lease left its schedule (at its renewer's word, its renewals before now drawn, so reading
   * renewTime draws nothing): what the passes since it was last read saw of it. Its renewTime, if
   * newer than the last one read, was first seen at the first pass at or after it. If no pass ran
   * since that renewal, the next pass sees it and sets probeTimestamp to its own time, whatever the
   * renewal before it (the only Lease deleted under a live controller record is deleted with its
   * Node, faults.ts deleteNode, whose record is forgotten).
   */
  catchUp(h: NodeHealth): void {
    h.quiet = false;
    h.leaseUnread = false;
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
