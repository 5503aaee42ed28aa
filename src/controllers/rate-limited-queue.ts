// The NoExecute tainting queue of the node lifecycle controller, one per zone
// (pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go), and client-go's token bucket
// (staging/src/k8s.io/client-go/util/flowcontrol/throttle.go).

/** NewTokenBucketRateLimiter(qps, burst 1): starts full; qps ≤ 0 is NewFakeNeverRateLimiter. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps: number,
    now: number,
    full = true,
  ) {
    this.tokens = qps > 0 && full ? 1 : 0;
    this.last = now;
  }

  private refill(now: number): void {
    if (this.qps <= 0) return;
    this.tokens = Math.min(1, this.tokens + (now - this.last) * this.qps);
    this.last = now;
  }

  tryAccept(now: number): boolean {
    if (this.qps <= 0) return false;
    this.refill(now);
    // A small epsilon absorbs float error in (now − last) × qps for exact multiples of 1/qps.
    if (this.tokens >= 1 - 1e-9) {
      this.tokens = Math.max(0, this.tokens - 1);
      return true;
    }
    return false;
  }

  hasToken(now: number): boolean {
    if (this.qps <= 0) return false;
    this.refill(now);
    return this.tokens >= 1 - 1e-9;
  }

  /** When the next token will be there (Infinity for a never-limiter). */
  nextTokenAt(now: number): number {
    if (this.qps <= 0) return Number.POSITIVE_INFINITY;
    this.refill(now);
    return this.tokens >= 1 - 1e-9 ? now : now + (1 - this.tokens) / this.qps;
  }
}

interface Item {
  value: string;
  processAt: number;
  enqueuedSeq: number;
  /** removed: left in place and skipped (a search per Remove made a zone's loss quadratic in its nodes) */
  removed?: boolean;
}

/**
 * A min-heap on processAt (FIFO by enqueue time, since Add sets processAt = now) plus a set that
 * makes Add a no-op for a value already present; an item processed successfully leaves the heap
 * but stays in the set until Remove.
 */
export class RateLimitedTimedQueue {
  private items: Item[] = [];
  /** the values in the set, with their item while it is in the heap */
  private set = new Map<string, Item | undefined>();
  private removed = 0;
  private seq = 0;

  constructor(public limiter: TokenBucket) {}

  add(value: string, now: number): boolean {
    if (this.set.has(value)) return false;
    if (this.removed > this.items.length / 2) {
      this.items = this.items.filter((i) => !i.removed);
      this.removed = 0;
    }
    const item = { value, processAt: now, enqueuedSeq: this.seq++ };
    this.set.set(value, item);
    this.insert(item);
    return true;
  }

  /** Whether the set holds the value: Add is then a no-op. */
  has(value: string): boolean {
    return this.set.has(value);
  }

  remove(value: string): void {
    if (!this.set.has(value)) return;
    const item = this.set.get(value);
    this.set.delete(value);
    if (!item) return;
    item.removed = true;
    this.removed++;
  }

  get length(): number {
    return this.items.length - this.removed;
  }

  /**
   * Try(fn): while the limiter grants a token and the head is due, call fn(head). fn returns
   * {done: true} to drop the head (it stays in the set) or {done: false, wait} to retry it later.
   * A token is spent even when the head turns out not to be due yet.
   */
  try(now: number, fn: (value: string) => { done: true } | { done: false; wait: number }): void {
    while (this.head()) {
      if (!this.limiter.tryAccept(now)) return;
      const head = this.items[0]!;
      if (now < head.processAt) return;
      const result = fn(head.value);
      this.items.shift();
      if (head.removed) this.removed--;
      else if (!result.done) {
        head.processAt = now + result.wait + 1e-9;
        this.insert(head);
      } else this.set.set(head.value, undefined);
    }
  }

  /** The earliest moment Try could do anything. */
  nextWork(now: number): number {
    const head = this.head();
    if (!head) return Number.POSITIVE_INFINITY;
    return Math.max(this.limiter.nextTokenAt(now), head.processAt);
  }

  /** The first item not removed (removed ones at the head are dropped). */
  private head(): Item | undefined {
    while (this.items[0]?.removed) {
      this.items.shift();
      this.removed--;
    }
    return this.items[0];
  }

  /** Keep the items ordered by (processAt, enqueue order): a binary search, not a sort per add. */
  private insert(item: Item): void {
    // An Add sets processAt to now, which no item's precedes but a retried one's, and its enqueue
    // order is the latest: it goes after the last item, where the search would put it, without the
    // search's dependent reads of a dozen items (the zone loss adds each waiting node again at
    // every pass).
    const last = this.items[this.items.length - 1];
    if (
      !last ||
      last.processAt < item.processAt ||
      (last.processAt === item.processAt && last.enqueuedSeq < item.enqueuedSeq)
    ) {
      this.items.push(item);
      return;
    }
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const m = this.items[mid]!;
      if (
        m.processAt < item.processAt ||
        (m.processAt === item.processAt && m.enqueuedSeq < item.enqueuedSeq)
      )
        lo = mid + 1;
      else hi = mid;
    }
    this.items.splice(lo, 0, item);
  }
}
