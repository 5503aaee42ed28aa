// What a rule is: a stable id, a severity, the experiments it needs beyond the sweep (planned from
// the manifests and the state at t=0), and a check that turns the sweep's measures into findings,
// each with the fix to simulate. Shared phrasing and lookups live here so every rule speaks alike.

import type { Container, Probe } from "../../kubernetes/objects.ts";
import { formatDuration } from "../../load/units.ts";
import type { Scenario } from "../../scenario/types.ts";
import type { Locator } from "../locate.ts";
import type { Objects, ServiceInfo, StartState, Workload } from "../state.ts";
import type { FaultClass, FaultSpec, Figures, Patch, RunMeasure, RunSpec, Severity } from "../types.ts";

export interface RuleInput {
  scenario: Scenario;
  objects: Objects;
  start: StartState;
  locator: Locator;
  faults: readonly FaultClass[];
  faultAt: number;
  /** the sweep's runs have callers (`--traffic` or the scenario's traffic) */
  traffic: boolean;
  /** the scenario's `manifests:` list as written, for a fix that adds an object */
  manifestEntries: unknown[];
}

/** A finding before its fix has run. */
export interface Draft {
  /** `Kind/ns/name` of the object the finding is about */
  object: string;
  /** the field it points at (dotted, `[name=x]`), "" for the object */
  field: string;
  severity: Severity;
  message: string;
  consequence: { run: string; text: string; figures: Figures };
  fix: SimulatedFix | AdviceFix;
}

/** A fix the audit simulates: the patched scenario, its fault re-run, read for `subject`. */
export interface SimulatedFix {
  text: string;
  spec: RunSpec;
  /** whose figures the fix's run is read for */
  subject: { kind: "service" | "workload"; id: string };
  /** the effect, in words, from the fix run's figures */
  effect: (f: Figures, run: RunMeasure) => string;
  /** whether the fix run did better than the consequence (default: some figure lower) */
  improved?: (f: Figures, run: RunMeasure) => boolean;
  /** whether the effect, when no better, says what would help instead (FL003: a second node per zone) */
  saysInstead?: (f: Figures, run: RunMeasure) => boolean;
}

/** A fix no patch can express (a node, a StorageClass the cluster lacks): advice, not a run. */
export interface AdviceFix {
  text: string;
  /** why it is not simulated, shown where a simulated fix shows its effect */
  advice: string;
}

export function simulated(fix: Draft["fix"]): fix is SimulatedFix {
  return "spec" in fix;
}

export interface Rule {
  id: string;
  name: string;
  title: string;
  severity: Severity;
  experiments?(input: RuleInput): RunSpec[];
  /**
   * At most how many simulated fixes `check` can propose, from the manifests and the state at t=0
   * alone (before any run): the audit's estimate counts them (audit.ts fixBound). None when absent.
   */
  fixes?(input: RuleInput): number;
  check(input: RuleInput, runs: ReadonlyMap<string, RunMeasure>): Draft[];
}

// ---- lookups ------------------------------------------------------------------------------------

/** The Services a workload's pods back. */
export function servicesOf(objects: Objects, workload: string): ServiceInfo[] {
  return objects.services.filter((s) => s.backends.includes(workload));
}

/** Runs of the sweep (no fix, no experiment) that have a fault. */
export function faultRuns(runs: ReadonlyMap<string, RunMeasure>): RunMeasure[] {
  return [...runs.values()].filter(
    (r) => !r.id.startsWith("fix/") && !r.id.startsWith("x/") && r.fault.class !== "none",
  );
}

