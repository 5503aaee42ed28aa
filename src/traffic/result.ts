// What the callers felt, as a run reports it (SimulationResult.traffic, the JSON's `traffic`): the
// totals by outcome, per second of send time, per Service, each failure's cause, the loss window
// and what each lever saves. The one definition of these types.

export interface TrafficTotals {
  sent: number;
  ok: number;
  timeout: number;
  refused: number;
  error: number;
}

/** One second of send time. */
export interface TrafficRow extends TrafficTotals {
  t: number;
}

export interface ServiceTraffic {
  service: string;
  entry: string;
  policy: string;
  totals: TrafficTotals;
  firstFailure: number | null;
  lastFailure: number | null;
  lossWindow: number;
}

/** What one setting changed would save (src/traffic/levers.ts). */
export interface Lever {
  lever: string;
  lost: number;
  lossWindow: number;
  /** seconds the loss window shrinks by (negative: grows) */
  shortensBy: number;
  /** lost requests saved (negative: more lost) */
  saves: number;
}

export interface TrafficResult {
  totals: TrafficTotals;
  perSecond: TrafficRow[];
  profile: string;
  /** every failure attributed to one cause, with the send times of its first and last request */
  causes: { cause: string; count: number; first: number; last: number }[];
  /** send time of the first and the last failed request */
  firstFailure: number | null;
  lastFailure: number | null;
  lossWindow: number;
  services: ServiceTraffic[];
  levers?: Lever[];
}
