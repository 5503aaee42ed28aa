// The callers' tally: every request counted by its send second and outcome, every failure (and,
// with an SLO, every slow answer) by its cause, every request's latency (latency.ts), the first and
// last failure (the loss window), per Service; the story of its failures, one episode per cause
// (episodes.ts); and the TrafficResult built from it all.

import type { Trace } from "../trace/events.ts";
import { round3 } from "../trace/format.ts";
import type { CallerGroup } from "./callers.ts";
import { QUIET } from "./episodes.ts";
import { Latency } from "./latency.ts";
import { CAUSES, OUTCOMES } from "./outcomes.ts";
import type { TrafficResult, TrafficRow, TrafficTotals } from "./result.ts";

export { QUIET };

/**
 * Without an SLO, a second's p99 this many times the caller's calmest second so far says latency
 * rose (faultline's reading of "an order of magnitude slower", for the story only: no figure
 * depends on it); with one, the SLO is the line.
 */
export const RISE = 10;

/** Columns of a per-second row: sent, then ok, timeout, refused, error (1 + outcome), slow. */
const COLUMNS = 6;
const SLOW = 5;

export class Tally {
  private readonly rows: Int32Array;
  private readonly causeCounts = new Float64Array(CAUSES.length);
  private readonly causeFirst = new Float64Array(CAUSES.length).fill(Number.POSITIVE_INFINITY);
  private readonly causeLast = new Float64Array(CAUSES.length).fill(Number.NEGATIVE_INFINITY);
  private first = Number.POSITIVE_INFINITY;
  private last = Number.NEGATIVE_INFINITY;
  private readonly latency: Latency;
  /** the longest any request can take: a second that long ago is final */
  private readonly longest: number;

