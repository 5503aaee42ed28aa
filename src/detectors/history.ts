// A bounded window of heartbeat inter-arrival times with running sums: O(1) append, mean and variance.
//
// Rule: akka/akka `akka-remote/src/main/scala/akka/remote/PhiAccrualFailureDetector.scala`, `HeartbeatHistory`:
// at most `maxSampleSize` intervals; `mean = intervalSum / n`; `variance = squaredIntervalSum / n − mean²`
// (population variance); `stdDeviation = sqrt(variance)`; when full, the oldest interval leaves both sums.
// Cassandra's `ArrayBackedBoundedStats` (`src/java/org/apache/cassandra/gms/FailureDetector.java`) is the same
// ring with the sum only.
//
// Storage: a typed-array ring that starts small and doubles up to `maxSampleSize`, kept as Uint16Array while
// every sample is an integer in [0, 65535] ms (2 bytes a sample: 1,000 samples ≈ 2 KB) and switched once to a
// Float64Array when a sample is fractional or larger. Integer samples keep both sums exact in a double (the
// squared sum stays below 2^53 while 1,000 samples are below ≈ 3,000,000 ms), so they behave like Akka's Long
// sums. With fractional samples, subtracting the leaving sample accumulates rounding error, so the sums are
// recomputed from the ring every `maxSampleSize` appends (amortised O(1)). The variance is clamped at 0 before
// the square root: E[x²] − mean² may round below 0 for near-constant samples and Akka would return NaN there.

const U16_MAX = 65535;
const INITIAL_CAPACITY = 16;

export class HeartbeatHistory {
  readonly maxSampleSize: number;
  private buf: Uint16Array | Float64Array;
  private count = 0;
  private head = 0; // index of the oldest sample once the ring is full
  private sum = 0;
  private sumSq = 0;
  private sinceRecompute = 0;
  private wide = false; // true once the ring is a Float64Array

  constructor(maxSampleSize: number) {
    // Akka: "maxSampleSize must be >= 1".
    if (!Number.isInteger(maxSampleSize) || maxSampleSize < 1) {
      throw new RangeError(`maxSampleSize must be an integer >= 1, got ${maxSampleSize}`);
    }
    this.maxSampleSize = maxSampleSize;
    this.buf = new Uint16Array(Math.min(maxSampleSize, INITIAL_CAPACITY));
  }

  /** Number of intervals in the window. */
  get size(): number {
    return this.count;
  }

  /** Sum of the intervals in the window (ms). */
  get intervalSum(): number {
    return this.sum;
  }

  /** Sum of the squared intervals (ms²). */
  get squaredIntervalSum(): number {
    return this.sumSq;
  }

  /** Mean interval; NaN for an empty window (Akka: undefined, throws). */
  get mean(): number {
    return this.sum / this.count;
  }

  /** Population variance, clamped at 0; NaN for an empty window. */
  get variance(): number {
    const m = this.sum / this.count;
    const v = this.sumSq / this.count - m * m;
    return v > 0 || Number.isNaN(v) ? v : 0;
  }

  get stdDeviation(): number {
    return Math.sqrt(this.variance);
  }

  /** Append one interval (ms, finite, >= 0), dropping the oldest when full. Returns this. */
  append(intervalMs: number): this {
    if (!(intervalMs >= 0) || intervalMs === Number.POSITIVE_INFINITY) {
      throw new RangeError(`interval must be a finite number >= 0, got ${intervalMs}`);
    }
    let buf = this.buf;
    if (!this.wide && !(intervalMs <= U16_MAX && Number.isInteger(intervalMs))) {
      buf = this.buf = Float64Array.from(buf);
      this.wide = true;
    }
    if (this.count < this.maxSampleSize) {
      if (this.count === buf.length) {
        const size = Math.min(this.maxSampleSize, buf.length * 2);
        const grown: Uint16Array | Float64Array = this.wide ? new Float64Array(size) : new Uint16Array(size);
        grown.set(buf);
        buf = this.buf = grown;
      }
      buf[this.count] = intervalMs;
      this.count++;
      this.sum += intervalMs;
      this.sumSq += intervalMs * intervalMs;
      return this;
    }
    const old = buf[this.head]!;
    buf[this.head] = intervalMs;
    this.head = this.head + 1 === this.maxSampleSize ? 0 : this.head + 1;
    if (this.wide && ++this.sinceRecompute >= this.maxSampleSize) {
      this.recompute();
    } else {
      this.sum += intervalMs - old;
      this.sumSq += intervalMs * intervalMs - old * old;
    }
    return this;
  }

  /** Recompute both sums from the ring (removes accumulated rounding error). */
  recompute(): void {
    let s = 0;
    let q = 0;
    for (let i = 0; i < this.count; i++) {
      const x = this.buf[i]!;
      s += x;
      q += x * x;
    }
    this.sum = s;
    this.sumSq = q;
    this.sinceRecompute = 0;
  }

  /** Empty the window (back to 2-byte storage). */
  clear(): void {
    this.buf = new Uint16Array(Math.min(this.maxSampleSize, INITIAL_CAPACITY));
    this.wide = false;
    this.count = 0;
    this.head = 0;
    this.sum = 0;
    this.sumSq = 0;
    this.sinceRecompute = 0;
  }

  /** The intervals, oldest first. */
  values(): number[] {
    const out: number[] = [];
    const full = this.count === this.maxSampleSize;
    for (let i = 0; i < this.count; i++) {
      out.push(this.buf[full ? (this.head + i) % this.maxSampleSize : i]!);
    }
    return out;
  }

  /** Bytes held by the sample storage (the typed array's buffer). */
  get storageBytes(): number {
    return this.buf.byteLength;
  }
}
