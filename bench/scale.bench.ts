// Speed and scale (issue 10): the zone loss of bench/zone-loss-at-scale.ts at 1,000 nodes (30,000
// pods) and 5,000 nodes (150,000 pods, Kubernetes' documented limits), each a whole process of the
// built program (dist/, compiled first) as `faultline simulate` runs it: start-up, load, budget,
// warm-up, the 15 minutes, the output written to /dev/null (text and JSON, each streamed). Prints wall
// time, its CPU time (the figure to read on a busy machine: wall time there is the other processes'
// too), peak RSS, and each against its target and the issue's figures; and, from a run of the model
// alone in another process, the setup's CPU time (the warm-up) and the engine events.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Calibration, inCalibrations, loadNow } from "./calibrate.ts";
import { zoneLossAtScaleText } from "./zone-loss-at-scale.ts";

/**
 * The process measured: what bin/faultline.js runs (`faultline simulate FILE [--json]`, the output
 * to /dev/null), then its CPU time and peak RSS on stderr.
 */
const CLI_CHILD = `
const [file, format] = process.argv.slice(1);
const { runProcess } = await import("./dist/cli/main.js");
await runProcess(["simulate", ...(format === "json" ? ["--json"] : []), file]);
const cpu = process.cpuUsage();
process.stderr.write(JSON.stringify({ cpu: (cpu.user + cpu.system) / 1000, maxRss: process.resourceUsage().maxRSS * 1024 }));
`;

/**
 * The model alone, in another process: the setup's CPU time (createSimulation, the cluster built and
 * warmed up), which the CLI does not report, the engine events of the run and their estimate.
 */
const MODEL_CHILD = `
const file = process.argv[1];
const { loadScenarioFile } = await import("./dist/load/index.js");
const { estimateWork, DEFAULT_BUDGET } = await import("./dist/run/budget.js");
const { createSimulation } = await import("./dist/run/simulate.js");
const scenario = loadScenarioFile(file);
const estimate = estimateWork(scenario);
const maxEvents = Math.max(DEFAULT_BUDGET.maxEvents, estimate.events * 2);
const cpu0 = process.cpuUsage();
const sim = createSimulation(scenario, { engine: { maxEvents } });
const cpu1 = process.cpuUsage(cpu0);
sim.runUntil(scenario.duration);
process.stderr.write(JSON.stringify({ setup: (cpu1.user + cpu1.system) / 1000, events: sim.engine.processed, estimate: estimate.events }));
`;

interface Run {
  wall: number;
  /** CPU time of the whole process, ms (the figure that holds on a busy machine) */
  cpu: number;
  maxRss: number;
}

interface Model {
  /** CPU time of the setup (createSimulation: the cluster built and warmed up), ms */
  setup: number;
  events: number;
  estimate: number;
}

/** A child process's report (stderr, JSON); stdout goes to /dev/null as the CLI's output would. */
function child<T>(code: string, args: string[]): T & { wall: number } {
  const start = performance.now();
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code, ...args], {
    encoding: "utf8",
    stdio: ["ignore", "ignore", "pipe"],
    maxBuffer: 1 << 20,
  });
  const wall = performance.now() - start;
  if (r.status !== 0) throw new Error(`faultline simulate ${args.join(" ")} failed: ${r.stderr}`);
  return { wall, ...(JSON.parse(r.stderr) as T) };
}

const runCli = (file: string, format: "text" | "json") => child<Omit<Run, "wall">>(CLI_CHILD, [file, format]);
const runModel = (file: string) => child<Model>(MODEL_CHILD, [file]);

const MiB = 1048576;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function line(
  label: string,
  r: Run,
  m: Model,
  target: { wall: number; rss?: number },
  issue: number,
  cal: Calibration,
): void {
  console.log(
    `  ${label.padEnd(16)} ${s(r.wall).padStart(8)} wall, ${s(r.cpu)} CPU (${inCalibrations(r.cpu, cal)}; setup ${s(m.setup)}), ${(r.maxRss / MiB).toFixed(0)} MiB peak RSS; ` +
      `wall ${(r.wall / 1000 / target.wall).toFixed(2)}× and CPU ${(r.cpu / 1000 / target.wall).toFixed(2)}× the ${target.wall} s target` +
      (target.rss ? `, ${(r.maxRss / (target.rss * MiB)).toFixed(2)}× the ${target.rss} MiB one` : "") +
      `; ${(issue / (r.cpu / 1000)).toFixed(1)}× less than the issue's ${issue} s (CPU); ` +
      `${m.events.toLocaleString("en")} engine events (estimated ${Math.round(m.estimate).toLocaleString("en")}, ${(m.estimate / m.events).toFixed(2)}×); ${loadNow()}`,
  );
}

export default async function (cal: Calibration): Promise<void> {
  execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { stdio: "inherit" });
  const dir = mkdtempSync(join(tmpdir(), "faultline-scale-"));
  try {
    const files = new Map<number, string>();
    for (const n of [1000, 5000]) {
      const file = join(dir, `zone-loss-${n}.yaml`);
      writeFileSync(file, zoneLossAtScaleText(n));
      files.set(n, file);
    }
    console.log("one zone of 4 powered off at 60 s, 15 simulated minutes, 30 pods per node; whole process");
    const small = runModel(files.get(1000)!);
    // Issue 26's targets, in CPU time of the whole process: 2.5 s; 10 s and 600 MiB.
    line("1,000 nodes", runCli(files.get(1000)!, "text"), small, { wall: 2.5 }, 16, cal);
    const large = runModel(files.get(5000)!);
    line("5,000 nodes", runCli(files.get(5000)!, "text"), large, { wall: 10, rss: 600 }, 122, cal);
    line("5,000 --json", runCli(files.get(5000)!, "json"), large, { wall: 10, rss: 600 }, 122, cal);
    // Setup against pods: t ∝ pods^k; n log n between 30,000 and 150,000 pods is k ≈ 1.14.
    const k = Math.log(large.setup / small.setup) / Math.log(5);
    console.log(`  setup growth exponent 1,000 → 5,000 nodes: ${k.toFixed(2)} (target ≤ 1.2)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
