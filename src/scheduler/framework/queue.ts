// The scheduling queue (pkg/scheduler/backend/queue/scheduling_queue.go), as far as the model needs
// it: a pod that failed to schedule waits (the unschedulable pods), and a cluster event that may
// make it schedulable moves it back (moveAllToActiveOrBackoffQueue), to be tried once its backoff
// since its last attempt has run out: podInitialBackoffSeconds doubling per attempt to
// podMaxBackoffSeconds (kubernetes/scheduler-defaults.ts). The pods whose backoff ends at the same
// instant leave the queue in the QueueSort plugin's order (plugins/queue-sort.ts PrioritySort:
// higher priority first, then the earlier timestamp). A pod just created is tried at once.

import type { Engine, Timer } from "../../engine/engine.ts";
import { POD_INITIAL_BACKOFF_SECONDS, POD_MAX_BACKOFF_SECONDS } from "../../kubernetes/defaults.ts";
import type { Pod } from "../../kubernetes/objects.ts";
import { prioritySort } from "../plugins/queue-sort.ts";

export interface Waiting {
  pod: Pod;
  attempts: number;
  lastAttempt: number;
  timer: Timer | undefined;
  /** the last failure turned nodes down for pod (anti-)affinity or spreading: a newly bound pod may help */
  onPods: boolean;
}

export class SchedulingQueue {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly engine: Pick<Engine, "now" | "at" | "cancel">,
    private readonly schedule: (pod: Pod) => void,
  ) {}

  get(uid: string): Waiting | undefined {
    return this.waiting.get(uid);
  }

  /** The pod failed to schedule (again): it waits for an event. */
  unschedulable(uid: string, pod: Pod, attempts: number, onPods: boolean): void {
    this.waiting.set(uid, { pod, attempts, lastAttempt: this.engine.now, timer: undefined, onPods });
  }

  /** The pod was bound, deleted or is being deleted: it waits no more. */
  forget(uid: string): void {
    const w = this.waiting.get(uid);
    if (w) this.engine.cancel(w.timer);
    this.waiting.delete(uid);
  }

  retryAll(): void {
    this.retry(() => true);
  }

  /** A cluster event may make the waiting pods `which` selects schedulable: each is tried again after its backoff. */
  retry(which: (w: Waiting) => boolean): void {
    const now = this.engine.now;
    for (const w of this.waiting.values()) {
      if ((w.timer && !w.timer.cancelled) || !which(w)) continue;
      const backoff = Math.min(POD_INITIAL_BACKOFF_SECONDS * 2 ** (w.attempts - 1), POD_MAX_BACKOFF_SECONDS);
      w.timer = this.engine.at(Math.max(now, w.lastAttempt + backoff), () => this.pop(w));
    }
  }

  /**
   * `first`'s backoff ran out: it and every other pod due at this instant are popped, in the
   * QueueSort order, each tried in turn.
   */
  private pop(first: Waiting): void {
    const now = this.engine.now;
    const due = [first];
    for (const w of this.waiting.values())
      if (w !== first && w.timer && !w.timer.cancelled && w.timer.at === now) due.push(w);
    first.timer = undefined;
    if (due.length === 1) {
      this.schedule(first.pod);
      return;
    }
    due.sort(prioritySort);
    for (const w of due) {
      this.engine.cancel(w.timer);
      w.timer = undefined;
    }
    for (const w of due) if (this.waiting.get(w.pod.metadata.uid!) === w) this.schedule(w.pod);
  }
}
