// `faultline audit` at scale: 100 nodes in 3 zones, 100 Deployments × 30 replicas (3,000 pods) behind
// Services, every node's power-off and drain and every zone's loss (about 200 runs of 15 minutes),
// with --jobs 1 and --jobs 2. Prints wall and CPU time (CPU: every thread of the process), the runs,
// the cost per run, and checks that both give the same result. The machine is shared: compare the
// CPU figures and the ratio, not the wall time alone.

import { availableParallelism } from "node:os";
import { audit, DEFAULT_MAX_SWEEP_EVENTS } from "../src/audit/audit.ts";
import { prepare } from "../src/audit/inputs.ts";
import { poolRunner } from "../src/audit/pool.ts";
import { DEFAULT_FAULTS } from "../src/audit/types.ts";
import { DEFAULT_BUDGET } from "../src/run/budget.ts";

const NODES = 100;
const DEPLOYMENTS = 100;
const REPLICAS = 30;

export function auditAtScaleManifests(): string {
  const docs: string[] = [];
  for (let d = 0; d < DEPLOYMENTS; d++) {
    docs.push(
      [
        "apiVersion: apps/v1",
        "kind: Deployment",
        `metadata: {name: app-${d}}`,
        "spec:",
        `  replicas: ${REPLICAS}`,
        `  selector: {matchLabels: {app: app-${d}}}`,
        "  template:",
        `    metadata: {labels: {app: app-${d}}}`,
        "    spec:",
        "      containers:",
        "        - name: app",
        "          image: example/app:1",
        "          ports: [{containerPort: 8080}]",
        "          resources: {requests: {cpu: 50m, memory: 64Mi}}",
        "          readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 5}",
        "          lifecycle: {preStop: {sleep: {seconds: 5}}}",
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

export default async function (): Promise<void> {
  const prepared = prepare({
    entries: [
      {
        entry: "audit-at-scale.yaml",
        files: [{ file: "audit-at-scale.yaml", text: auditAtScaleManifests() }],
      },
    ],
    cluster: { nodes: NODES, zones: ["a", "b", "c"] },
  });
  console.log(
    `${NODES} nodes in 3 zones, ${DEPLOYMENTS} Deployments × ${REPLICAS} replicas behind Services; faults ${DEFAULT_FAULTS.join(", ")}; ${availableParallelism()} cores`,
  );
  const outputs: string[] = [];
  let first = 0;
  for (const jobs of [1, 2]) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const result = await audit(prepared, {
      faults: DEFAULT_FAULTS,
      budget: DEFAULT_BUDGET,
      maxSweepEvents: DEFAULT_MAX_SWEEP_EVENTS,
      runner: poolRunner(jobs),
    });
    const wall = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const runs = result.runs.length + new Set(result.findings.map((f) => f.fix.run)).size;
    const events = result.runs.reduce((s, r) => s + r.engineEvents, 0);
    outputs.push(JSON.stringify(result));
    if (jobs === 1) first = wall;
    console.log(
      `  --jobs ${jobs}: ${wall.toFixed(1)} s wall, ${cpuSeconds.toFixed(1)} s CPU; ${runs} runs (${result.findings.length} findings), ${(wall / runs).toFixed(2)} s wall and ${(cpuSeconds / runs).toFixed(2)} s CPU per run; ${events.toLocaleString("en")} engine events${jobs > 1 ? `; ${(first / wall).toFixed(2)}× --jobs 1; target 60 s` : ""}`,
    );
  }
  console.log(`  same result with --jobs 1 and --jobs 2: ${outputs[0] === outputs[1] ? "yes" : "NO"}`);
}
