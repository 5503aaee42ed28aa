// An idle cluster over a long day: the benchmarks' cluster (30 pods per node, 100 Deployments behind
// Services, 4 zones) with nothing happening to it, as whole processes of the built CLI
// (`faultline simulate FILE`, output to /dev/null), under the default budget. 1,000 nodes for 24 h
// against the same cluster for 15 min (target: ≤ 1.5× in CPU and in memory, and the default budget
// takes it), and 100 nodes for 15 min, 2 h and 24 h. Healthy nodes' heartbeats are what grows with
// simulated time while nothing happens, so this is their cost.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Calibration, inCalibrations, loadNow } from "./calibrate.ts";
import { idleClusterText } from "./zone-loss-at-scale.ts";

/** The CLI as bin/faultline.js runs it, then its exit code, CPU time and peak RSS after a marker on stderr. */
const CLI_CHILD = `
const { runProcess } = await import("./dist/cli/main.js");
await runProcess(["simulate", process.argv[1]]);
const cpu = process.cpuUsage();
process.stderr.write("\\n@@" + JSON.stringify({ code: process.exitCode ?? 0, cpu: (cpu.user + cpu.system) / 1000, maxRss: process.resourceUsage().maxRSS * 1024 }));
`;

interface Run {
  code: number;
  /** CPU time of the whole process, ms */
  cpu: number;
  maxRss: number;
  wall: number;
  /** the CLI's first line on stderr when it refused or failed */
  message: string;
}

function runCli(file: string): Run {
  const start = performance.now();
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", CLI_CHILD, file], {
    encoding: "utf8",
    stdio: ["ignore", "ignore", "pipe"],
    maxBuffer: 16 << 20,
  });
  const wall = performance.now() - start;
  const at = r.stderr.lastIndexOf("\n@@");
  if (at < 0) throw new Error(`faultline simulate ${file} failed: ${r.stderr}`);
  const message = r.stderr.slice(0, at).trim().split("\n")[0] ?? "";
  return { wall, message, ...(JSON.parse(r.stderr.slice(at + 3)) as Omit<Run, "wall" | "message">) };
}

const MiB = 1048576;

function line(label: string, r: Run, cal: Calibration, base?: Run): string {
  const refused = r.code === 0 ? "" : ` — exit ${r.code}: ${r.message}`;
  const ratio =
    base && r.code === 0
      ? `; ${(r.cpu / base.cpu).toFixed(2)}× the 15 min CPU and ${(r.maxRss / base.maxRss).toFixed(2)}× its memory (target ≤ 1.5×: ${(r.cpu / base.cpu / 1.5).toFixed(2)} and ${(r.maxRss / base.maxRss / 1.5).toFixed(2)} of it)`
      : "";
  return (
    `  ${label.padEnd(18)} ${(r.cpu / 1000).toFixed(2)} s CPU (${inCalibrations(r.cpu, cal)}), ${(r.wall / 1000).toFixed(2)} s wall, ` +
    `${(r.maxRss / MiB).toFixed(0)} MiB peak RSS${ratio}${refused}; ${loadNow()}`
  );
}

export default async function (cal: Calibration): Promise<void> {
  execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { stdio: "inherit" });
  const dir = mkdtempSync(join(tmpdir(), "faultline-idle-"));
  try {
    const file = (nodes: number, duration: string) => {
      const f = join(dir, `idle-${nodes}-${duration}.yaml`);
      writeFileSync(f, idleClusterText(nodes, duration));
      return f;
    };
    console.log("an idle cluster (30 pods per node, nothing happens), whole process, the default budget");
    for (const nodes of [1000, 100]) {
      const base = runCli(file(nodes, "15m"));
      console.log(line(`${nodes.toLocaleString("en")} nodes 15 min`, base, cal));
      for (const d of nodes === 1000 ? ["24h"] : ["2h", "24h"])
        console.log(line(`${nodes.toLocaleString("en")} nodes ${d}`, runCli(file(nodes, d)), cal, base));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