/** How bad figures are, to pick the worst run: not recovered, then outage, degraded, requests lost. */
export function badness(f: Figures | undefined): number[] {
  if (!f) return [0, 0, 0, 0];
  return [f.recovered === null ? 1 : 0, f.outage, f.degraded, f.lost ?? 0];
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** The run (of `candidates`) that hurt `subject` most; the first on ties (the plan's order). */
export function worstRun(
  candidates: RunMeasure[],
  pick: (r: RunMeasure) => Figures | undefined,
): RunMeasure | undefined {
  let best: RunMeasure | undefined;
  for (const r of candidates) if (!best || compare(badness(pick(r)), badness(pick(best))) > 0) best = r;
  return best && compare(badness(pick(best)), [0, 0, 0, 0]) > 0 ? best : undefined;
}

export function firstContainerWith(w: Workload, has: (c: Container) => boolean): Container | undefined {
  return w.spec.containers.find(has);
}

/** `spec.template.spec.containers[name=web]` */
export function containerPath(w: Workload, c: Container): string {
  return `${w.specPath}.containers[name=${c.name}]`;
}

/** Seconds of consecutive failures before a probe acts (periodSeconds × failureThreshold; API defaults). */
export function failureWindow(p: Probe): number {
  return (p.periodSeconds ?? 10) * (p.failureThreshold ?? 3);
}

/**
 * A fix run: the patches, and the fault of the consequence re-aimed in the fixed scenario at
 * `workload` (the node or zone with most of its pods; the consequence's target on a tie).
 */
export function fixRun(
  rule: string,
  workload: string,
  worst: FaultSpec,
  at: number,
  patches: Patch[],
): RunSpec {
  const cls = worst.class as FaultClass;
  return {
    id: `fix/${rule}/${workload}/${cls}`,
    fault: { class: cls, target: "", nodes: [], at },
    patches,
    retarget: { workload, class: cls, prefer: worst.target },
  };
}

/** The consequence of `run` for a Service or workload: "when worker-2 loses power, web has …". */
export function consequenceOf(
  run: RunMeasure,
  kind: "service" | "workload",
  id: string,
  name = id,
): Draft["consequence"] {
  const f = (kind === "service" ? run.services[id] : run.workloads[id])!;
  return { run: run.id, text: `${when(run.fault)}, ${effectOf(kind, name, f)}`, figures: f };
}

/** A fix re-run on the consequence's fault, re-aimed at the workload (fixRun), read for `subject`. */
export function refault(
  rule: string,
  workload: string,
  worst: RunMeasure,
  at: number,
  text: string,
  patches: Patch[],
  subject: SimulatedFix["subject"],
): SimulatedFix {
  return {
    text,
    spec: fixRun(rule, workload, worst.fault, at, patches),
    subject,
    effect: (g, run) =>
      `${when(run.fault)} (the ${run.fault.class === "zone" ? "zone" : "node"} with most of its pods): ${shortEffect(subject.kind, g)}`,
  };
}

/** A Service or workload already short without any fault: no fault's figures are its own. */
export function brokenWithoutFault(
  runs: ReadonlyMap<string, RunMeasure>,
  kind: "service" | "workload",
  id: string,
): boolean {
  const none = runs.get("none");
  const f = kind === "service" ? none?.services[id] : none?.workloads[id];
  return f !== undefined && (f.degraded > 0 || f.recovered === null);
}

/** Some figure lower (not whole, outage, short, lost, restarts, evictions): the fix did something. */
export function lower(f: Figures, than: Figures): boolean {
  const v = (x: Figures) => [
    x.recovered === null ? 1 : 0,
    x.outage,
    x.degraded,
    x.lost ?? 0,
    x.restarts ?? 0,
    x.evicted ?? 0,
  ];
  const a = v(f);
  const b = v(than);
  return a.some((x, i) => x < b[i]!);
}

// ---- words --------------------------------------------------------------------------------------

export function d(seconds: number): string {
  return formatDuration(Math.round(seconds));
}

/** "when worker-2 loses power" */
export function when(f: FaultSpec): string {
  switch (f.class) {
    case "none":
      return "without any fault";
    case "power-off":
      return `when ${f.target} loses power`;
    case "zone":
      return `when zone ${f.target} loses power (${f.nodes.join(", ")})`;
    case "drain":
      return `when ${f.target} is drained`;
    case "kubelet-stop":
      return `when the kubelet on ${f.target} stops`;
    case "partition":
      return `when ${f.target} is cut off from the network`;
    case "vm-terminated":
      return `when ${f.target}'s instance is terminated`;
    case "stall":
      return `when the first pod of ${short(f.target)} stalls for ${d(f.seconds ?? 0)} (it answers nothing, then recovers by itself)`;
    case "blip":
      return `when ${f.nodes.join(", ")} is cut off from the network for ${d(f.seconds ?? 0)}`;
  }
}

/** `Deployment/default/web` → `default/web`. */
export function short(id: string): string {
  return id.slice(id.indexOf("/") + 1);
}

/** What figures say about a Service or workload: "has no ready endpoint for 5m52s". */
export function effectOf(kind: "service" | "workload", name: string, f: Figures): string {
  const none = kind === "service" ? "no ready endpoint" : "no Ready pod";
  const short_ = kind === "service" ? "fewer ready endpoints than its " : "fewer Ready pods than its ";
  const parts: string[] = [];
  if (f.outage > 0) parts.push(`${name} has ${none} for ${d(f.outage)}`);
  else if (f.degraded > 0) parts.push(`${name} has ${short_}${f.desired} for ${d(f.degraded)}`);
  else {
    const what = kind === "service" ? "endpoint" : "pod";
    parts.push(`${name} keeps ${f.desired === 1 ? `its ${what}` : `all ${f.desired} ${what}s`}`);
  }
  if (f.recovered === null) parts.push(`and is not whole again by itself: ${f.reasons.join("; ")}`);
  else if (f.outage > 0 || f.degraded > 0) parts.push(`whole again after ${d(f.recovered)}`);
  if (f.lost !== undefined && f.lost > 0)
    parts.push(`callers lost ${f.lost} of ${f.sent} request${f.sent === 1 ? "" : "s"}`);
  if (f.restarts) parts.push(`${f.restarts} restart${f.restarts === 1 ? "" : "s"} by a probe`);
  return parts.join(", ");
}

/** The short form for a fix's effect: "0s without endpoints, whole again after 4s". */
export function shortEffect(kind: "service" | "workload", f: Figures): string {
  const parts = [`${d(f.outage)} without ${kind === "service" ? "endpoints" : "a Ready pod"}`];
  if (f.degraded > f.outage) parts.push(`${d(f.degraded)} short`);
  parts.push(
    f.recovered === null
      ? `not whole again by itself (${f.reasons.join("; ")})`
      : `whole again after ${d(f.recovered)}`,
  );
  if (f.lost !== undefined) parts.push(`${f.lost} request${f.lost === 1 ? "" : "s"} lost`);
  if (f.restarts) parts.push(`${f.restarts} restart${f.restarts === 1 ? "" : "s"}`);
  return parts.join(", ");
}

export type { FaultClass, Figures, Patch, RunMeasure, RunSpec };
