// A binary min-heap ordered by (time, sequence): equal times pop in the order they were pushed, so
// simultaneous events keep their scheduling order (a plain heap is not stable; see
// mourner/flatqueue's note on equal priorities). Struct-of-arrays, no object per entry but the
// payload: the engine and the detectors' event loop both run on it.

export class StableHeap<T> {
  private times: number[] = [];
  private seqs: number[] = [];
  private items: T[] = [];
  private nextSeq = 0;

  get size(): number {
    return this.times.length;
  }

  /** The smallest time queued, or +Infinity when empty. */
  peekTime(): number {
    return this.times.length > 0 ? this.times[0]! : Number.POSITIVE_INFINITY;
  }

  /** The item with the smallest (time, seq), without removing it. */
  peek(): T | undefined {
    return this.items[0];
  }

  /** Queues `item` at `time`; returns its sequence number (the tie-break). */
  push(time: number, item: T): number {
    const t = this.times;
    const s = this.seqs;
    const f = this.items;
    const seq = this.nextSeq++;
    let i = t.length;
    t.push(time);
    s.push(seq);
    f.push(item);
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pt = t[p]!;
      if (pt < time || (pt === time && s[p]! < seq)) break;
      t[i] = pt;
      s[i] = s[p]!;
      f[i] = f[p]!;
      i = p;
    }
    t[i] = time;
    s[i] = seq;
    f[i] = item;
    return seq;
  }

  /** Removes and returns the item with the smallest (time, seq). */
  pop(): T | undefined {
    const t = this.times;
    const s = this.seqs;
    const f = this.items;
    const n = t.length;
    if (n === 0) return undefined;
    const top = f[0]!;
    const lastT = t.pop()!;
    const lastS = s.pop()!;
    const lastF = f.pop()!;
    if (n > 1) {
      const m = n - 1;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= m) break;
        const r = l + 1;
        let c = l;
        if (r < m && (t[r]! < t[l]! || (t[r] === t[l] && s[r]! < s[l]!))) c = r;
        if (lastT < t[c]! || (lastT === t[c] && lastS < s[c]!)) break;
        t[i] = t[c]!;
        s[i] = s[c]!;
        f[i] = f[c]!;
        i = c;
      }
      t[i] = lastT;
      s[i] = lastS;
      f[i] = lastF;
    }
    return top;
  }
}
