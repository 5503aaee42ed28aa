// `faultline audit` at scale: 100 nodes in 3 zones, 100 Deployments × 30 replicas (3,000 pods) behind
// Services, every node's power-off and drain and every zone's loss (about 200 runs of 15 minutes),
// with --jobs 1 and --jobs 2. Prints wall and CPU time (CPU: every thread of the process and its
// forked runs) with the CPU's ratio to #26's target (≤ 15 s) and in calibrations, the runs,
// the cost per run, where the time goes (planning, the sweep, findings and fixes; one run split into
// its warm-up, its 15 minutes and the audit's measure), and checks that both give the same result.
// The machine is shared: compare the CPU figures and the ratio, not the wall time alone.
// FAULTLINE_AUDIT_BENCH_NODES=30 runs a smaller variant (fewer nodes, the same pods) for iterating.

import { availableParallelism } from "node:os";
import {
  checkSweep,
  DEFAULT_MAX_SWEEP_EVENTS,
  finishAudit,
  measuresOf,
  planAudit,
  runSpecs,
} from "../src/audit/audit.ts";
import type { RunContext } from "../src/audit/execute.ts";
import { FAULT_AT, prepare } from "../src/audit/inputs.ts";
import { measureRun } from "../src/audit/measure.ts";
import { timelineOf } from "../src/audit/plan.ts";
import { poolRunner } from "../src/audit/pool.ts";
import { primerManifests } from "../src/audit/primer.ts";
import { startStateOf } from "../src/audit/state.ts";
import { DEFAULT_FAULTS } from "../src/audit/types.ts";
import { DEFAULT_BUDGET } from "../src/run/budget.ts";
import { createSimulation } from "../src/run/simulate.ts";
import { type Calibration, cpuWithChildren, inCalibrations, loadNow } from "./calibrate.ts";

const NODES = 100;
const DEPLOYMENTS = 100;
const REPLICAS = 30;

/**
 * The bench's manifests: 100 Deployments of `replicas` (30 by default) behind Services; without
 * `readiness`, no readiness probe (so FL007 has an experiment for each).
 */
export function auditAtScaleManifests(replicas = REPLICAS, readiness = true): string {
  return primerManifests(DEPLOYMENTS, replicas, readiness);
}

/** #26: the audit of this cluster (every node's power-off and drain, every zone) ≤ 15 s of CPU. */
const CPU_TARGET_SECONDS = 15;

export default async function (cal: Calibration): Promise<void> {
  const scale = Number(process.env.FAULTLINE_AUDIT_BENCH_NODES ?? NODES);
  let t0 = performance.now();
  const prepared = prepare({
    entries: [
      {
        entry: "audit-at-scale.yaml",
        files: [{ file: "audit-at-scale.yaml", text: auditAtScaleManifests() }],
      },
    ],
    cluster: { nodes: scale, zones: ["a", "b", "c"] },
  });
  const prepareSeconds = seconds(t0);
  console.log(
    `${scale} nodes in 3 zones, ${DEPLOYMENTS} Deployments × ${REPLICAS} replicas behind Services; faults ${DEFAULT_FAULTS.join(", ")}; ${availableParallelism()} cores${scale === NODES ? "" : " (FAULTLINE_AUDIT_BENCH_NODES: a smaller variant, not the issue's figure)"}`,
  );
  const outputs: string[] = [];
  let first = 0;
  for (const jobs of [1, 2]) {
    const options = {
      faults: DEFAULT_FAULTS,
      budget: DEFAULT_BUDGET,
      maxSweepEvents: DEFAULT_MAX_SWEEP_EVENTS,
      runner: poolRunner(jobs),
    };
    // This process and its children: the runs forked from the sweep's snapshot are processes.
    const cpu0 = cpuWithChildren();
    t0 = performance.now();
    // audit() phase by phase, to show what the audit adds around the runs.
    const phase1 = planAudit(prepared, options);
    checkSweep(phase1.ctx, phase1.runs, options, "the sweep");
    const plan = seconds(t0);
    const outcomes = await runSpecs(phase1.ctx, phase1.runs, options, "sweep");
    const sweep = seconds(t0) - plan;
    const result = await finishAudit(prepared, phase1, measuresOf(phase1.runs, outcomes), options);
    const wall = seconds(t0);
    const cpuSeconds = cpuWithChildren() - cpu0;
    const runs = result.runs.length + new Set(result.findings.map((f) => f.fix.run)).size;
    const events = result.runs.reduce((s, r) => s + r.engineEvents, 0);
    outputs.push(JSON.stringify(result));
    if (jobs === 1) first = wall;
    console.log(
      `  --jobs ${jobs}: ${wall.toFixed(1)} s wall, ${cpuSeconds.toFixed(1)} s CPU; ${runs} runs (${result.findings.length} findings), ${(wall / runs).toFixed(2)} s wall and ${(cpuSeconds / runs).toFixed(2)} s CPU per run; ${events.toLocaleString("en")} engine events; CPU ${(cpuSeconds / CPU_TARGET_SECONDS).toFixed(2)} of the target of ${CPU_TARGET_SECONDS} s (${inCalibrations(cpuSeconds * 1000, cal)}, ${loadNow()})${jobs > 1 ? `; ${(first / wall).toFixed(2)}× --jobs 1 in wall time, target < 60 s` : ""}`,
    );
    console.log(
      `    wall: reading the manifests ${prepareSeconds.toFixed(2)} s (once), planning ${plan.toFixed(2)} s (the cluster at t=0 is one warm-up), the sweep ${sweep.toFixed(1)} s, findings and fixes ${(wall - plan - sweep).toFixed(2)} s`,
    );
    if (jobs === 1) onePowerOff(phase1.ctx);
  }
  console.log(`  same result with --jobs 1 and --jobs 2: ${outputs[0] === outputs[1] ? "yes" : "NO"}`);
}

/**
 * One power-off run in this thread (no worker is running then, so the process's CPU time is its),
 * split: the warm-up, the 15 minutes, and what the audit adds (the result read, its measure).
 */
function onePowerOff(ctx: RunContext): void {
  const node = ctx.base.nodes[0]!.name;
  const fault = { class: "power-off" as const, target: node, nodes: [node], at: FAULT_AT };
  let c0 = process.cpuUsage();
  const sim = createSimulation(
    { ...ctx.base, timeline: timelineOf({ id: "bench", fault, patches: [] }, fault) },
    { engine: { maxEvents: ctx.maxEvents } },
  );
  const warm = cpuSeconds(c0);
  c0 = process.cpuUsage();
  sim.runUntil(ctx.base.duration);
  const run = cpuSeconds(c0);
  c0 = process.cpuUsage();
  const result = sim.result();
  const measure = measureRun(result, ctx.objects, startStateOf(result.initial), fault);
  const audit = cpuSeconds(c0);
  console.log(
    `    one power-off run in this thread, CPU: warm-up ${warm.toFixed(2)} s, the 15 minutes ${run.toFixed(2)} s, the result and the audit's measure ${(audit * 1000).toFixed(0)} ms (${JSON.stringify(measure).length.toLocaleString("en")} bytes back from a worker)`,
  );
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1e6;
}

function seconds(since: number): number {
  return (performance.now() - since) / 1000;
}
