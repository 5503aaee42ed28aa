// The simulation's event loop in milliseconds, on the engine's stable (time, sequence) heap
// (`src/engine/heap.ts`): events run in time order and simultaneous events in the order they were
// scheduled. Bounded: past `maxEvents` events it throws the engine's EventBudgetExceeded, never runs on.

import { EventBudgetExceeded } from "../engine/engine.ts";
import { StableHeap } from "../engine/heap.ts";

export class EventLoop {
  /** Events one run may process before EventBudgetExceeded; unbounded by default. */
  maxEvents = Number.POSITIVE_INFINITY;
  private readonly heap = new StableHeap<() => void>();
  private current = 0;
  private processed = 0;

  /** Current simulated time (ms). */
  get now(): number {
    return this.current;
  }

  /** Events run so far. */
  get eventsRun(): number {
    return this.processed;
  }

  get pending(): number {
    return this.heap.size;
  }

  /** Run `fn` at absolute time `atMs` (finite, not before now). */
  at(atMs: number, fn: () => void): void {
    if (!(atMs >= this.current && atMs < Number.POSITIVE_INFINITY)) {
      throw new RangeError(`cannot schedule at ${atMs}: before now (${this.current}) or not finite`);
    }
    this.heap.push(atMs, fn);
  }

  /** Run `fn` after `delayMs`. */
  after(delayMs: number, fn: () => void): void {
    this.at(this.current + delayMs, fn);
  }

  /** Run events until the queue is empty or the next event is after `untilMs`; time ends at `untilMs`. */
  run(untilMs: number): void {
    const heap = this.heap;
    while (heap.size > 0 && heap.peekTime() <= untilMs) {
      this.current = heap.peekTime();
      const fn = heap.pop()!;
      if (++this.processed > this.maxEvents) {
        throw new EventBudgetExceeded(this.maxEvents, this.current / 1000);
      }
      fn();
    }
    if (untilMs > this.current) this.current = untilMs;
  }
}
