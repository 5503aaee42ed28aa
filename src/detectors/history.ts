// A bounded window of heartbeat inter-arrival times with running sums: O(1) append, mean and variance.
//
// Rule: akka/akka `akka-remote/src/main/scala/akka/remote/PhiAccrualFailureDetector.scala`, `HeartbeatHistory`:
// at most `maxSampleSize` intervals; `mean = intervalSum / n`; `variance = squaredIntervalSum / n − mean²`
// (population variance); `stdDeviation = sqrt(variance)`; when full, the oldest interval leaves both sums.
// Cassandra's `ArrayBackedBoundedStats` (`src/java/org/apache/cassandra/gms/FailureDetector.java`) is the same
// ring with the sum only.
//
// Precision: intervals are kept on a one-microsecond grid (the engine's time grid): a fractional interval is
// rounded to the nearest microsecond (halves up); whole milliseconds are kept as they are, so Akka's and
// Cassandra's integer-millisecond tests see exactly their numbers. Against the spec: Akka's history holds `Long`
// milliseconds, so everything Akka can record is kept exactly and gives its mean and variance to the last bit;
// fractional milliseconds are an extension, each off by at most 0.5 µs, which moves Akka's φ by at most
// 1.6e-3 ms · (1 + φ) / sd (test/detectors/compact-history.test.ts). Float32 milliseconds (4,000 bytes for
// 1,000 samples) would round to within 0.5 µs only below 16.4 s (1 µs to 33 s, 31 µs at 16 minutes), are not
// exact on the microsecond grid (1000.001 ms is no float32), and their sums would round where Akka's are exact.
//
// Storage: a typed-array ring that starts small and doubles up to `maxSampleSize`, in the smallest of three
// tiers that holds every sample (tiers only go up, until `clear`):
//   ms16  whole milliseconds 0–65,535 in a Uint16Array: 2 bytes a sample (1,000 samples ≈ 2 KB);
//   us24  microseconds 0–16,777,215 (16.78 s) in 3 bytes each of a Uint8Array: fractional intervals at
//         3 bytes a sample (1,000 samples ≈ 3 KB);
//   f64   anything longer, in milliseconds in a Float64Array (8 bytes a sample).
// In ms16 and us24 the running sums are exact integers, as Akka's `Long` sums are: the sum of squares of
// microseconds is carried in two doubles (`sqHi` counts units of 2^52, `sqLo` holds the rest), so it never
// rounds whatever the window. In f64 the sums are doubles; subtracting the leaving sample accumulates rounding
// error, so they are recomputed from the ring every `maxSampleSize` appends (amortised O(1)) and at once when a
// sample much larger than the rest leaves the window. The variance is
// clamped at 0 before the square root: E[x²] − mean² may round below 0 for near-constant samples and Akka
// would return NaN there.

const MS16 = 0;
const US24 = 1;
const F64 = 2;
type Tier = typeof MS16 | typeof US24 | typeof F64;

const U16_MAX = 65_535;
const U24_MAX = 0xff_ffff;
const TWO_52 = 2 ** 52;
const INITIAL_CAPACITY = 16;
/** The largest window accepted: above it one peer's history could pass 8 MiB. */
export const MAX_SAMPLE_SIZE = 1_048_576;
/** Bytes per sample in each tier. */
const BYTES = [2, 3, 8] as const;
const EMPTY_U16 = new Uint16Array(0);
const EMPTY_U8 = new Uint8Array(0);
const EMPTY_F64 = new Float64Array(0);

export class HeartbeatHistory {
  readonly maxSampleSize: number;
  private tier: Tier = MS16;
  /** Units of the tier per millisecond: 1000 in us24, 1 otherwise. */
  private scale = 1;
  // Only the active tier's array holds samples; the others are empty.
  private u16: Uint16Array = EMPTY_U16;
  private u8: Uint8Array = EMPTY_U8;
  private f64: Float64Array = EMPTY_F64;
  private capacity = 0;
  private count = 0;
  private head = 0; // index of the oldest sample once the ring is full
  /** Sum of the samples, in the tier's unit (ms, µs, ms). */
  private sum = 0;
  /** Sum of the squared samples = sqHi · 2^52 + sqLo, in the tier's unit squared. */
  private sqHi = 0;
  private sqLo = 0;
  private sinceRecompute = 0;
  // The statistics, refreshed by every change of the window: their getters are then small enough to be inlined
  // wherever they are read (a call that is not inlined returns a double as a heap-allocated number).
  private meanMs = Number.NaN;
  private meanOfSquaresMs2 = Number.NaN;

