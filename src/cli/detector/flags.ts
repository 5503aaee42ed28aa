// The flags the detector commands share, and how their values are read (durations: duration.ts). Every mistake
// is a UsageError: one line, exit 2.

import type { Command } from "commander";
import {
  AKKA_CLUSTER_DEFAULTS,
  empiricalGaps,
  exponentialGaps,
  type GapDistribution,
  lognormalGaps,
  normalGaps,
  type Topology,
  withPauseTail,
} from "../../detectors/index.ts";
import { UsageError } from "../io.ts";
import { duration, MORE_THAN_ZERO } from "./duration.ts";
import { readGapsFile } from "./gaps-file.ts";

/** The most values a comma-separated list may hold, and the most rows a printed grid may have. */
export const MAX_LIST = 1000;
export const MAX_GRID_ROWS = 10_000;

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** Runs `f`, turning a RangeError (a library's refusal of a value) into a UsageError about `what`. */
export function wrap<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(`${what}: ${e.message}`);
    throw e;
  }
}

/** A comma-separated list, each item read by `item`; at most MAX_LIST items. */
export function list<T>(flag: string, text: string, item: (flag: string, text: string) => T): T[] {
  const parts = text.split(",");
  if (parts.length > MAX_LIST)
    throw new UsageError(`${flag}: at most ${MAX_LIST} values, got ${parts.length}`);
  return parts.map((p) => item(flag, p));
}

/** A number > 0 (decimal, optionally with an exponent: 1e-4), finite. */
export function positive(flag: string, text: string): number {
  const v = Number(text);
  if (!DECIMAL.test(text.trim()) || !(v > 0) || !Number.isFinite(v)) {
    throw new UsageError(`${flag}: expected a number > 0, got "${text}"`);
  }
  return v;
}

/** A φ threshold: a number above 0, at most 1000 (φ 1000 is a 10^−1000 chance of a mistake). */
export function phiThreshold(flag: string, text: string): number {
  const v = positive(flag, text);
  if (v > 1000) throw new UsageError(`${flag}: expected a phi threshold from above 0 to 1000, got "${text}"`);
  return v;
}

/** A number >= 0, finite. */
export function nonNegative(flag: string, text: string): number {
  const v = Number(text);
  if (!DECIMAL.test(text.trim()) || !(v >= 0) || !Number.isFinite(v)) {
    throw new UsageError(`${flag}: expected a number >= 0, got "${text}"`);
  }
  return v;
}

/** A probability in [0, 1) (or (0, 1) with `open`). */
export function probability(flag: string, text: string, open = false): number {
  const v = Number(text);
  const ok = DECIMAL.test(text.trim()) && (open ? v > 0 : v >= 0) && v < 1;
  if (!ok)
    throw new UsageError(`${flag}: expected a probability in ${open ? "(0" : "[0"}, 1), got "${text}"`);
  return v;
}

/** A whole number (digits, `_` allowed between them as in `--max-events`) from `min` to `max`. */
export function integer(flag: string, text: string, min: number, max: number): number {
  const v = Number(text.trim().replace(/_/g, ""));
  if (!/^\d[\d_]*$/.test(text.trim()) || !(v >= min && v <= max)) {
    throw new UsageError(`${flag}: expected a whole number from ${min} to ${max}, got "${text}"`);
  }
  return v;
}

export function topology(text: string): Topology {
  if (text === "all-to-all" || text === "lease") return { kind: text };
  const m = /^watchers:(\d+)$/.exec(text);
  if (m) return { kind: "watchers", k: integer("--topology", m[1]!, 1, 100_000) };
  throw new UsageError(`--topology: expected all-to-all, lease or watchers:K, got "${text}"`);
}

// ---- gap distribution flags ------------------------------------------------------------------------------

export interface DistFlags {
  meanGap: string;
  dist: string;
  jitter?: string;
  sigma?: string;
  tail?: string;
  gapsFile?: string;
}

export function addDistOptions(cmd: Command): Command {
  return cmd
    .option("--mean-gap <duration>", "mean gap between heartbeats", "1s")
    .option("--dist <kind>", "gap distribution: normal, exponential or lognormal", "normal")
    .option("--jitter <duration>", "standard deviation of normal gaps (default: 10% of the mean gap)")
    .option("--sigma <number>", "log-space sigma of lognormal gaps", "0.25")
    .option(
      "--tail <T:P[:scale]>",
      "GC-pause tail: P(gap > T) = P, the excess exponential with mean scale (default 1s), e.g. 5s:1e-4",
    )
    .option(
      "--gaps-file <path>",
      'measured gaps, whitespace- or comma-separated, each with its unit (1.02s, 980ms), or bare numbers after a line "# unit: ms"',
    );
}

