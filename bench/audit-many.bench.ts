// `faultline audit` of many workloads: 200 Deployments, each behind its Service and mounting 8
// ConfigMaps as volumes (1,600 ConfigMaps), the shape of an application set of small services with
// their configuration. The cluster is sized as such a set would run: 60 nodes in 3 zones (20 per
// zone, the manifests' pods at 50m CPU / 64 Mi each fill a few percent of them), 2 or 3 replicas
// each, except one Deployment in ten with replicas: 1 (FL001: a simulated fix each), and one in four
// with no readiness probe (FL007: an experiment and a fix each), one in four without a preStop
// delay (FL009). Every default fault, --jobs 2, its fix runs included: the whole command as a
// process of the built CLI (output to /dev/null). Target: ≤ 60 s of CPU (issue's figure for this
// set). CPU of the process and its children (every thread; forked runs are processes), wall time,
// peak RSS, the runs and the cost line, the calibration and the load beside it.
// FAULTLINE_AUDIT_MANY=N runs N Deployments (same mix; for seeing how cost grows with workloads).

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Calibration, inCalibrations, loadNow } from "./calibrate.ts";

const DEPLOYMENTS = 200;
const CONFIGMAPS_EACH = 8;
const NODES = 60;

const CHILD = `
const { main } = await import("./dist/cli/main.js");
const code = await main(process.argv.slice(1));
// Its own CPU and its children's (the runs forked from the sweep's snapshot, src/audit/fork.ts), in ms.
const f = (await import("node:fs")).readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
const cpu = [11, 12, 13, 14].reduce((s, i) => s + Number(f[i]), 0) * 10;
process.stderr.write("\\n@@" + JSON.stringify({ code, cpu, maxRss: process.resourceUsage().maxRSS * 1024 }));
`;

/** Deployment d of the mix: its replicas, whether it has a readiness probe and a preStop delay. */
function shapeOf(d: number): { replicas: number; probe: boolean; preStop: boolean } {
  return { replicas: d % 10 === 0 ? 1 : 2 + (d % 2), probe: d % 4 !== 1, preStop: d % 4 !== 2 };
}

export function manyManifests(deployments: number): string {
  const docs: string[] = [];
  for (let d = 0; d < deployments; d++) {
    const { replicas, probe, preStop } = shapeOf(d);
    const maps = Array.from({ length: CONFIGMAPS_EACH }, (_, i) => `app-${d}-config-${i}`);
    for (const m of maps)
      docs.push(
        [
          "apiVersion: v1",
          "kind: ConfigMap",
          `metadata: {name: ${m}}`,
          `data: {settings.yaml: "level: info\\nname: ${m}\\n"}`,
        ].join("\n"),
      );
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
        ...(probe
          ? ["          readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 5}"]
          : []),
        ...(preStop ? ["          lifecycle: {preStop: {sleep: {seconds: 5}}}"] : []),
        "          volumeMounts:",
        ...maps.map((_m, i) => `            - {name: config-${i}, mountPath: /etc/app/${i}}`),
        "      volumes:",
        ...maps.map((m, i) => `        - {name: config-${i}, configMap: {name: ${m}}}`),
        "---",
        "apiVersion: v1",
        "kind: Service",
        `metadata: {name: app-${d}}`,
        `spec: {selector: {app: app-${d}}, ports: [{port: 80, targetPort: 8080}]}`,
      ].join("\n"),
    );
  }
  return `${docs.join("\n---\n")}\n`;
}

export default async function (cal: Calibration): Promise<void> {
  const deployments = Number(process.env.FAULTLINE_AUDIT_MANY ?? DEPLOYMENTS);
  execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { stdio: "inherit" });
  const dir = mkdtempSync(join(tmpdir(), "faultline-audit-many-"));
  try {
    const file = join(dir, "apps.yaml");
    writeFileSync(file, manyManifests(deployments));
    const args = ["audit", file, "--nodes", String(NODES), "--zones", "a,b,c", "--jobs", "2", "--json"];
    const start = performance.now();
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", CHILD, ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 256 << 20,
    });
    const wall = performance.now() - start;
    const at = r.stderr.lastIndexOf("\n@@");
    if (at < 0) throw new Error(`faultline audit failed: ${r.stderr}`);
    const m = JSON.parse(r.stderr.slice(at + 3)) as { code: number; cpu: number; maxRss: number };
    const message = m.code >= 2 ? ` — exit ${m.code}: ${r.stderr.slice(0, at).trim().split("\n")[0]}` : "";
    const result = m.code < 2 ? (JSON.parse(r.stdout) as Shape) : undefined;
    const fixRuns = result ? result.fixes.length : 0;
    const runs = result
      ? `${result.runs.length} runs and ${fixRuns} fix runs (${result.findings.length} findings)`
      : "";
    console.log(
      `audit of ${deployments} Deployments (${deployments * CONFIGMAPS_EACH} ConfigMaps) on ${NODES} nodes in 3 zones, --jobs 2: ${(m.cpu / 1000).toFixed(1)} s CPU (target ≤ 60 s: ${(m.cpu / 60_000).toFixed(2)} of it; ${inCalibrations(m.cpu, cal)}), ${(wall / 1000).toFixed(1)} s wall, ${(m.maxRss / 1048576).toFixed(0)} MiB peak RSS; ${runs}${message}; ${loadNow()}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Shape {
  runs: unknown[];
  fixes: unknown[];
  findings: unknown[];
}
