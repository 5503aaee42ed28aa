// Fixed timeout, lease and progress detectors. Explicit timestamps (ms), no clock; times are checked as
// validate.ts says (finite, and never before the last heartbeat or renewal).

import type { HeartbeatDetector } from "./akka.ts";
import {
  checkTime,
  MAX_TIME_MS,
  optionalNumber,
  optionsOf,
  requiredNumber,
  show,
  timeWentBackwards,
} from "./validate.ts";

/**
 * Suspect after `timeoutMs` of silence: available while `now − last < timeout` (strict at the boundary, the
 * same operator as Akka's DeadlineFailureDetector `heartbeatTimestamp + deadline > now`). No default timeout:
 * the number is the whole design decision, so the caller states it.
 */
export class FixedTimeoutDetector implements HeartbeatDetector {
  readonly timeoutMs: number;
  private monitoring = false;
  private lastMs = 0;

  constructor(options: { timeoutMs: number }) {
    const owner = "FixedTimeoutDetector";
    optionsOf(owner, options, ["timeoutMs"]);
    this.timeoutMs = requiredNumber(
      owner,
      options,
      "timeoutMs",
      "the silence, ms, after which a peer is suspected",
    );
    if (!(this.timeoutMs > 0 && this.timeoutMs <= MAX_TIME_MS)) {
      throw new RangeError(`${owner}: timeoutMs must be > 0, got ${this.timeoutMs}`);
    }
  }

  get isMonitoring(): boolean {
    return this.monitoring;
  }

  heartbeat(nowMs: number): void {
    this.check(nowMs);
    this.lastMs = nowMs;
    this.monitoring = true;
  }

  /** Silence so far as a fraction of the timeout (>= 1 means suspected); 0 before the first heartbeat. */
  suspicion(nowMs: number): number {
    this.check(nowMs);
    return this.monitoring ? (nowMs - this.lastMs) / this.timeoutMs : 0;
  }

  isAvailable(nowMs: number): boolean {
    this.check(nowMs);
    return !this.monitoring || this.lastMs + this.timeoutMs > nowMs;
  }

  private check(nowMs: number): void {
    checkTime("FixedTimeoutDetector", nowMs);
    if (this.monitoring && nowMs < this.lastMs)
      throw timeWentBackwards("FixedTimeoutDetector", nowMs, this.lastMs);
  }
}

/**
 * Kubernetes node-lease defaults: kubelet `KubeletConfiguration.nodeLeaseDurationSeconds: 40`, and the kubelet
 * renews every `nodeLeaseDurationSeconds × 0.25` = 10 s (`NodeLeaseRenewIntervalFraction = 0.25`,
 * kubernetes `pkg/kubelet/kubelet.go`).
 */
export const KUBELET_LEASE_DEFAULTS = {
  durationMs: 40_000,
  renewIntervalMs: 10_000,
} as const;

export interface LeaseOptions {
  durationMs?: number;
  renewIntervalMs?: number;
  /** Bound on clock-rate difference between holder and grantor over one lease term (ms); default 0. */
  maxClockDriftMs?: number;
}

/**
 * A lease as the grantor sees it: one holder at a time; the holder must renew before expiry; the grantor
 * promises not to grant the lease to anyone else until `lastRenew + duration` has passed on its clock.
 *
 * - Held while `renewedAt + duration > now` (strict; client-go leaderelection treats the lease as held while
 *   `observedTime + leaseDuration` is after now).
 * - `tryAcquire(holder, now)`: granted if free, expired, or already this holder's.
 * - `renew(holder, now)`: only the current holder, only before expiry (a late renewal must re-acquire).
 * - The holder's side of the contract: act as holder only until `renewSentAt + duration − maxClockDrift`,
 *   measured from when it *sent* the renewal ({@link holderMustStopBy}).
 *
 * As a failure detector (`heartbeat`/`isAvailable`), the holder is alive while its lease is unexpired.
 */
