// The cluster model at scale: a 1,000-node, 30,000-pod cluster in 4 zones loses one zone
// (250 nodes powered off at once) and is simulated for 15 minutes.

import { parseScenario } from "../src/load/index.ts";
import { simulate } from "../src/simulate.ts";

function scenarioText(
  nodes: number,
  zones: string[],
  deployments: number,
  replicas: number,
  failZone: string,
): string {
  const lines = [
    "name: zone-loss-at-scale",
    'kubernetesVersion: "1.32"',
    "duration: 15m",
    `nodes: {count: ${nodes}, zones: [${zones.join(", ")}]}`,
    "manifests:",
  ];
  for (let d = 0; d < deployments; d++) {
    lines.push(
      "  - apiVersion: apps/v1",
      "    kind: Deployment",
      `    metadata: {name: app-${d}}`,
      "    spec:",
      `      replicas: ${replicas}`,
      `      selector: {matchLabels: {app: app-${d}}}`,
      "      template:",
      `        metadata: {labels: {app: app-${d}}}`,
      "        spec:",
      "          containers: [{name: app, image: app, resources: {requests: {cpu: 50m, memory: 64Mi}}}]",
      "  - apiVersion: v1",
      "    kind: Service",
      `    metadata: {name: app-${d}}`,
      `    spec: {selector: {app: app-${d}}, ports: [{port: 80}]}`,
    );
  }
  lines.push("timeline:");
  // Nodes are named worker-1… and given zones round-robin: every zones.length-th node is in failZone.
  const zi = zones.indexOf(failZone);
  for (let i = 1; i <= nodes; i++)
    if ((i - 1) % zones.length === zi) lines.push(`  - {at: 60s, do: power-off, node: worker-${i}}`);
  return `${lines.join("\n")}\n`;
}

export default async function (): Promise<void> {
  const text = scenarioText(1000, ["a", "b", "c", "d"], 100, 300, "b");
  const scenario = parseScenario(text, "bench.yaml", () => undefined);
  // The warm-up alone (every pod created, scheduled, started and Ready), to separate it from the 15 minutes.
  const warmStart = performance.now();
  simulate({ ...scenario, duration: 0 });
  const warmMs = performance.now() - warmStart;
  const start = performance.now();
  const memBefore = process.memoryUsage().heapUsed;
  const result = simulate(scenario);
  const ms = performance.now() - start;
  const mem = process.memoryUsage().heapUsed - memBefore;
  const evicted = result.events.filter((e) => e.type === "PodEvicted").length;
  console.log(
    `1,000 nodes, ${result.summary.pods.length.toLocaleString("en")} pods at the end, one zone (250 nodes) powered off, 15 min simulated (+10 min warm-up)`,
  );
  console.log(
    `  wall time            ${(ms / 1000).toFixed(2)} s (warm-up alone ${(warmMs / 1000).toFixed(2)} s; the 15 minutes ${((ms - warmMs) / 1000).toFixed(2)} s)`,
  );
  console.log(
    `  engine events        ${result.summary.engineEvents.toLocaleString("en")} (${Math.round(result.summary.engineEvents / (ms / 1000)).toLocaleString("en")} events/s)`,
  );
  console.log(`  trace events         ${result.events.length.toLocaleString("en")}`);
  console.log(`  pods evicted         ${evicted.toLocaleString("en")}`);
  console.log(`  simulated/wall       ${((25 * 60) / (ms / 1000)).toFixed(0)}× real time`);
  console.log(`  heap growth          ${(mem / 1048576).toFixed(0)} MiB`);
}
