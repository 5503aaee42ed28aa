// Akka's two failure detectors, with explicit timestamps (ms) instead of a clock:
//   PhiAccrualFailureDetector — akka/akka `akka-remote/src/main/scala/akka/remote/PhiAccrualFailureDetector.scala`
//   DeadlineFailureDetector   — akka/akka `akka-remote/src/main/scala/akka/remote/DeadlineFailureDetector.scala`
// Written from the rules in those files (and reference/detectors.md §2–3), not translated line by line.

import { HeartbeatHistory } from "./history.ts";
import { PHI_AT_MEAN, phiNormal } from "./phi.ts";
import {
  badSilence,
  checkAkkaDeviation,
  checkAkkaThreshold,
  checkTime,
  MAX_TIME_MS,
  optionalNumber,
  optionsOf,
  timeWentBackwards,
} from "./validate.ts";

/**
 * Akka Cluster's failure-detector defaults: akka/akka `akka-cluster/src/main/resources/reference.conf`,
 * section `akka.cluster.failure-detector`.
 */
export const AKKA_CLUSTER_DEFAULTS = {
  /** `threshold = 8.0` */
  threshold: 8,
  /** `max-sample-size = 1000` */
  maxSampleSize: 1000,
  /** `min-std-deviation = 100 ms` */
  minStdDeviationMs: 100,
  /** `acceptable-heartbeat-pause = 3 s` */
  acceptableHeartbeatPauseMs: 3000,
  /** `heartbeat-interval = 1 s` (also the first-heartbeat estimate) */
  heartbeatIntervalMs: 1000,
  /** `monitored-by-nr-of-members = 9` */
  monitoredByNrOfMembers: 9,
  /** `expected-response-after = 1 s` */
  expectedResponseAfterMs: 1000,
} as const;

/**
 * Akka's multi-data-center detector defaults (a DeadlineFailureDetector): akka/akka
 * `akka-cluster/src/main/resources/reference.conf`, `akka.cluster.multi-data-center.failure-detector`.
 */
export const AKKA_MULTI_DC_DEFAULTS = {
  /** `heartbeat-interval = 3 s` */
  heartbeatIntervalMs: 3000,
  /** `acceptable-heartbeat-pause = 10 s` */
  acceptableHeartbeatPauseMs: 10_000,
} as const;

export interface PhiAccrualOptions {
  threshold?: number;
  maxSampleSize?: number;
  minStdDeviationMs?: number;
  acceptableHeartbeatPauseMs?: number;
  /** Akka's `heartbeat-interval`, used to seed the history on the first heartbeat. */
  firstHeartbeatEstimateMs?: number;
  /**
   * Called where Akka publishes "heartbeat interval is growing too large": an interval recorded while available
   * with interval >= acceptableHeartbeatPause / 3 * 2 (Long arithmetic; akka PR #25259).
   */
  onIntervalWarning?: (intervalMs: number) => void;
}

/**
 * The state every detector here shares: explicit time in, verdicts out. Times are finite milliseconds from a
 * monotonic clock (within ±MAX_TIME_MS); a heartbeat or a query at a time before the last heartbeat is a
 * RangeError, as are NaN and ±Infinity.
 */
export interface HeartbeatDetector {
  heartbeat(nowMs: number): void;
  isAvailable(nowMs: number): boolean;
  readonly isMonitoring: boolean;
}

/**
 * Akka's φ accrual failure detector.
 *
 * - No heartbeat yet: φ = 0 and available ("treat unmanaged connections … as healthy").
 * - First heartbeat: the history is seeded with two intervals, est − est/4 and est + est/4, est/4 in integer
 *   (Long) division (akka PR #526: "connections with only one heartbeat becomes unavailable").
 * - Later heartbeats: the interval is recorded only if the node is available at that instant, judged on the old
 *   state ("don't use the first heartbeat after failure for the history, since a long pause will skew the stats").
 * - φ(now) = phi(now − last, mean + acceptableHeartbeatPause, max(sd, minStdDeviation)): the pause is added to the
 *   mean, not to the silence.
 * - isAvailable(now) = φ(now) < threshold (strict).
 *
 * Deviations: time going backwards (a heartbeat or a φ query before the last heartbeat) throws, where Akka's
 * clock cannot go backwards; so do NaN and ±Infinity times.
 */
export class PhiAccrualFailureDetector implements HeartbeatDetector {
  readonly threshold: number;
  readonly maxSampleSize: number;
  readonly minStdDeviationMs: number;
  readonly acceptableHeartbeatPauseMs: number;
  readonly firstHeartbeatEstimateMs: number;
  private readonly history: HeartbeatHistory;
  private readonly seedLow: number;
  private readonly seedHigh: number;
  private readonly warnAtMs: number;
  /** The threshold is above the largest φ at or below the shifted mean (log10 2): the fast path is exact. */
  private readonly aboveMeanPhi: boolean;
  private readonly onIntervalWarning: ((intervalMs: number) => void) | undefined;
  private monitoring = false;
  private lastMs = 0; // meaningful only while monitoring (no 0 sentinel: a heartbeat at t = 0 is valid)
  // Cached statistics, refreshed on each recorded interval.
  private shiftedMean = 0;
  private sd = 0;

