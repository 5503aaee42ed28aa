// Which events a reader is shown. Lease renewals are the heartbeat: one every 10 s per node is noise,
// but the last one before a node goes silent is the moment everything else is measured from.

import type { TraceEvent } from "./events.ts";
import { fillRenewals, type RunLeases, renewalBuffer } from "./lease-renewals.ts";

/** Scratch for the gaps of one Lease's renewals, reused (a day of renewals is 8,640 per node). */
let gapScratch = new Float64Array(1024);

/**
 * Which of one Lease's renewals (the first `n` times, in order) are followed by silence: no next
 * renewal within 3 of its usual intervals (the median gap), or none before the end while the run
 * went on that long.
 */
function beforeSilence(t: ArrayLike<number>, duration: number, n = t.length): number[] {
  const m = Math.max(0, n - 1);
  if (gapScratch.length < m) gapScratch = new Float64Array(m * 2);
  const gaps = gapScratch;
  for (let k = 0; k < m; k++) gaps[k] = t[k + 1]! - t[k]!;
  // The median gap (the upper one of an even count: what sorting by value and taking the middle
  // gives). A Lease renewed once has no gap: the kubelet's default 10s interval.
  const silence = 3 * (m > 0 ? select(gaps, m, m >> 1) : 10);
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const next = k + 1 < n ? t[k + 1]! : undefined;
    if (next === undefined ? duration - t[k]! > silence : next - t[k]! > silence) out.push(k);
  }
  return out;
}

/** The k-th smallest of a[0..n) (Hoare's selection, reordering a): the value a sort would put at k. */
function select(a: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const x = a[i]!;
        a[i++] = a[j]!;
        a[j--] = x;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/** The first index whose event is later than `t` (events are in time order). */
function after(events: readonly TraceEvent[], t: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (events[mid]!.t <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The events with the Lease renewals of a schedule merged in where they happened: every renewal
 * (`all`), or only those before a silence (the timeline's; the rule of visibleEventIndexes). A
 * renewal that was a pass of its own goes where it was recorded; one drawn from the schedule after
 * the events of its instant (on the microsecond grid two events rarely share one).
 */
export function withRenewals(
  events: readonly TraceEvent[],
  schedule: RunLeases,
  duration: number,
  all: boolean,
): TraceEvent[] {
  return withRenewalsCounted(events, schedule, duration, all).events;
}

/** withRenewals, and how many renewals the schedule holds (the run's summary counts them): one draw of each. */
export function withRenewalsCounted(
  events: readonly TraceEvent[],
  schedule: RunLeases,
  duration: number,
  all: boolean,
): { events: TraceEvent[]; renewals: number } {
  const until = schedule.until;
  const picks: { p: number; t: number; e: TraceEvent }[] = [];
  const buf = renewalBuffer();
  let renewals = 0;
  for (const log of schedule.logs) {
    const n = fillRenewals(log, schedule.recordedAfter, until, buf);
    renewals += n;
    const { times, at } = buf;
    const chosen = all ? Array.from({ length: n }, (_, k) => k) : beforeSilence(times, duration, n);
    for (const k of chosen) {
      const t = times[k]!;
      const p = at[k]! >= 0 ? at[k]! : after(events, t);
      picks.push({ p, t, e: { t, ...log.event } as TraceEvent });
    }
  }
  picks.sort((a, b) => a.p - b.p || a.t - b.t);
  const out: TraceEvent[] = [];
  let j = 0;
  for (let i = 0; i < events.length; i++) {
    while (j < picks.length && picks[j]!.p <= i) out.push(picks[j++]!.e);
    out.push(events[i]!);
  }
  while (j < picks.length) out.push(picks[j++]!.e);
  return { events: out, renewals };
}

/**
 * Indexes of the events worth showing: every event but Lease renewals, and of those only a renewal
 * followed by silence — no next renewal of that Lease within 3 of its usual intervals (the median gap
 * between its renewals; 10 s each by default: the kubelet renews every nodeLeaseDurationSeconds=40 ×
 * nodeLeaseRenewIntervalFraction=0.25, pkg/kubelet/kubelet.go), while the run went on that long.
 */
export function visibleEventIndexes(events: readonly TraceEvent[], duration: number): number[] {
  // One read of each event: the others' indexes in order, each Lease's renewals (index and time).
  const others: number[] = [];
  const renewals = new Map<string, { at: number[]; t: number[] }>();
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.type !== "LeaseRenewed") {
      others.push(i);
      continue;
    }
    const list = renewals.get(e.object);
    if (list) {
      list.at.push(i);
      list.t.push(e.t);
    } else renewals.set(e.object, { at: [i], t: [e.t] });
  }
  const shown: number[] = [];
  for (const { at, t } of renewals.values()) for (const k of beforeSilence(t, duration)) shown.push(at[k]!);
  if (shown.length === 0) return others;
  // Merge the few renewals shown into the others, in event order.
  shown.sort((a, b) => a - b);
  const out: number[] = [];
  let j = 0;
  for (const i of others) {
    while (j < shown.length && shown[j]! < i) out.push(shown[j++]!);
    out.push(i);
  }
  while (j < shown.length) out.push(shown[j++]!);
  return out;
}

/**
 * The events a timeline shows: every one with `allLeases`, else the visible ones (text and JSON
 * alike). `renewalsChosen`: the events hold only the renewals the timeline shows already (a run's
 * result, whose renewals are a schedule: withRenewals), so all are shown.
 */
export function shownEventIndexes(
  events: readonly TraceEvent[],
  duration: number,
  allLeases = false,
  renewalsChosen = false,
): number[] {
  return allLeases || renewalsChosen ? events.map((_, i) => i) : visibleEventIndexes(events, duration);
}

/** A result's events for a timeline: with `allLeases`, every renewal of its schedule merged in. */
export function timelineEvents(
  result: { events: TraceEvent[]; leases?: RunLeases | undefined; summary: { duration: number } },
  allLeases: boolean,
): TraceEvent[] {
  return allLeases && result.leases
    ? withRenewals(
        result.events.filter((e) => e.type !== "LeaseRenewed"),
        result.leases,
        result.summary.duration,
        true,
      )
    : result.events;
}
