// Things around a detector: the monitor's own pause, per-action thresholds, a cap on correlated evictions, and
// a registry keyed by peer.

import type { HeartbeatDetector } from "./akka.ts";
import { CASSANDRA_DEFAULTS } from "./cassandra.ts";
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
 * A monitor that notices its own long pause stops judging for a while instead of convicting every peer.
 *
 * Rule: apache/cassandra `FailureDetector.java` `interpret`: the gap since the previous judgement is measured;
 * if it is greater than `maxLocalPauseMs` the monitor records a pause at `now` and judges no one ("Not marking
 * nodes down due to local pause"); while `now − lastPause < maxLocalPauseMs` it still judges no one ("Still not
 * marking nodes down due to local pause"). Call `check(now)` once per judging round (for example on each
 * periodic tick) and judge only if it returns true. The first call only starts the clock (Cassandra starts it
 * at construction). Optionally `onPause` lets the caller reset detectors when a pause is noticed.
 */
export class SelfPauseGuard {
  readonly maxLocalPauseMs: number;
  private lastCheckMs = 0;
  private started = false;
  private lastPauseMs = Number.NEGATIVE_INFINITY;
  private pauses = 0;
  private readonly onPause: ((nowMs: number, pauseMs: number) => void) | undefined;

  constructor(
    options?: { maxLocalPauseMs?: number; onPause?: (nowMs: number, pauseMs: number) => void } | null,
  ) {
    const owner = "SelfPauseGuard";
    const o = optionsOf(owner, options, ["maxLocalPauseMs", "onPause"]);
    this.maxLocalPauseMs = optionalNumber(owner, o, "maxLocalPauseMs", CASSANDRA_DEFAULTS.maxLocalPauseMs);
    if (!(this.maxLocalPauseMs > 0 && this.maxLocalPauseMs <= MAX_TIME_MS)) {
      throw new RangeError(`${owner}: maxLocalPauseMs must be > 0, got ${this.maxLocalPauseMs}`);
    }
    if (o.onPause !== undefined && typeof o.onPause !== "function") {
      throw new TypeError(`${owner}: onPause must be a function`);
    }
    this.onPause = o.onPause;
  }

  /** Number of self-pauses noticed so far. */
  get pauseCount(): number {
    return this.pauses;
  }

  /** True if the monitor may judge its peers at `nowMs`. */
  check(nowMs: number): boolean {
    checkTime("SelfPauseGuard", nowMs);
    if (this.started && nowMs < this.lastCheckMs)
      throw timeWentBackwards("SelfPauseGuard", nowMs, this.lastCheckMs);
    if (!this.started) {
      this.started = true;
      this.lastCheckMs = nowMs;
      return true;
    }
    const gap = nowMs - this.lastCheckMs;
    this.lastCheckMs = nowMs;
    if (gap > this.maxLocalPauseMs) {
      this.lastPauseMs = nowMs;
      this.pauses++;
      this.onPause?.(nowMs, gap);
      return false;
    }
    return !(nowMs - this.lastPauseMs < this.maxLocalPauseMs);
  }
}

/** Anything that reports a suspicion level. */
export interface SuspicionSource {
  phi(nowMs: number): number;
}

export interface ThresholdChange<A extends string> {
  action: A;
  /** true: the action's threshold was reached; false: suspicion fell back below it. */
  active: boolean;
  phi: number;
}

/**
 * One detector, several consumers, each with its own threshold (a load balancer stops routing at 3, the
 * cluster manager evicts at 8). An action is active while φ >= its threshold — the complement of Akka's strict
 * `isAvailable = φ < threshold`. `poll(now)` reports only the changes since the previous poll.
 */
export class PerActionThresholds<A extends string> {
  private readonly entries: Array<{ action: A; threshold: number; active: boolean }>;

  constructor(
    private readonly source: SuspicionSource,
    thresholds: Record<A, number>,
  ) {
    if (typeof thresholds !== "object" || thresholds === null) {
      throw new TypeError(
        `PerActionThresholds: thresholds must be an object of action → φ, got ${show(thresholds)}`,
      );
    }
    this.entries = (Object.entries(thresholds) as Array<[A, number]>).map(([action, threshold]) => {
      if (!(typeof threshold === "number" && threshold > 0)) {
        throw new RangeError(
          `PerActionThresholds: threshold for ${action} must be a number > 0, got ${show(threshold)}`,
        );
      }
      return { action, threshold, active: false };
    });
  }

  /** Actions whose threshold φ has reached at `nowMs`. */
  active(nowMs: number): A[] {
    const p = this.source.phi(nowMs);
    return this.entries.filter((e) => !(p < e.threshold)).map((e) => e.action);
  }

  poll(nowMs: number): Array<ThresholdChange<A>> {
    const p = this.source.phi(nowMs);
    const changes: Array<ThresholdChange<A>> = [];
    for (const e of this.entries) {
      const now = !(p < e.threshold);
      if (now !== e.active) {
        e.active = now;
        changes.push({ action: e.action, active: now, phi: p });
      }
    }
    return changes;
  }
}

