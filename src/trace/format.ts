// How the prose writes numbers of seconds, and a timeline step as the scenario wrote it.

import type { TimelineStepRef } from "./timeline-events.ts";

/** 10 → "10", 2.5 → "2.5", 51.99512 → "51.995": whole seconds plain, else at most 3 decimals. */
export function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(3).replace(/0+$/, "").replace(/\.$/, "");
}

/** To the millisecond, for times quoted in messages. */
export function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** `{at: 10s, do: power-off, node: worker-2}`: a timeline step in the scenario's own flow style. */
export function stepText(step: TimelineStepRef): string {
  const flags = (["force", "deleteEmptyDirData", "ignoreDaemonSets"] as const)
    .filter((f) => step[f] !== undefined)
    .map((f) => `, ${f}: ${step[f]}`)
    .join("");
  return `{at: ${fmt(step.at)}s, do: ${step.do}${step.node ? `, node: ${step.node}` : ""}${step.pod ? `, pod: ${step.pod}` : ""}${flags}}`;
}
