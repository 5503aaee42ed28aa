// The cluster model at scale: a 1,000-node, 30,000-pod cluster in 4 zones loses one zone
// (250 nodes powered off at once) and is simulated for 15 minutes.

import { parseScenario } from "../src/load/index.ts";
import { simulate } from "../src/run/simulate.ts";
import { zoneLossAtScaleText } from "./zone-loss-at-scale.ts";

export default async function (): Promise<void> {
  const scenario = parseScenario(zoneLossAtScaleText(), "zone-loss-at-scale.yaml", () => undefined);
  const start = performance.now();
  const memBefore = process.memoryUsage().heapUsed;
  let warmedUpAt = 0;
  const result = simulate(scenario, { onWarmedUp: () => (warmedUpAt = performance.now()) });
  const ms = performance.now() - start;
  const mem = process.memoryUsage().heapUsed - memBefore;
  const evicted = result.events.filter((e) => e.type === "PodEvicted").length;
  console.log(
    `1,000 nodes, ${result.summary.pods.length.toLocaleString("en")} pods at the end, one zone (250 nodes) powered off, 15 min simulated (+10 min warm-up)`,
  );
  console.log(
    `  wall time            ${(ms / 1000).toFixed(2)} s (the warm-up ${((warmedUpAt - start) / 1000).toFixed(2)} s; the 15 minutes ${((start + ms - warmedUpAt) / 1000).toFixed(2)} s)`,
  );
  console.log(
    `  engine events        ${result.summary.engineEvents.toLocaleString("en")} (${Math.round(result.summary.engineEvents / (ms / 1000)).toLocaleString("en")} events/s)`,
  );
  console.log(`  trace events         ${result.events.length.toLocaleString("en")}`);
  console.log(`  pods evicted         ${evicted.toLocaleString("en")}`);
  console.log(`  simulated/wall       ${((25 * 60) / (ms / 1000)).toFixed(0)}× real time`);
  console.log(`  heap growth          ${(mem / 1048576).toFixed(0)} MiB`);
}