export class LeaseDetector implements HeartbeatDetector {
  readonly durationMs: number;
  readonly renewIntervalMs: number;
  readonly maxClockDriftMs: number;
  private holderId: string | undefined;
  private renewedAtMs = 0;

  constructor(options?: LeaseOptions | null) {
    const owner = "LeaseDetector";
    const o = optionsOf(owner, options, ["durationMs", "renewIntervalMs", "maxClockDriftMs"]);
    this.durationMs = optionalNumber(owner, o, "durationMs", KUBELET_LEASE_DEFAULTS.durationMs);
    this.renewIntervalMs = optionalNumber(
      owner,
      o,
      "renewIntervalMs",
      KUBELET_LEASE_DEFAULTS.renewIntervalMs,
    );
    this.maxClockDriftMs = optionalNumber(owner, o, "maxClockDriftMs", 0);
    if (!(this.durationMs > 0 && this.durationMs <= MAX_TIME_MS)) {
      throw new RangeError(`${owner}: durationMs must be > 0, got ${this.durationMs}`);
    }
    if (!(this.renewIntervalMs > 0 && this.renewIntervalMs < this.durationMs)) {
      throw new RangeError(
        `${owner}: renewIntervalMs must be > 0 and < durationMs, got ${this.renewIntervalMs}`,
      );
    }
    if (!(this.maxClockDriftMs >= 0 && this.maxClockDriftMs < this.durationMs)) {
      throw new RangeError(
        `${owner}: maxClockDriftMs must be >= 0 and < durationMs, got ${this.maxClockDriftMs}`,
      );
    }
  }

  /** Current holder at `nowMs`, or undefined when free or expired. */
  holder(nowMs: number): string | undefined {
    this.check(nowMs);
    return this.holderId !== undefined && this.renewedAtMs + this.durationMs > nowMs
      ? this.holderId
      : undefined;
  }

  /** The grantor's clock is monotonic: a time before the last grant or renewal is a RangeError. */
  private check(nowMs: number): void {
    checkTime("LeaseDetector", nowMs);
    if (this.holderId !== undefined && nowMs < this.renewedAtMs) {
      throw timeWentBackwards("LeaseDetector", nowMs, this.renewedAtMs);
    }
  }

  /** When the current term ends on the grantor's clock (undefined if never granted). */
  get expiresAtMs(): number | undefined {
    return this.holderId === undefined ? undefined : this.renewedAtMs + this.durationMs;
  }

  tryAcquire(holder: string, nowMs: number): boolean {
    const current = this.holder(nowMs);
    if (current !== undefined && current !== holder) return false;
    this.holderId = holder;
    this.renewedAtMs = nowMs;
    return true;
  }

  renew(holder: string, nowMs: number): boolean {
    if (this.holder(nowMs) !== holder) return false;
    this.renewedAtMs = nowMs;
    return true;
  }

  release(holder: string): boolean {
    if (this.holderId !== holder) return false;
    this.holderId = undefined;
    return true;
  }

  /** The holder's own deadline for a renewal it sent at `renewSentAtMs` (its clock). */
  holderMustStopBy(renewSentAtMs: number): number {
    return checkTime("LeaseDetector", renewSentAtMs) + this.durationMs - this.maxClockDriftMs;
  }

  /** When the holder should send its next renewal after one at `lastRenewMs`. */
  nextRenewAt(lastRenewMs: number): number {
    return checkTime("LeaseDetector", lastRenewMs) + this.renewIntervalMs;
  }

  get isMonitoring(): boolean {
    return this.holderId !== undefined;
  }

  /** Failure-detector view: a renewal by the single holder "node" (acquiring if needed). */
  heartbeat(nowMs: number): void {
    if (!this.renew("node", nowMs)) this.tryAcquire("node", nowMs);
  }

  isAvailable(nowMs: number): boolean {
    const holder = this.holder(nowMs);
    return this.holderId === undefined || holder !== undefined;
  }
}

/**
 * Kafka consumer defaults: `max.poll.interval.ms = 300000` (5 min) and `session.timeout.ms = 45000`
 * (Kafka consumer configs, since 3.0).
 */
