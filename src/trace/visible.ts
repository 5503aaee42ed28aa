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
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.type !== "LeaseRenewed") continue;
    const list = renewals.get(e.object);
    if (list) list.push(i);
    else renewals.set(e.object, [i]);
  }
  // One flag per event, and one typed array of gaps per Lease: a large run has hundreds of thousands of renewals.
  const shown = new Uint8Array(events.length);
  for (const list of renewals.values()) {
    const gaps = new Float64Array(list.length - 1);
    for (let k = 0; k < gaps.length; k++) gaps[k] = events[list[k + 1]!]!.t - events[list[k]!]!.t;
    // The median gap (the upper one of an even count); a Float64Array sorts by value.
    const silence = 3 * (gaps.length > 0 ? gaps.sort()[Math.floor(gaps.length / 2)]! : 10);
    for (let k = 0; k < list.length; k++) {
      const t = events[list[k]!]!.t;
      const next = list[k + 1];
      if (next === undefined ? duration - t > silence : events[next]!.t - t > silence) shown[list[k]!] = 1;
    }
  }
  const out: number[] = [];
  for (let i = 0; i < events.length; i++)
    if (shown[i] === 1 || events[i]!.type !== "LeaseRenewed") out.push(i);
  return out;
}
