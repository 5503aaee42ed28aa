// The audit as a person reads it: what was simulated on which cluster, the worst faults first, a
// table of Services × kinds of fault (the worst run of each kind), then the findings by severity,
// each with its consequence and its fix as the runs measured them.

import { formatDuration } from "../load/units.ts";
import { groupFindings } from "./group.ts";
import type {
  AuditResult,
  FaultClass,
  Figures,
  Finding,
  FindingGroup,
  RunMeasure,
  Severity,
} from "./types.ts";

const d = (s: number) => formatDuration(Math.round(s));
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function formatAudit(r: AuditResult): string {
  const a = r.audit;
  const out: string[] = [];
  out.push(
    `faultline audit · ${a.services.length} Service${a.services.length === 1 ? "" : "s"}, ${a.workloads.length} workload${a.workloads.length === 1 ? "" : "s"} · Kubernetes ${a.kubernetesVersion}`,
  );
  const zones = [...new Set(a.nodes.map((n) => n.zone).filter((z) => z !== null))];
  out.push(
    a.assumed
      ? `cluster (assumed): ${a.assumed}`
      : `cluster: ${a.nodes.length} node${a.nodes.length === 1 ? "" : "s"}${zones.length ? ` in zones ${zones.join(", ")}` : ""}`,
  );
  const sweep = r.runs.filter((x) => !x.id.startsWith("x/"));
  const experiments = r.runs.length - sweep.length;
  const byClass = new Map<string, number>();
  for (const x of sweep) byClass.set(x.fault.class, (byClass.get(x.fault.class) ?? 0) + 1);
  out.push(
    `sweep: ${sweep.length} runs of ${d(a.duration)}, each fault at t=${a.faultAt}s (${[...byClass].map(([c, n]) => (c === "none" ? "one without a fault" : `${c} × ${n}`)).join(", ")})${experiments ? `; ${experiments} experiment${experiments === 1 ? "" : "s"} of the rules` : ""}; ${plural(new Set(r.findings.map((f) => f.fix.run).filter((x) => x !== "")).size, "fix", "fixes")} re-run`,
  );
  for (const n of a.notes) out.push(`note: ${n}`);

  out.push("", "Worst faults");
  const ranked = sweep
    .filter((x) => x.fault.class !== "none")
    .map((x) => ({ x, score: score(x) }))
    .filter((e) => e.score[0]! + e.score[1]! + e.score[2]! > 0)
    .sort((p, q) => q.score[0]! - p.score[0]! || q.score[1]! - p.score[1]! || q.score[2]! - p.score[2]!);
  if (ranked.length === 0) out.push("  none: every Service kept all its endpoints through every fault");
  for (const { x } of ranked.slice(0, 5)) {
    const hurt = Object.entries(x.services)
      .filter(([, f]) => f.degraded > 0 || f.recovered === null || (f.lost ?? 0) > 0)
      .sort(([, f], [, g]) => g.outage - f.outage || g.degraded - f.degraded)
      .slice(0, 3)
      .map(([s, f]) => `${s} ${cell(f)}`);
    out.push(`  ${label(x)}: ${hurt.join("; ")}`);
  }
  if (ranked.length > 5)
    out.push(
      `  … and ${ranked.length - 5} more fault${ranked.length === 6 ? "" : "s"} that hurt a Service (--json has every run)`,
    );

  out.push("", ...table(r));
  out.push("", findingsHeader(r));
  // An older result (a shard merged from before groups) has none: each finding is its own group.
  const groups = r.groups ?? groupFindings(r.findings);
  for (const sev of ["error", "warning", "note"] as Severity[])
    for (const g of groups.filter((x) => x.severity === sev))
      out.push(...(g.findings.length === 1 ? finding(r.findings[g.findings[0]!]!) : group(r, g)));
  return `${out.join("\n")}\n`;
}

function score(x: RunMeasure): number[] {
  const fs = Object.values(x.services);
  return [
    fs.filter((f) => f.recovered === null).length,
    fs.reduce((s, f) => s + f.outage, 0),
    fs.reduce((s, f) => s + f.degraded + (f.lost ?? 0) / 1000, 0),
  ];
}

