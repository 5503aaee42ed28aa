// `faultline audit diff BASE.json HEAD.json`: what a change does to failures, in Markdown for a pull
// request's comment. Two `audit --json` outputs (the base and the head of the change): each finding
// followed across by its rule, object and field (the SARIF fingerprint's parts), so a moved line is
// the same finding; resolved findings with the figure they quoted, before → after, in the same run;
// new findings; and every run in both whose Service figures moved. Pure: the CLI reads the files.

import { d, when } from "./rules/rule.ts";
import type { AuditJson, Figures, Finding, RunMeasure } from "./types.ts";

/** The marker the comment carries, so that the action finds and updates its own comment. */
export const COMMENT_MARKER = "<!-- faultline-audit-diff -->";

export interface AuditDiff {
  resolved: Finding[];
  added: Finding[];
  kept: Finding[];
  moved: { run: RunMeasure; service: string; before: Figures; after: Figures }[];
}

export function findingKey(f: Finding): string {
  return `${f.rule}:${f.object}:${f.location.path}`;
}

export function diffAudits(base: AuditJson, head: AuditJson): AuditDiff {
  const headKeys = new Set(head.findings.map(findingKey));
  const baseKeys = new Set(base.findings.map(findingKey));
  const headRuns = new Map(head.runs.map((r) => [r.id, r]));
  const moved: AuditDiff["moved"] = [];
  for (const run of base.runs) {
    const after = headRuns.get(run.id);
    if (!after) continue;
    for (const [service, before] of Object.entries(run.services)) {
      const now = after.services[service];
      if (now && figuresMoved(before, now)) moved.push({ run: after, service, before, after: now });
    }
  }
  return {
    resolved: base.findings.filter((f) => !headKeys.has(findingKey(f))),
    added: head.findings.filter((f) => !baseKeys.has(findingKey(f))),
    kept: head.findings.filter((f) => baseKeys.has(findingKey(f))),
    moved,
  };
}

/** Whole seconds, as the audit prints them: a 0.2s jitter is not a change. */
function figuresMoved(a: Figures, b: Figures): boolean {
  const r = (x: number | null) => (x === null ? null : Math.round(x));
  return (
    r(a.outage) !== r(b.outage) ||
    r(a.degraded) !== r(b.degraded) ||
    r(a.recovered) !== r(b.recovered) ||
    (a.lost ?? 0) !== (b.lost ?? 0)
  );
}

/** "5m54s without an endpoint" (or fewer, or none lost). */
function figureText(f: Figures | undefined): string {
  if (!f) return "not measured";
  if (f.outage > 0) return `${d(f.outage)} without an endpoint`;
  if (f.degraded > 0) return `${d(f.degraded)} with fewer than ${f.desired} endpoints`;
  return "0s";
}

function serviceOf(f: Finding): string | undefined {
  // A consequence read for a Service names it first: "when …, shop/checkout has …".
  return /, ([a-z0-9.-]+\/[a-z0-9.-]+) has /.exec(f.consequence.text)?.[1];
}

export function formatDiff(base: AuditJson, head: AuditJson): string {
  const diff = diffAudits(base, head);
  const runs = new Map(head.runs.map((r) => [r.id, r]));
  const baseRuns = new Map(base.runs.map((r) => [r.id, r]));
  const out = [COMMENT_MARKER, "### faultline: what this change does to failures", ""];
  if (diff.resolved.length === 0 && diff.added.length === 0 && diff.moved.length === 0) {
    out.push(
      `No change: ${head.findings.length} finding${head.findings.length === 1 ? "" : "s"}, the same figures.`,
    );
    return `${out.join("\n")}\n`;
  }
  if (diff.resolved.length > 0) {
    out.push(`**Resolved (${diff.resolved.length})**`, "");
    for (const f of diff.resolved) {
      const before = baseRuns.get(f.consequence.run);
      const service = serviceOf(f);
      const after = service ? runs.get(f.consequence.run)?.services[service] : undefined;
      const whenText = before ? ` ${when(before.fault)}` : "";
      out.push(
        `- ${f.rule} ${service ?? f.object}: ${figureText(f.consequence.figures)}${whenText} → ${figureText(after)} (the fix it proposed: ${f.fix.text})`,
      );
    }
    out.push("");
  }
  if (diff.added.length > 0) {
    out.push(`**New (${diff.added.length})**`, "");
    for (const f of diff.added)
      out.push(
        `- ${f.severity} ${f.rule} \`${f.location.file}:${f.location.line}\` ${f.message}: ${f.consequence.text}. Fix: ${f.fix.text}`,
      );
    out.push("");
  }
  if (diff.moved.length > 0) {
    out.push(
      `**Runs whose figures moved (${diff.moved.length})**`,
      "",
      "| run | Service | before | after |",
      "| --- | --- | --- | --- |",
    );
    for (const m of diff.moved)
      out.push(`| ${m.run.id} | ${m.service} | ${figureText(m.before)} | ${figureText(m.after)} |`);
    out.push("");
  }
  out.push(
    `${head.findings.length} finding${head.findings.length === 1 ? "" : "s"} at the head (${diff.kept.length} unchanged), faultline ${head.faultlineVersion}.`,
  );
  return `${out.join("\n")}\n`;
}
