// A traffic tick that would change nothing returns at once (traffic/model.ts quietTicks): no
// request due before it (arrived, or queued in a pool), the endpoint table unchanged with every
// queue empty, no second of latency to close and no episode open. Rule: the runs with and without
// it are the same JSON, byte for byte. The cases are sparse callers (most ticks empty: 1 req/s,
// 0.2 req/s) with each kind of state a tick carries: retries and a retry budget, timeouts on a
// hung pod, keep-alive pools, a gRPC connection, a closed loop, outlier detection, an overloaded
// pod's queue, an SLO, DNS callers with keepalive, and the two traffic examples.

import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { formatJson } from "../../src/report/json.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import { quietTicks } from "../../src/traffic/model.ts";
import { type Doc, example, run, scenario } from "../helpers/sim.ts";
import { KILL, onePerNode, type Setup, THREE_NODES, trafficScenario } from "./helpers.ts";

/** The run's JSON with quiet ticks returning at once, how many did, and the JSON without. */
function both(s: Scenario): { quiet: string; returned: number; full: string } {
  quietTicks.enabled = true;
  quietTicks.returned = 0;
  const quiet = formatJson(run(s), s);
  const returned = quietTicks.returned;
  quietTicks.enabled = false;
  const full = formatJson(run(s), s);
  return { quiet, returned, full };
}

afterEach(() => {
  quietTicks.enabled = true;
});

const pod = "Deployment/web[0]";
const IN_CLUSTER = { entry: "cluster-ip", keepAlive: false, timeout: "2s" };
/** ticks in the cases' two minutes */
const TICKS = 120 / 0.02;

/** A StatefulSet's headless Service called through DNS, a node powered off. */
function headless(traffic: Doc): Scenario {
  return scenario(
    stringify({
      name: "dns",
      kubernetesVersion: "1.32",
      duration: "2m",
      nodes: THREE_NODES,
      manifests: [
        onePerNode("StatefulSet", "db", [{ name: "db", image: "postgres:17" }], { serviceName: "db" }),
        {
          apiVersion: "v1",
          kind: "Service",
          metadata: { name: "db" },
          spec: { clusterIP: "None", selector: { app: "db" }, ports: [{ port: 5432 }] },
        },
      ],
      traffic: [{ service: "default/db", timeout: "2s", entry: "dns", ...traffic }],
      timeline: [{ at: `${KILL}s`, do: "power-off", node: "worker-2" }],
    }),
  );
}

describe("traffic: a tick that would change nothing returns at once, and the run is the same", () => {
  it.each<[string, Setup]>([
    ["1 req/s through the load balancer, kept alive, a power-off", { traffic: { rate: 1, clients: 1 } }],
    [
      "0.2 req/s in the cluster, two retries, a power-off",
      { traffic: { ...IN_CLUSTER, rate: 0.2, clients: 1, retries: 2 } },
    ],
    [
      "1 req/s, retries within a budget, a deadlock and its recovery",
      {
        traffic: {
          ...IN_CLUSTER,
          rate: 1,
          clients: 2,
          retries: 3,
          retryBudget: { ratio: 0.2, minRetriesPerSecond: 1 },
        },
        timeline: [
          { at: `${KILL}s`, do: "deadlock", pod },
          { at: "50.007s", do: "recover", pod },
        ],
      },
    ],
    [
      "2 req/s on one kept-alive connection, a crash with a boot time",
      {
        traffic: { entry: "cluster-ip", rate: 2, clients: 1, poolSize: 1, keepAlive: true, timeout: "2s" },
        behaviour: { bootSeconds: 10 },
        timeline: [{ at: `${KILL}s`, do: "crash", pod }],
      },
    ],
    [
      "1 req/s over gRPC, a partition and its heal",
      {
        traffic: { entry: "cluster-ip", rate: 1, clients: 2, client: "grpc", timeout: "2s" },
        timeline: [
          { at: "30.013s", do: "network-partition", node: "worker-2" },
          { at: "1m10s", do: "network-heal", node: "worker-2" },
        ],
      },
    ],
    [
      "1 req/s of 1.5s requests, in flight when the node is lost",
      {
        traffic: { ...IN_CLUSTER, rate: 1, clients: 1, timeout: "5s" },
        behaviour: { serviceTimeMs: 1500 },
        timeline: [{ at: "30.013s", do: "power-off", node: "worker-2" }],
      },
    ],
    ["a closed loop at 1 req/s, a power-off", { traffic: { ...IN_CLUSTER, rate: 1, client: "closed-loop" } }],
    [
      "1 req/s with outlier detection, a power-off",
      { traffic: { ...IN_CLUSTER, rate: 1, clients: 1, outlierDetection: { consecutive5xx: 2 } } },
    ],
    [
      "an overloaded pod's queue, with an SLO",
      {
        traffic: { ...IN_CLUSTER, rate: 6, clients: 2, slo: "300ms" },
        behaviour: { capacityRps: 2, serviceTimeMs: 100 },
      },
    ],
  ])("%s", (_name, setup) => {
    const { quiet, returned, full } = both(trafficScenario({ duration: "2m", ...setup }));
    expect(quiet).toContain('"traffic"');
    expect(quiet).toBe(full);
    // most of the sparse callers' ticks return at once
    if (!("capacityRps" in (setup.behaviour ?? {}))) expect(returned).toBeGreaterThan(TICKS / 2);
  });

  it.each<[string, Doc]>([
    ["0.5 req/s", { rate: 0.5, clients: 1 }],
    ["1 req/s with gRPC keepalive", { rate: 1, clients: 2, keepaliveTime: "10s", keepaliveTimeout: "1s" }],
  ])("DNS callers at %s, a power-off", (_name, traffic) => {
    const { quiet, returned, full } = both(headless(traffic));
    expect(quiet).toBe(full);
    expect(returned).toBeGreaterThan(TICKS / 2);
  });

  it.each(["traffic-doks-power-off.yaml", "liveness-cascade.yaml"])("examples/%s", (file) => {
    const { quiet, full } = both(example(file));
    expect(quiet).toBe(full);
  });
});