export const KAFKA_CONSUMER_DEFAULTS = {
  progressDeadlineMs: 300_000,
  heartbeatTimeoutMs: 45_000,
} as const;

export type ProgressStatus = "unmonitored" | "alive" | "silent" | "stalled";

export interface ProgressOptions {
  /** Suspect when the progress counter has not moved for this long, although beats arrive. */
  progressDeadlineMs?: number;
  /** Suspect when no beat at all arrived for this long. */
  heartbeatTimeoutMs?: number;
}

/**
 * Heartbeats that carry evidence of progress (a counter the work loop increments, an applied log index, an
 * offset). Like Kafka's two timers: `session.timeout.ms` for the heartbeat thread and `max.poll.interval.ms`
 * for the work loop. Any change of the counter counts as progress. Both deadlines are strict (expired at
 * exactly the deadline, as Kafka's `Timer.isExpired`: currentTimeMs >= deadlineMs).
 */
export class ProgressDetector implements HeartbeatDetector {
  readonly progressDeadlineMs: number;
  readonly heartbeatTimeoutMs: number;
  private monitoring = false;
  private lastBeatMs = 0;
  private lastProgressMs = 0;
  private lastProgress = 0;

  constructor(options?: ProgressOptions | null) {
    const owner = "ProgressDetector";
    const o = optionsOf(owner, options, ["progressDeadlineMs", "heartbeatTimeoutMs"]);
    const d = KAFKA_CONSUMER_DEFAULTS;
    this.progressDeadlineMs = optionalNumber(owner, o, "progressDeadlineMs", d.progressDeadlineMs);
    this.heartbeatTimeoutMs = optionalNumber(owner, o, "heartbeatTimeoutMs", d.heartbeatTimeoutMs);
    if (!(this.progressDeadlineMs > 0 && this.progressDeadlineMs <= MAX_TIME_MS)) {
      throw new RangeError(`${owner}: progressDeadlineMs must be > 0, got ${this.progressDeadlineMs}`);
    }
    if (!(this.heartbeatTimeoutMs > 0 && this.heartbeatTimeoutMs <= MAX_TIME_MS)) {
      throw new RangeError(`${owner}: heartbeatTimeoutMs must be > 0, got ${this.heartbeatTimeoutMs}`);
    }
  }

  get isMonitoring(): boolean {
    return this.monitoring;
  }

  /**
   * A beat carrying the sender's progress counter (default: unchanged, i.e. a beat without evidence). The
   * counter must be a finite number: NaN would differ from itself and count as progress on every beat.
   */
  heartbeat(nowMs: number, progress: number = this.lastProgress): void {
    this.check(nowMs);
    if (typeof progress !== "number" || !Number.isFinite(progress)) {
      throw new RangeError(`ProgressDetector: progress must be a finite number, got ${show(progress)}`);
    }
    if (!this.monitoring || progress !== this.lastProgress) {
      this.lastProgress = progress;
      this.lastProgressMs = nowMs;
    }
    this.lastBeatMs = nowMs;
    this.monitoring = true;
  }

  status(nowMs: number): ProgressStatus {
    this.check(nowMs);
    if (!this.monitoring) return "unmonitored";
    if (nowMs - this.lastBeatMs >= this.heartbeatTimeoutMs) return "silent";
    if (nowMs - this.lastProgressMs >= this.progressDeadlineMs) return "stalled";
    return "alive";
  }

  /** Time since the counter last moved (ms); 0 before the first beat. */
  stalledForMs(nowMs: number): number {
    this.check(nowMs);
    return this.monitoring ? nowMs - this.lastProgressMs : 0;
  }

  private check(nowMs: number): void {
    checkTime("ProgressDetector", nowMs);
    if (this.monitoring && nowMs < this.lastBeatMs)
      throw timeWentBackwards("ProgressDetector", nowMs, this.lastBeatMs);
  }

  isAvailable(nowMs: number): boolean {
    const s = this.status(nowMs);
    return s === "alive" || s === "unmonitored";
  }
}