  constructor(
    private readonly seconds: number,
    private readonly trace: Trace,
    groups: readonly CallerGroup[],
  ) {
    this.rows = new Int32Array((seconds + 1) * COLUMNS);
    this.latency = new Latency(groups.length, seconds);
    this.longest = Math.max(0, ...groups.map((g) => g.longest));
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

  /** A request sent at `sent` failed with `outcome`, for `cause`, at `end` (answered, or given up). */
  fail(g: CallerGroup, sent: number, outcome: number, cause: number, end: number): void {
    const sec = Math.floor(sent);
    this.rows[sec * COLUMNS + 1 + outcome]!++;
    g.totals[OUTCOMES[outcome]!]++;
    this.latency.record(g.index, sec, end - sent);
    this.count(g, sent, cause);
    g.episodes.fail(sent, outcome, cause);
  }

  /**
   * The request counted ok on connection slot `k` can no longer fail (its connection carries the
   * next one, or it has ended): its latency, and whether it was slow.
   */
  answered(g: CallerGroup, k: number): void {
    g.slotPending[k] = 0;
    const sent = g.slotSent[k]!;
    const sec = Math.floor(sent);
    this.latency.record(g.index, sec, g.slotFree[k]! - sent);
    const slow = g.slotSlow[k]!;
    if (slow === 0) return;
    this.rows[sec * COLUMNS + SLOW]!++;
    g.totals.slow!++;
    this.count(g, sent, slow - 1);
  }

  /** A failure or a slow answer, by cause and send time (the loss window). */
  private count(g: CallerGroup, sent: number, cause: number): void {
    this.causeCounts[cause]!++;
    if (sent < this.causeFirst[cause]!) this.causeFirst[cause] = sent;
    if (sent > this.causeLast[cause]!) this.causeLast[cause] = sent;
    if (sent < this.first) this.first = sent;
    if (sent > this.last) this.last = sent;
    if (sent < g.first) g.first = sent;
    if (sent > g.last) g.last = sent;
  }

  /**
   * A settle at `to` would tell nothing: no second to close (its latency told), no episode open
   * (its end told). The answers it would record are recorded by a later settle, before their
   * second closes (a histogram counts in any order).
   */
  quiet(groups: readonly CallerGroup[], to: number): boolean {
    if (this.latency.closes(this.closeUpTo(to))) return false;
    for (const g of groups) if (g.episodes.anyOpen) return false;
    return true;
  }

  /** Seconds before this one are final once every request sent before `to` is resolved. */
  private closeUpTo(to: number): number {
    return Math.floor(to - this.longest) - 1;
  }

  /**
   * Every request sent before `to` is resolved: the answers that ended by then are final, and so is
   * every second whose requests have all ended; runs of failures with QUIET seconds since their last end.
   */
  settle(groups: readonly CallerGroup[], to: number, everySlot = false): void {
    for (const g of groups) {
      const pending = g.slotPending;
      if (everySlot) {
        for (let k = 0; k < pending.length; k++) if (pending[k] && g.slotFree[k]! <= to) this.answered(g, k);
        continue;
      }
      // Only the slots set pending since the last look can be (an answer is counted into sums,
      // histograms and bounds: in any order, the same). Those still in flight stay listed.
      const list = g.pendingList;
      let kept = 0;
      for (let i = 0; i < list.length; i++) {
        const k = list[i]!;
        if (pending[k] && g.slotFree[k]! <= to) this.answered(g, k);
        if (pending[k]) list[kept++] = k;
        else g.listed[k] = 0;
      }
      list.length = kept;
    }
    this.latency.close(this.closeUpTo(to), (g, sec, p99) => this.latencyOf(groups[g]!, sec, p99));
    for (const g of groups) g.episodes.close(to);
  }

  /**
   * A closed second's p99 of group `g`: the story of its latency rising (LatencyRose) and coming
   * back (LatencyRecovered, after QUIET seconds under the line).
   */
  private latencyOf(g: CallerGroup, sec: number, p99: number): void {
    // A second whose p99 is 0 had 99% of its requests refused at once: it tells nothing of how
    // long callers wait (neither a rise nor a calm; the refusals are the failures' episodes).
    if (p99 === 0) return;
    const sloMs = g.spec.slo === undefined ? undefined : g.spec.slo * 1000;
    const line = sloMs ?? RISE * g.calmP99;
    if (p99 > line) {
      g.underFor = 0;
      if (g.slowSince < 0) {
        g.slowSince = sec;
        g.peakP99 = 0;
        this.trace.emit({
          type: "LatencyRose",
          lane: "app",
          object: `Service/${g.service}`,
          service: g.service,
          sentFrom: sec,
          p99Ms: p99,
          ...(sloMs === undefined ? { calmP99Ms: g.calmP99, factor: RISE } : { sloMs }),
        });
      }
      if (p99 > g.peakP99) {
        g.peakP99 = p99;
        g.peakAt = sec;
      }
      return;
    }
    if (p99 < g.calmP99) g.calmP99 = p99;
    if (g.slowSince < 0 || ++g.underFor < QUIET) return;
    this.trace.emit({
      type: "LatencyRecovered",
      lane: "app",
      object: `Service/${g.service}`,
      service: g.service,
      sentFrom: g.slowSince,
      peakP99Ms: g.peakP99,
      peakAt: g.peakAt,
      backAt: sec - QUIET + 1,
      p99Ms: p99,
    });
    g.slowSince = -1;
  }

  /** Every request has ended (the pending answers recorded first): the result. */
  result(
    groups: readonly CallerGroup[],
    policyOf: (service: string) => string,
    profile: string,
  ): TrafficResult {
    for (const g of groups)
      for (let k = 0; k < g.slotPending.length; k++) if (g.slotPending[k]) this.answered(g, k);
    const latency = this.latency.finish((g, sec, p99) => this.latencyOf(groups[g]!, sec, p99));
    for (const g of groups) g.episodes.close(this.seconds, true);
    const withSlo = groups.some((g) => g.totals.slow !== undefined);
    const perSecond: TrafficRow[] = [];
    const totals: TrafficTotals = { sent: 0, ok: 0, timeout: 0, refused: 0, error: 0 };
    if (withSlo) totals.slow = 0;
    const r = this.rows;
    const l = this.latency;
    const orNull = (v: number) => (Number.isNaN(v) ? null : v);
    for (let s = 0; s < this.seconds; s++) {
      const at = s * COLUMNS;
      const row: TrafficRow = {
        t: s,
        sent: r[at]!,
        ok: r[at + 1]!,
        timeout: r[at + 2]!,
        refused: r[at + 3]!,
        error: r[at + 4]!,
        ...(withSlo ? { slow: r[at + SLOW]! } : {}),
        p50Ms: orNull(l.p50[s]!),
        p99Ms: orNull(l.p99[s]!),
        maxMs: orNull(l.max[s]!),
      };
      perSecond.push(row);
      totals.sent += row.sent;
      totals.ok += row.ok;
      totals.timeout += row.timeout;
      totals.refused += row.refused;
      totals.error += row.error;
      if (withSlo) totals.slow! += row.slow!;
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
      totals: { ...totals, latencyMs: latency.all },
      perSecond,
      profile,
      causes,
      firstFailure: any ? round3(this.first) : null,
      lastFailure: any ? round3(this.last) : null,
      lossWindow: any ? round3(this.last - this.first) : 0,
      services: groups.map((g, i) => {
        const has = g.first !== Number.POSITIVE_INFINITY;
        return {
          service: g.service,
          entry: g.spec.entry,
          policy: policyOf(g.service),
          ...(g.spec.slo !== undefined ? { slo: g.spec.slo } : {}),
          totals: { ...g.totals, latencyMs: latency.groups[i]! },
          firstFailure: has ? round3(g.first) : null,
          lastFailure: has ? round3(g.last) : null,
          lossWindow: has ? round3(g.last - g.first) : 0,
        };
      }),
    };
  }
}
