// The kubelet's node status on its own (node-status.ts): an engine, a store and a NodeStatus, the
// clock driven by hand. status.volumesInUse follows the mounted volumes while the kubelet reaches
// the API (nodestatus/setters.go VolumesInUse) and keeps what it last posted while it cannot.

import { describe, expect, it } from "vitest";
import { Store } from "../../src/cluster/store.ts";
import { Engine } from "../../src/engine/engine.ts";
import { NodeStatus } from "../../src/kubelet/node-status.ts";
import { Trace } from "../../src/trace/events.ts";
import type { RuntimeErrors } from "../../src/trace/node-events.ts";

function setup(reportJitterAfterChange = false, errors?: RuntimeErrors) {
  const engine = new Engine(1);
  const store = new Store(engine);
  const trace = new Trace(engine);
  let connected = true;
  const status = new NodeStatus({
    engine,
    store,
    trace,
    rng: engine.rng.fork("kubelet/worker-1"),
    spec: { name: "worker-1", zone: "a", labels: {}, taints: [], capacity: { cpu: 2, memory: 4 * 2 ** 30 } },
    versionString: "v1.32.0",
    settings: { nodeStatusUpdateFrequency: 10, nodeStatusReportFrequency: 300, reportJitterAfterChange },
    connected: () => connected,
    runtimeErrors: () => errors,
  });
  store.create(status.initialNode(0));
  const node = () => store.get("Node", "worker-1")!;
  return { engine, trace, status, node, cut: (c: boolean) => (connected = !c) };
}

describe("status.volumesInUse", () => {
  it("lists the mounted volumes, sorted and once each", () => {
    const { status, node } = setup();
    expect(node().status.volumesInUse).toEqual([]);
    status.setVolumesInUse(["default/data-db-1", "default/data-db-0", "default/data-db-1"]);
    expect(node().status.volumesInUse).toEqual(["default/data-db-0", "default/data-db-1"]);
  });

  it("keeps what it last posted while the kubelet cannot reach the API, and catches up after", () => {
    const { status, node, cut } = setup();
    status.setVolumesInUse(["default/data-db-0"]);
    cut(true);
    status.setVolumesInUse([]);
    expect(node().status.volumesInUse).toEqual(["default/data-db-0"]);
    cut(false);
    status.setVolumesInUse([]);
    expect(node().status.volumesInUse).toEqual([]);
  });
});

describe("posting Ready", () => {
  it("a kubelet that starts on a node the API marked not ready posts Ready=True at once (fastStatusUpdateOnce)", () => {
    const { engine, trace, status, node } = setup();
    const ready = node().status.conditions.find((c) => c.type === "Ready")!;
    ready.status = "Unknown";
    engine.run(5);
    status.kubeletStarted("kubelet-restart");
    expect(node().status.conditions.find((c) => c.type === "Ready")?.status).toBe("True");
    expect(trace.events).toMatchObject([
      { type: "NodeReady", t: 5, cause: "kubelet-restart", nodeRow: { name: "worker-1", status: "Ready" } },
    ]);
  });

  it("a healed network: the status loop posts within one nodeStatusUpdateFrequency (+4% jitter)", () => {
    const { engine, trace, status, node } = setup();
    node().status.conditions.find((c) => c.type === "Ready")!.status = "Unknown";
    status.networkHealed();
    engine.run(10.4);
    expect(trace.events).toMatchObject([
      { type: "NodeReady", cause: "network-healed", nodeStatusUpdateFrequency: 10 },
    ]);
    expect(trace.events[0]!.t).toBeLessThanOrEqual(10.4);
  });
});

describe("the status loop compares the Node with its own status (tryUpdateNodeStatus, nodeStatusHasChanged)", () => {
  const readyOf = (n: { status: { conditions: { type: string; status: string }[] } }) =>
    n.status.conditions.find((c) => c.type === "Ready")!;

  it("someone else's Unknown is patched back at the loop's next run, within nodeStatusUpdateFrequency + 4%", () => {
    const { engine, trace, status, node } = setup();
    engine.run(100);
    const ready = readyOf(node());
    ready.status = "Unknown";
    status.apiChanged();
    engine.run(100 + 10 * 1.04);
    expect(trace.events).toMatchObject([
      { type: "NodeReady", cause: "status-differs", nodeStatusUpdateFrequency: 10 },
    ]);
    expect(readyOf(node()).status).toBe("True");
  });

  it("a change that leaves the conditions as the kubelet computes them posts nothing before the report", () => {
    const { engine, trace, status, node } = setup();
    node().spec.unschedulable = true;
    status.apiChanged();
    engine.run(299);
    expect(trace.events).toEqual([]);
  });

  it("with runtime errors, the loop posts Ready=False (KubeletNotReady) with their message, keeping the pressure conditions", () => {
    const errors: RuntimeErrors = { message: "container runtime is down", lastRuntimeSync: 0 };
    const { engine, trace, status, node } = setup(false, errors);
    engine.run(40);
    status.runtimeChanged();
    engine.run(40 + 10 * 1.04);
    expect(trace.events).toMatchObject([{ type: "KubeletNodeNotReady", cause: "runtime", errors }]);
    expect(node().status.conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ["MemoryPressure", "False", "KubeletHasSufficientMemory"],
      ["DiskPressure", "False", "KubeletHasNoDiskPressure"],
      ["PIDPressure", "False", "KubeletHasSufficientPID"],
      ["Ready", "False", "KubeletNotReady"],
    ]);
    expect(readyOf(node())).toMatchObject({
      message: "container runtime is down",
      lastTransitionTime: trace.events[0]!.t,
    });
  });
});
