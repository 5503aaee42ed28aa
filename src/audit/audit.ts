// The audit, end to end. Phase 1: the cluster at t=0, the sweep (a run without a fault, then every
// fault asked for) and the rules' experiments, each run independent (sharded, run in parallel).
// Phase 2, from phase 1's measures: the rules' findings, and each finding's fix simulated by re-running
// its fault on the fixed scenario. Same inputs, same result, whatever the number of workers or shards.

import { parse } from "yaml";
import { LoadError } from "../load/errors.ts";
import { type Budget, count, estimateWork, overBudget } from "../run/budget.ts";
import type { Scenario } from "../scenario/types.ts";
import { variantOf } from "../whatif/variant.ts";
import { executeRun, type RunContext, type RunOutcome, startOf } from "./execute.ts";
import { groupFindings } from "./group.ts";
import type { Prepared } from "./inputs.ts";
import { FAULT_AT } from "./inputs.ts";
import { Locator } from "./locate.ts";
import { ignoredNotes, notModelledNotes, notStartedNotes, ruleNotes } from "./notes.ts";
import { planSweep, timelineOf } from "./plan.ts";
import { type Draft, RULES, type RuleInput } from "./rules/index.ts";
import { lower, simulated } from "./rules/rule.ts";
import { countDaemonPods, type Objects, objectsOf } from "./state.ts";
import type { AuditResult, FaultClass, Figures, Finding, RunMeasure, RunSpec, Severity } from "./types.ts";

/** Runs specs and returns their outcomes in the same order (in-process, or on worker threads). */
export type Runner = (ctx: RunContext, specs: RunSpec[], onDone: () => void) => Promise<RunOutcome[]>;

export const inProcess: Runner = async (ctx, specs, onDone) =>
  specs.map((s) => {
    const out = executeRun(ctx, s);
    onDone();
    return out;
  });

export interface AuditOptions {
  faults: readonly FaultClass[];
  budget: Budget;
  /** engine events the whole audit may take (every run's estimate, summed) */
  maxSweepEvents: number;
  runner: Runner;
  /** keep every run's timeline, for the page (`--report`) */
  timelines?: boolean;
  /**
   * Runs done of the phase's total; `overall`, in a whole audit, the runs done of every run it may
   * make (the sweep and at most `fixBound` fix runs, then the fixes found).
   */
  progress?: (done: number, total: number, phase: string, overall?: Overall) => void;
}

/** The whole audit's runs done of its total; `upTo`: the total counts the fixes' bound, not yet the fixes found. */
export interface Overall {
  done: number;
  total: number;
  upTo: boolean;
}

/** A run over its budget, or a sweep over the audit's: one line for the command line (exit 2). */
export class AuditBudgetError extends Error {}

/** An audit that would measure nothing (no Service or workload, no fault run): exit 2, never a pass. */
export class NothingToMeasureError extends Error {}

export const DEFAULT_MAX_SWEEP_EVENTS = 200_000_000;

export interface Phase1 {
  ctx: RunContext;
  input: RuleInput;
  runs: RunSpec[];
  notes: string[];
  /** at most how many fix runs phase 2 can make (fixBound) */
  fixBound: number;
}

/**
 * At most how many fix runs the findings can ask for, before any run: each rule's bound from the
 * manifests and the state at t=0 (Rule.fixes); fixes with the same id run once, so fewer may run.
 */
export function fixBound(input: RuleInput): number {
  return RULES.reduce((n, r) => n + (r.fixes?.(input) ?? 0), 0);
}

/** The cluster at t=0 and every phase-1 run, planned and checked against the budgets. */
export function planAudit(prepared: Prepared, options: AuditOptions): Phase1 {
  const { scenario, source } = prepared;
  const maxEvents = options.budget.maxEvents;
  const base: Scenario = { ...scenario, timeline: [] };
  const over = overBudget(estimateWork(base), options.budget);
  if (over) throw new AuditBudgetError(`${source.file}: each run of the sweep: ${over}`);
  const objects = objectsOf(base);
  checkSomethingToMeasure(prepared, objects);
  const start = startOf(base, maxEvents);
  countDaemonPods(objects, start);
  const ctx: RunContext = {
    source,
    base,
    objects,
    start,
    maxEvents,
    ...(options.timelines ? { timelines: true } : {}),
  };
  const input: RuleInput = {
    scenario: base,
    objects,
    start,
    locator: new Locator(source),
    faults: options.faults,
    faultAt: FAULT_AT,
    traffic: (scenario.traffic?.length ?? 0) > 0,
    manifestEntries: manifestEntries(source.text),
  };
  const sweep = planSweep(base, start, options.faults, FAULT_AT);
  if (sweep.runs.every((r) => r.fault.class === "none"))
    throw new NothingToMeasureError(
      `${inputsOf(prepared)}: nothing to measure: no run of --faults ${options.faults.join(",")} applies to this cluster (${sweep.notes.join("; ")})`,
    );
  const experiments = RULES.flatMap((r) => r.experiments?.(input) ?? []);
  const runs = [...sweep.runs, ...experiments];
  return {
    ctx,
    input,
    runs,
    fixBound: fixBound(input),
    notes: [
      ...prepared.notes,
      ...ignoredNotes(base),
      ...notModelledNotes(base),
      ...sweep.notes,
      ...notStartedNotes(start),
    ],
  };
}

