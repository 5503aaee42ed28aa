// Which events a reader is shown. Lease renewals are the heartbeat: one every 10 s per node is noise,
// but the last one before a node goes silent is the moment everything else is measured from.

import type { TraceEvent } from "./events.ts";

/**
 * Indexes of the events worth showing: every event but Lease renewals, and of those only a renewal
 * followed by silence — no next renewal of that Lease within 3 of its usual intervals (the median gap
 * between its renewals; 10 s each by default), while the run went on that long.
 */
export function visibleEventIndexes(events: readonly TraceEvent[], duration: number): number[] {
  const renewals = new Map<string, number[]>();
  events.forEach((e, i) => {
    if (e.type !== "LeaseRenewed") return;
    const list = renewals.get(e.object);
    if (list) list.push(i);
    else renewals.set(e.object, [i]);
  });
  const shown = new Set<number>();
  for (const list of renewals.values()) {
    const gaps = list.slice(1).map((idx, k) => events[idx]!.t - events[list[k]!]!.t);
    const silence = 3 * (median(gaps) ?? 10);
    list.forEach((idx, k) => {
      const t = events[idx]!.t;
      const next = list[k + 1];
      if (next === undefined ? duration - t > silence : events[next]!.t - t > silence) shown.add(idx);
    });
  }
  const out: number[] = [];
  events.forEach((e, i) => {
    if (e.type !== "LeaseRenewed" || shown.has(i)) out.push(i);
  });
  return out;
}

function median(xs: number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
