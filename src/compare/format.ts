// compare's text and JSON.

import type { CompareRow, Comparison } from "./compare.ts";
import { STEPS, type StepKey } from "./steps.ts";

const WHAT = new Map<string, string>(STEPS.map((s) => [s.key, s.what]));

export const sec = (x: number) => `${x >= 0 ? "+" : "-"}${Math.abs(x).toFixed(1)}s`;
const iso = (t: number) => new Date(Math.round(t * 1000)).toISOString();

export function compareText(c: Comparison): string {
  const f = c.fault;
  const lines = [
    `faultline compare · ${c.recording}`,
    `fault: power-off ${f.node} · ${f.lastRenewal !== undefined ? `last Lease renewal ${iso(f.lastRenewal)}` : `at ${iso(f.at)} (no Lease renewal before it)`} (${f.found})`,
    `model: the recording's dump with that fault at ${iso(f.at)}, ${c.seeds.length} seeds; settings: ${c.settings}`,
    "times: seconds after the node's last Lease renewal, on each side (the kill lies in the renewal interval after it)",
    "",
  ];
  lines.push(...stepTable(c.rows, c.seeds.length));
  const moved = c.rows.filter((r) => r.inside === false);
  const first = c.rows.filter((r) => r.interval?.inside === false);
  lines.push(
    "",
    ...(first.length > 0
      ? [
          `intervals the model does not reproduce: ${first.map((r) => `${r.what} after ${WHAT.get(r.interval!.after)}`).join("; ")}`,
        ]
      : []),
    moved.length === 0
      ? "every step the recording times lies inside the model's spread"
      : `${moved.length} step${moved.length === 1 ? "" : "s"} outside the model's spread: ${moved.map((r) => r.what).join("; ")} (faultline compare --fit estimates the settings that would move them)`,
  );
  return `${lines.join("\n")}\n`;
}

export function compareJson(c: Comparison): string {
  return `${JSON.stringify(c, null, 2)}\n`;
}

/** The steps' table: observed, predicted, difference, verdict and the interval after the step before. */
export function stepTable(
  rows: CompareRow[],
  seeds: number,
  anchor?: StepKey,
  missing = "not recorded",
): string[] {
  const head = [
    "STEP",
    "OBSERVED",
    `PREDICTED (${seeds} seeds)`,
    "DIFFERENCE",
    "VERDICT",
    "AFTER THE STEP BEFORE (observed / model)",
  ];
  const range = (p: { min: number; max: number }) =>
    p.min === p.max ? sec(p.min) : `${sec(p.min)} … ${sec(p.max)}`;
  const cells = rows.map((r) => [
    r.what,
    r.observed === undefined ? missing : sec(r.observed),
    r.predicted
      ? r.predicted.min === r.predicted.max
        ? sec(r.predicted.min)
        : `${sec(r.predicted.min)} … ${sec(r.predicted.max)}`
      : "not in the model's run",
    r.difference === undefined ? "" : sec(r.difference),
    r.step === anchor
      ? "the anchor (the fault is placed from it)"
      : r.inside === undefined
        ? ""
        : r.inside
          ? "inside the model's spread"
          : "OUTSIDE the model's spread",
    r.interval
      ? `${r.interval.observed === undefined ? "?" : sec(r.interval.observed)} / ${r.interval.predicted ? range(r.interval.predicted) : "?"}${r.interval.inside === false ? "  MOVED" : ""}`
      : "",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const fmt = (r: string[]) =>
    r
      .map((x, i) => x.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [fmt(head), ...cells.map(fmt)];
}
