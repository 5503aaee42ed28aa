// Simulated requests per second of wall time: seed 001's cluster with callers at a high rate, a
// node lost mid-run (so routing, timeouts and pools all do work).

import { parseScenario, readManifestEntry } from "../src/load/index.ts";
import { simulate } from "../src/run/simulate.ts";

export default async function (): Promise<void> {
  const yaml = `name: traffic-bench
kubernetesVersion: "1.32"
duration: 5m
nodes: {count: 3, zones: [a, b, c]}
manifests: [manifests-traffic/]
behaviour: {web: {serviceTimeMs: 20, capacityRps: 5000}}
traffic:
  - {service: default/web, rate: 20000, clients: 200, poolSize: 4, timeout: 5s, entry: load-balancer}
  - {service: default/web, rate: 20000, clients: 200, poolSize: 4, timeout: 5s, keepAlive: true, entry: cluster-ip}
timeline:
  - {at: 60s, do: power-off, node: worker-2}
`;
  const s = parseScenario(yaml, "examples/bench.yaml", (e) => readManifestEntry("examples", e));
  simulate({ ...s, duration: 20 }); // warm the JIT
  const t0 = performance.now();
  const r = simulate(s);
  const ms = performance.now() - t0;
  const sent = r.traffic!.totals.sent;
  console.log(
    `traffic: ${sent.toLocaleString("en-US")} requests in ${ms.toFixed(0)} ms: ${Math.round((sent / ms) * 1000).toLocaleString("en-US")} simulated requests per second of wall time (target ≥ 2,000,000)`,
  );
}
