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
  const cpu0 = process.cpuUsage();
  const r = simulate(s);
  const cpu = process.cpuUsage(cpu0);
  const ms = performance.now() - t0;
  // CPU time too: the run is single-threaded, so its CPU time is one core's, whatever else the machine runs
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const sent = r.traffic!.totals.sent;
  const rate = (per: number) => Math.round((sent / per) * 1000).toLocaleString("en-US");
  console.log(
    `traffic (latency recorded): ${sent.toLocaleString("en-US")} requests in ${ms.toFixed(0)} ms: ${rate(ms)} simulated requests per second of wall time; ${cpuMs.toFixed(0)} ms of CPU: ${rate(cpuMs)} per second of one core (target ≥ 2,000,000)`,
  );
}
