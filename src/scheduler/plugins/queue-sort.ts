// PrioritySort, the default QueueSort plugin (pkg/scheduler/framework/plugins/queuesort/priority_sort.go
// Less): of two pods in the scheduling queue, the one with the higher priority
// (corev1helpers.PodPriority: spec.priority, 0 without) goes first; at equal priority, the one with
// the earlier timestamp (QueuedPodInfo.Timestamp: when it was last put back in the queue, its last
// failed attempt here). Equal on both, the model keeps the order they were queued in (the heap
// there does not promise one).

import type { Pod } from "../../kubernetes/objects.ts";
import { podPriority } from "../../kubernetes/priority.ts";

/** A pod in the queue: QueuedPodInfo's pod and timestamp. */
export interface Queued {
  pod: Pod;
  lastAttempt: number;
}

/** Less(pInfo1, pInfo2): whether `a` is popped before `b`. */
export function prioritySortLess(a: Queued, b: Queued): boolean {
  const pa = podPriority(a.pod);
  const pb = podPriority(b.pod);
  return pa > pb || (pa === pb && a.lastAttempt < b.lastAttempt);
}

/** A comparator from Less, for a stable sort. */
export function prioritySort(a: Queued, b: Queued): number {
  return prioritySortLess(a, b) ? -1 : prioritySortLess(b, a) ? 1 : 0;
}
