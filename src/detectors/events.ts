// A tiny deterministic event loop: events run in (time, sequence) order; ties keep scheduling order.

export class EventLoop {
  private times: number[] = [];
  private seqs: number[] = [];
  private fns: Array<() => void> = [];
  private seq = 0;
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
    return this.times.length;
  }

  /** Run `fn` at absolute time `atMs` (not before now). */
  at(atMs: number, fn: () => void): void {
    if (!(atMs >= this.current))
      throw new RangeError(`cannot schedule in the past: ${atMs} < ${this.current}`);
    const t = this.times;
    const s = this.seqs;
    const f = this.fns;
    const seq = this.seq++;
    let i = t.length;
    t.push(atMs);
    s.push(seq);
    f.push(fn);
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pt = t[p]!;
      if (pt < atMs || (pt === atMs && s[p]! < seq)) break;
      t[i] = pt;
      s[i] = s[p]!;
      f[i] = f[p]!;
      i = p;
    }
    t[i] = atMs;
    s[i] = seq;
    f[i] = fn;
  }

  /** Run `fn` after `delayMs`. */
  after(delayMs: number, fn: () => void): void {
    this.at(this.current + delayMs, fn);
  }

  private pop(): (() => void) | undefined {
    const t = this.times;
    const s = this.seqs;
    const f = this.fns;
    const n = t.length;
    if (n === 0) return undefined;
    const top = f[0]!;
    this.current = t[0]!;
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

  /** Run events until the queue is empty or the next event is after `untilMs`; time ends at `untilMs`. */
  run(untilMs: number): void {
    while (this.times.length > 0 && this.times[0]! <= untilMs) {
      const fn = this.pop()!;
      this.processed++;
      fn();
    }
    if (untilMs > this.current) this.current = untilMs;
  }
}
