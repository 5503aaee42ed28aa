// replay's text and JSON: the fault and how it was inferred, the steps' table (compare's), why each
// step came when it did, the other events, and what the audit's fixes would have done.

import { sec, stepTable } from "./format.ts";
import { costLines } from "./incident-cost.ts";
import type { Replay } from "./replay.ts";

const iso = (t: number) => new Date(Math.round(t * 1000)).toISOString();

function header(r: Replay): string[] {
  const f = r.fault;
  return [
    `faultline replay · events ${r.events} (${r.eventCount} Events, ${r.shapes.join(" and ")})${r.audit ? ` · audit log ${r.audit}` : ""} · cluster ${r.cluster}`,
    `fault: power-off ${f.node}: the node the node controller marked NotReady first`,
    `  last Lease renewal ${iso(f.lastRenewal)}${f.uncertainty > 0 ? ` ± ${f.uncertainty.toFixed(1)}s if the cluster's grace period is the model's` : " (to the microsecond)"}: ${f.how}`,
    `  the power went in the ${f.killWithin.toFixed(1)}s after it (the kubelet's renewal interval with its 4% jitter): no API object records the instant`,
    `model: the dump with power-off of ${f.node} at that renewal, ${r.seeds.length} seeds; Kubernetes ${r.timers.kubernetesVersion}, node-monitor-grace-period=${r.timers.nodeMonitorGracePeriod}s, node-monitor-period=${r.timers.nodeMonitorPeriod}s${r.timers.unreachableToleration !== undefined ? `, the pods' unreachable tolerationSeconds=${r.timers.unreachableToleration}` : ""}`,
    `times: seconds after the last Lease renewal, on each side; Events carry whole seconds (firstTimestamp), so a step is good to a second${r.anchor ? "; NotReady is the anchor: without the audit log's Lease it cannot show a grace period unlike the model's" : ""}`,
    "",
  ];
}

export function replayText(r: Replay, fixesAsked: boolean): string {
  const lines = header(r);
  lines.push(...stepTable(r.rows, r.seeds.length, r.anchor, "no Event records it"));
  const moved = r.rows.filter((x) => x.inside === false);
  const intervals = r.rows.filter((x) => x.interval?.inside === false);
  lines.push(
    "",
    intervals.length > 0
      ? `intervals the model does not reproduce: ${intervals.map((x) => `${x.what} after ${r.rows.find((y) => y.step === x.interval!.after)?.what ?? x.interval!.after}`).join("; ")}`
      : moved.length > 0
        ? `${moved.length} step${moved.length === 1 ? "" : "s"} outside the model's spread: ${moved.map((x) => x.what).join("; ")}`
        : "every step the events time lies inside the model's spread",
    "",
    "each step, what it was read from, and why it came then:",
  );
  for (const x of r.rows) {
    if (x.observed === undefined && !x.why) continue;
    lines.push(`  ${x.what}${x.observed !== undefined ? ` (${sec(x.observed)})` : ""}`);
    if (x.evidence) lines.push(`    read from: ${x.evidence}`);
    if (x.why) lines.push(`    why then: ${x.why}`);
  }
  if (r.others.length > 0) {
    lines.push("", "also in the events after the fault (not a step the comparison times):");
    for (const o of r.others) {
      const objs =
        o.objects.length > 3
          ? `${o.objects.slice(0, 3).join(", ")} and ${o.objects.length - 3} more`
          : o.objects.join(", ");
      lines.push(
        `  ${sec(o.first).padStart(8)}  ${o.reason} ×${o.count} (${o.component || "no source"}) on ${objs}: ${o.why}`,
      );
    }
  }
  if (r.costs.length > 0)
    lines.push(
      "",
      "what the incident cost each workload, as the Events show it:",
      ...costLines(r.costs, r.fault.node, r.fault.lastRenewal).map((l) => `  ${l}`),
    );
  if (r.fixes) lines.push("", ...fixLines(r));
  else if (!fixesAsked) lines.push("", "the audit's fixes: not simulated (--no-fixes)");
  if (r.notes.length > 0) lines.push("", ...r.notes.map((n) => `note: ${n}`));
  return `${lines.join("\n")}\n`;
}

function fixLines(r: Replay): string[] {
  const f = r.fixes!;
  const shared =
    f.sharedBy && f.sharedBy.length > 1
      ? ` (nodes with the same pods share it: ${f.sharedBy.join(", ")})`
      : "";
  const out = [
    `the audit's fixes against this incident (faultline audit's rules on its run ${f.run}${shared}):`,
  ];
  if (f.findings.length === 0)
    out.push("  none of the audit's rules finds anything this incident would have shown");
  for (const x of f.findings) {
    out.push(
      `  ${x.severity.padEnd(7)} ${x.rule} ${x.name}  ${x.location.file}:${x.location.line}:${x.location.col}${x.location.path ? ` (${x.location.path})` : ""}`,
      `    ${x.message}`,
      `    this incident, in the model: ${x.consequence.text}`,
      `    fix: ${x.fix.text}`,
      `    ${x.fix.run ? "simulated against this incident" : "not simulated"}: ${x.fix.effect}`,
      ...(x.fix.run && f.fixTargets[x.fix.run] !== undefined && f.fixTargets[x.fix.run] !== r.fault.node
        ? [
            `    (the fix moves the pods: the audit re-ran the power-off on ${f.fixTargets[x.fix.run]}, where the fixed workload runs most, not on ${r.fault.node})`,
          ]
        : []),
    );
  }
  return out;
}

export function replayJson(r: Replay): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}
