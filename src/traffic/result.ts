// What the callers felt, as a run reports it (SimulationResult.traffic, the JSON's `traffic`): the
// totals by outcome, how long requests waited, per second of send time, per Service, each failure's
// cause, the loss window and what each lever saves. The one definition of these types.

import type { LatencyMs } from "./latency.ts";

export type { LatencyMs } from "./latency.ts";

export interface TrafficTotals {
  sent: number;
  ok: number;
  timeout: number;
  refused: number;
  error: number;
  /** with an `slo`: requests answered ok but slower than it (counted in `ok` too) */
  slow?: number;
}

/** What a run's callers felt in total: the outcomes, and the latency of every request (ok or not). */
export interface TrafficSummary extends TrafficTotals {
  /** from each request's creation until its answer, or until its caller gave up; null: none sent */
  latencyMs: LatencyMs | null;
}

/** One second of send time; its requests' latency percentiles in ms (null: none sent). */
export interface TrafficRow extends TrafficTotals {
  t: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
}

export interface ServiceTraffic {
  service: string;
  entry: string;
  policy: string;
  /** the caller's SLO in seconds, when it sets one */
  slo?: number;
  totals: TrafficSummary;
  firstFailure: number | null;
  lastFailure: number | null;
  lossWindow: number;
}

/** What one setting changed would save (src/whatif/levers.ts), compared on requests lost or slow. */
export interface Lever {
  lever: string;
  /** lost, or slow where a caller sets an SLO */
  lost: number;
  lossWindow: number;
  /** seconds the loss window shrinks by (negative: grows) */
  shortensBy: number;
  /** lost requests saved (negative: more lost) */
  saves: number;
  /** the 99th percentile latency with the lever pulled, in ms (null: no request) */
  p99Ms: number | null;
}

export interface TrafficResult {
  totals: TrafficSummary;
  perSecond: TrafficRow[];
  profile: string;
  /** every failure (and slow request) attributed to one cause, with the send times of its first and last request */
  causes: { cause: string; count: number; first: number; last: number }[];
  /** send time of the first and the last failed (or slow) request */
  firstFailure: number | null;
  lastFailure: number | null;
  lossWindow: number;
  services: ServiceTraffic[];
  levers?: Lever[];
}

/** Requests lost, and with an SLO those answered too slowly: what levers and variants compare on. */
export function lostOrSlow(t: TrafficTotals): number {
  return t.timeout + t.refused + t.error + (t.slow ?? 0);
}
