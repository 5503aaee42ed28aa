// The traffic model reads the machines (each node's data plane, each endpoint's process) only when
// the kubelets counted a change, or while a container may be ending its boot (traffic/endpoints.ts
// changeDriven, cluster/context.ts PlaneChanges). Rule: a read that finds what the last one found
// calls nothing, so the runs with and without the skipping are the same, byte for byte. Each case
// below changes what a connection meets in another way: power, partition, the kubelet, a deadlock
// and its recovery, a crash with a boot time, a drain, a caller that resolves DNS itself.

import { afterEach, describe, expect, it } from "vitest";
import { formatJson } from "../../src/report/json.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import { changeDriven } from "../../src/traffic/endpoints.ts";
import { example, run } from "../helpers/sim.ts";
import { KILL, type Setup, trafficScenario } from "./helpers.ts";

function both(s: Scenario): { skipped: string; full: string } {
  changeDriven.enabled = true;
  const skipped = formatJson(run(s), s);
  changeDriven.enabled = false;
  const full = formatJson(run(s), s);
  return { skipped, full };
}

afterEach(() => {
  changeDriven.enabled = true;
});

const pod = "Deployment/web[0]";
const IN_CLUSTER = { entry: "cluster-ip", keepAlive: false, timeout: "2s" };

describe("traffic: the machines read on change give the run read at every tick", () => {
  it.each<[string, Setup]>([
    [
      "a partition and its heal",
      {
        timeline: [
          { at: "30.013s", do: "network-partition", node: "worker-2" },
          { at: "1m10s", do: "network-heal", node: "worker-2" },
        ],
      },
    ],
    [
      "power off and on",
      {
        duration: "4m",
        timeline: [
          { at: "20.5s", do: "power-off", node: "worker-3" },
          { at: "1m30s", do: "power-on", node: "worker-3" },
        ],
      },
    ],
    ["the kubelet stopped", { fault: "kubelet-stop" }],
    ["a drain", { fault: "drain", traffic: IN_CLUSTER }],
    [
      "a deadlock and its recovery",
      {
        traffic: { ...IN_CLUSTER, clients: 1, keepAlive: false },
        timeline: [
          { at: `${KILL}s`, do: "deadlock", pod },
          { at: "50.007s", do: "recover", pod },
        ],
      },
    ],
    [
      "a crash, the new process listening 10s after its start",
      {
        traffic: IN_CLUSTER,
        behaviour: { bootSeconds: 10 },
        timeline: [{ at: `${KILL}s`, do: "crash", pod }],
      },
    ],
  ])("%s", (_name, setup) => {
    const { skipped, full } = both(trafficScenario({ duration: "2m", ...setup }));
    expect(skipped).toContain('"traffic"');
    expect(skipped).toBe(full);
  });

  it.each(["traffic-doks-power-off.yaml", "liveness-cascade.yaml"])("examples/%s", (file) => {
    const { skipped, full } = both(example(file));
    expect(skipped).toBe(full);
  });
});
