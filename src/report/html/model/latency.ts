// How long the callers waited, second by second of send time, as the page's latency chart and its table
// show it: the run's own per-second percentiles (the JSON's `traffic.perSecond` p50Ms/p99Ms/maxMs, each
// second's requests merged in an HdrHistogram by src/traffic/latency.ts), the callers' timeouts and SLOs
// as lines, and the loss window (send times of the first and the last request lost or slow).

import type { Scenario } from "../../../scenario/types.ts";
import { lostOrSlow } from "../../../traffic/result.ts";
import type { ReportResult } from "./payload.ts";

/** A level the callers set: their timeout (per attempt) or their SLO, with the Services that set it. */
export interface LatencyLine {
  kind: "timeout" | "slo";
  ms: number;
  services: string[];
}

/** Consecutive seconds of send time with the same percentiles: one row of the chart's table. */
export interface LatencyRange {
  /** first and last second of send time (each row of perSecond covers [t, t+1)) */
  from: number;
  to: number;
  sent: number;
  /** lost, or slow where a caller sets an SLO */
  lost: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
}

export interface LatencySeries {
  t: number[];
  p50: (number | null)[];
  p99: (number | null)[];
  max: (number | null)[];
  lines: LatencyLine[];
  /** send times of the first and the last request lost or slow; null: none */
  window: { first: number; last: number } | null;
  rows: LatencyRange[];
}

/** The run's latency per second; null when it has no callers (no `traffic` section) or sent nothing. */
export function latencySeries(result: ReportResult, scenario: Scenario): LatencySeries | null {
  const traffic = result.traffic;
  const ps = traffic?.perSecond ?? [];
  if (!traffic || !ps.some((p) => p.sent > 0)) return null;
  const lines: LatencyLine[] = [];
  const line = (kind: LatencyLine["kind"], seconds: number | undefined, service: string) => {
    if (seconds === undefined) return;
    const ms = seconds * 1000;
    const same = lines.find((l) => l.kind === kind && l.ms === ms);
    if (same) same.services.push(service);
    else lines.push({ kind, ms, services: [service] });
  };
  for (const c of scenario.traffic ?? []) {
    line("timeout", c.timeout, c.service);
    line("slo", c.slo, c.service);
  }
  const rows: LatencyRange[] = [];
  for (const p of ps) {
    const lost = lostOrSlow(p);
    const last = rows[rows.length - 1];
    if (
      last &&
      last.to === p.t - 1 &&
      last.p50Ms === p.p50Ms &&
      last.p99Ms === p.p99Ms &&
      last.maxMs === p.maxMs &&
      last.lost > 0 === lost > 0
    ) {
      last.to = p.t;
      last.sent += p.sent;
      last.lost += lost;
    } else
      rows.push({ from: p.t, to: p.t, sent: p.sent, lost, p50Ms: p.p50Ms, p99Ms: p.p99Ms, maxMs: p.maxMs });
  }
  return {
    t: ps.map((p) => p.t),
    p50: ps.map((p) => p.p50Ms),
    p99: ps.map((p) => p.p99Ms),
    max: ps.map((p) => p.maxMs),
    lines,
    window:
      traffic.firstFailure === null || traffic.lastFailure === null
        ? null
        : { first: traffic.firstFailure, last: traffic.lastFailure },
    rows,
  };
}
