// Which Node updates move the waiting pods back to be tried: kube-scheduler's Node update handler
// (pkg/scheduler/eventhandlers.go updateNodeInCache) requeues the unschedulable pods once per
// event NodeSchedulingPropertiesChange(newNode, oldNode) finds (pkg/scheduler/framework/events.go
// in 1.31 and later; nodeSchedulingPropertiesChange in eventhandlers.go in 1.28–1.30, the same six
// checks): none found, none moved. The checks: spec.unschedulable turned false (an uncordon; a
// cordon makes nothing schedulable), status.allocatable, metadata.labels, spec.taints, the
// conditions' status per type (their lastHeartbeatTime, lastTransitionTime, reason and message
// stripped), metadata.annotations. So a kubelet's status post that only renews the conditions'
// lastHeartbeatTime (kubelet_node_status.go tryUpdateNodeStatus) requeues nothing, in every
// version the model runs (1.28 on). Not modelled: the plugins' QueueingHints (SchedulerQueueingHints,
// on by default from 1.32), which may skip a pod for an event that cannot help it; every event
// found here moves every waiting pod, as with the hints off.

import type { Node, NodeCondition, ResourceList, Taint } from "../../kubernetes/objects.ts";

/**
 * What NodeSchedulingPropertiesChange compares of a node, copied as the scheduler last saw it (the
 * informer's old object; the model's writers change the Node in place). Compared field by field
 * with no copy while nothing changed: a status post costs a few reads, not a new snapshot.
 */
export interface NodeProperties {
  unschedulable: boolean;
  allocatable: ResourceList;
  labels: Record<string, string>;
  taints: Taint[];
  /** strip: each condition's type and status only */
  conditions: Pick<NodeCondition, "type" | "status">[];
  annotations: Record<string, string>;
}

export function nodeProperties(node: Node): NodeProperties {
  const a = node.status.allocatable;
  return {
    unschedulable: node.spec.unschedulable === true,
    allocatable: { ...a, ...(a.scalar ? { scalar: { ...a.scalar } } : {}) },
    labels: { ...node.metadata.labels },
    taints: (node.spec.taints ?? []).map((t) => ({ ...t })),
    conditions: node.status.conditions.map((c) => ({ type: c.type, status: c.status })),
    annotations: { ...node.metadata.annotations },
  };
}

/** Whether the update from `before` to `node` is an event that moves the waiting pods. */
export function nodeUpdateRequeues(before: NodeProperties, node: Node): boolean {
  if (before.unschedulable && node.spec.unschedulable !== true) return true;
  return !sameProperties(before, node);
}

/** Everything but spec.unschedulable as in `before` (equality.Semantic.DeepEqual, maps by key). */
export function sameProperties(before: NodeProperties, node: Node): boolean {
  const a = node.status.allocatable;
  const b = before.allocatable;
  if (a.cpu !== b.cpu || a.memory !== b.memory || a.pods !== b.pods) return false;
  if (!sameMap(b.scalar ?? {}, a.scalar ?? {}) || (a.scalar === undefined) !== (b.scalar === undefined))
    return false;
  if (!sameMap(before.labels, node.metadata.labels ?? {})) return false;
  if (!sameMap(before.annotations, node.metadata.annotations ?? {})) return false;
  const taints = node.spec.taints ?? [];
  if (taints.length !== before.taints.length) return false;
  for (let i = 0; i < taints.length; i++) {
    const t = taints[i]!;
    const o = before.taints[i]!;
    if (t.key !== o.key || t.value !== o.value || t.effect !== o.effect || t.timeAdded !== o.timeAdded)
      return false;
  }
  return sameConditions(before.conditions, node.status.conditions);
}

/** strip(old) and strip(new) equal: the same status per condition type, in any order. */
function sameConditions(before: NodeProperties["conditions"], now: readonly NodeCondition[]): boolean {
  if (before.length !== now.length) return false;
  for (let i = 0; i < now.length; i++) {
    const c = now[i]!;
    const o = before[i]!.type === c.type ? before[i] : before.find((x) => x.type === c.type);
    if (!o || o.status !== c.status) return false;
  }
  return true;
}

function sameMap<V>(a: Readonly<Record<string, V>>, b: Readonly<Record<string, V>>): boolean {
  let n = 0;
  for (const k in a) {
    if (a[k] !== b[k] || !(k in b)) return false;
    n++;
  }
  for (const _ in b) n--;
  return n === 0;
}
