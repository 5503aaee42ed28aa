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
  /**
   * The current virtual time, seconds on the microsecond grid. Read-only from outside: it starts where
   * the constructor puts it and advances only as run() runs events (and reaches its `until`).
   */
  get now(): number {
    return this.clock;
  }
  private clock: number;
  /** How many events have run: the benchmark's unit of work. */
  processed = 0;
  /** Events one run may process before EventBudgetExceeded; unbounded by default. */
  maxEvents = Number.POSITIVE_INFINITY;
  /** Called every 4,096 events with the clock and the count (a terminal's progress line); models never set it. */
  onProgress: ((now: number, processed: number) => void) | undefined = undefined;
  readonly rng: Rng;
  private readonly heap = new StableHeap<Timer>();
  /**
   * The events scheduled for the current instant while the clock is on it (a watch notification,
   * a work queue's pass), in scheduling order: a list instead of the heap. They come after every
   * heap event of the same instant, all scheduled before the clock got there: the (time, sequence)
   * order is the heap's alone would be.
   */
  private current: Timer[] = [];
  private currentNext = 0;

  /** `startAt`: the clock's first reading (a run with a warm-up starts before t=0). */
  constructor(seed: number, startAt = 0) {
    this.rng = new Rng(seed);
    this.clock = quantize(startAt);
  }

  /** Run fn at absolute time `at` (never earlier than now), on the microsecond grid. */
  at(at: number, fn: () => void): Timer {
    const timer = { at: 0, cancelled: false, fn };
    this.queue(timer, at);
    return timer;
  }

  /**
   * Queue a timer that has run once more, at `at`, as `at(at, timer.fn)` would (same place among
   * the events of its instant): a loop that runs for the whole run re-arms its one timer instead of
   * making one per pass. Not for a timer still queued (cancelled or not): it would run twice.
   */
  rearm(timer: Timer, at: number): void {
    this.queue(timer, at);
  }

  /** The instant an event queued now for `at` runs at: on the grid, never before now. */
  instantOf(at: number): number {
    const t = quantize(at);
    // A time strictly after now stays strictly after now on the grid (a ticker's "next tick after
    // now" must not round back onto now and run again at the same instant).
    if (t <= this.clock) return at > this.clock ? quantize(this.clock + TICK) : this.clock;
    return t;
  }

  /**
   * How many times an event has been queued (at, after, rearm): work added to an event queued when
   * this read n runs where its own event would have, as long as this still reads n (batch.ts).
   */
  get queued(): number {
    return this.queuedCount;
  }
  private queuedCount = 0;

  private queue(timer: { at: number; cancelled: boolean }, at: number): void {
    this.queuedCount++;
    const t = this.instantOf(at);
    timer.at = t;
    timer.cancelled = false;
    if (t === this.clock) this.current.push(timer as Timer);
    else this.heap.push(t, timer as Timer);
  }

  /** Run fn `delay` seconds from now. */
  after(delay: number, fn: () => void): Timer {
    return this.at(this.clock + delay, fn);
  }

  /** Seconds since `t`, on the grid: the one way models ask whether a delay has passed. */
  since(t: number): number {
    return elapsed(this.clock, t);
  }

  cancel(timer: Timer | undefined): void {
    if (timer) timer.cancelled = true;
  }

  /**
   * Whether `timer` is the last event scheduled for this instant so far and has not run: work its
   * owner adds to it runs exactly where an event scheduled now would (the store's watch deliveries).
   */
  lastOfInstant(timer: Timer): boolean {
    const current = this.current;
    return current.length > this.currentNext && current[current.length - 1] === timer;
  }

  get pending(): number {
    return this.heap.size + this.current.length - this.currentNext;
  }

  /** The time of the next queued event (cancelled ones included), or +Infinity. */
  nextAt(): number {
    return this.currentNext < this.current.length ? this.clock : this.heap.peekTime();
  }

  /** The next event due by `end`: the heap's of this instant, then this instant's list, then the heap's. */
  private next(end: number): Timer | undefined {
    const heap = this.heap;
    const t = heap.peekTime();
    if (t <= this.clock && t <= end) return heap.pop();
    const current = this.current;
    if (this.currentNext < current.length) {
      if (this.clock > end) return undefined;
      const timer = current[this.currentNext++]!;
      if (this.currentNext === current.length) {
        current.length = 0;
        this.currentNext = 0;
      }
      return timer;
    }
    return t <= end ? heap.pop() : undefined;
  }

  /** Run every event up to and including time `until`; the clock ends at `until`. */
  run(until: number): void {
    const end = quantize(until);
    for (let top = this.next(end); top !== undefined; top = this.next(end)) {
      if (top.cancelled) continue;
      this.clock = top.at;
      if (++this.processed > this.maxEvents) throw new EventBudgetExceeded(this.maxEvents, this.clock);
      if ((this.processed & 0xfff) === 0) this.onProgress?.(this.clock, this.processed);
      top.fn();
    }
    if (end > this.clock) this.clock = end;
  }
}
