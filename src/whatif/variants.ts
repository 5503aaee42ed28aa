// `--vary`: the scenario run once per value, and a table of what each variant lost and when.

import { type SimulateOptions, type SimulationResult, simulate } from "../run/simulate.ts";
import type { Scenario } from "../scenario/types.ts";
import type { TrafficResult } from "../traffic/result.ts";
import { formatMilestones, milestonesOf } from "./milestones.ts";
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

/**
 * The comparison as the command prints it: a table, or with --json the variants' traffic results.
 * Without callers (no `traffic` section) it compares what the cluster did instead (milestones.ts).
 */
export function formatVariants(name: string, runs: VariantRun[], json: boolean): string {
  const hasTraffic = runs.some(({ result }) => result.traffic !== undefined);
  if (!hasTraffic) {
    if (json)
      return `${JSON.stringify(
        runs.map(({ variant, result }) => ({ variant, milestones: milestonesOf(result) })),
        null,
        2,
      )}\n`;
    return formatMilestones(name, runs);
  }
  const results = runs.map(({ variant, result }) => ({ variant, traffic: result.traffic }));
  if (json) return `${JSON.stringify(results, null, 2)}\n`;
  return formatComparison(name, results);
}

export function formatComparison(name: string, results: VariantResult[]): string {
  const head = [
    "variant",
    "sent",
    "lost",
    "timeout",
    "refused",
    "error",
    "first",
    "last",
    "window",
    "causes",
  ];
  const rows = results.map(({ variant, traffic: t }) => {
    if (!t) return [variant, "-", "-", "-", "-", "-", "-", "-", "-", "no traffic section"];
    const lost = t.totals.timeout + t.totals.refused + t.totals.error;
    return [
      variant,
      String(t.totals.sent),
      String(lost),
      String(t.totals.timeout),
      String(t.totals.refused),
      String(t.totals.error),
      t.firstFailure === null ? "-" : `${t.firstFailure.toFixed(1)}s`,
      t.lastFailure === null ? "-" : `${t.lastFailure.toFixed(1)}s`,
      `${t.lossWindow.toFixed(1)}s`,
      t.causes.map((c) => `${c.count} ${c.cause}`).join("; "),
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (i === 9 ? 0 : r[i]!.length))));
  const line = (r: string[]) => r.map((c, i) => (i === 9 ? c : c.padEnd(widths[i]!))).join("  ");
  const when = results.flatMap(({ variant, traffic: t }) =>
    t && t.causes.length > 0
      ? [
          `  ${variant} loses:`,
          ...t.causes.map(
            (c) =>
              `    ${String(c.count).padStart(6)} from t+${c.first.toFixed(1)}s to t+${c.last.toFixed(1)}s: ${c.cause}`,
          ),
        ]
      : [`  ${variant} loses nothing`],
  );
  return `faultline simulate · ${name} · comparison\n\n${[line(head), ...rows.map(line)].join("\n")}\n\nWhen each variant loses what (by send time)\n${when.join("\n")}\n`;
}
