// `faultline compare`: a recording's steps against the model's, each as seconds after the node's
// last Lease renewal, with the model's spread over its seeds and whether the observed time lies in
// it. What the recording times from second-resolution fields (metav1.Time: conditions, taints,
// deletions, creations) is allowed that second either side.

import { type Fault, findFault, lastRenewal, observe } from "./observe.ts";
import {
  type ModelSettings,
  PREVIOUS,
  type Prediction,
  predict,
  SEEDS,
  type Spread,
  scenarioFor,
} from "./predict.ts";
import type { Recording } from "./read.ts";
import { STEPS, type StepKey, type StepTimes } from "./steps.ts";

export interface CompareRow {
  step: StepKey;
  what: string;
  /** where the observed time comes from */
  source: string;
  /** seconds after the observed last renewal */
  observed?: number;
  predicted?: Spread;
  /** observed less the model's median */
  difference?: number;
  /** observed inside the model's spread (± the recording's resolution) */
  inside?: boolean;
  /** the interval after the step this one follows, on each side: what one setting governs */
  interval?: { after: StepKey; observed?: number; predicted?: Spread; inside?: boolean };
}

export interface Comparison {
  recording: string;
  fault: Fault & { found: string };
  /** the observed steps' absolute times (seconds since the Unix epoch) */
  observedAt: StepTimes;
  seeds: number[];
  settings: string;
  rows: CompareRow[];
}

export class CompareError extends Error {}

/** `power-off:NODE@TIME`, TIME an RFC 3339 time. */
export function parseFaultFlag(text: string): { node: string; at: number } {
  const m = /^power-off:([^@]+)@(.+)$/.exec(text);
  const at = m ? Date.parse(m[2]!) / 1000 : Number.NaN;
  if (!m || Number.isNaN(at))
    throw new CompareError(
      `--fault: "${text}" is not power-off:NODE@TIME (TIME as RFC 3339, e.g. 2025-01-01T00:00:20Z)`,
    );
  return { node: m[1]!, at };
}

/** The fault: given, or found in the recording. */
export function faultOf(rec: Recording, given?: { node: string; at: number }): Comparison["fault"] {
  if (given) {
    const known = rec.dump.some((o) => o.kind === "Node" && o.metadata?.name === given.node);
    if (!known) throw new CompareError(`--fault: the recording's dump has no node "${given.node}"`);
    const last = lastRenewal(rec, given.node, given.at);
    return { node: given.node, lastRenewal: last, at: given.at, given: true, found: "given with --fault" };
  }
  const f = findFault(rec);
  if (!f)
    throw new CompareError(
      `${rec.file}: no node went NotReady in the recording; name the fault with --fault power-off:NODE@TIME`,
    );
  return { ...f, found: "the last Lease renewal before the node went NotReady" };
}

const SECOND_RESOLUTION = new Set<StepKey>(STEPS.map((s) => s.key).filter((k) => k !== "lease-stops"));

/** Each step's row: observed (seconds after `base`) against the model's spread, and its interval. */
export function rowsFor(observedAt: StepTimes, base: number, predicted: Prediction): CompareRow[] {
  const rows: CompareRow[] = [];
  const within = (x: number, p: Spread, tol: number) => x >= p.min - tol && x <= p.max + tol;
  for (const s of STEPS) {
    const o = observedAt[s.key];
    const p = predicted.steps[s.key];
    if (o === undefined && p === undefined) continue;
    const observed = o === undefined ? undefined : o - base;
    const tol = SECOND_RESOLUTION.has(s.key) ? 1 : 0.001;
    const after = PREVIOUS[s.key];
    const po = after ? observedAt[after] : undefined;
    const gap = o !== undefined && po !== undefined ? o - po : undefined;
    const pi = predicted.intervals[s.key];
    rows.push({
      step: s.key,
      what: s.what,
      source: s.source,
      ...(observed !== undefined ? { observed } : {}),
      ...(p ? { predicted: p } : {}),
      ...(observed !== undefined && p
        ? { difference: observed - p.median, inside: within(observed, p, tol) }
        : {}),
      ...(after && (gap !== undefined || pi)
        ? {
            interval: {
              after,
              ...(gap !== undefined ? { observed: gap } : {}),
              ...(pi ? { predicted: pi } : {}),
              // Two second-resolution ends: a second either side of each.
              ...(gap !== undefined && pi
                ? { inside: within(gap, pi, tol + (after === "lease-stops" ? 0 : 1)) }
                : {}),
            },
          }
        : {}),
    });
  }
  return rows;
}

export function compare(
  rec: Recording,
  options: {
    fault?: { node: string; at: number };
    settings?: ModelSettings;
    seeds?: number[];
    horizon?: number;
  } = {},
): Comparison {
  const fault = faultOf(rec, options.fault);
  const observedAt = observe(rec, fault);
  const base = fault.lastRenewal ?? fault.at;
  const seeds = options.seeds ?? SEEDS;
  const scenario = scenarioFor(rec.dump, fault, options.horizon ?? 600, options.settings ?? {});
  const rows = rowsFor(observedAt, base, predict(scenario, seeds));
  return {
    recording: rec.file,
    fault,
    observedAt,
    seeds,
    settings:
      options.settings?.yaml ?? "stock (the dump's objects; no controlPlane, kubelet or network settings)",
    rows,
  };
}
