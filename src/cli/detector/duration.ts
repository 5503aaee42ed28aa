// Durations on the detector command line and in gaps files: Go-style with a unit (500ms, 1s, 1m30s, 2h), parsed
// by the project's one duration parser (load/units.ts `parseDuration`, seconds) and returned in milliseconds
// to the nanosecond. On the command line a bare number other than 0 is refused, as on every command
// (cli/duration-flag.ts).

import { MAX_TIME_MS } from "../../detectors/index.ts";
import { parseDuration } from "../../load/units.ts";
import { durationFlag } from "../duration-flag.ts";
import { UsageError } from "../io.ts";

/** Printed under `faultline detector --help` and each subcommand's help. */
export const DURATION_HELP = `
Durations take a unit, as in scenario files (Go's time.ParseDuration): 500ms, 1s, 1.5s, 1m30s, 2h.
A bare number other than 0 is refused: write 1000ms or 1s, not 1000.`;

/** A duration that must be more than 0 (a mean gap, a deviation, a scale). */
export const MORE_THAN_ZERO = { ms: Number.MIN_VALUE, rule: "must be more than 0" };

/** Milliseconds (to the nanosecond) of a Go-style duration; UnitError when `text` is not one. */
export function durationMs(text: string): number {
  return Math.round(parseDuration(text) * 1e9) / 1e6;
}

/**
 * A duration flag's value in milliseconds (to the nanosecond): a unit is required, the value must not be
 * negative and at most MAX_TIME_MS (285 years); `min.ms` is the smallest allowed, `min.rule` says so.
 */
export function duration(flag: string, text: string, min?: { ms: number; rule: string }): number {
  const ms = Math.round(durationFlag(flag, text) * 1e9) / 1e6;
  if (ms < 0) throw new UsageError(`${flag}: "${text}" is negative`);
  if (!(ms <= MAX_TIME_MS)) throw new UsageError(`${flag}: "${text}" is longer than 285 years`);
  if (min !== undefined && ms < min.ms) throw new UsageError(`${flag}: "${text}": ${min.rule}`);
  return ms;
}
