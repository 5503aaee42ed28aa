// The virtual clock and its event queue. Knows nothing of Kubernetes.
//
// Time is in seconds, on a one-microsecond grid (time.ts): every scheduled time is quantized, so
// two components that compute the same instant by different sums meet at the same time, and a
// deadline `start + delay` is never found short of `delay` by rounding. Events run in
// (time, sequence) order (heap.ts): simultaneous events keep their scheduling order.
//
// Every run is bounded: `maxEvents` caps the events one run may process; going past it throws
// EventBudgetExceeded instead of running on (a livelock, or a scenario larger than its estimate).

import { StableHeap } from "./heap.ts";
import { Rng } from "./rng.ts";
import { elapsed, quantize, TICK } from "./time.ts";

export interface Timer {
  readonly at: number;
  cancelled: boolean;
  readonly fn: () => void;
}

/** A run went past its event budget: the caller turns this into a message (never a hang). */
export class EventBudgetExceeded extends Error {
  constructor(
    readonly maxEvents: number,
    readonly at: number,
  ) {
    super(`the run went past its budget of ${maxEvents} engine events (at t=${at}s)`);
  }
}

export class Engine {
  /** The current virtual time, seconds on the microsecond grid. */
  now = 0;
  /** How many events have run: the benchmark's unit of work. */
  processed = 0;
  /** Events one run may process before EventBudgetExceeded; unbounded by default. */
  maxEvents = Number.POSITIVE_INFINITY;
  /** Called every 4,096 events with the clock and the count (a terminal's progress line); models never set it. */
  onProgress: ((now: number, processed: number) => void) | undefined = undefined;
  readonly rng: Rng;
  private readonly heap = new StableHeap<Timer>();

  constructor(seed: number) {
    this.rng = new Rng(seed);
  }

  /** Run fn at absolute time `at` (never earlier than now), on the microsecond grid. */
  at(at: number, fn: () => void): Timer {
    let t = quantize(at);
    // A time strictly after now stays strictly after now on the grid (a ticker's "next tick after
    // now" must not round back onto now and run again at the same instant).
    if (t <= this.now) t = at > this.now ? quantize(this.now + TICK) : this.now;
    const timer: Timer = { at: t, cancelled: false, fn };
    this.heap.push(t, timer);
    return timer;
  }

  /** Run fn `delay` seconds from now. */
  after(delay: number, fn: () => void): Timer {
    return this.at(this.now + delay, fn);
  }

  /** Seconds since `t`, on the grid: the one way models ask whether a delay has passed. */
  since(t: number): number {
    return elapsed(this.now, t);
  }

  cancel(timer: Timer | undefined): void {
    if (timer) timer.cancelled = true;
  }

  get pending(): number {
    return this.heap.size;
  }

  /** The time of the next queued event (cancelled ones included), or +Infinity. */
  nextAt(): number {
    return this.heap.peekTime();
  }

  /** Run every event up to and including time `until`; the clock ends at `until`. */
  run(until: number): void {
    const heap = this.heap;
    const end = quantize(until);
    while (heap.size > 0 && heap.peekTime() <= end) {
      const top = heap.pop()!;
      if (top.cancelled) continue;
      this.now = top.at;
      if (++this.processed > this.maxEvents) throw new EventBudgetExceeded(this.maxEvents, this.now);
      if ((this.processed & 0xfff) === 0) this.onProgress?.(this.now, this.processed);
      top.fn();
    }
    if (end > this.now) this.now = end;
  }
}