/**
 * Every run's estimate within the run budget, and their sum within the audit's: the whole sweep, or
 * a shard's slice of it (so that --shard is a way to stay within it).
 */
export function checkSweep(
  ctx: RunContext,
  runs: RunSpec[],
  options: AuditOptions,
  what: string,
  fixes = 0,
): void {
  let total = 0;
  let biggest = { events: 0, id: "" };
  for (const spec of runs) {
    let scenario = ctx.base;
    try {
      if (spec.patches.length > 0) scenario = variantOf(ctx.base, spec.patches);
    } catch (e) {
      // A fix the loader refuses is reported with its finding ("could not be simulated").
      if (e instanceof LoadError) continue;
      throw e;
    }
    const est = estimateWork({ ...scenario, timeline: timelineOf(spec, spec.fault) });
    const over = overBudget(est, options.budget);
    if (over) throw new AuditBudgetError(`${ctx.source.file} (run ${spec.id}): ${over}`);
    total += est.events;
    if (est.events > biggest.events) biggest = { events: est.events, id: spec.id };
  }
  // A fix run replays a sweep's fault on a patched scenario: each counted as the largest run (a fix
  // that adds replicas or an object can be a little larger; the run's own cap still holds it).
  total += fixes * biggest.events;
  const withFixes = fixes > 0 ? ` and at most ${count(fixes)} fix runs` : "";
  if (total > options.maxSweepEvents)
    throw new AuditBudgetError(
      `${ctx.source.file}: ${what} is about ${count(total)} engine events over ${count(runs.length)} runs${withFixes} (the largest, ${biggest.id}, ~${count(biggest.events)}), over the audit's budget of ${count(options.maxSweepEvents)}. Narrow it with --faults or split it with --shard I/N, or raise the budget with --max-sweep-events ${Math.ceil(total * 1.5)}`,
    );
}

/** Runs specs with the runner; a run past its hard cap becomes an AuditBudgetError. */
export async function runSpecs(
  ctx: RunContext,
  specs: RunSpec[],
  options: AuditOptions,
  phase: string,
  overall?: Overall,
): Promise<RunOutcome[]> {
  let done = 0;
  const tell = () =>
    options.progress?.(done, specs.length, phase, overall && { ...overall, done: overall.done + done });
  tell();
  const outcomes = await options.runner(ctx, specs, () => {
    done++;
    tell();
  });
  for (const o of outcomes)
    if (!o.ok && o.budget)
      throw new AuditBudgetError(
        `${ctx.source.file} (run ${o.id}): the run went past its budget of ${count(o.budget.maxEvents)} engine events; raise it with --max-events ${o.budget.maxEvents * 4}`,
      );
  return outcomes;
}

/** Phase 2: findings from phase 1's measures, each fix simulated. */
export async function finishAudit(
  prepared: Prepared,
  phase1: Phase1,
  measures: RunMeasure[],
  options: AuditOptions,
): Promise<AuditResult> {
  const runs = new Map(measures.map((m) => [m.id, m]));
  const drafts: Draft[] = [];
  const ruleOf = new Map<Draft, (typeof RULES)[number]>();
  for (const rule of RULES)
    for (const d of rule.check(phase1.input, runs)) {
      drafts.push(d);
      ruleOf.set(d, rule);
    }
  const fixSpecs = new Map<string, RunSpec>();
  for (const d of drafts) if (simulated(d.fix)) fixSpecs.set(d.fix.spec.id, d.fix.spec);
  const specs = [...fixSpecs.values()];
  checkSweep(phase1.ctx, specs, options, "the fixes' runs");
  const sweep = phase1.runs.length;
  const outcomes = await runSpecs(phase1.ctx, specs, options, "fixes", {
    done: sweep,
    total: sweep + specs.length,
    upTo: false,
  });
  const fixRuns = new Map<string, RunOutcome>(specs.map((s, i) => [s.id, outcomes[i]!]));
  const findings: Finding[] = drafts.map((d) => {
    const rule = ruleOf.get(d)!;
    return {
      rule: rule.id,
      name: rule.name,
      severity: d.severity,
      object: d.object,
      location: phase1.input.locator.locate(d.object, d.field),
      message: d.message,
      consequence: d.consequence,
      fix: fixOf(d, fixRuns),
    };
  });
  const rank: Record<Severity, number> = { error: 0, warning: 1, note: 2 };
  findings.sort(
    (a, b) => rank[a.severity] - rank[b.severity] || cmp(a.rule, b.rule) || cmp(a.object, b.object),
  );
  const counts: Record<Severity, number> = { error: 0, warning: 0, note: 0 };
  for (const f of findings) counts[f.severity]++;
  const { scenario } = prepared;
  return {
    audit: {
      inputs: [...new Set(Object.values(prepared.source.manifests).flatMap((fs) => fs.map((f) => f.file)))],
      kubernetesVersion: scenario.kubernetesVersion,
      nodes: prepared.nodes,
      assumed: prepared.assumed,
      faults: [...options.faults],
      duration: scenario.duration,
      faultAt: FAULT_AT,
      services: phase1.ctx.objects.services.map((s) => s.id),
      workloads: phase1.ctx.objects.workloads.map((w) => w.id),
      notes: [
        ...phase1.notes,
        ...ruleNotes(phase1.input),
        ...measures.filter((m) => m.error).map((m) => `run ${m.id} could not be made: ${m.error}`),
      ],
    },
    runs: phase1.runs.map((s) => runs.get(s.id)!).filter((m) => m !== undefined),
    fixes: measuresOf(specs, outcomes),
    findings,
    groups: groupFindings(findings),
    counts,
  };
}

