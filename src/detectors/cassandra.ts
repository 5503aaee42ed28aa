// Cassandra's exponential φ detector, with explicit timestamps (ms).
// Rule: apache/cassandra `src/java/org/apache/cassandra/gms/FailureDetector.java` (`ArrivalWindow`,
// `ArrayBackedBoundedStats`, `interpret`), written from the rules in reference/detectors.md §4.

import type { HeartbeatDetector } from "./akka.ts";
import { HeartbeatHistory } from "./history.ts";
import { PHI_FACTOR } from "./phi.ts";
import {
  badSilence,
  checkExponentialThreshold,
  checkTime,
  MAX_TIME_MS,
  optionalNumber,
  optionsOf,
} from "./validate.ts";

/** Cassandra's defaults. */
export const CASSANDRA_DEFAULTS = {
  /** `FailureDetector.java` `SAMPLE_SIZE = 1000` */
  windowSize: 1000,
  /** `FailureDetector.java` `INITIAL_VALUE` = `Gossiper.intervalInMillis * 2` = 2 × 1000 ms (`cassandra.fd_initial_value_ms`) */
  firstIntervalMs: 2000,
  /** `conf/cassandra.yaml` / `Config.java` `phi_convict_threshold: 8` */
  threshold: 8,
  /** `cassandra.max_local_pause_in_ms`, `FailureDetector.java` `DEFAULT_MAX_PAUSE = 5000L * 1000000L` ns */
  maxLocalPauseMs: 5000,
  /** `Gossiper.java` `intervalInMillis = 1000` */
  gossipIntervalMs: 1000,
} as const;

export interface ExponentialPhiOptions {
  windowSize?: number;
  firstIntervalMs?: number;
  threshold?: number;
  /**
   * Intervals longer than this are not recorded ("in the event of a long partition, never record an interval
   * longer than the rpc timeout"). Default: `firstIntervalMs`, Cassandra's intended default (ArrivalWindow
   * `MAX_INTERVAL` defaults to the initial value; CASSANDRA-21025 fixed a ms/ns mix-up that made it effectively
   * infinite). Pass `Infinity` for the pre-fix behaviour.
   */
  maxIntervalMs?: number;
}

/**
 * Cassandra's model: gaps are exponential with the window's mean, so φ = t / (mean · ln 10).
 *
 * - First heartbeat: the window receives `firstIntervalMs` as its first sample ("better to err high").
 * - Later heartbeats: interval = now − last is recorded only if interval <= maxIntervalMs.
 * - `rawPhi(now)` = t / mean (what `ArrivalWindow.phi` returns); `phi(now)` = PHI_FACTOR · rawPhi (what
 *   `interpret` compares and JMX reports); convicted when phi > threshold (strict).
 *
 * Deviations: no `tLast = 0` sentinel (a heartbeat at t = 0 counts); before any heartbeat φ = 0 and the node is
 * available, where Cassandra asserts; thresholds outside Cassandra's accepted [5, 16] are allowed so that
 * cheap actions can use low ones (DatabaseDescriptor rejects them for conviction); a heartbeat or a φ query
 * before the last heartbeat, NaN and ±Infinity are RangeErrors.
 */
export class ExponentialPhiDetector implements HeartbeatDetector {
  readonly windowSize: number;
  readonly firstIntervalMs: number;
  readonly threshold: number;
  readonly maxIntervalMs: number;
  private readonly window: HeartbeatHistory;
  private monitoring = false;
  private lastMs = 0;
  /** The window's mean, refreshed on each recorded interval (φ is asked far more often than it changes). */
  private mean = Number.NaN;

  constructor(options?: ExponentialPhiOptions | null) {
    const owner = "ExponentialPhiDetector";
    const o = optionsOf(owner, options, ["windowSize", "firstIntervalMs", "threshold", "maxIntervalMs"]);
    const d = CASSANDRA_DEFAULTS;
    this.windowSize = optionalNumber(owner, o, "windowSize", d.windowSize);
    this.firstIntervalMs = optionalNumber(owner, o, "firstIntervalMs", d.firstIntervalMs);
    this.threshold = optionalNumber(owner, o, "threshold", d.threshold);
    this.maxIntervalMs = optionalNumber(owner, o, "maxIntervalMs", this.firstIntervalMs);
    if (!(this.firstIntervalMs > 0 && this.firstIntervalMs <= MAX_TIME_MS)) {
      throw new RangeError(`${owner}: firstIntervalMs must be > 0, got ${this.firstIntervalMs}`);
    }
    checkExponentialThreshold(this.threshold);
    // Infinity is allowed: Cassandra's behaviour before CASSANDRA-21025 (no interval ignored).
    if (!(this.maxIntervalMs >= 0))
      throw new RangeError(`${owner}: maxIntervalMs must be >= 0, got ${this.maxIntervalMs}`);
    this.window = new HeartbeatHistory(this.windowSize);
  }

  get isMonitoring(): boolean {
    return this.monitoring;
  }

  /** Mean of the window (ms); NaN before the first heartbeat. */
  get meanMs(): number {
    return this.window.mean;
  }

  intervals(): number[] {
    return this.window.values();
  }

  heartbeat(nowMs: number): void {
    if (!this.monitoring) {
      checkTime("ExponentialPhiDetector", nowMs);
      this.window.append(this.firstIntervalMs);
      this.monitoring = true;
      this.mean = this.window.mean;
    } else {
      const interval = nowMs - this.lastMs;
      // NaN, ±Infinity, out of range or backwards: one test on the hot path (the last time was checked).
      if (!(interval >= 0 && nowMs <= MAX_TIME_MS))
        throw badSilence("ExponentialPhiDetector", nowMs, this.lastMs);
      if (interval <= this.maxIntervalMs) {
        this.window.append(interval);
        this.mean = this.window.mean;
      }
    }
    this.lastMs = nowMs;
  }

  /** t / mean, Cassandra's `ArrivalWindow.phi`; 0 before the first heartbeat; a RangeError before the last. */
  rawPhi(nowMs: number): number {
    if (!this.monitoring) {
      checkTime("ExponentialPhiDetector", nowMs);
      return 0;
    }
    const t = nowMs - this.lastMs;
    if (!(t >= 0 && nowMs <= MAX_TIME_MS)) throw badSilence("ExponentialPhiDetector", nowMs, this.lastMs);
    return t / this.mean;
  }

  /** The Hayashibara φ = −log10(P(gap ≥ t)) = PHI_FACTOR · t / mean; 0 before the first heartbeat. */
  phi(nowMs: number): number {
    if (!this.monitoring) {
      checkTime("ExponentialPhiDetector", nowMs);
      return 0;
    }
    const t = nowMs - this.lastMs;
    if (!(t >= 0 && nowMs <= MAX_TIME_MS)) throw badSilence("ExponentialPhiDetector", nowMs, this.lastMs);
    return PHI_FACTOR * (t / this.mean);
  }

  /** Cassandra's conviction rule: PHI_FACTOR · phi > threshold. */
  isConvicted(nowMs: number): boolean {
    return this.phi(nowMs) > this.threshold;
  }

  isAvailable(nowMs: number): boolean {
    return !(this.phi(nowMs) > this.threshold);
  }

  reset(): void {
    this.window.clear();
    this.monitoring = false;
    this.mean = Number.NaN;
  }
}
