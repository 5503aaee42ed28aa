// Virtual time as the Kubernetes API writes it. A scenario's t=0 sits at an epoch on the wall:
// 2025-01-01T00:00:00Z by default (EPOCH_MS, so that every timestamp the server writes is the same
// on every run), or where `faultline serve` puts it (`--epoch`; by default the wall clock's now less
// the served moment, so that `kubectl describe`, which counts its ages client-side from the wall
// clock, reads the simulated ages). Objects made during the warm-up carry times before it. The AGE
// and LAST SEEN columns are computed by the server against the virtual now, as a real API server
// computes them against its clock. One epoch per process: startServe sets it.

import { humanDuration } from "../kubernetes/kubectl.ts";

/** t=0 of the simulation on the wall, in milliseconds since the Unix epoch: 2025-01-01T00:00:00Z. */
export const EPOCH_MS = Date.UTC(2025, 0, 1, 0, 0, 0);

let epochMs = EPOCH_MS;

/** Put t=0 at `ms` on the wall (whole seconds, so that a time's fraction is its virtual one). */
export function setEpoch(ms: number): void {
  epochMs = Math.floor(ms / 1000) * 1000;
}

/** t=0 on the wall now, in milliseconds since the Unix epoch. */
export function epoch(): number {
  return epochMs;
}

/** Whole virtual microseconds since t=0 (times are on the engine's microsecond grid). */
function micros(t: number): number {
  return Math.round(t * 1e6);
}

/**
 * metav1.Time: RFC 3339 to the second (Go's time.RFC3339 layout; the fraction is dropped, not
 * rounded), e.g. "2025-01-01T00:00:57Z".
 */
export function timeString(t: number): string {
  const ms = epochMs + Math.floor(micros(t) / 1e6) * 1000;
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** metav1.MicroTime: RFC 3339 with six fractional digits, e.g. "2025-01-01T00:00:57.123456Z". */
export function microTimeString(t: number): string {
  const us = micros(t);
  const whole = Math.floor(us / 1e6);
  const frac = us - whole * 1e6;
  return `${new Date(epochMs + whole * 1000).toISOString().slice(0, 19)}.${String(frac).padStart(6, "0")}Z`;
}

/** The virtual time of a metav1.Time or MicroTime string (for tests and the control endpoint). */
export function virtualTime(s: string): number {
  const m = /^(.*?)(?:\.(\d+))?Z$/.exec(s);
  if (!m) return Number.NaN;
  const whole = (Date.parse(`${m[1]}Z`) - epochMs) / 1000;
  return whole + (m[2] ? Number(`0.${m[2]}`) : 0);
}

/**
 * translateTimestampSince (pkg/printers/internalversion/printers.go): duration.HumanDuration of the
 * time since a metav1.Time, which holds whole seconds; "<unknown>" for a zero time.
 */
export function ageString(t: number | undefined, now: number): string {
  if (t === undefined) return "<unknown>";
  return humanDuration(now - Math.floor(micros(t) / 1e6));
}

/** The same for a MicroTime (translateMicroTimestampSince), which keeps its fraction. */
export function microAgeString(t: number | undefined, now: number): string {
  if (t === undefined) return "<unknown>";
  return humanDuration(now - t);
}

/** Nanoseconds since the Unix epoch as lower-case hex: the suffix client-go's recorder gives an Event's name. */
export function unixNanoHex(t: number): string {
  return (BigInt(epochMs) * 1_000_000n + BigInt(micros(t)) * 1000n).toString(16);
}