export interface EvictionGuardOptions {
  /** Fraction of the cluster that may be convicted per window, e.g. 0.1. */
  maxFraction: number;
  clusterSize: number;
  /** Sliding window (ms); default one minute, the unit the cap is stated in. */
  windowMs?: number;
  /** At least this many per window even in tiny clusters; default 1. */
  minPerWindow?: number;
}

/**
 * Correlated-eviction guard: at most ⌊maxFraction · clusterSize⌋ (but at least `minPerWindow`) convictions in
 * any sliding window. A network blip that makes many nodes look dead at once then evicts a few and defers the
 * rest, which usually come back before their turn. (The same idea as kube-controller-manager's
 * `--node-eviction-rate` and `--unhealthy-zone-threshold`.)
 */
export class EvictionGuard {
  readonly limit: number;
  readonly windowMs: number;
  private readonly times: number[] = [];
  private denied = 0;

  constructor(options: EvictionGuardOptions) {
    const owner = "EvictionGuard";
    const o = optionsOf(owner, options, ["maxFraction", "clusterSize", "windowMs", "minPerWindow"]);
    const maxFraction = requiredNumber(
      owner,
      o,
      "maxFraction",
      "the fraction of the cluster that may be convicted per window, e.g. 0.1",
    );
    const clusterSize = requiredNumber(owner, o, "clusterSize", "the number of nodes in the cluster");
    if (!(maxFraction >= 0 && maxFraction <= 1)) {
      throw new RangeError(`${owner}: maxFraction must be in [0, 1], got ${maxFraction}`);
    }
    if (!(Number.isSafeInteger(clusterSize) && clusterSize > 0)) {
      throw new RangeError(`${owner}: clusterSize must be a positive integer, got ${clusterSize}`);
    }
    this.windowMs = optionalNumber(owner, o, "windowMs", 60_000); // the cap is stated "per minute"
    if (!(this.windowMs > 0 && this.windowMs <= MAX_TIME_MS)) {
      throw new RangeError(`${owner}: windowMs must be > 0, got ${this.windowMs}`);
    }
    const minPerWindow = optionalNumber(owner, o, "minPerWindow", 1);
    if (!(Number.isSafeInteger(minPerWindow) && minPerWindow >= 0)) {
      throw new RangeError(`${owner}: minPerWindow must be an integer >= 0, got ${minPerWindow}`);
    }
    this.limit = Math.max(minPerWindow, Math.floor(maxFraction * clusterSize));
  }

  private expire(nowMs: number): void {
    checkTime("EvictionGuard", nowMs);
    const last = this.times[this.times.length - 1];
    if (last !== undefined && nowMs < last) throw timeWentBackwards("EvictionGuard", nowMs, last);
    while (this.times.length > 0 && this.times[0]! <= nowMs - this.windowMs) this.times.shift();
  }

  /** Convictions still allowed in the window ending at `nowMs`. */
  remaining(nowMs: number): number {
    this.expire(nowMs);
    return Math.max(0, this.limit - this.times.length);
  }

  /** Ask to convict one node at `nowMs`; true (and counted) if within the cap, false (deferred) otherwise. */
  tryEvict(nowMs: number): boolean {
    this.expire(nowMs);
    if (this.times.length >= this.limit) {
      this.denied++;
      return false;
    }
    this.times.push(nowMs);
    return true;
  }

  /** How many requests were refused so far. */
  get deniedCount(): number {
    return this.denied;
  }
}

/**
 * A detector per peer, created on the first heartbeat (Akka `DefaultFailureDetectorRegistry.scala`): an unknown
 * peer is available and not monitored; `remove` drops the detector so the next heartbeat starts fresh.
 */
export class FailureDetectorRegistry<K, D extends HeartbeatDetector = HeartbeatDetector> {
  private readonly detectors = new Map<K, D>();

  constructor(private readonly factory: (key: K) => D) {
    if (typeof factory !== "function") {
      throw new TypeError(
        "FailureDetectorRegistry: missing factory (a function making a detector for a new peer)",
      );
    }
  }

  heartbeat(key: K, nowMs: number): void {
    let d = this.detectors.get(key);
    if (d === undefined) {
      d = this.factory(key);
      this.detectors.set(key, d);
    }
    d.heartbeat(nowMs);
  }

  isAvailable(key: K, nowMs: number): boolean {
    const d = this.detectors.get(key);
    return d === undefined ? true : d.isAvailable(nowMs);
  }

  isMonitoring(key: K): boolean {
    return this.detectors.get(key)?.isMonitoring ?? false;
  }

  get(key: K): D | undefined {
    return this.detectors.get(key);
  }

  remove(key: K): void {
    this.detectors.delete(key);
  }

  reset(): void {
    this.detectors.clear();
  }

  keys(): K[] {
    return [...this.detectors.keys()];
  }
}
