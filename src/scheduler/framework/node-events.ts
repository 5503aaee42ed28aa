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

import type { Node } from "../../kubernetes/objects.ts";

/** What NodeSchedulingPropertiesChange compares of a node, as last seen by the scheduler. */
export interface NodeProperties {
  unschedulable: boolean;
  /** allocatable, labels, taints, the conditions' statuses and the annotations, as one string */
  rest: string;
}

export function nodeProperties(node: Node): NodeProperties {
  let rest = "";
  const a = node.status.allocatable;
  for (const k of Object.keys(a).sort()) rest += `${k}=${JSON.stringify(a[k as keyof typeof a])},`;
  rest += "|";
  const labels = node.metadata.labels ?? {};
  for (const k of Object.keys(labels).sort()) rest += `${k}=${labels[k]},`;
  rest += "|";
  for (const t of node.spec.taints ?? [])
    rest += `${t.key}=${t.value ?? ""}:${t.effect}@${t.timeAdded ?? ""},`;
  rest += "|";
  // strip: a map of type to status, so the order of the conditions does not count
  const conditions = node.status.conditions.map((c) => `${c.type}=${c.status}`).sort();
  rest += conditions.join(",");
  rest += "|";
  const ann = node.metadata.annotations ?? {};
  for (const k of Object.keys(ann).sort()) rest += `${k}=${ann[k]},`;
  return { unschedulable: node.spec.unschedulable === true, rest };
}

/** Whether the update from `before` to `after` is an event that moves the waiting pods. */
export function nodeUpdateRequeues(before: NodeProperties, after: NodeProperties): boolean {
  if (before.unschedulable && !after.unschedulable) return true;
  return before.rest !== after.rest;
}
