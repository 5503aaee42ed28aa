// What a report page embeds (the payloads) and the lanes every view shares.

import type { DetectorAnalysis } from "../../../detectors/analysis.ts";
import type { Budget } from "../../../run/budget.ts";
import type { SimulationResult } from "../../../run/simulate.ts";
import type { Scenario } from "../../../scenario/types.ts";
import type { Lane } from "../../../trace/events.ts";

export const LANES: readonly Lane[] = ["kubelet", "app", "network", "control-plane", "operator"];
export const LANE_LABELS: Record<Lane, string> = {
  kubelet: "kubelet",
  app: "your app",
  network: "network",
  "control-plane": "control plane",
  operator: "operator",
};

/** A run as the page shows it: the command line's result, `--json`'s shape (its `traffic` with callers). */
export type ReportResult = SimulationResult;

/** One `--vary` value: the page loads its scenario again from the payload's with `key` set to `value`. */
export interface Variant {
  /** `key=value`, as the command line prints it */
  label: string;
  key: string;
  value: string;
  /** the variant's run; absent for the first, which is the payload's `result` (embedded once) */
  result?: ReportResult;
}

/** Everything a simulate report embeds: the loaded scenario (for the what-if panel) and its run. */
export interface SimulatePayload {
  kind: "simulate";
  scenario: Scenario;
  /** the run on show first: the scenario's, or with `--vary` the first variant's */
  result: ReportResult;
  /** `--vary` runs, each selectable; the what-if starts from the one on show. */
  variants?: Variant[];
  /** the run's budget (src/run/budget.ts): a what-if in the page is held to it too */
  budget: Budget;
}

/** `faultline detector compare --report`. */
export interface DetectorPayload {
  kind: "detector";
  distribution: string;
  meanGapMs: number;
  nodes: number;
  watchersPerNode: number;
  detectors: DetectorAnalysis[];
}

export type ReportPayload = SimulatePayload | DetectorPayload;
