// The analysis of `faultline detector compare` and `detector threshold --max-false-per-node-day`: for each
// detector, the silence that triggers it, the time to detect a crash and the false suspicions per node and per
// cluster per day, as a table or as JSON.

import type { DetectorAnalysis, GapDistribution } from "../../detectors/index.ts";
import { table } from "../table.ts";
import { formatMs, num, toJson } from "./format.ts";

const ANALYSIS_HEADERS = [
  "suspects after",
  "detect mean",
  "detect p99",
  "false/node/day",
  "false/cluster/day",
];
/** The first column (a name) left, the figures right. */
const firstLeft = (columns: number): Array<"left" | "right"> => [
  "left",
  ...Array<"right">(columns - 1).fill("right"),
];

function analysisCells(a: DetectorAnalysis): string[] {
  return [
    formatMs(a.suspectAfterMs),
    formatMs(a.detection.meanMs),
    formatMs(a.detection.p99Ms),
    num(a.falseSuspicionsPerNodePerDay),
    num(a.falseSuspicionsPerClusterPerDay),
  ];
}

function describeDist(dist: GapDistribution): string {
  return `gaps: ${dist.label}\n  mean gap ${formatMs(dist.meanMs)} · ${num(86_400_000 / dist.meanMs)} beats per node per day\n`;
}

export interface Comparison {
  dist: GapDistribution;
  nodes: number;
  watchersPerNode: number;
  messagesPerSecond: { allToAll: number; watchers: number; lease: number };
  detectors: DetectorAnalysis[];
}

export function comparisonText(c: Comparison): string {
  const m = c.messagesPerSecond;
  return `${describeDist(c.dist)}  cluster: ${c.nodes} node(s), each watched by ${c.watchersPerNode} · liveness messages/s: all-to-all ${num(m.allToAll)}, ${c.watchersPerNode} watchers ${num(m.watchers)}, lease store ${num(m.lease)}

${table(
  ["detector", ...ANALYSIS_HEADERS],
  c.detectors.map((a) => [a.label, ...analysisCells(a)]),
  { align: firstLeft(6) },
)}
false/cluster/day counts a node's pause once (all its watchers suspect it together); × watchers for peer-level suspicions.
`;
}

export function comparisonJson(c: Comparison): string {
  return toJson({
    distribution: c.dist.label,
    meanGapMs: c.dist.meanMs,
    nodes: c.nodes,
    watchersPerNode: c.watchersPerNode,
    messagesPerSecond: c.messagesPerSecond,
    detectors: c.detectors,
  });
}

export interface ThresholdPick {
  family: "fixed timeout" | "phi exponential" | "phi normal (akka)";
  pick: { value: number; analysis: DetectorAnalysis } | undefined;
}

export function picksText(dist: GapDistribution, budget: number, picks: ThresholdPick[]): string {
  return `${describeDist(dist)}budget: at most ${budget} false suspicions per node per day

${table(
  ["family", "pick", ...ANALYSIS_HEADERS],
  picks.map(({ family, pick }) =>
    pick === undefined
      ? [
          family,
          family === "phi normal (akka)" ? "none (raise --pause)" : "none in range",
          "",
          "",
          "",
          "",
          "",
        ]
      : [
          family,
          family === "fixed timeout" ? formatMs(pick.value) : String(pick.value),
          ...analysisCells(pick.analysis),
        ],
  ),
  { align: firstLeft(7) },
)}`;
}

export function picksJson(dist: GapDistribution, budget: number, picks: ThresholdPick[]): string {
  return toJson({
    distribution: dist.label,
    meanGapMs: dist.meanMs,
    maxFalsePerNodePerDay: budget,
    picks: picks.map((p) => ({
      family: p.family,
      value: p.pick?.value ?? null,
      analysis: p.pick?.analysis ?? null,
    })),
  });
}