  constructor(options?: PhiAccrualOptions | null) {
    const o = optionsOf("PhiAccrualFailureDetector", options, PHI_ACCRUAL_OPTIONS);
    const d = AKKA_CLUSTER_DEFAULTS;
    const num = (name: keyof PhiAccrualOptions, fallback: number): number =>
      optionalNumber("PhiAccrualFailureDetector", o, name, fallback);
    this.threshold = num("threshold", d.threshold);
    this.maxSampleSize = num("maxSampleSize", d.maxSampleSize);
    this.minStdDeviationMs = num("minStdDeviationMs", d.minStdDeviationMs);
    this.acceptableHeartbeatPauseMs = num("acceptableHeartbeatPauseMs", d.acceptableHeartbeatPauseMs);
    this.firstHeartbeatEstimateMs = num("firstHeartbeatEstimateMs", d.heartbeatIntervalMs);
    // Akka's `require`s, same messages; NaN and ±Infinity fail them too (Infinity would make φ NaN). The
    // threshold's and the deviation's are shared with phi.ts's functions (validate.ts).
    checkAkkaThreshold(this.threshold);
    if (!Number.isInteger(this.maxSampleSize) || this.maxSampleSize <= 0) {
      throw new RangeError(`failure-detector.max-sample-size must be > 0, got ${this.maxSampleSize}`);
    }
    checkAkkaDeviation(this.minStdDeviationMs);
    if (!(this.acceptableHeartbeatPauseMs >= 0 && this.acceptableHeartbeatPauseMs <= MAX_TIME_MS)) {
      throw new RangeError(
        `failure-detector.acceptable-heartbeat-pause must be >= 0, got ${this.acceptableHeartbeatPauseMs}`,
      );
    }
    if (!(this.firstHeartbeatEstimateMs >= 1 && this.firstHeartbeatEstimateMs <= MAX_TIME_MS)) {
      // Akka: toMillis must be > 0, so at least 1 ms.
      throw new RangeError(
        `failure-detector.heartbeat-interval must be > 0, got ${this.firstHeartbeatEstimateMs}`,
      );
    }
    if (o.onIntervalWarning !== undefined && typeof o.onIntervalWarning !== "function") {
      throw new TypeError("PhiAccrualFailureDetector: onIntervalWarning must be a function");
    }
    const est = Math.trunc(this.firstHeartbeatEstimateMs); // FiniteDuration.toMillis truncates
    const spread = Math.trunc(est / 4); // Long division
    this.seedLow = est - spread;
    this.seedHigh = est + spread;
    this.warnAtMs = Math.trunc(Math.trunc(this.acceptableHeartbeatPauseMs) / 3) * 2;
    this.aboveMeanPhi = this.threshold > PHI_AT_MEAN + 1e-9;
    this.onIntervalWarning = o.onIntervalWarning;
    this.history = new HeartbeatHistory(this.maxSampleSize);
    this.seed();
  }

  private seed(): void {
    this.history.clear();
    this.history.append(this.seedLow).append(this.seedHigh);
    this.refresh();
  }

  private refresh(): void {
    // The window is never empty here; the variance is clamped at 0 by the history.
    const h = this.history;
    const mean = h.mean;
    const variance = h.meanOfSquares - mean * mean; // may round below 0 for near-constant samples
    this.shiftedMean = mean + this.acceptableHeartbeatPauseMs;
    this.sd = Math.max(variance > 0 ? Math.sqrt(variance) : 0, this.minStdDeviationMs); // ensureValidStdDeviation
  }

  get isMonitoring(): boolean {
    return this.monitoring;
  }

  /** Mean of the recorded intervals (ms), including the two bootstrap seeds until they leave the window. */
  get meanMs(): number {
    return this.history.mean;
  }

  /** Population standard deviation of the recorded intervals (ms), before the min-std-deviation floor. */
  get stdDeviationMs(): number {
    return this.history.stdDeviation;
  }

  /** The recorded intervals, oldest first. */
  intervals(): number[] {
    return this.history.values();
  }

  // heartbeat and phi keep only the monitored path and leave the rest to a function of their own: small, they
  // are inlined into the caller's loop, and φ is not returned as a heap-allocated number on every call.

  heartbeat(nowMs: number): void {
    const interval = nowMs - this.lastMs;
    // Not monitoring yet, or NaN, ±Infinity, out of range or backwards: one test (the last time was checked).
    if (!(this.monitoring && interval >= 0 && nowMs <= MAX_TIME_MS)) {
      this.firstHeartbeat(nowMs);
      return;
    }
    // Available at `nowMs` on the old state? The fast path is exact: while the silence is at most the shifted
    // mean, φ <= log10(2) ≈ 0.30103, below any threshold above that.
    const available =
      (interval <= this.shiftedMean && this.aboveMeanPhi) ||
      phiNormal(interval, this.shiftedMean, this.sd) < this.threshold;
    if (available) {
      if (this.onIntervalWarning !== undefined && interval >= this.warnAtMs) this.onIntervalWarning(interval);
      this.history.append(interval);
      this.refresh();
    }
    this.lastMs = nowMs;
  }

