// The virtual clock and its event queue. Knows nothing of Kubernetes.
//
// Time is in seconds (a float). Events run in (time, sequence) order: a binary min-heap keyed by
// time, ties broken by the order in which they were scheduled, so simultaneous events keep their
// scheduling order (a plain heap is not stable; see mourner/flatqueue's note on equal priorities).

import { Rng } from "./rng.ts";

export interface Timer {
  readonly at: number;
  readonly seq: number;
  cancelled: boolean;
  readonly fn: () => void;
}

export class Engine {
  now = 0;
  /** How many events have run: the benchmark's unit of work. */
  processed = 0;
  readonly rng: Rng;
  private heap: Timer[] = [];
  private seq = 0;

  constructor(seed: number) {
    this.rng = new Rng(seed);
  }

  /** Run fn at absolute time `at` (never earlier than now). */
  at(at: number, fn: () => void): Timer {
    const timer: Timer = { at: Math.max(at, this.now), seq: this.seq++, cancelled: false, fn };
    this.push(timer);
    return timer;
  }

  /** Run fn `delay` seconds from now. */
  after(delay: number, fn: () => void): Timer {
    return this.at(this.now + delay, fn);
  }

  cancel(timer: Timer | undefined): void {
    if (timer) timer.cancelled = true;
  }

  get pending(): number {
    return this.heap.length;
  }

  /** Run every event up to and including time `until`; the clock ends at `until`. */
  run(until: number): void {
    const heap = this.heap;
    while (heap.length > 0) {
      const top = heap[0]!;
      if (top.at > until) break;
      this.pop();
      if (top.cancelled) continue;
      this.now = top.at;
      this.processed++;
      top.fn();
    }
    this.now = until;
  }

  private less(a: Timer, b: Timer): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private push(timer: Timer): void {
    const heap = this.heap;
    let i = heap.length;
    heap.push(timer);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent]!;
      if (!this.less(timer, p)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = timer;
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    let i = 0;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.less(heap[r]!, heap[l]!) ? r : l;
      if (!this.less(heap[c]!, last)) break;
      heap[i] = heap[c]!;
      i = c;
    }
    heap[i] = last;
  }
}
