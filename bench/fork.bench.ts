// One warm-up per sweep (src/audit/fork.ts): the audit bench's cluster (100 nodes in 3 zones, 3,000
// pods), a few power-off runs from scratch in this process and the same runs forked from the sweep's
// snapshot, in CPU time (this process and its children: the snapshot's build and one process per
// run, read from /proc/self/stat once they have exited). Prints a forked run's CPU over a run from
// scratch beside the target (#26: a fix or lever run costs at most a fifth of a run from scratch),
// the snapshot's own cost, and checks that both give the same outcomes, byte for byte.
// FAULTLINE_FORK_BENCH_RUNS sets the runs (default 8), FAULTLINE_FORK_BENCH_WARM the uncounted runs from
// scratch before them (default three times the runs), FAULTLINE_FORK_BENCH_NODES the nodes (default
// 100; 30 pods a node, so 1,000 is the audit-1000 bench's cluster, and takes a few minutes).
// FAULTLINE_FORK_BENCH_RUNS_OF=experiments prices FL007's experiments instead (a caller at 100
// requests/s and a 10 s boot, then a drain: patches the warm-up did not read, run/warm-serves.ts) on
// the same cluster without readiness probes; the first of the runs is then a drain without them.

import { DEFAULT_MAX_SWEEP_EVENTS, inProcess, planAudit } from "../src/audit/audit.ts";
import { executeRun, type RunContext, type RunOutcome } from "../src/audit/execute.ts";
import { type ForkMethod, forkMethod, forkProgramScript, forkRuns } from "../src/audit/fork.ts";
import { prepare } from "../src/audit/inputs.ts";
import { PRIMER_MIN_RUNS } from "../src/audit/primer.ts";
import { DEFAULT_FAULTS, type RunSpec } from "../src/audit/types.ts";
import { DEFAULT_BUDGET } from "../src/run/budget.ts";
import { auditAtScaleManifests } from "./audit.bench.ts";
import { type Calibration, cpuWithChildren, inCalibrations, loadNow } from "./calibrate.ts";

export default async function (cal: Calibration): Promise<void> {
  const n = Number(process.env.FAULTLINE_FORK_BENCH_RUNS ?? 8);
  const nodes = Number(process.env.FAULTLINE_FORK_BENCH_NODES ?? 100);
  const replicas = Math.round((30 * nodes) / 100);
  const experiments = process.env.FAULTLINE_FORK_BENCH_RUNS_OF === "experiments";
  const text = auditAtScaleManifests(replicas, !experiments);
  const prepared = prepare({
    entries: [{ entry: "fork.yaml", files: [{ file: "fork.yaml", text }] }],
    cluster: { nodes, zones: ["a", "b", "c"] },
  });
  const phase1 = planAudit(prepared, {
    faults: DEFAULT_FAULTS,
    budget: DEFAULT_BUDGET,
    maxSweepEvents: DEFAULT_MAX_SWEEP_EVENTS,
    runner: inProcess,
  });
  const ctx = phase1.ctx;
  const specs = experiments
    ? [
        phase1.runs.find((r) => r.fault.class === "drain" && !r.id.startsWith("x/"))!,
        ...phase1.runs.filter((r) => r.id.startsWith("x/boot/")).slice(0, n),
      ]
    : phase1.runs.filter((r) => r.fault.class === "power-off").slice(0, n + 1);
  if (specs.length < n + 1) throw new Error(`the sweep has ${specs.length - 1} such runs, not ${n}`);
  console.log(
    `${nodes.toLocaleString("en")} nodes in 3 zones, ${(100 * replicas).toLocaleString("en")} pods; ${n} ${experiments ? "FL007 experiments (callers, a boot, a drain)" : "power-off runs"} from scratch and forked (${loadNow()})`,
  );
  // Runs from scratch are priced as in a sweep's steady state: the models compiled and optimised by
  // the JIT. The first runs of a process run cold and cost about twice as much (0.48 s against
  // 0.23 s at load 6), which would flatter the forked run's ratio. Not counted: `warmRuns` runs.
  const warmRuns = Number(process.env.FAULTLINE_FORK_BENCH_WARM ?? 3 * n);
  for (let i = 0; i < warmRuns; i++) executeRun(ctx, specs[i % specs.length]!);
  const c0 = cpuWithChildren();
  const scratch = specs.slice(1).map((s) => executeRun(ctx, s));
  const scratchRun = (cpuWithChildren() - c0) / n;
  console.log(
    `  from scratch: ${scratchRun.toFixed(3)} s CPU per run (${inCalibrations(scratchRun * 1000, cal)})`,
  );
  for (const method of forkMethod() === "process"
    ? (["process", "snapshot"] as const)
    : (["snapshot"] as const))
    await forkedRuns(cal, method, ctx, specs, scratch, scratchRun, phase1.runs.length);
}

/** The same runs forked with `method`: a forked run's CPU, the fork's set-up, the same outcomes. */
async function forkedRuns(
  cal: Calibration,
  method: ForkMethod,
  ctx: RunContext,
  specs: RunSpec[],
  scratch: RunOutcome[],
  scratchRun: number,
  sweep: number,
): Promise<void> {
  const n = specs.length - 1;
  // Bundled once beforehand: esbuild's service process outlives the call, so its CPU is not seen.
  await forkProgramScript(method === "process" ? "fork-server" : "fork-entry");
  // The fork server plays its primer first as it would for the whole sweep (audit/primer.ts), in
  // both calls, so that it is part of the set-up.
  const primeFrom = sweep >= PRIMER_MIN_RUNS ? 0 : Number.POSITIVE_INFINITY;
  let c0 = cpuWithChildren();
  await forkRuns(ctx, specs.slice(0, 1), 1, () => {}, method, primeFrom);
  const one = cpuWithChildren() - c0;
  c0 = cpuWithChildren();
  const forked = await forkRuns(ctx, specs, 1, () => {}, method, primeFrom);
  const all = cpuWithChildren() - c0;
  // The set-up and n + 1 runs, less the set-up and one run: n forked runs. The snapshot: its build;
  // the fork server: its start, its primer and its first run, from scratch, which compile what the
  // forks inherit.
  const forkRun = (all - one) / n;
  const build = one - forkRun;
  const same = specs.slice(1).every((_, i) => JSON.stringify(forked[i + 1]) === JSON.stringify(scratch[i]));
  const what =
    method === "process"
      ? `a fork of the warm server${primeFrom === 0 ? `, primed: the sweep has ${sweep} runs` : ""}`
      : "a process from the snapshot";
  console.log(
    `  ${method}: forked ${forkRun.toFixed(3)} s CPU per run (${what}; ${inCalibrations(forkRun * 1000, cal)})`,
  );
  console.log(
    `    forked run / run from scratch: ${(forkRun / scratchRun).toFixed(2)} (target ≤ 0.2: ${forkRun / scratchRun <= 0.2 ? "met" : "not met"}); the set-up once: ${build.toFixed(2)} s CPU; the sweep's ${sweep} runs, each priced as one of these: ${((build + sweep * forkRun) / (sweep * scratchRun)).toFixed(2)} of from scratch; ${loadNow()}`,
  );
  console.log(`    same outcomes forked and from scratch: ${same ? "yes" : "NO"}`);
}
