// The callers' tally: every request counted by its send second and outcome, every failure by its
// cause, the first and last failure (the loss window), per Service; the story events a run of
// failures tells (RequestsFailing when it starts, RequestsRecovered after QUIET seconds without
// one); and the TrafficResult built from it all.

import { elapsed } from "../engine/time.ts";
import type { Trace } from "../trace/events.ts";
import { round3 } from "../trace/format.ts";
import type { CallerGroup } from "./callers.ts";
import { CAUSES, OUTCOMES } from "./outcomes.ts";
import type { TrafficResult, TrafficRow, TrafficTotals } from "./result.ts";

/** A caller's run of failures ends after this many seconds without one (for the story events). */
export const QUIET = 3;

/** Columns of a per-second row: sent, then ok, timeout, refused, error (1 + outcome). */
const COLUMNS = 5;

export class Tally {
  private readonly rows: Int32Array;
  private readonly causeCounts = new Float64Array(CAUSES.length);
  private readonly causeFirst = new Float64Array(CAUSES.length).fill(Number.POSITIVE_INFINITY);
  private readonly causeLast = new Float64Array(CAUSES.length).fill(Number.NEGATIVE_INFINITY);
  private first = Number.POSITIVE_INFINITY;
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly seconds: number,
    private readonly trace: Trace,
  ) {
    this.rows = new Int32Array((seconds + 1) * COLUMNS);
  }

  /** A request sent in second `sec`. */
  sent(g: CallerGroup, sec: number): void {
    this.rows[sec * COLUMNS]!++;
    g.totals.sent++;
  }

  /** A request sent in second `sec` succeeded (so far: it may still be in flight). */
  ok(g: CallerGroup, sec: number): void {
    this.rows[sec * COLUMNS + 1]!++;
    g.totals.ok++;
  }

  /** A request counted ok turns out to fail after all (retract it, then count the failure). */
  unOk(g: CallerGroup, sec: number): void {
    this.rows[sec * COLUMNS + 1]!--;
    g.totals.ok--;
  }

  /** A request sent at `sent` failed with `outcome`, for `cause`. */
  fail(g: CallerGroup, sent: number, outcome: number, cause: number): void {
    const sec = Math.floor(sent);
    this.rows[sec * COLUMNS + 1 + outcome]!++;
    g.totals[OUTCOMES[outcome]!]++;
    this.causeCounts[cause]!++;
    if (sent < this.causeFirst[cause]!) this.causeFirst[cause] = sent;
    if (sent > this.causeLast[cause]!) this.causeLast[cause] = sent;
    if (sent < this.first) this.first = sent;
    if (sent > this.last) this.last = sent;
    if (sent < g.first) g.first = sent;
    if (sent > g.last) g.last = sent;
    g.episodeLost++;
    if (!g.failing) {
      g.failing = true;
      this.trace.emit({
        type: "RequestsFailing",
        lane: "app",
        object: `Service/${g.service}`,
        service: g.service,
        outcome: OUTCOMES[outcome]!,
        cause: CAUSES[cause]!,
        sentAt: sent,
        timeoutSeconds: g.spec.timeout,
      });
    }
  }

  /** Every request sent before `to` is resolved: runs of failures with QUIET seconds since their last end. */
  settle(groups: readonly CallerGroup[], to: number): void {
    for (const g of groups) {
      if (!g.failing || elapsed(to, g.last) <= QUIET) continue;
      g.failing = false;
      this.trace.emit({
        type: "RequestsRecovered",
        lane: "app",
        object: `Service/${g.service}`,
        service: g.service,
        lost: g.episodeLost,
        lastFailureAt: g.last,
        quietSeconds: QUIET,
      });
      g.episodeLost = 0;
    }
  }

  result(
    groups: readonly CallerGroup[],
    policyOf: (service: string) => string,
    profile: string,
  ): TrafficResult {
    const perSecond: TrafficRow[] = [];
    const totals: TrafficTotals = { sent: 0, ok: 0, timeout: 0, refused: 0, error: 0 };
    const r = this.rows;
    for (let s = 0; s < this.seconds; s++) {
      const at = s * COLUMNS;
      const row = {
        t: s,
        sent: r[at]!,
        ok: r[at + 1]!,
        timeout: r[at + 2]!,
        refused: r[at + 3]!,
        error: r[at + 4]!,
      };
      perSecond.push(row);
      totals.sent += row.sent;
      totals.ok += row.ok;
      totals.timeout += row.timeout;
      totals.refused += row.refused;
      totals.error += row.error;
    }
    const causes = CAUSES.map((cause, i) => ({
      cause: cause as string,
      count: this.causeCounts[i]!,
      first: round3(this.causeFirst[i]!),
      last: round3(this.causeLast[i]!),
    }))
      .filter((c) => c.count > 0)
      .sort((a, b) => b.count - a.count);
    const any = this.first !== Number.POSITIVE_INFINITY;
    return {
      totals,
      perSecond,
      profile,
      causes,
      firstFailure: any ? round3(this.first) : null,
      lastFailure: any ? round3(this.last) : null,
      lossWindow: any ? round3(this.last - this.first) : 0,
      services: groups.map((g) => {
        const has = g.first !== Number.POSITIVE_INFINITY;
        return {
          service: g.service,
          entry: g.spec.entry,
          policy: policyOf(g.service),
          totals: { ...g.totals },
          firstFailure: has ? round3(g.first) : null,
          lastFailure: has ? round3(g.last) : null,
          lossWindow: has ? round3(g.last - g.first) : 0,
        };
      }),
    };
  }
}
