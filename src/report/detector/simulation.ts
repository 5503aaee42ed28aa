// The report of `faultline detector simulate`: per run, the liveness traffic and, per detector, false
// suspicions, who was wrongly suspected and by whom, and how fast crashes and stalls were detected.

import type { ScenarioReport } from "../../detectors/index.ts";
import { table } from "../table.ts";
import { formatMs, num, toJson } from "./format.ts";

export function scenarioText(r: ScenarioReport): string {
  let out = `scenario ${r.scenario}: ${r.description}\n`;
  for (const run of r.runs) {
    const res = run.result;
    out += `\n== ${run.label} (${res.nodes} nodes, ${res.topology}, ${formatMs(res.durationMs)}, seed ${res.seed})\n`;
    out += `messages: ${num(res.messages.perSecond)}/s (${num(res.messages.sent)} sent, ${num(res.messages.lost)} lost)`;
    out +=
      res.selfPausesNoticed > 0
        ? ` · self-pauses noticed ${res.selfPausesNoticed}, checks skipped ${res.skippedChecks}\n`
        : "\n";
    if (res.detectors.length === 0) continue;
    out += table(
      [
        "detector",
        "false susp.",
        "nodes wrongly suspected",
        "worst accuser",
        "crash detect mean/p99/max",
        "stall detect",
      ],
      res.detectors.map((d) => {
        const acc = d.topAccusers[0];
        const sus = d.topSuspects[0];
        const c = d.crashDetection;
        const s = d.stallDetection;
        return [
          d.label,
          String(d.falseSuspicions),
          sus === undefined ? "0" : `${d.falselySuspectedNodes.length} (node ${sus.node} by ${sus.monitors})`,
          acc === undefined ? "-" : `node ${acc.monitor} → ${acc.targets}`,
          c.expected === 0
            ? "-"
            : c.delay === null
              ? `0/${c.expected}`
              : `${c.detected}/${c.expected}: ${formatMs(c.delay.meanMs)}/${formatMs(c.delay.p99Ms)}/${formatMs(c.delay.maxMs)}`,
          s.expected === 0
            ? "-"
            : s.delay === null
              ? `0/${s.expected}`
              : `${s.detected}/${s.expected} after ${formatMs(s.delay.meanMs)}`,
        ];
      }),
      { align: ["left", "right", "right", "right", "right", "right"] },
    );
  }
  return out;
}

export function scenarioJson(r: ScenarioReport): string {
  return toJson(r);
}
