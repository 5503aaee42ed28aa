// Fixed timeout, lease and progress detectors. Explicit timestamps (ms), no clock.

import type { HeartbeatDetector } from "./akka.ts";

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
    if (!(options.timeoutMs > 0)) throw new RangeError("timeoutMs must be > 0");
    this.timeoutMs = options.timeoutMs;
  }

  get isMonitoring(): boolean {
    return this.monitoring;
  }

  heartbeat(nowMs: number): void {
    this.lastMs = nowMs;
    this.monitoring = true;
  }

  /** Silence so far as a fraction of the timeout (>= 1 means suspected); 0 before the first heartbeat. */
  suspicion(nowMs: number): number {
    return this.monitoring ? (nowMs - this.lastMs) / this.timeoutMs : 0;
  }

  isAvailable(nowMs: number): boolean {
    return !this.monitoring || this.lastMs + this.timeoutMs > nowMs;
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

  constructor(options: LeaseOptions = {}) {
    this.durationMs = options.durationMs ?? KUBELET_LEASE_DEFAULTS.durationMs;
    this.renewIntervalMs = options.renewIntervalMs ?? KUBELET_LEASE_DEFAULTS.renewIntervalMs;
    this.maxClockDriftMs = options.maxClockDriftMs ?? 0;
    if (!(this.durationMs > 0)) throw new RangeError("durationMs must be > 0");
    if (!(this.renewIntervalMs > 0 && this.renewIntervalMs < this.durationMs)) {
      throw new RangeError("renewIntervalMs must be > 0 and < durationMs");
    }
    if (!(this.maxClockDriftMs >= 0 && this.maxClockDriftMs < this.durationMs)) {
      throw new RangeError("maxClockDriftMs must be >= 0 and < durationMs");
    }
  }

  /** Current holder at `nowMs`, or undefined when free or expired. */
  holder(nowMs: number): string | undefined {
    return this.holderId !== undefined && this.renewedAtMs + this.durationMs > nowMs
      ? this.holderId
      : undefined;
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
    return renewSentAtMs + this.durationMs - this.maxClockDriftMs;
  }

  /** When the holder should send its next renewal after one at `lastRenewMs`. */
  nextRenewAt(lastRenewMs: number): number {
    return lastRenewMs + this.renewIntervalMs;
  }

  get isMonitoring(): boolean {
    return this.holderId !== undefined;
  }

  /** Failure-detector view: a renewal by the single holder "node" (acquiring if needed). */
  heartbeat(nowMs: number): void {
    if (!this.renew("node", nowMs)) this.tryAcquire("node", nowMs);
  }

  isAvailable(nowMs: number): boolean {
    return this.holderId === undefined || this.holder(nowMs) !== undefined;
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

  constructor(options: ProgressOptions = {}) {
    this.progressDeadlineMs = options.progressDeadlineMs ?? KAFKA_CONSUMER_DEFAULTS.progressDeadlineMs;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? KAFKA_CONSUMER_DEFAULTS.heartbeatTimeoutMs;
    if (!(this.progressDeadlineMs > 0)) throw new RangeError("progressDeadlineMs must be > 0");
    if (!(this.heartbeatTimeoutMs > 0)) throw new RangeError("heartbeatTimeoutMs must be > 0");
  }

  get isMonitoring(): boolean {
    return this.monitoring;
  }

  /** A beat carrying the sender's progress counter (default: unchanged, i.e. a beat without evidence). */
  heartbeat(nowMs: number, progress: number = this.lastProgress): void {
    if (!this.monitoring || progress !== this.lastProgress) {
      this.lastProgress = progress;
      this.lastProgressMs = nowMs;
    }
    this.lastBeatMs = nowMs;
    this.monitoring = true;
  }

  status(nowMs: number): ProgressStatus {
    if (!this.monitoring) return "unmonitored";
    if (nowMs - this.lastBeatMs >= this.heartbeatTimeoutMs) return "silent";
    if (nowMs - this.lastProgressMs >= this.progressDeadlineMs) return "stalled";
    return "alive";
  }

  /** Time since the counter last moved (ms); 0 before the first beat. */
  stalledForMs(nowMs: number): number {
    return this.monitoring ? nowMs - this.lastProgressMs : 0;
  }

  isAvailable(nowMs: number): boolean {
    const s = this.status(nowMs);
    return s === "alive" || s === "unmonitored";
  }
}
