// The scheduling queue (pkg/scheduler/backend/queue/scheduling_queue.go), as far as the model needs
// it: a pod that failed to schedule waits (the unschedulable pods), and a cluster event that may
// make it schedulable moves it back (moveAllToActiveOrBackoffQueue), to be tried once its backoff
// since its last attempt has run out: podInitialBackoffSeconds doubling per attempt to
// podMaxBackoffSeconds (kubernetes/scheduler-defaults.ts).

import type { Engine, Timer } from "../../engine/engine.ts";
import { POD_INITIAL_BACKOFF_SECONDS, POD_MAX_BACKOFF_SECONDS } from "../../kubernetes/defaults.ts";
import type { Pod } from "../../kubernetes/objects.ts";

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
      w.timer = this.engine.at(Math.max(now, w.lastAttempt + backoff), () => {
        w.timer = undefined;
        this.schedule(w.pod);
      });
    }
  }
}
