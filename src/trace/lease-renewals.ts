// Lease renewals as a schedule, not as events. A kubelet that nothing disturbs renews its Lease
// every renewInterval × U[1, 1 + 0.04) from the end of the last pass (wait.JitterUntil with
// jitterFactor 0.04, sliding: staging/src/k8s.io/component-helpers/apimachinery/lease/controller.go
// Run), so its renewal times are a pure function of the kubelet's random stream: a stretch of
// renewals is kept as its first time, the stream's state before its first gap was drawn, and how
// many renewals it holds (kubelet/node-lease.ts writes it). The timeline's renewals, `--all-leases`
// and the JSON's `leaseRenewals` are expanded from it, so a long healthy run keeps no event per
// renewal.

import { Rng, type RngState } from "../engine/rng.ts";
import { quantize } from "../engine/time.ts";

/** One stretch of renewals drawn one after another from the kubelet's stream. */
export interface RenewalStretch {
  /** the first renewal's time, on the engine's grid */
  start: number;
  /** the stream's state before the gap after `start` was drawn */
  rng: RngState;
  /** how many renewals the stretch holds; undefined while it is still open (it runs to the end) */
  count: number | undefined;
  /** where the first renewal was recorded among the trace's events (its index), when it was a pass of its own */
  at: number | undefined;
}

/**
 * A LeaseRenewed event without its time (node-events.ts has its fields), spelt out here so that
 * events.ts, which keeps the schedule, and this file do not import each other.
 */
export interface RenewalEvent {
  type: "LeaseRenewed";
  lane: "kubelet";
  object: string;
  node: string;
  nodeLeaseDurationSeconds: number;
  renewIntervalSeconds: number;
}

/** One node's Lease: the renewal event's fields (its time aside) and its stretches. */
export interface LeaseLog {
  event: RenewalEvent;
  /** renewInterval, seconds */
  interval: number;
  /** the jitter factor (0.04) */
  jitter: number;
  stretches: RenewalStretch[];
}

/** The run's renewals: one log per node, and when the trace began recording (the warm-up is muted). */
export interface LeaseSchedule {
  logs: LeaseLog[];
  /** renewals at or before this time were not recorded (the muted warm-up) */
  recordedAfter: number;
}

/** A result's renewals: the schedule up to the time the run had reached (inclusive). */
export interface RunLeases extends LeaseSchedule {
  until: number;
}

/** The next renewal after one at `t`: the gap drawn as the kubelet draws it, put on the engine's grid. */
export function nextRenewal(t: number, interval: number, jitter: number, rng: Rng): number {
  return quantize(t + interval * rng.uniform(1, 1 + jitter));
}

/**
 * Each renewal of a log, in order, up to `until` (inclusive), with the trace index its first
 * renewal of a stretch was recorded at (-1 when it is placed by time).
 */
export function* renewalsOf(
  log: LeaseLog,
  recordedAfter: number,
  until: number,
): Generator<[number, number]> {
  for (const s of log.stretches) {
    const rng = Rng.at(s.rng);
    let t = s.start;
    for (let k = 0; s.count === undefined ? t <= until : k < s.count; k++) {
      if (t > recordedAfter && t <= until) yield [t, k === 0 && s.at !== undefined ? s.at : -1];
      t = nextRenewal(t, log.interval, log.jitter, rng);
    }
  }
}

/** Renewal times and where each was recorded (as renewalsOf yields them), in arrays reused from log to log. */
export interface RenewalBuffer {
  times: Float64Array;
  at: Int32Array;
}

export function renewalBuffer(): RenewalBuffer {
  return { times: new Float64Array(1024), at: new Int32Array(1024) };
}

/**
 * A log's renewals up to `until` (inclusive) into the buffer, as renewalsOf yields them (no pair per
 * renewal: a day of 1,000 nodes holds 8.6 million): returns how many.
 */
export function fillRenewals(
  log: LeaseLog,
  recordedAfter: number,
  until: number,
  buf: RenewalBuffer,
): number {
  let n = 0;
  for (const s of log.stretches) {
    const rng = Rng.at(s.rng);
    let t = s.start;
    for (let k = 0; s.count === undefined ? t <= until : k < s.count; k++) {
      if (t > recordedAfter && t <= until) {
        if (n === buf.times.length) grow(buf);
        buf.times[n] = t;
        buf.at[n++] = k === 0 && s.at !== undefined ? s.at : -1;
      }
      t = nextRenewal(t, log.interval, log.jitter, rng);
    }
  }
  return n;
}

function grow(buf: RenewalBuffer): void {
  const times = new Float64Array(buf.times.length * 2);
  times.set(buf.times);
  const at = new Int32Array(buf.at.length * 2);
  at.set(buf.at);
  buf.times = times;
  buf.at = at;
}

/** Each node's renewal times (the JSON's `leaseRenewals`), nodes in the order of their first renewal. */
export function renewalTimes(schedule: RunLeases): Record<string, number[]> {
  const until = schedule.until;
  const lists: { node: string; times: number[] }[] = [];
  for (const log of schedule.logs) {
    const times: number[] = [];
    for (const [t] of renewalsOf(log, schedule.recordedAfter, until)) times.push(t);
    if (times.length > 0) lists.push({ node: log.event.node, times });
  }
  // Stable: two first renewals at one instant keep the nodes' order.
  lists.sort((a, b) => a.times[0]! - b.times[0]!);
  const out: Record<string, number[]> = {};
  for (const l of lists) out[l.node] = l.times;
  return out;
}

/** How many renewals the trace holds. */
export function renewalCount(schedule: RunLeases): number {
  let n = 0;
  const buf = renewalBuffer();
  for (const log of schedule.logs) n += fillRenewals(log, schedule.recordedAfter, schedule.until, buf);
  return n;
}
