// The kubelet's node status on its own (node-status.ts): an engine, a store and a NodeStatus, the
// clock driven by hand. status.volumesInUse follows the mounted volumes (nodestatus/setters.go
// VolumesInUse) in a patch at the status loop's next run that finds them changed
// (kubelet_node_status.go tryUpdateNodeStatus, nodeStatusHasChanged), and keeps what it last posted
// while the kubelet cannot reach the API.

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
  let warm = false;
  const status = new NodeStatus({
    engine,
    store,
    trace,
    rng: engine.rng.fork("kubelet/worker-1"),
    spec: { name: "worker-1", zone: "a", labels: {}, taints: [], capacity: { cpu: 2, memory: 4 * 2 ** 30 } },
    versionString: "v1.32.0",
    settings: { nodeStatusUpdateFrequency: 10, nodeStatusReportFrequency: 300, reportJitterAfterChange },
    connected: () => connected,
    warmingUp: () => warm,
    runtimeErrors: () => errors,
  });
  store.create(status.initialNode(0));
  const node = () => store.get("Node", "worker-1")!;
  return {
    engine,
    store,
    trace,
    status,
    node,
    cut: (c: boolean) => (connected = !c),
    warmUp: (w: boolean) => (warm = w),
  };
}

describe("status.volumesInUse", () => {
  /** The Node writes the watchers see, by time. */
  const writes = (store: Store, engine: Engine) => {
    const at: number[] = [];
    store.watch("Node", (type, n) => {
      if (type === "MODIFIED" && n.metadata.name === "worker-1") at.push(engine.now);
    });
    return at;
  };

  it("lists the mounted volumes, sorted and once each, in a patch at the status loop's next run (a Node write)", () => {
    const { engine, store, status, node } = setup();
    const seen = writes(store, engine);
    engine.run(3);
    expect(node().status.volumesInUse).toEqual([]);
    status.setVolumesInUse(["default/data-db-1", "default/data-db-0", "default/data-db-1"]);
    // Not in place: the API has the old list until the loop's run patches it.
    expect(node().status.volumesInUse).toEqual([]);
    engine.run(3 + 9.9);
    expect(seen).toEqual([]);
    engine.run(3 + 10);
    expect(node().status.volumesInUse).toEqual(["default/data-db-0", "default/data-db-1"]);
    expect(seen).toEqual([13]);
  });

  /** A kubelet whose status loop has run a while: its first report is past, at `report`; now is 301. */
  const running = (jitter = false) => {
    const x = setup(jitter);
    x.status.startRunning();
    const seen = writes(x.store, x.engine);
    x.engine.run(301);
    expect(seen).toHaveLength(1);
    return { ...x, seen, report: seen[0]! };
  };
  /** Seconds from `a` to `b` on the microsecond grid. */
  const gap = (a: number, b: number) => Math.round((b - a) * 1e6) / 1e6;

  it("the run falls on the loop's grid before the report, and the next report is nodeStatusReportFrequency after the patch", () => {
    const { engine, status, node, seen, report } = running();
    engine.run(333);
    status.setVolumesInUse(["default/data-db-0"]);
    engine.run(650);
    // The loop runs every 10s from the report: the first of its runs after 333.
    const patch = seen[1]!;
    expect(patch).toBeGreaterThan(333);
    expect(patch).toBeLessThanOrEqual(343);
    expect(gap(report, patch) % 10).toBe(0);
    // The patch sets lastStatusReportTime: the next unchanged report is 300s after it, not after
    // the last report (which would have been at report + 300).
    expect(seen.map((t) => gap(patch, t))).toEqual([gap(patch, report), 0, 300]);
    expect(node().status.volumesInUse).toEqual(["default/data-db-0"]);
  });

  it("mounted and unmounted between two runs of the loop: no change, no patch, the report keeps its time", () => {
    const { engine, status, seen, report } = running();
    const run = report + 10 * Math.ceil((333 - report) / 10);
    engine.run(run - 6);
    status.setVolumesInUse(["default/data-db-0"]);
    engine.run(run - 2);
    status.setVolumesInUse([]);
    engine.run(report + 301);
    expect(seen.map((t) => gap(report, t))).toEqual([0, 300]);
  });

  it("the warm-up's start of a `start: running` scenario's pods: their volumes are the Node's as registered, no patch", () => {
    const { engine, status, node, warmUp, seen, report } = running();
    warmUp(true);
    status.setVolumesInUse(["default/data-db-0"]);
    expect(node().status.volumesInUse).toEqual(["default/data-db-0"]);
    warmUp(false);
    engine.run(report + 301);
    // Only the reports, nodeStatusReportFrequency apart: nothing patched between them.
    expect(seen.map((t) => gap(report, t))).toEqual([0, 300]);
  });

  it("keeps what it last posted while the kubelet cannot reach the API, and catches up after", () => {
    const { engine, status, node, cut } = setup();
    status.setVolumesInUse(["default/data-db-0"]);
    engine.run(10);
    expect(node().status.volumesInUse).toEqual(["default/data-db-0"]);
    cut(true);
    status.setVolumesInUse([]);
    engine.run(30);
    expect(node().status.volumesInUse).toEqual(["default/data-db-0"]);
    cut(false);
    status.setVolumesInUse([]);
    engine.run(40);
    expect(node().status.volumesInUse).toEqual([]);
  });

  it("from 1.33 a patch of the volumes in use is a change: the next report gets its one-time ±50% offset", () => {
    const { engine, status, seen } = running(true);
    status.setVolumesInUse(["default/data-db-0"]);
    engine.run(2000);
    const next = gap(seen[1]!, seen[2]!);
    expect(next).toBeGreaterThanOrEqual(150);
    expect(next).toBeLessThanOrEqual(450);
    expect(next).not.toBe(300);
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
