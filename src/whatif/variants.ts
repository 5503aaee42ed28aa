// `--vary`: the scenario run once per value, and a table of what each variant lost and when.

import { type Versioned, versioned } from "../report/contract.ts";
import { type SimulateOptions, type SimulationResult, simulate } from "../run/simulate.ts";
import type { Scenario } from "../scenario/types.ts";
import { lostOrSlow, type TrafficResult } from "../traffic/result.ts";
import { formatMilestones, type Milestones, milestonesOf } from "./milestones.ts";
import { applyVariation, parseVary } from "./vary.ts";

export interface VariantResult {
  variant: string;
  traffic: TrafficResult | undefined;
}

/** One variant's whole run, for the HTML report's side-by-side view. */
export interface VariantRun {
  variant: string;
  result: SimulationResult;
}

/** One variant's scenario, as loaded with its patches. */
export interface Variant {
  variant: string;
  scenario: Scenario;
}

/**
 * Every variant `--vary KEY=V1,V2` asks for, each loaded (and so validated) before any is run: a
 * LoadError naming the first bad value, before minutes of simulation.
 */
export function variantsOf(scenario: Scenario, vary: string): Variant[] {
  const { key, values } = parseVary(vary);
  return values.map((v) => ({ variant: `${key}=${v}`, scenario: applyVariation(scenario, key, v) }));
}

export function simulateVariants(
  scenario: Scenario,
  vary: string,
  seed?: number,
  options: Omit<SimulateOptions, "seed"> = {},
): VariantRun[] {
  return variantsOf(scenario, vary).map(({ variant, scenario: s }) => ({
    variant,
    result: simulate(s, seed === undefined ? options : { ...options, seed }),
  }));
}

export function compareVariants(scenario: Scenario, vary: string, seed?: number): VariantResult[] {
  return simulateVariants(scenario, vary, seed).map(({ variant, result }) => ({
    variant,
    traffic: result.traffic,
  }));
}

/** One variant in `--vary --json`: what its callers felt, or without callers what the cluster did. */
export interface VariantJson {
  /** `KEY=VALUE`, as the table's first column */
  variant: string;
  /** the run's traffic result (as in `simulate --json`'s `traffic`), when the scenario has callers */
  traffic?: TrafficResult;
  /** when the failure handling's steps first happened (seconds), when the scenario has no callers */
  milestones?: Milestones;
}

/** `faultline simulate FILE --vary KEY=V1,V2 --json` (schemas/vary.schema.json). */
export interface VaryJson extends Versioned {
  /** the scenario's name */
  scenario: string;
  /** the key varied and its values, each run once in the order first given */
  vary: { key: string; values: string[] };
  /** `traffic` when the scenario has a traffic section (each variant's `traffic`), else `milestones` */
  compares: "traffic" | "milestones";
  variants: VariantJson[];
}

/** The comparison as `--json` prints it: versioned, then each variant's traffic or milestones. */
export function varyJson(
  name: string,
  runs: VariantRun[],
  vary: VaryJson["vary"],
  version: string,
): VaryJson {
  const hasTraffic = runs.some(({ result }) => result.traffic !== undefined);
  const variants = runs.map(({ variant, result }): VariantJson => {
    if (!hasTraffic) return { variant, milestones: milestonesOf(result) };
    return result.traffic ? { variant, traffic: result.traffic } : { variant };
  });
  return {
    ...versioned(version),
    scenario: name,
    vary: { key: vary.key, values: [...vary.values] },
    compares: hasTraffic ? "traffic" : "milestones",
    variants,
  };
}

/**
 * The comparison as the command prints it: a table of the variants' traffic results (`--json`:
 * varyJson). Without callers (no `traffic` section) it compares what the cluster did (milestones.ts).
 */
export function formatVariants(name: string, runs: VariantRun[]): string {
  const hasTraffic = runs.some(({ result }) => result.traffic !== undefined);
  if (!hasTraffic) return formatMilestones(name, runs);
  return formatComparison(
    name,
    runs.map(({ variant, result }) => ({ variant, traffic: result.traffic })),
  );
}

export function formatComparison(name: string, results: VariantResult[]): string {
  // With an SLO anywhere, every variant is compared on requests lost or slow.
  const slo = results.some(({ traffic: t }) => t?.totals.slow !== undefined);
  const head = [
    "variant",
    "sent",
    slo ? "lost or slow" : "lost",
    "timeout",
    "refused",
    "error",
    ...(slo ? ["slow"] : []),
    "p99",
    "first",
    "last",
    "window",
    "causes",
  ];
  const last = head.length - 1;
  const rows = results.map(({ variant, traffic: t }) => {
    if (!t) return [variant, ...head.slice(1, last).map(() => "-"), "no traffic section"];
    const p99 = t.totals.latencyMs?.p99;
    return [
      variant,
      String(t.totals.sent),
      String(lostOrSlow(t.totals)),
      String(t.totals.timeout),
      String(t.totals.refused),
      String(t.totals.error),
      ...(slo ? [String(t.totals.slow ?? 0)] : []),
      p99 === undefined ? "-" : `${p99}ms`,
      t.firstFailure === null ? "-" : `${t.firstFailure.toFixed(1)}s`,
      t.lastFailure === null ? "-" : `${t.lastFailure.toFixed(1)}s`,
      `${t.lossWindow.toFixed(1)}s`,
      t.causes.map((c) => `${c.count} ${c.cause}`).join("; "),
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (i === last ? 0 : r[i]!.length))));
  const line = (r: string[]) => r.map((c, i) => (i === last ? c : c.padEnd(widths[i]!))).join("  ");
  const loses = slo ? "loses or answers too slowly" : "loses";
  const when = results.flatMap(({ variant, traffic: t }) =>
    t && t.causes.length > 0
      ? [
          `  ${variant} ${loses}:`,
          ...t.causes.map(
            (c) =>
              `    ${String(c.count).padStart(6)} from t+${c.first.toFixed(1)}s to t+${c.last.toFixed(1)}s: ${c.cause}`,
          ),
        ]
      : [`  ${variant} ${loses} nothing`],
  );
  return `faultline simulate · ${name} · comparison\n\n${[line(head), ...rows.map(line)].join("\n")}\n\nWhen each variant ${loses} what (by send time)\n${when.join("\n")}\n`;
}
