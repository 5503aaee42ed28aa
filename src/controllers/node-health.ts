// What the node lifecycle controller knows of each node's health (pkg/controller/nodelifecycle/
// node_lifecycle_controller.go: nodeHealthData, tryUpdateNodeHealth): when it last saw a sign of
// life (a new heartbeat in the Node's status or a renewed Lease), and, past the grace period
// without one, the node's conditions set to Unknown.
//
// It runs for every node at every pass, so a healthy node costs a few reads: its zone and exclusion
// are read once at first sight (the labels a node registers with are never changed), its Ready
// condition and its Lease are the objects found at the last pass while they are still the API's
// (the Ready condition without a look at the Node if nothing wrote it since: `written`, `settled`).

import type { Cluster } from "../cluster/context.ts";
import { leaseSteadiness } from "../cluster/lease-steadiness.ts";
import type { ControlPlaneSettings } from "../kubernetes/defaults.ts";
import { LABEL_EXCLUDE_DISRUPTION, zoneKey } from "../kubernetes/labels.ts";
import type { ConditionStatus, Lease, Node, NodeCondition } from "../kubernetes/objects.ts";
import { setConditionsUnknown } from "./node-lifecycle-writes.ts";
import type { ZoneTally } from "./zone-state.ts";

/** nodeHealthData: what the controller last saw of a node. */
export interface NodeHealth {
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  /** Ready's lastHeartbeatTime in the status last seen */
  lastHeartbeat: number | undefined;
  /** spec.renewTime of the Lease last seen; -Infinity before the first (a number always: no box per pass) */
  leaseRenewTime: number;
  /** the node's Lease, `kube-node-lease/<node>` (one string per node, not one per pass) */
  leaseKey: string;
  /** the Lease object last found under leaseKey */
  lease: Lease | undefined;
  /** zoneKey of the node's labels */
  zone: string;
  /** its zone's count at the pass under way (the controller's, one object per zone) */
  tally: ZoneTally | undefined;
  /** isNodeExcludedFromDisruptionChecks */
  excluded: boolean;
  /** added to its zone's NoExecute tainting queue and not removed since (the controller's Add and Remove) */
  queued: boolean;
  /** the Node was written since a pass last read it */
  written: boolean;
  /** that pass found it Ready, before and after its update, and so removed its NoExecute taints and dequeued it */
  settled: boolean;
  /**
   * Skipped by the passes: settled, not written since, its Lease on a computed schedule whose gaps
   * are shorter than the grace period (node-lifecycle-controller.ts, skipSteady)
   */
  quiet: boolean;
  /**
   * Its Lease is on the computed schedule and not read since it went quiet: fresh, so passes do not
   * read it (leaseRenewTime and the lease's part of probeTimestamp are worked out when it leaves the schedule)
   */
  leaseUnread: boolean;
  /**
   * Its Lease (or its absence) as last read is still the API's: no computed schedule renews it and
   * nothing wrote it since (a Lease write clears this), so a pass need not read it again
   */
  leaseSilent: boolean;
  /**
   * Skipped by the passes: Unknown, already tainted unreachable:NoExecute and in its zone's queue's
   * set, its Lease off any computed schedule; a pass would find the same and change nothing until
   * the Node or its Lease is written (quiet-nodes.ts, maybeDormant)
   */
  dormant: boolean;
  /** status.conditions as last seen, and its Ready condition */
  conditions: NodeCondition[] | undefined;
  ready: NodeCondition | undefined;
}

/**
 * Whether a silent Lease's reads are skipped: always, but a test turns it off to check that the
 * skipped reads and the full ones give the same run, byte for byte.
 */
export const silentLeases = { enabled: true };

/** The grace periods, and the monitor's period the NodeNotReady event cites. */
export type HealthSettings = Pick<
  ControlPlaneSettings,
  "nodeMonitorPeriod" | "nodeMonitorGracePeriod" | "nodeStartupGracePeriod"
>;

