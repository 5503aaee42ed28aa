// A run's timeline for the audit's page: the steps the text output of `faultline simulate` shows
// (Lease renewals only where they stop), each with its time, lane and headline, capped so that a
// sweep of hundreds of runs stays a page a browser opens.

import { proseOf } from "../report/messages/index.ts";
import { headline, laneLabel } from "../report/text.ts";
import type { SimulationResult } from "../run/result.ts";
import { shownEventIndexes } from "../trace/visible.ts";
import type { TimelineLine } from "./types.ts";

/** Steps kept per run; the rest is counted in a last line. */
export const MAX_TIMELINE_LINES = 300;

export function timelineOf(result: SimulationResult): TimelineLine[] {
  const indexes = shownEventIndexes(result.events, result.summary.duration, false, !!result.leases);
  const out: TimelineLine[] = [];
  for (const i of indexes.slice(0, MAX_TIMELINE_LINES)) {
    const e = result.events[i]!;
    out.push({ t: e.t, lane: laneLabel(e.lane), message: headline(e, proseOf(e).message) });
  }
  const more = indexes.length - MAX_TIMELINE_LINES;
  if (more > 0) {
    const last = result.events[indexes.at(-1)!]!;
    out.push({
      t: last.t,
      lane: "",
      message: `… and ${more} more steps (run the scenario with faultline simulate to see them all)`,
    });
  }
  return out;
}
