// Each client's connection slots ordered by when they are free again, earliest first (ties: the
// lower slot), so a request takes "the connection that frees first" in O(log pool), not a scan of
// the pool: a caller that opens connections on demand can hold thousands (Little's law: rate ×
// timeout) while a pod hangs. Client c's heap lives in [c × pool, (c + 1) × pool) of `heap`.

export class SlotHeap {
  /** heap position → slot */
  private readonly heap: Int32Array;
  /** slot → heap position */
  private readonly pos: Int32Array;

  constructor(
    clients: number,
    private readonly pool: number,
    private readonly free: Float64Array,
  ) {
    // Every slot starts free at -∞: slot order is a valid heap.
    this.heap = Int32Array.from({ length: clients * pool }, (_, i) => i);
    this.pos = Int32Array.from({ length: clients * pool }, (_, i) => i);
  }

  /** Client c's slot that frees first. */
  first(c: number): number {
    return this.heap[c * this.pool]!;
  }

  /** Slot k's free time changed: restore the order of its client's heap. */
  update(k: number): void {
    const base = Math.floor(k / this.pool) * this.pool;
    let i = this.pos[k]!;
    // up
    while (i > base) {
      const parent = base + ((i - base - 1) >> 1);
      if (!this.before(k, this.heap[parent]!)) break;
      this.place(this.heap[parent]!, i);
      i = parent;
    }
    // down
    const end = base + this.pool;
    for (;;) {
      const left = base + 2 * (i - base) + 1;
      if (left >= end) break;
      const right = left + 1;
      const child = right < end && this.before(this.heap[right]!, this.heap[left]!) ? right : left;
      if (!this.before(this.heap[child]!, k)) break;
      this.place(this.heap[child]!, i);
      i = child;
    }
    this.place(k, i);
  }

  private before(a: number, b: number): boolean {
    const fa = this.free[a]!;
    const fb = this.free[b]!;
    return fa < fb || (fa === fb && a < b);
  }

  private place(slot: number, i: number): void {
    this.heap[i] = slot;
    this.pos[slot] = i;
  }
}
