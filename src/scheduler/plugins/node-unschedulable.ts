// NodeUnschedulable (pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go Filter):
// a node with spec.unschedulable (a cordon) is refused, UnschedulableAndUnresolvable, unless the pod
// tolerates the node.kubernetes.io/unschedulable:NoSchedule taint ("node(s) were unschedulable").

import type { SchedulerCache } from "../framework/cache.ts";
import type { FilterReasons } from "../framework/filter-reasons.ts";
import { slot } from "../framework/filter-reasons.ts";
import type { PodInfo } from "../framework/pod-info.ts";
import { type FilterCode, PASS, UNRESOLVABLE } from "../framework/status.ts";

export function nodeUnschedulableFilter(
  cache: SchedulerCache,
  row: number,
  info: PodInfo,
  reasons: FilterReasons,
): FilterCode {
  if (!cache.unschedulable[row] || info.toleratesUnschedulable) return PASS;
  reasons.add(slot("Unschedulable"));
  return UNRESOLVABLE;
}