/** First sight: "Assuming now as a timestamp" (or creationTimestamp without a Ready condition). */
export function firstSight(node: Node, now: number): NodeHealth {
  const ready = node.status.conditions.find((c) => c.type === "Ready");
  return {
    probeTimestamp: ready ? now : (node.metadata.creationTimestamp ?? now),
    readyTransitionTimestamp: now,
    lastHeartbeat: ready?.lastHeartbeatTime,
    leaseRenewTime: Number.NEGATIVE_INFINITY,
    leaseKey: `kube-node-lease/${node.metadata.name}`,
    lease: undefined,
    zone: zoneKey(node),
    tally: undefined,
    // isNodeExcludedFromDisruptionChecks (node_lifecycle_controller.go): `_, ok := node.Labels[…]`,
    // so the label's presence excludes the node, whatever its value (an empty one too).
    excluded: Object.hasOwn(node.metadata.labels ?? {}, LABEL_EXCLUDE_DISRUPTION),
    queued: false,
    written: true,
    settled: false,
    quiet: false,
    leaseUnread: false,
    leaseSilent: false,
    dormant: false,
    conditions: undefined,
    ready: undefined,
  };
}

/**
 * The node's Ready condition: the one found at the last pass while status.conditions is the same
 * array (the kubelet posts a new array; the controller only appends the types missing from it;
 * nothing reorders one or changes a condition's type), else the first one of its type.
 */
export function readyOf(node: Node, h: NodeHealth): NodeCondition | undefined {
  const conditions = node.status.conditions;
  if (conditions !== h.conditions || h.ready === undefined) {
    h.conditions = conditions;
    h.ready = undefined;
    for (const c of conditions)
      if (c.type === "Ready") {
        h.ready = c;
        break;
      }
  }
  return h.ready;
}

/**
 * tryUpdateNodeHealth, for the node's Ready condition as this pass found it (`ready`, undefined if
 * it has none): returns the Ready status after the pass.
 */
export function tryUpdateNodeHealth(
  cluster: Cluster,
  settings: HealthSettings,
  node: Node,
  h: NodeHealth,
  ready: NodeCondition | undefined,
): ConditionStatus {
  const now = cluster.engine.now;
  if (ready?.lastHeartbeatTime !== h.lastHeartbeat) {
    h.lastHeartbeat = ready?.lastHeartbeatTime;
    h.probeTimestamp = now;
  }
  // "Always update the probe time if node lease is renewed." The lister's Lease: the one last
  // found while it is still stored (a pointer, not a lookup by key at every pass), else by key.
  // Not read while it renews on its schedule (quiet-nodes.ts): no grace period can pass then, and
  // probeTimestamp, which only that check reads, is worked out when the Lease leaves the schedule.
  // Nor read again while it is silent: off any computed schedule and not written since it was read
  // (its renewTime moves only with a write then, and the write clears `leaseSilent`).
  let lease = h.lease;
  if (h.leaseUnread) return ready?.status ?? "Unknown";
  if (!h.leaseSilent) {
    if (!lease || !cluster.store.exists(lease)) {
      lease = cluster.store.get("Lease", h.leaseKey);
      h.lease = lease;
    }
    if (lease && lease.spec.renewTime > h.leaseRenewTime) {
      h.leaseRenewTime = lease.spec.renewTime;
      h.probeTimestamp = now;
    }
    const steady = leaseSteadiness(cluster.store).get(h.leaseKey);
    h.leaseSilent = silentLeases.enabled && !(steady && !Number.isNaN(steady.steadyGap));
  }
  const grace = ready ? settings.nodeMonitorGracePeriod : settings.nodeStartupGracePeriod;
  // Strictly after (Go time.After): at exactly probeTimestamp + grace nothing happens.
  if (cluster.engine.since(h.probeTimestamp) > grace && ready?.status !== "Unknown") {
    h.readyTransitionTimestamp = now;
    setConditionsUnknown(
      cluster,
      node,
      now,
      {
        flag: ready ? "node-monitor-grace-period" : "node-startup-grace-period",
        value: grace,
        nodeMonitorPeriod: settings.nodeMonitorPeriod,
        probeTimestamp: h.probeTimestamp,
      },
      lease,
    );
    return "Unknown";
  }
  return ready?.status ?? "Unknown";
}