/** The whole audit in one process (no shards). */
export async function audit(prepared: Prepared, options: AuditOptions): Promise<AuditResult> {
  const phase1 = planAudit(prepared, options);
  checkSweep(phase1.ctx, phase1.runs, options, "the sweep", phase1.fixBound);
  const sweep = phase1.runs.length;
  const outcomes = await runSpecs(phase1.ctx, phase1.runs, options, "sweep", {
    done: 0,
    total: sweep + phase1.fixBound,
    upTo: phase1.fixBound > 0,
  });
  return finishAudit(prepared, phase1, measuresOf(phase1.runs, outcomes), options);
}

/**
 * The measures of runs that ran; a run that could not be made (a patch the loader refused) stays in
 * the list without figures, with its error, so that shards and the text still account for it.
 */
export function measuresOf(specs: RunSpec[], outcomes: RunOutcome[]): RunMeasure[] {
  return outcomes.map((o, i) =>
    o.ok
      ? o.measure
      : {
          id: o.id,
          fault: specs[i]!.fault,
          services: {},
          workloads: {},
          engineEvents: 0,
          blockedBy: [],
          error: o.error,
        },
  );
}

/** The inputs as messages name them: the manifest entries, else the scenario file. */
function inputsOf(prepared: Prepared): string {
  const entries = Object.keys(prepared.source.manifests).map((e) => (e === "-" ? "<stdin>" : e));
  return entries.length > 0 ? entries.join(", ") : prepared.source.file;
}

/**
 * Only Services and workloads have figures: an audit of none would pass any gate, so it is refused
 * (a `helm template` that rendered only a ConfigMap, a dump of an empty namespace).
 */
function checkSomethingToMeasure(prepared: Prepared, objects: Objects): void {
  if (objects.services.length > 0 || objects.workloads.length > 0) return;
  const { manifests, ignored } = prepared.scenario;
  const kinds = [...new Set([...manifests.map((m) => m.object.kind), ...ignored.map((o) => o.kind)])].sort();
  throw new NothingToMeasureError(
    `${inputsOf(prepared)}: nothing to measure: no Service and no workload (Deployment, StatefulSet, DaemonSet, ReplicaSet, Pod) among the objects${kinds.length > 0 ? ` (${kinds.join(", ")})` : ""}`,
  );
}

/**
 * A finding's fix as its run measured it; an advice-only fix (no patch can express it) has no run
 * (`run: ""`) and says why in place of the effect.
 */
export function fixOf(d: Draft, fixRuns: ReadonlyMap<string, RunOutcome>): Finding["fix"] {
  const fix = d.fix;
  if (!simulated(fix))
    return { text: fix.text, patches: [], run: "", effect: `not simulated: ${fix.advice}`, figures: null };
  const o = fixRuns.get(fix.spec.id)!;
  const figures = o.ok
    ? fix.subject.kind === "service"
      ? o.measure.services[fix.subject.id]
      : o.measure.workloads[fix.subject.id]
    : undefined;
  const improved = fix.improved ?? ((g: Figures) => lower(g, d.consequence.figures));
  // A change its own run shows is no better is not offered as the fix, unless the effect says what
  // would help instead: the text then says it was tried.
  const noBetter = o.ok && figures !== undefined && !improved(figures, o.measure);
  const withdrawn = noBetter && !fix.saysInstead?.(figures!, o.measure);
  return {
    text: withdrawn ? `none of the changes simulated helps here (tried: ${fix.text})` : fix.text,
    patches: fix.spec.patches,
    run: fix.spec.id,
    effect: o.ok
      ? figures
        ? `${fix.effect(figures, o.measure)}${noBetter ? " (no better than without the fix, as simulated)" : ""}`
        : "the fixed scenario has nothing to measure here"
      : `could not be simulated: ${o.error}`,
    figures: figures ?? null,
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function manifestEntries(text: string): unknown[] {
  const doc = parse(text) as { manifests?: unknown } | null;
  const m = doc?.manifests;
  return Array.isArray(m) ? m : typeof m === "string" ? [m] : [];
}