  /** The first heartbeat, or the error for a bad time. */
  private firstHeartbeat(nowMs: number): void {
    if (this.monitoring) throw badSilence("PhiAccrualFailureDetector", nowMs, this.lastMs);
    checkTime("PhiAccrualFailureDetector", nowMs);
    this.seed(); // a heartbeat from a new resource starts from the bootstrap history
    this.monitoring = true;
    this.lastMs = nowMs;
  }

  /** Suspicion level at `nowMs`; 0 before the first heartbeat; a RangeError before the last heartbeat. */
  phi(nowMs: number): number {
    const silence = nowMs - this.lastMs;
    if (!(this.monitoring && silence >= 0 && nowMs <= MAX_TIME_MS)) return this.unmonitoredPhi(nowMs);
    return phiNormal(silence, this.shiftedMean, this.sd);
  }

  /** φ before the first heartbeat (0, the time checked), or the error for a bad time. */
  private unmonitoredPhi(nowMs: number): number {
    if (this.monitoring) throw badSilence("PhiAccrualFailureDetector", nowMs, this.lastMs);
    checkTime("PhiAccrualFailureDetector", nowMs);
    return 0;
  }

  isAvailable(nowMs: number): boolean {
    return this.phi(nowMs) < this.threshold;
  }

  /** Forget everything: the next heartbeat starts again from the bootstrap (as Akka's registry `remove`). */
  reset(): void {
    this.monitoring = false;
    this.seed();
  }
}

const PHI_ACCRUAL_OPTIONS = [
  "threshold",
  "maxSampleSize",
  "minStdDeviationMs",
  "acceptableHeartbeatPauseMs",
  "firstHeartbeatEstimateMs",
  "onIntervalWarning",
] as const;

export interface DeadlineOptions {
  acceptableHeartbeatPauseMs?: number;
  heartbeatIntervalMs?: number;
}

/**
 * Akka's deadline detector: unavailable once no heartbeat arrived within heartbeatInterval +
 * acceptableHeartbeatPause (akka issue #17567 / PR #17604 added the interval). Available while
 * `last + deadline > now` (strict: at exactly the deadline it is unavailable); available before any heartbeat.
 * Defaults: Akka's multi-DC section, the only place Akka configures this detector (see AKKA_MULTI_DC_DEFAULTS).
 */
export class DeadlineFailureDetector implements HeartbeatDetector {
  readonly acceptableHeartbeatPauseMs: number;
  readonly heartbeatIntervalMs: number;
  readonly deadlineMs: number;
  private active = false;
  private lastMs = 0;

  constructor(options?: DeadlineOptions | null) {
    const owner = "DeadlineFailureDetector";
    const o = optionsOf(owner, options, ["acceptableHeartbeatPauseMs", "heartbeatIntervalMs"]);
    const d = AKKA_MULTI_DC_DEFAULTS;
    this.acceptableHeartbeatPauseMs = optionalNumber(
      owner,
      o,
      "acceptableHeartbeatPauseMs",
      d.acceptableHeartbeatPauseMs,
    );
    this.heartbeatIntervalMs = optionalNumber(owner, o, "heartbeatIntervalMs", d.heartbeatIntervalMs);
    if (!(this.acceptableHeartbeatPauseMs >= 0 && this.acceptableHeartbeatPauseMs <= MAX_TIME_MS)) {
      throw new RangeError(
        `failure-detector.acceptable-heartbeat-pause must be >= 0 s, got ${this.acceptableHeartbeatPauseMs}`,
      );
    }
    if (!(this.heartbeatIntervalMs > 0 && this.heartbeatIntervalMs <= MAX_TIME_MS)) {
      throw new RangeError(
        `failure-detector.heartbeat-interval must be > 0 s, got ${this.heartbeatIntervalMs}`,
      );
    }
    this.deadlineMs = this.acceptableHeartbeatPauseMs + this.heartbeatIntervalMs;
  }

  get isMonitoring(): boolean {
    return this.active;
  }

  heartbeat(nowMs: number): void {
    checkTime("DeadlineFailureDetector", nowMs);
    if (this.active && nowMs < this.lastMs)
      throw timeWentBackwards("DeadlineFailureDetector", nowMs, this.lastMs);
    this.lastMs = nowMs;
    this.active = true;
  }

  isAvailable(nowMs: number): boolean {
    checkTime("DeadlineFailureDetector", nowMs);
    if (!this.active) return true;
    if (nowMs < this.lastMs) throw timeWentBackwards("DeadlineFailureDetector", nowMs, this.lastMs);
    return this.lastMs + this.deadlineMs > nowMs;
  }
}
