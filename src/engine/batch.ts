// Many events of one kind at one instant, as one: a model that would queue an event per item (each
// node's kube-proxy syncing its rules) adds the item to the batch queued last instead, as long as
// it is for the same instant and nothing else was queued since. The items then run one after the
// other, in the order they were added, exactly where their own events would have run: those events
// would have held consecutive places in the (time, sequence) order, with nothing between them.
// Each item still runs as its own step of the model; only the engine's count of events is lower
// (one per batch).

import type { Engine } from "./engine.ts";

export class InstantBatches<T> {
  private items: T[] = [];
  /** the open batch's instant, and engine.queued once it or its last item was queued */
  private at = Number.NaN;
  private mark = -1;

  constructor(
    private readonly engine: Engine,
    private readonly run: (item: T) => void,
  ) {}

  /** Run `item` at `at` (never earlier than now), as `engine.at(at, () => run(item))` would. */
  add(at: number, item: T): void {
    const t = this.engine.instantOf(at);
    if (t === this.at && this.engine.queued === this.mark) {
      this.items.push(item);
      return;
    }
    const items = [item];
    this.items = items;
    this.at = t;
    // An item added while the batch runs (nothing queued since) runs at its end: where its own
    // event would, the next of the instant.
    this.engine.at(t, () => {
      for (const it of items) this.run(it);
    });
    this.mark = this.engine.queued;
  }
}
