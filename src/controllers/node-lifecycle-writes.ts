// The node lifecycle controller's writes of a Node (pkg/controller/nodelifecycle/
// node_lifecycle_controller.go): its conditions set Unknown when the kubelet went silent
// (tryUpdateNodeHealth, node-health.ts); each taint added or removed (controller.AddOrUpdateTaintOnNode,
// RemoveTaintOffNode), one write and one trace event each; and doNoScheduleTaintingPass, which keeps
// a node's NoSchedule taints in step with its conditions and spec.unschedulable on every change of
// the node, without a rate limit. When to write, and the NoExecute taints' per-zone queues, are the
// controller's (node-lifecycle-controller.ts).

import type { Cluster } from "../cluster/context.ts";
import { nodeRow } from "../kubernetes/kubectl.ts";
import type { Lease, Node, NodeCondition, Taint } from "../kubernetes/objects.ts";
import { NO_SCHEDULE_CONDITION_TAINTS, TAINT_UNSCHEDULABLE, taintString } from "../kubernetes/taints.ts";
import type { NodeTaintCause, NodeTaintRemovalCause } from "../trace/control-plane-events.ts";
import type { EventOf } from "../trace/events.ts";

/**
 * Conditions the controller sets to Unknown when the kubelet goes silent (NetworkUnavailable is left
 * alone): tryUpdateNodeHealth's nodeConditionTypes (pkg/controller/nodelifecycle/node_lifecycle_controller.go).
 */
export const CONDITIONS_SET_UNKNOWN = ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"];

/** The NoSchedule taints the controller manages: one per condition it maps, and unschedulable. */
const MANAGED_NO_SCHEDULE = [...NO_SCHEDULE_CONDITION_TAINTS.map(([, , key]) => key), TAINT_UNSCHEDULABLE];

/**
 * The kubelet went silent past its grace period: each condition not already Unknown becomes Unknown
 * ("Kubelet stopped posting node status."), a missing one is added ("Kubelet never posted node status.").
 * `lease`: the node's Lease as the pass found it (tryUpdateNodeHealth has it: no second lookup).
 */
export function setConditionsUnknown(
  cluster: Cluster,
  node: Node,
  now: number,
  why: Pick<EventOf<"NodeNotReady">, "flag" | "value" | "nodeMonitorPeriod" | "probeTimestamp">,
  lease: Lease | undefined,
): void {
  for (const type of CONDITIONS_SET_UNKNOWN) {
    const cond = node.status.conditions.find((c) => c.type === type);
    if (cond) {
      if (cond.status === "Unknown") continue;
      cond.status = "Unknown";
      cond.reason = "NodeStatusUnknown";
      cond.message = "Kubelet stopped posting node status.";
      cond.lastTransitionTime = now;
    } else {
      const created = node.metadata.creationTimestamp ?? now;
      node.status.conditions.push({
        type,
        status: "Unknown",
        reason: "NodeStatusNeverUpdated",
        message: "Kubelet never posted node status.",
        lastHeartbeatTime: created,
        lastTransitionTime: now,
      } satisfies NodeCondition);
    }
  }
  cluster.store.update(node);
  const ready = node.status.conditions.find((c) => c.type === "Ready");
  cluster.trace.emit({
    type: "NodeNotReady",
    lane: "control-plane",
    object: `Node/${node.metadata.name}`,
    node: node.metadata.name,
    status: "Unknown",
    reason: ready?.reason ?? "NodeStatusUnknown",
    conditionMessage: ready?.message ?? "Kubelet stopped posting node status.",
    flag: why.flag,
    value: why.value,
    nodeMonitorPeriod: why.nodeMonitorPeriod,
    probeTimestamp: why.probeTimestamp,
    ...(lease ? { leaseRenewTime: lease.spec.renewTime } : {}),
    nodeRow: nodeRow(node, now),
  });
}

export function addTaint(cluster: Cluster, node: Node, taint: Taint, cause: NodeTaintCause): void {
  node.spec.taints = [...(node.spec.taints ?? []), taint];
  cluster.store.update(node);
  cluster.trace.emit({
    type: "NodeTainted",
    lane: "control-plane",
    object: `Node/${node.metadata.name}`,
    node: node.metadata.name,
    taint: `${taint.key}:${taint.effect}`,
    taints: node.spec.taints.map(taintString),
    ...cause,
  });
}

/** Remove the node's taints of these keys with this effect; nothing is written when it has none. */
export function removeTaints(
  cluster: Cluster,
  node: Node,
  keys: readonly string[],
  effect: Taint["effect"],
  cause: NodeTaintRemovalCause,
  swappedFor?: string,
): void {
  const taints = node.spec.taints;
  if (!taints || !hasAny(taints, keys, effect)) return;
  const removed = taints.filter((t) => t.effect === effect && keys.includes(t.key));
  node.spec.taints = taints.filter((t) => !removed.includes(t));
  cluster.store.update(node);
  for (const t of removed) {
    cluster.trace.emit({
      type: "NodeTaintRemoved",
      lane: "control-plane",
      object: `Node/${node.metadata.name}`,
      node: node.metadata.name,
      taint: `${t.key}:${t.effect}`,
      by: "node-lifecycle-controller",
      cause,
      ...(swappedFor ? { swappedFor } : {}),
    });
  }
}

/** Whether some taint has one of the keys and the effect: a plain loop, as most passes find none (a healthy node). */
function hasAny(taints: readonly Taint[], keys: readonly string[], effect: Taint["effect"]): boolean {
  for (const t of taints) if (t.effect === effect && keys.includes(t.key)) return true;
  return false;
}

/** doNoScheduleTaintingPass: the NoSchedule taints the node's conditions and spec.unschedulable call for. */
export function doNoScheduleTaintingPass(cluster: Cluster, node: Node): void {
  if (!cluster.store.exists(node)) return;
  const status = (type: string) => node.status.conditions.find((c) => c.type === type)?.status;
  const want = NO_SCHEDULE_CONDITION_TAINTS.filter(([type, s]) => status(type) === s).map(([, , key]) => key);
  if (node.spec.unschedulable) want.push(TAINT_UNSCHEDULABLE);
  const have = (node.spec.taints ?? [])
    .filter((t) => t.effect === "NoSchedule" && MANAGED_NO_SCHEDULE.includes(t.key))
    .map((t) => t.key);
  const stale = have.filter((k) => !want.includes(k));
  if (stale.length > 0) removeTaints(cluster, node, stale, "NoSchedule", "condition-cleared");
  const ready = status("Ready");
  for (const key of want) {
    if (have.includes(key)) continue;
    const cause: NodeTaintCause =
      key === TAINT_UNSCHEDULABLE
        ? { by: "node-lifecycle-controller", cause: "unschedulable" }
        : { by: "node-lifecycle-controller", cause: "condition", ...(ready ? { ready } : {}) };
    addTaint(cluster, node, { key, effect: "NoSchedule", timeAdded: cluster.engine.now }, cause);
  }
}
