// A controller's work queue (client-go util/workqueue): a key added several times before it is
// processed is processed once, after the events of the current instant that queued it.

import type { Engine } from "../engine/engine.ts";

export class WorkQueue {
  private pending = new Set<string>();

  constructor(
    private readonly engine: Engine,
    private readonly process: (key: string) => void,
  ) {}

  add(key: string): void {
    if (this.pending.has(key)) return;
    this.pending.add(key);
    this.engine.after(0, () => {
      this.pending.delete(key);
      this.process(key);
    });
  }
}
