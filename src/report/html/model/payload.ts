// What a report page embeds (the payloads) and the lanes every view shares.

import type { DetectorAnalysis } from "../../../detectors/analysis.ts";
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

/** The traffic part of a result, once the traffic model fills it (`result.traffic`). */
export interface TrafficSecond {
  t: number;
  sent: number;
  ok: number;
  timeout: number;
  refused: number;
  error: number;
}
export interface TrafficPart {
  totals: Partial<Record<"sent" | "ok" | "timeout" | "refused" | "error", number>>;
  perSecond: TrafficSecond[];
  causes: { cause: string; count: number; first?: number; last?: number }[];
  /** what each lever saves, when the run measured it */
  levers?: { lever: string; saves: number }[];
}
export type ReportResult = SimulationResult & { traffic?: TrafficPart };

export interface Variant {
  label: string;
  result: ReportResult;
}

/** Everything a simulate report embeds: the loaded scenario (for the what-if panel) and its run. */
export interface SimulatePayload {
  kind: "simulate";
  scenario: Scenario;
  result: ReportResult;
  /** `--vary` runs, shown side by side. */
  variants?: Variant[];
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
