// The audit's fixes simulated against an incident: the audit (src/audit/) run on the incident's
// dump with one fault, the incident's (a power-off of the node the events show failing), its rules'
// findings on that run, and each fix re-run on that fault, exactly as `faultline audit --cluster`
// does for every node. Only the findings whose consequence is the incident's run are kept: what
// would have changed this incident, not every node's.

import {
  type AuditOptions,
  checkSweep,
  DEFAULT_MAX_SWEEP_EVENTS,
  finishAudit,
  inProcess,
  measuresOf,
  planAudit,
  runSpecs,
} from "../audit/audit.ts";
import { prepare } from "../audit/inputs.ts";
import type { Finding } from "../audit/types.ts";
import { LoadError } from "../load/errors.ts";
import { DEFAULT_BUDGET } from "../run/budget.ts";
import type { ManifestFile } from "../scenario/types.ts";

export interface IncidentFixes {
  /** the audit run that stands for the incident: `power-off/NODE` */
  run: string;
  /** nodes that hold the same pods and share that run */
  sharedBy?: string[];
  findings: Finding[];
  /** each finding's fix re-run: the node it took down (the fixed workload's busiest, per the audit) */
  fixTargets: Record<string, string>;
  notes: string[];
}

/** The audit on the dump, its sweep narrowed to the incident's power-off; the findings about it. */
export async function fixesFor(entry: string, files: ManifestFile[], node: string): Promise<IncidentFixes> {
  const prepared = prepare({ entries: [], dump: { entry, files }, cluster: {} });
  if (!prepared.scenario.nodes.some((n) => n.name === node))
    throw new LoadError(
      "unknown-node",
      files.map((f) => f.file).join(", "),
      0,
      0,
      "",
      `the dump has no node "${node}", the node the events show failing: is it the same cluster's dump?`,
    );
  const options: AuditOptions = {
    faults: ["power-off"],
    budget: DEFAULT_BUDGET,
    maxSweepEvents: DEFAULT_MAX_SWEEP_EVENTS,
    runner: inProcess,
  };
  const phase1 = planAudit(prepared, options);
  const isIncident = (id: string, target: string, sharedBy?: string[]) =>
    id.startsWith("power-off/") && (target === node || (sharedBy ?? []).includes(node));
  const runs = phase1.runs.filter(
    (r) => r.fault.class !== "power-off" || isIncident(r.id, r.fault.target, r.sharedBy),
  );
  const incident = runs.find((r) => r.fault.class === "power-off")!;
  checkSweep(phase1.ctx, runs, options, "the incident's runs");
  const outcomes = await runSpecs(phase1.ctx, runs, options, "incident");
  const result = await finishAudit(prepared, { ...phase1, runs }, measuresOf(runs, outcomes), options);
  return {
    run: incident.id,
    ...(incident.sharedBy ? { sharedBy: incident.sharedBy } : {}),
    findings: result.findings.filter((f) => f.consequence.run === incident.id),
    fixTargets: Object.fromEntries(result.fixes.map((m) => [m.id, m.fault.target])),
    notes: result.audit.notes,
  };
}