function label(x: RunMeasure): string {
  const shared =
    x.sharedBy && x.sharedBy.length > 1
      ? ` (one run for ${x.sharedBy.join(", ")}: the same pods up to names)`
      : "";
  return `${x.fault.class} ${x.fault.target}${shared}`;
}

/** outage / degraded / lost, and "not whole" when it did not recover. */
function cell(f: Figures): string {
  const lost = f.lost === undefined ? "" : `/${f.lost}`;
  return `${d(f.outage)}/${d(f.degraded)}${lost}${f.recovered === null ? " not whole" : ""}`;
}

const CLASSES: (FaultClass | "none")[] = [
  "none",
  "power-off",
  "zone",
  "drain",
  "kubelet-stop",
  "partition",
  "vm-terminated",
];

function table(r: AuditResult): string[] {
  const sweep = r.runs.filter((x) => !x.id.startsWith("x/"));
  const classes = CLASSES.filter((c) => sweep.some((x) => x.fault.class === c));
  const traffic = sweep.some((x) => Object.values(x.services).some((f) => f.lost !== undefined));
  const rows: string[][] = [["Service", ...classes.map((c) => (c === "none" ? "no fault" : `${c} (worst)`))]];
  for (const s of r.audit.services) {
    const row = [s];
    let any = false;
    for (const c of classes) {
      const runs = sweep.filter((x) => x.fault.class === c && x.services[s]);
      if (runs.length === 0) {
        row.push("-");
        continue;
      }
      any = true;
      const worst = runs.reduce((p, q) => (worse(q.services[s]!, p.services[s]!) ? q : p));
      const f = worst.services[s]!;
      row.push(
        `${cell(f)}${c === "none" || (f.degraded === 0 && f.recovered !== null) ? "" : ` ${worst.fault.target}`}`,
      );
    }
    if (any) rows.push(row);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((x) => x[i]!.length)));
  return [
    `Services × faults: seconds without an endpoint / seconds short of endpoints${traffic ? " / requests lost" : ""}, in the worst run of each kind (its target)`,
    ...rows.map(
      (x) =>
        `  ${x
          .map((c, i) => c.padEnd(widths[i]!))
          .join("  ")
          .trimEnd()}`,
    ),
  ];
}

function worse(f: Figures, g: Figures): boolean {
  const a = [f.recovered === null ? 1 : 0, f.outage, f.degraded, f.lost ?? 0];
  const b = [g.recovered === null ? 1 : 0, g.outage, g.degraded, g.lost ?? 0];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

function findingsHeader(r: AuditResult): string {
  const c = r.counts;
  if (r.findings.length === 0) return "Findings: none";
  const part = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;
  return `Findings: ${part(c.error, "error")}, ${part(c.warning, "warning")}, ${part(c.note, "note")}`;
}

function whereOf(f: Finding): string {
  const where =
    f.location.line > 0
      ? `${f.location.file}:${f.location.line}:${f.location.col}`
      : f.location.file || f.object;
  return `${where}${f.location.path ? ` (${f.location.path})` : ""}`;
}

/** A group of identical findings: the rule and the fix once, then each location with its figures. */
function group(r: AuditResult, g: FindingGroup): string[] {
  const members = g.findings.map((i) => r.findings[i]!);
  const out = [
    `${g.severity.padEnd(7)} ${g.rule} ${g.name}  ${members.length} objects, one fix`,
    `        fix, for each: ${g.fix}`,
  ];
  for (const f of members)
    out.push(
      `        - ${whereOf(f)}: ${f.message}`,
      `          consequence: ${f.consequence.text}`,
      `          ${f.fix.run ? "simulated: " : ""}${f.fix.effect}`,
    );
  return out;
}

function finding(f: Finding): string[] {
  return [
    `${f.severity.padEnd(7)} ${f.rule} ${f.name}  ${whereOf(f)}`,
    `        ${f.message}`,
    `        consequence: ${f.consequence.text}`,
    `        fix: ${f.fix.text}`,
    `        ${f.fix.run ? "simulated: " : ""}${f.fix.effect}`,
  ];
}