export function buildDistribution(f: DistFlags): GapDistribution {
  if (f.gapsFile !== undefined) {
    const gaps = readGapsFile(f.gapsFile);
    return wrap("--gaps-file", () => empiricalGaps(gaps, f.gapsFile));
  }
  const mean = duration("--mean-gap", f.meanGap, MORE_THAN_ZERO);
  let base: GapDistribution;
  if (f.dist === "normal") {
    // faultline choice: a regular beat with 10% jitter when --jitter is not given.
    const sd = f.jitter !== undefined ? duration("--jitter", f.jitter, MORE_THAN_ZERO) : mean / 10;
    base = wrap("--jitter", () => normalGaps(mean, sd));
  } else if (f.dist === "exponential") {
    base = exponentialGaps(mean);
  } else if (f.dist === "lognormal") {
    base = wrap("--sigma", () => lognormalGaps(mean, positive("--sigma", f.sigma ?? "0.25")));
  } else {
    throw new UsageError(`--dist: expected normal, exponential or lognormal, got "${f.dist}"`);
  }
  if (f.tail === undefined) return base;
  const parts = f.tail.split(":");
  if (parts.length < 2 || parts.length > 3)
    throw new UsageError(`--tail: expected T:P[:scale], got "${f.tail}"`);
  const t = duration("--tail", parts[0]!);
  const p = probability("--tail", parts[1]!, true);
  // faultline choice: GC pauses beyond T spread with a 1 s mean excess unless :scale is given.
  const scale = parts[2] !== undefined ? duration("--tail", parts[2], MORE_THAN_ZERO) : 1000;
  return wrap("--tail", () => withPauseTail(base, t, p, scale));
}

// ---- Akka's settings -------------------------------------------------------------------------------------

export interface AkkaFlags {
  pause: string;
  minStd: string;
  std?: string;
}

export function addAkkaOptions(cmd: Command): Command {
  const d = AKKA_CLUSTER_DEFAULTS;
  return cmd
    .option(
      "--pause <duration>",
      "Akka's acceptable-heartbeat-pause (akka-cluster reference.conf: 3 s)",
      `${d.acceptableHeartbeatPauseMs / 1000}s`,
    )
    .option(
      "--min-std <duration>",
      "Akka's min-std-deviation, the floor of the deviation (akka-cluster reference.conf: 100 ms)",
      `${d.minStdDeviationMs}ms`,
    );
}

/** Akka's acceptable pause and min-std floor, parsed from their flags. */
export function akkaSettings(opts: AkkaFlags): { pause: number; minStd: number } {
  return { pause: duration("--pause", opts.pause), minStd: duration("--min-std", opts.minStd) };
}

/** `--std` (the normal model's learned deviation) and `--json`, for the commands that print a φ model grid. */
export function addModelGridOptions(cmd: Command): Command {
  return cmd
    .option(
      "--std <duration>",
      "learned standard deviation for the normal model (default: the min-std floor)",
    )
    .option("--json", "print JSON");
}

export function learnedStd(opts: AkkaFlags): number {
  return opts.std !== undefined ? duration("--std", opts.std) : 0;
}

/** The learned mean gaps of `--mean-gap`, each more than 0. */
export function meanGaps(text: string): number[] {
  return list("--mean-gap", text, (f, t) => duration(f, t, MORE_THAN_ZERO));
}

/** Akka's normal model from its flags: acceptable pause, min-std floor and learned deviation (ms). */
export function normalModel(opts: AkkaFlags): { pause: number; minStd: number; std: number } {
  return { ...akkaSettings(opts), std: learnedStd(opts) };
}

/** One row for each learned mean gap and each value (a silence, a threshold), mean gaps outermost. */
export function modelGrid<R>(
  flags: string,
  means: number[],
  values: number[],
  row: (mean: number, value: number) => R,
): R[] {
  if (means.length * values.length > MAX_GRID_ROWS) {
    throw new UsageError(
      `${flags}: ${means.length} × ${values.length} = ${means.length * values.length} rows; at most ${MAX_GRID_ROWS.toLocaleString("en-US")}`,
    );
  }
  return means.flatMap((mean) => values.map((value) => row(mean, value)));
}
