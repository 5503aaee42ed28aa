// The fork server's primer (fork-server.ts). A forked child runs on the code its server compiled, and
// V8 compiles and optimises a function only once it has run enough (its feedback and the interrupt
// budget: Ignition, then Sparkplug and TurboFan); what the server has not made hot, every child
// compiles again, on its one thread (`--single-threaded`), and loses at its exit. Before it warms the
// audit's cluster up, the server therefore plays the sweep of a small cluster of its own: Deployments
// behind Services, with readiness probes and a preStop sleep, on nodes in three zones, its runs of
// the fault classes the audit's sweep plays, taken in turn. Their outcomes are dropped: the models read nothing from
// an earlier run (every sweep's worker threads already play run after run in one process), so a
// child's outcome is the same with or without it (test/audit/fork.test.ts).
//
// Measured on the project's 2-core machine class (an Intel Xeon host, calibration 1.3–1.5 s of CPU,
// load 0.6–2.2), the audit bench's 100 nodes and 3,000 pods: a power-off child with its fork and exit
// 0.081–0.094 s of CPU after the one run per fault class the server plays anyway, 0.054 s after this
// primer; the whole audit (204 runs), alternated twice, 19.4–19.8 s of CPU without it, 12.8–13.2 s
// with it. At 1,000 nodes and 30,000 pods a child 0.32 s without, 0.27 s with (docs/perf.md).

import { type ForkInput, startOf } from "./execute.ts";
import { FAULT_AT, prepare } from "./inputs.ts";
import { planSweep } from "./plan.ts";
import type { FaultClass, RunSpec } from "./types.ts";

/**
 * Forked runs from which the primer pays: it costs about 1 s of the server's CPU and saves about
 * 0.03 s a child at 100 nodes, 0.05 s at 1,000 (docs/perf.md).
 */
export const PRIMER_MIN_RUNS = 60;

/** The primer's cluster: nodes in three zones, Deployments of `replicas` each behind a Service. */
const NODES = 10;
const DEPLOYMENTS = 30;
const REPLICAS = 3;
/** Runs played: enough that what a run does has run often enough to be optimised. */
const RUNS = 20;

/**
 * The primer's manifests: like most audited services, a readiness probe (unless `readiness` is
 * false), a preStop sleep (unless `preStop` is false), requests; the audit benches' clusters are the
 * same at 100 Deployments.
 */
export function primerManifests(
  deployments = DEPLOYMENTS,
  replicas = REPLICAS,
  readiness = true,
  preStop = true,
): string {
  const docs: string[] = [];
  for (let d = 0; d < deployments; d++)
    docs.push(
      [
        "apiVersion: apps/v1",
        "kind: Deployment",
        `metadata: {name: app-${d}}`,
        "spec:",
        `  replicas: ${replicas}`,
        `  selector: {matchLabels: {app: app-${d}}}`,
        "  template:",
        `    metadata: {labels: {app: app-${d}}}`,
        "    spec:",
        "      containers:",
        "        - name: app",
        "          image: example/app:1",
        "          ports: [{containerPort: 8080}]",
        "          resources: {requests: {cpu: 50m, memory: 64Mi}}",
        ...(readiness
          ? ["          readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 5}"]
          : []),
        ...(preStop ? ["          lifecycle: {preStop: {sleep: {seconds: 5}}}"] : []),
        "---",
        "apiVersion: v1",
        "kind: Service",
        `metadata: {name: app-${d}}`,
        `spec: {selector: {app: app-${d}}, ports: [{port: 80, targetPort: 8080}]}`,
      ].join("\n"),
    );
  return `${docs.join("\n---\n")}\n`;
}

/** What the fork server plays before its warm-up: the primer's context and runs, the fault classes taken in turn. */
export interface Primer {
  input: ForkInput;
  specs: RunSpec[];
}

/** The primer for a sweep of `faults` under the audit's per-run cap, `runs` runs taken in turn from each class. */
export function primer(faults: readonly FaultClass[], maxEvents: number, runs = RUNS, nodes = NODES): Primer {
  const file = "faultline-primer.yaml";
  const { scenario, source } = prepare({
    entries: [{ entry: file, files: [{ file, text: primerManifests() }] }],
    cluster: { nodes, zones: ["a", "b", "c"] },
  });
  const base = { ...scenario, timeline: [] };
  const start = startOf(base, maxEvents);
  const planned = planSweep(base, start, faults, FAULT_AT).runs.filter((r) => r.fault.class !== "none");
  const byClass = new Map<string, RunSpec[]>();
  for (const r of planned) byClass.set(r.fault.class, [...(byClass.get(r.fault.class) ?? []), r]);
  const lists = [...byClass.values()];
  const specs: RunSpec[] = [];
  for (let i = 0; i < runs && lists.length > 0; i++) {
    const list = lists[i % lists.length]!;
    specs.push(list[Math.floor(i / lists.length) % list.length]!);
  }
  return { input: { source, base, start, maxEvents }, specs };
}