  constructor(maxSampleSize: number) {
    // Akka: "maxSampleSize must be >= 1".
    if (!Number.isInteger(maxSampleSize) || maxSampleSize < 1 || maxSampleSize > MAX_SAMPLE_SIZE) {
      throw new RangeError(
        `maxSampleSize must be an integer from 1 to ${MAX_SAMPLE_SIZE}, got ${String(maxSampleSize)}`,
      );
    }
    this.maxSampleSize = maxSampleSize;
    this.clear();
  }

  /** Number of intervals in the window. */
  get size(): number {
    return this.count;
  }

  /** Sum of the intervals in the window (ms). */
  get intervalSum(): number {
    return this.sum / this.scale;
  }

  /** Sum of the squared intervals (ms²). */
  get squaredIntervalSum(): number {
    const s = this.scale;
    return (this.sqHi * TWO_52 + this.sqLo) / (s * s);
  }

  /** Mean interval (ms); NaN for an empty window (Akka: undefined, throws). */
  get mean(): number {
    return this.meanMs;
  }

  /** Mean of the squared intervals (ms²); NaN for an empty window. */
  get meanOfSquares(): number {
    return this.meanOfSquaresMs2;
  }

  private updateStats(): void {
    const s = this.scale;
    // One division by n · scale: for whole milliseconds this is Akka's intervalSum / n to the last bit.
    this.meanMs = this.sum / (this.count * s);
    this.meanOfSquaresMs2 = (this.sqHi * TWO_52 + this.sqLo) / (this.count * s * s);
  }

  /** Population variance (ms²), clamped at 0; NaN for an empty window. */
  get variance(): number {
    const m = this.mean;
    const v = this.meanOfSquares - m * m;
    return v > 0 || Number.isNaN(v) ? v : 0;
  }

  get stdDeviation(): number {
    return Math.sqrt(this.variance);
  }

  /** Append one interval (ms, finite, >= 0), dropping the oldest when full. Returns this. */
  append(intervalMs: number): this {
    // The common case first, small enough to be inlined: a whole millisecond into the 2-byte ring.
    if (this.tier === MS16 && intervalMs >= 0 && intervalMs <= U16_MAX && Number.isInteger(intervalMs)) {
      this.put16(intervalMs);
    } else {
      this.appendOther(intervalMs);
    }
    this.updateStats();
    return this;
  }

  private appendOther(intervalMs: number): void {
    if (!(intervalMs >= 0 && intervalMs < Number.POSITIVE_INFINITY)) {
      throw new RangeError(`interval must be a finite number >= 0, got ${intervalMs}`);
    }
    if (this.tier === MS16) this.promote(intervalMs);
    if (this.tier === US24) {
      const us = Math.round(intervalMs * 1000);
      if (us <= U24_MAX) {
        this.put24(us);
        return;
      }
      this.promote(intervalMs);
    }
    this.put64(Math.round(intervalMs * 1000) / 1000);
  }

  private put16(x: number): void {
    if (this.count < this.maxSampleSize) {
      if (this.count === this.capacity) this.grow();
      this.u16[this.count++] = x;
      this.sum += x;
      this.sqLo += x * x; // < 2^52: MAX_SAMPLE_SIZE · 65,535² < 2^52
      return;
    }
    const old = this.u16[this.head]!;
    this.u16[this.head] = x;
    this.head = this.head + 1 === this.maxSampleSize ? 0 : this.head + 1;
    this.sum += x - old;
    this.sqLo += x * x - old * old;
  }

  private put24(x: number): void {
    let at: number;
    if (this.count < this.maxSampleSize) {
      if (this.count === this.capacity) this.grow();
      at = 3 * this.count++;
    } else {
      const b = this.u8;
      at = 3 * this.head;
      this.head = this.head + 1 === this.maxSampleSize ? 0 : this.head + 1;
      const old = b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
      this.sum -= old;
      this.sqLo -= old * old;
      if (this.sqLo < 0) {
        this.sqLo += TWO_52;
        this.sqHi--;
      }
    }
    const b = this.u8; // after any growth
    b[at] = x & 0xff;
    b[at + 1] = (x >>> 8) & 0xff;
    b[at + 2] = x >>> 16;
    this.sum += x;
    this.sqLo += x * x; // x² < 2^48, sqLo < 2^52 + 2^48: exact
    if (this.sqLo >= TWO_52) {
      this.sqLo -= TWO_52;
      this.sqHi++;
    }
  }

