// Which events a reader is shown. Lease renewals are the heartbeat: one every 10 s per node is noise,
// but the last one before a node goes silent is the moment everything else is measured from.

import type { TraceEvent } from "./events.ts";

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
  for (const { at, t } of renewals.values()) {
    const gaps = new Float64Array(t.length - 1);
    for (let k = 0; k < gaps.length; k++) gaps[k] = t[k + 1]! - t[k]!;
    // The median gap (the upper one of an even count); a Float64Array sorts by value. A Lease
    // renewed once has no gap: the kubelet's default 10s interval.
    const silence = 3 * (gaps.length > 0 ? gaps.sort()[Math.floor(gaps.length / 2)]! : 10);
    for (let k = 0; k < t.length; k++) {
      const next = k + 1 < t.length ? t[k + 1]! : undefined;
      if (next === undefined ? duration - t[k]! > silence : next - t[k]! > silence) shown.push(at[k]!);
    }
  }
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

/** The events a timeline shows: every one with `allLeases`, else the visible ones (text and JSON alike). */
export function shownEventIndexes(
  events: readonly TraceEvent[],
  duration: number,
  allLeases = false,
): number[] {
  return allLeases ? events.map((_, i) => i) : visibleEventIndexes(events, duration);
}
