// `--vary` on a scenario without callers: what the cluster did and when, variant by variant, read
// from each run's events (a table of empty traffic columns would answer a question nobody asked).

import type { SimulationResult } from "../run/result.ts";

/** When each step of the failure handling first happened in one run (seconds, or null: never). */
export interface Milestones {
  /** the first not-Ready node: the node lifecycle controller's Unknown, or a kubelet's own Ready=False */
  notReady: number | null;
  /** the first NoExecute taint (node.kubernetes.io/unreachable or not-ready) */
  noExecuteTaint: number | null;
  /** the first eviction (the taint eviction controller, a drain) */
  firstEviction: number | null;
  evicted: number;
  /** the last PodReady after the first eviction: the replacements are Ready from then on */
  lastReplacementReady: number | null;
  /** pods not Running and Ready at the end, as `kubectl get pods` would show them */
  notReadyAtEnd: number;
}

export function milestonesOf(result: SimulationResult): Milestones {
  const first = (match: (e: SimulationResult["events"][number]) => boolean): number | null =>
    result.events.find(match)?.t ?? null;
  const firstEviction = first((e) => e.type === "PodEvicted");
  let lastReplacementReady: number | null = null;
  if (firstEviction !== null)
    for (const e of result.events)
      if (e.type === "PodReady" && e.t >= firstEviction) lastReplacementReady = e.t;
  return {
    notReady: first((e) => e.type === "NodeNotReady" || e.type === "KubeletNodeNotReady"),
    noExecuteTaint: first((e) => e.type === "NodeTainted" && e.taint.endsWith(":NoExecute")),
    firstEviction,
    evicted: result.events.filter((e) => e.type === "PodEvicted").length,
    lastReplacementReady,
    notReadyAtEnd: result.summary.pods.filter((p) => !(p.status === "Running" && p.ready)).length,
  };
}

const at = (t: number | null) => (t === null ? "-" : `t+${t.toFixed(1)}s`);

/** The milestones side by side, one row per variant. */
export function formatMilestones(
  name: string,
  runs: { variant: string; result: SimulationResult }[],
): string {
  const head = [
    "variant",
    "NotReady",
    "NoExecute taint",
    "first eviction",
    "evicted",
    "replacements Ready",
    "not Ready at end",
  ];
  const rows = runs.map(({ variant, result }) => {
    const m = milestonesOf(result);
    return [
      variant,
      at(m.notReady),
      at(m.noExecuteTaint),
      at(m.firstEviction),
      String(m.evicted),
      at(m.lastReplacementReady),
      String(m.notReadyAtEnd),
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return (
    `faultline simulate · ${name} · comparison (the scenario has no traffic section: what the cluster did, not what callers felt)\n\n` +
    `${[line(head), ...rows.map(line)].join("\n")}\n`
  );
}