  private put64(x: number): void {
    if (this.count < this.maxSampleSize) {
      if (this.count === this.capacity) this.grow();
      this.f64[this.count++] = x;
      this.sum += x;
      this.sqLo += x * x;
      return;
    }
    const old = this.f64[this.head]!;
    this.f64[this.head] = x;
    this.head = this.head + 1 === this.maxSampleSize ? 0 : this.head + 1;
    this.sum += x - old;
    this.sqLo += x * x - old * old;
    // Recompute every window, and at once when the sample leaving dwarfed what remains (a 60 s outlier leaving
    // a window of 1 s gaps): its rounding error would otherwise stay in the sums until the next window.
    if (++this.sinceRecompute >= this.maxSampleSize || old * old > (1024 * this.sqLo) / this.count) {
      this.recompute();
    }
  }

  /** The samples in ring order (not oldest first), in milliseconds. */
  private raw(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.at(i));
    return out;
  }

  /** Sample i (ms). */
  private at(i: number): number {
    return this.tier === US24 ? this.unitAt(i) / 1000 : this.unitAt(i);
  }

  /** Sample i in the tier's unit, exactly as stored. */
  private unitAt(i: number): number {
    if (this.tier === MS16) return this.u16[i]!;
    if (this.tier === US24) {
      const b = this.u8;
      return b[3 * i]! | (b[3 * i + 1]! << 8) | (b[3 * i + 2]! << 16);
    }
    return this.f64[i]!;
  }

  /** Moves every sample to the smallest higher tier that also holds `incomingMs`. */
  private promote(incomingMs: number): void {
    const samples = this.raw();
    const fits24 = (ms: number): boolean => Math.round(ms * 1000) <= U24_MAX;
    const tier: Tier = fits24(incomingMs) && samples.every(fits24) ? US24 : F64;
    this.store(tier, samples, this.capacity);
  }

  /** Rebuilds the ring in `tier` with `capacity` slots holding `samples` (ring order kept), and its sums. */
  private store(tier: Tier, samples: number[], capacity: number): void {
    this.tier = tier;
    this.scale = tier === US24 ? 1000 : 1;
    this.capacity = capacity;
    this.u16 = tier === MS16 ? new Uint16Array(capacity) : EMPTY_U16;
    this.u8 = tier === US24 ? new Uint8Array(3 * capacity) : EMPTY_U8;
    this.f64 = tier === F64 ? new Float64Array(capacity) : EMPTY_F64;
    for (let i = 0; i < samples.length; i++) {
      const ms = samples[i]!;
      if (tier === MS16) this.u16[i] = ms;
      else if (tier === F64) this.f64[i] = ms;
      else {
        const us = Math.round(ms * 1000);
        this.u8[3 * i] = us & 0xff;
        this.u8[3 * i + 1] = (us >>> 8) & 0xff;
        this.u8[3 * i + 2] = us >>> 16;
      }
    }
    this.recompute();
  }

  private grow(): void {
    const capacity = Math.min(this.maxSampleSize, Math.max(INITIAL_CAPACITY, this.capacity * 2));
    if (this.tier === MS16) {
      const next = new Uint16Array(capacity);
      next.set(this.u16);
      this.u16 = next;
    } else if (this.tier === US24) {
      const next = new Uint8Array(3 * capacity);
      next.set(this.u8);
      this.u8 = next;
    } else {
      const next = new Float64Array(capacity);
      next.set(this.f64);
      this.f64 = next;
    }
    this.capacity = capacity;
  }

  /** Recompute both sums from the ring (exact in ms16 and us24; removes accumulated rounding in f64). */
  recompute(): void {
    this.sum = 0;
    this.sqHi = 0;
    this.sqLo = 0;
    this.sinceRecompute = 0;
    for (let i = 0; i < this.count; i++) {
      const x = this.unitAt(i);
      this.sum += x;
      this.sqLo += x * x;
      if (this.tier !== F64 && this.sqLo >= TWO_52) {
        this.sqLo -= TWO_52;
        this.sqHi++;
      }
    }
    this.updateStats();
  }

  /** Empty the window (back to 2-byte storage). */
  clear(): void {
    this.count = 0;
    this.head = 0;
    this.store(MS16, [], Math.min(this.maxSampleSize, INITIAL_CAPACITY));
  }

  /** The intervals (ms), oldest first. */
  values(): number[] {
    const out: number[] = [];
    const full = this.count === this.maxSampleSize;
    for (let i = 0; i < this.count; i++) out.push(this.at(full ? (this.head + i) % this.maxSampleSize : i));
    return out;
  }

  /** Bytes held by the sample storage (the typed array's buffer). */
  get storageBytes(): number {
    return this.capacity * BYTES[this.tier];
  }
}
