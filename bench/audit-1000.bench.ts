// `faultline audit` of 1,000 nodes in 3 zones and 30,000 pods (100 Deployments × 300 replicas behind
// Services), every default fault, --jobs 2, its fix runs included: the whole command as a process of
// the built CLI (output to /dev/null). Target ≤ 10 minutes wall. It takes minutes, so it runs only with
// FAULTLINE_BENCH_LONG=1 (`npm run bench` stays bounded); CPU time of the process (every thread),
// wall time, peak RSS, the calibration and the load beside it.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { primerManifests } from "../src/audit/primer.ts";
import { type Calibration, inCalibrations, loadNow } from "./calibrate.ts";

const CHILD = `
const { main } = await import("./dist/cli/main.js");
const code = await main(process.argv.slice(1));
// Its own CPU and its children's (the runs forked from the sweep's snapshot, src/audit/fork.ts), in ms.
const f = (await import("node:fs")).readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
const cpu = [11, 12, 13, 14].reduce((s, i) => s + Number(f[i]), 0) * 10;
process.stderr.write("\\n@@" + JSON.stringify({ code, cpu, maxRss: process.resourceUsage().maxRSS * 1024 }));
`;

/** 100 Deployments of `replicas` behind Services, without readiness probes or preStop hooks. */
function manifests(replicas: number): string {
  return primerManifests(100, replicas, false, false);
}

/** What the audit ran, from its --json: the sweep's runs (experiments among them), the fixes' runs, the findings. */
function runsOf(json: string): string {
  const a = JSON.parse(json) as { runs: { id: string }[]; fixes: unknown[]; findings: unknown[] };
  const experiments = a.runs.filter((r) => r.id.startsWith("x/")).length;
  return `${a.runs.length} runs (${experiments} experiments), ${a.fixes.length} fix runs, ${a.findings.length} findings`;
}

export default async function (cal: Calibration): Promise<void> {
  if (process.env.FAULTLINE_BENCH_LONG !== "1") {
    console.log(
      "audit of 1,000 nodes / 30,000 pods, --jobs 2: skipped (FAULTLINE_BENCH_LONG=1 runs it; minutes)",
    );
    return;
  }
  execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { stdio: "inherit" });
  const dir = mkdtempSync(join(tmpdir(), "faultline-audit-1000-"));
  try {
    const file = join(dir, "apps.yaml");
    writeFileSync(file, manifests(300));
    const args = ["audit", file, "--nodes", "1000", "--zones", "a,b,c", "--jobs", "2", "--json"];
    const start = performance.now();
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", CHILD, ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 512 << 20,
    });
    const wall = performance.now() - start;
    const at = r.stderr.lastIndexOf("\n@@");
    if (at < 0) throw new Error(`faultline audit failed: ${r.stderr}`);
    const m = JSON.parse(r.stderr.slice(at + 3)) as { code: number; cpu: number; maxRss: number };
    const message = m.code >= 2 ? ` — exit ${m.code}: ${r.stderr.slice(0, at).trim().split("\n")[0]}` : "";
    console.log(
      `audit of 1,000 nodes / 30,000 pods, --jobs 2: ${(wall / 1000).toFixed(0)} s wall (target ≤ 600 s: ${(wall / 600_000).toFixed(2)} of it), ${(m.cpu / 1000).toFixed(0)} s CPU (${inCalibrations(m.cpu, cal)}), ${(m.maxRss / 1048576).toFixed(0)} MiB peak RSS${message}${m.code < 2 ? `; ${runsOf(r.stdout)}` : ""}; ${loadNow()}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
