// Speed and scale (issue 10): the zone loss of bench/zone-loss-at-scale.ts at 1,000 nodes (30,000
// pods) and 5,000 nodes (150,000 pods, Kubernetes' documented limits), each a whole process of the
// built program (dist/, compiled first) as `faultline simulate` runs it: load, budget, warm-up, the
// 15 minutes, the output written to /dev/null (text and JSON, each streamed). Prints wall time, its
// CPU time (the figure to read on a busy machine: wall time there is the other processes' too), the
// setup's CPU time (the warm-up), peak RSS, and each against its target and the issue's figures.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zoneLossAtScaleText } from "./zone-loss-at-scale.ts";

/** The child: the CLI's pipeline on the built modules, reporting its setup time and peak RSS. */
const CHILD = `
const [file, format] = process.argv.slice(1);
const { writeSync, openSync } = await import("node:fs");
const { loadScenarioFile } = await import("./dist/load/index.js");
const { estimateWork, overBudget, DEFAULT_BUDGET } = await import("./dist/run/budget.js");
const { createSimulation } = await import("./dist/run/simulate.js");
const { jsonChunks } = await import("./dist/report/json.js");
const { timelineChunks } = await import("./dist/report/text.js");
const scenario = loadScenarioFile(file);
const estimate = estimateWork(scenario);
const maxEvents = Math.max(DEFAULT_BUDGET.maxEvents, estimate.events * 2);
if (overBudget(estimate, { ...DEFAULT_BUDGET, maxEvents })) throw new Error("over budget");
const cpu0 = process.cpuUsage();
const sim = createSimulation(scenario, { engine: { maxEvents } });
const cpu1 = process.cpuUsage(cpu0);
const setup = (cpu1.user + cpu1.system) / 1000;
sim.runUntil(scenario.duration);
const result = sim.result();
const out = openSync("/dev/null", "w");
if (format === "json") for (const c of jsonChunks(result, scenario)) writeSync(out, c);
else for (const c of timelineChunks(result, scenario)) writeSync(out, c);
const cpu = process.cpuUsage();
process.stderr.write(JSON.stringify({ setup, cpu: (cpu.user + cpu.system) / 1000, events: result.summary.engineEvents, estimate: estimate.events, maxRss: process.resourceUsage().maxRSS * 1024 }));
`;

interface Run {
  wall: number;
  /** CPU time of the whole process, ms (the figure that holds on a busy machine) */
  cpu: number;
  /** CPU time of the setup (createSimulation: the cluster built and warmed up), ms */
  setup: number;
  events: number;
  estimate: number;
  maxRss: number;
}

function runChild(file: string, format: "text" | "json"): Run {
  const start = performance.now();
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", CHILD, file, format], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  const wall = performance.now() - start;
  if (r.status !== 0) throw new Error(`the ${format} run failed: ${r.stderr}`);
  return { wall, ...(JSON.parse(r.stderr) as Omit<Run, "wall">) };
}

const MiB = 1048576;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function line(label: string, r: Run, target: { wall: number; rss?: number }, issue: number): void {
  console.log(
    `  ${label.padEnd(16)} ${s(r.wall).padStart(8)} wall, ${s(r.cpu)} CPU (setup ${s(r.setup)}), ${(r.maxRss / MiB).toFixed(0)} MiB peak RSS; ` +
      `wall ${(r.wall / 1000 / target.wall).toFixed(2)}× and CPU ${(r.cpu / 1000 / target.wall).toFixed(2)}× the ${target.wall} s target` +
      (target.rss
        ? `, ${(r.maxRss / (target.rss * 1024 * MiB)).toFixed(2)}× the ${target.rss} GiB one`
        : "") +
      `; ${(issue / (r.cpu / 1000)).toFixed(1)}× less than the issue's ${issue} s (CPU); ` +
      `${r.events.toLocaleString("en")} engine events (estimated ${Math.round(r.estimate).toLocaleString("en")}, ${(r.estimate / r.events).toFixed(2)}×)`,
  );
}

export default async function (): Promise<void> {
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
    const small = runChild(files.get(1000)!, "text");
    line("1,000 nodes", small, { wall: 2 }, 16);
    const large = runChild(files.get(5000)!, "text");
    line("5,000 nodes", large, { wall: 10, rss: 1.5 }, 122);
    const json = runChild(files.get(5000)!, "json");
    line("5,000 --json", json, { wall: 10, rss: 1.5 }, 122);
    // Setup against pods: t ∝ pods^k; n log n between 30,000 and 150,000 pods is k ≈ 1.14.
    const k = Math.log(large.setup / small.setup) / Math.log(5);
    console.log(`  setup growth exponent 1,000 → 5,000 nodes: ${k.toFixed(2)} (target ≤ 1.2)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
