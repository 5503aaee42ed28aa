// The node lifecycle controller alone (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go
// does the same with fake clocks): nodes and Leases written by hand, the clock driven, the store
// and the events read. Rules: tryUpdateNodeHealth's strict `now > probeTimestamp + grace`,
// MarkPodsNotReady on the transition, NoExecute one pass later through the zone's queue,
// ComputeZoneState and handleDisruption.

import { describe, expect, it } from "vitest";
import {
  NodeLifecycleController,
  type NodeLifecycleSettings,
} from "../../src/controllers/node-lifecycle-controller.ts";
import { computeZoneState, zoneRate } from "../../src/controllers/zone-state.ts";
import { MONITOR_PASS_PROCESSING, resolveControlPlane } from "../../src/kubernetes/defaults.ts";
import {
  type Harness,
  harness,
  lease,
  node,
  pod,
  readyOf,
  renew,
  taintsOf,
  UNREACHABLE_NOEXECUTE,
} from "./harness.ts";

const PASS = 5 + MONITOR_PASS_PROCESSING;

function settings(over: Partial<NodeLifecycleSettings> = {}): NodeLifecycleSettings {
  return { ...resolveControlPlane("1.32", {}), ...over };
}

/** Nodes (name → zone) with Leases renewed at t=0, and the controller. */
function cluster(nodes: Record<string, string>, over: Partial<NodeLifecycleSettings> = {}): Harness {
  const h = harness();
  for (const [name, zone] of Object.entries(nodes)) {
    h.store.create(node(name, { zone }));
    h.store.create(lease(name, 0));
  }
  new NodeLifecycleController(h, settings(over));
  return h;
}

/** The kubelet keeps renewing this node's Lease every 10s until `until`. */
function keepAlive(h: Harness, name: string, until = Number.POSITIVE_INFINITY): void {
  const tick = () => {
    if (h.engine.now > until) return;
    renew(h, name);
    h.engine.after(10, tick);
  };
  h.engine.at(h.engine.now + 10, tick);
}

describe("node lifecycle controller: Ready → Unknown", () => {
  it.each([
    // A pass lands exactly on probeTimestamp + grace (10 passes of 5s + ε): not "after", so nothing.
    { grace: 10 * PASS, passes: 11 },
    // A hair shorter and the same pass is after it.
    { grace: 10 * PASS - 0.0001, passes: 10 },
    { grace: 40, passes: 8 },
  ])(
    "grace $grace: Unknown at pass $passes after the last renewal seen (strictly after)",
    ({ grace, passes }) => {
      const h = cluster({ n1: "a" }, { nodeMonitorGracePeriod: grace });
      h.to(300);
      const [e] = h.events("NodeNotReady");
      expect(e).toMatchObject({
        status: "Unknown",
        reason: "NodeStatusUnknown",
        conditionMessage: "Kubelet stopped posting node status.",
        flag: "node-monitor-grace-period",
        value: grace,
        nodeMonitorPeriod: 5,
        leaseRenewTime: 0,
      });
      expect(e!.t - e!.probeTimestamp).toBeCloseTo(passes * PASS, 6);
      expect(readyOf(h, "n1")).toBe("Unknown");
      const conditions = h.store.get("Node", "n1")!.status.conditions;
      for (const type of ["MemoryPressure", "DiskPressure", "PIDPressure"])
        expect(conditions.find((c) => c.type === type)).toMatchObject({
          status: "Unknown",
          reason: "NodeStatusNeverUpdated",
        });
      expect(e!.nodeRow).toMatchObject({ name: "n1", status: "NotReady", version: "v1.32.0" });
    },
  );

  it("a renewed Lease keeps the node Ready; the grace counts from the last renewal the controller saw", () => {
    const h = cluster({ n1: "a" });
    keepAlive(h, "n1", 100);
    h.to(400);
    const [e] = h.events("NodeNotReady");
    expect(e!.leaseRenewTime).toBe(100);
    // Seen at the first pass after 100, then strictly more than 50s later.
    expect(e!.probeTimestamp).toBeGreaterThan(100);
    expect(e!.probeTimestamp).toBeLessThanOrEqual(100 + PASS);
    expect(e!.t - e!.probeTimestamp).toBeGreaterThan(50);
    expect(e!.t - e!.probeTimestamp).toBeLessThanOrEqual(55.0011);
  });

  // The controller keeps the Lease and the Ready condition it found (node-health.ts): what it reads
  // must still be the lister's, whatever happened to the objects in between.
  it.each([
    { recreated: true, notReady: false },
    { recreated: false, notReady: true },
  ])(
    "a Lease deleted (and created anew: $recreated) is read from the API, not the deleted object",
    ({ recreated, notReady }) => {
      const h = cluster({ n1: "a" });
      h.to(20);
      const old = h.store.get("Lease", "kube-node-lease/n1")!;
      h.store.delete(old);
      if (recreated) {
        // Renewals of the new object only: the deleted one stays at its last renewal.
        h.store.create(lease("n1", 20));
        keepAlive(h, "n1");
      } else {
        // Whoever still holds the deleted object renews it: the API no longer has it.
        const stale = () => {
          old.spec.renewTime = h.engine.now;
          h.engine.after(10, stale);
        };
        h.engine.after(10, stale);
      }
      h.to(300);
      const events = h.events("NodeNotReady");
      expect(events.length > 0).toBe(notReady);
      if (notReady) {
        expect(events[0]!.leaseRenewTime).toBeUndefined();
        expect(events[0]!.probeTimestamp).toBeLessThanOrEqual(20 + PASS);
      }
    },
  );

  it("a Ready condition added to a node's conditions in place is read at the next pass", () => {
    const h = harness();
    const n = node("n1");
    const ready = n.status.conditions.pop()!;
    h.store.create(n);
    h.store.create(lease("n1", 0));
    new NodeLifecycleController(h, settings());
    h.to(2);
    n.status.conditions.push({ ...ready, lastHeartbeatTime: 2 });
    h.to(300);
    // With a Ready condition the grace is node-monitor-grace-period, not the startup one.
    expect(h.events("NodeNotReady")[0]).toMatchObject({ flag: "node-monitor-grace-period", value: 50 });
  });

  it("MarkPodsNotReady: every pod on the node gets Ready=False (reason NodeNotReady) on the transition only", () => {
    const h = cluster({ n1: "a", n2: "a" });
    keepAlive(h, "n2");
    h.store.create(pod("web-1", { node: "n1" }));
    h.store.create(pod("web-2", { node: "n2" }));
    h.to(300);
    const marked = h.events("PodNotReady");
    expect(marked.map((e) => e.object)).toEqual(["Pod/default/web-1"]);
    expect(marked[0]).toMatchObject({
      by: "node-lifecycle-controller",
      reason: "NodeNotReady",
      nodeReady: "Unknown",
      node: "n1",
    });
    expect(marked[0]!.t).toBe(h.events("NodeNotReady")[0]!.t);
    const ready = h.store.get("Pod", "default/web-1")!.status.conditions.find((c) => c.type === "Ready");
    expect(ready).toMatchObject({ status: "False", reason: "NodeNotReady" });
  });
});

describe("node lifecycle controller: taints", () => {
  it("unreachable:NoSchedule at once; unreachable:NoExecute one pass later, through the zone's queue", () => {
    const h = cluster({ n1: "a", n2: "b" });
    keepAlive(h, "n2");
    h.to(300);
    const notReady = h.events("NodeNotReady")[0]!;
    const [noSchedule, noExecute] = h.events("NodeTainted");
    expect(noSchedule).toMatchObject({
      taint: "node.kubernetes.io/unreachable:NoSchedule",
      by: "node-lifecycle-controller",
      cause: "condition",
      ready: "Unknown",
    });
    expect(noSchedule!.t).toBe(notReady.t);
    expect(noExecute).toMatchObject({
      taint: "node.kubernetes.io/unreachable:NoExecute",
      cause: "zone-queue",
      ready: "Unknown",
      zone: "a",
      rate: { flag: "node-eviction-rate", value: 0.1 },
      taints: ["node.kubernetes.io/unreachable:NoSchedule", "node.kubernetes.io/unreachable:NoExecute"],
    });
    // The next pass enqueues it; the 100ms tainting pass applies it.
    expect(noExecute!.t).toBeGreaterThan(notReady.t + PASS);
    expect(noExecute!.t).toBeLessThanOrEqual(notReady.t + PASS + 0.1 + 1e-6);
    expect(taintsOf(h, "n2")).toEqual([]);
  });

  it("a node Ready again loses its taints, the NoExecute one at the next pass", () => {
    const h = cluster({ n1: "a", n2: "b" });
    keepAlive(h, "n2");
    h.to(200);
    // The kubelet is back: a renewal and a fresh Ready=True.
    h.engine.at(200, () => {
      const n = h.store.get("Node", "n1")!;
      n.status.conditions = [{ type: "Ready", status: "True", lastHeartbeatTime: 200 }];
      h.store.update(n);
      renew(h, "n1");
    });
    keepAlive(h, "n1");
    h.to(260);
    expect(taintsOf(h, "n1")).toEqual([]);
    const removed = h.events("NodeTaintRemoved");
    expect(removed.map((e) => [e.taint, e.cause])).toEqual([
      ["node.kubernetes.io/unreachable:NoSchedule", "condition-cleared"],
      ["node.kubernetes.io/unreachable:NoExecute", "ready-again"],
    ]);
  });

  it("a kubelet-reported Ready=False swaps unreachable for not-ready at once (SwapNodeControllerTaint)", () => {
    const h = cluster({ n1: "a", n2: "b" });
    keepAlive(h, "n2");
    h.to(200);
    expect(taintsOf(h, "n1")).toContain("node.kubernetes.io/unreachable:NoExecute");
    h.engine.at(200, () => {
      const n = h.store.get("Node", "n1")!;
      n.status.conditions = [{ type: "Ready", status: "False", lastHeartbeatTime: 200 }];
      h.store.update(n);
      renew(h, "n1");
    });
    keepAlive(h, "n1");
    h.to(210);
    const swap = h.events("NodeTainted", (e) => e.taint === "node.kubernetes.io/not-ready:NoExecute");
    expect(swap).toHaveLength(1);
    expect(swap[0]).toMatchObject({ cause: "swap", ready: "False" });
    expect(h.events("NodeTaintRemoved", (e) => e.cause === "swapped")[0]).toMatchObject({
      taint: "node.kubernetes.io/unreachable:NoExecute",
      swappedFor: "node.kubernetes.io/not-ready:NoExecute",
    });
    expect(taintsOf(h, "n1").filter((t) => t.endsWith(":NoExecute"))).toEqual([
      "node.kubernetes.io/not-ready:NoExecute",
    ]);
  });

  it("cordoning adds unschedulable:NoSchedule at once", () => {
    const h = cluster({ n1: "a" });
    keepAlive(h, "n1");
    h.engine.at(20, () => {
      const n = h.store.get("Node", "n1")!;
      n.spec.unschedulable = true;
      h.store.update(n);
    });
    h.to(30);
    expect(h.events("NodeTainted")).toMatchObject([
      { t: 20, taint: "node.kubernetes.io/unschedulable:NoSchedule", cause: "unschedulable" },
    ]);
  });

  it("a NoExecute taint written on a Ready node between passes is removed at the next pass (markNodeAsReachable)", () => {
    // Passes before t=20 found the node Ready, untainted: the controller only reads its Lease while
    // nothing writes the Node; this write must send the next pass through processTaintBaseEviction.
    const h = cluster({ n1: "a" });
    keepAlive(h, "n1");
    h.engine.at(20, () => {
      const n = h.store.get("Node", "n1")!;
      n.spec.taints = [{ ...UNREACHABLE_NOEXECUTE, timeAdded: 20 }];
      h.store.update(n);
    });
    h.to(20 + PASS + 0.001);
    expect(taintsOf(h, "n1")).toEqual([]);
    expect(h.events("NodeTaintRemoved")).toMatchObject([
      { taint: "node.kubernetes.io/unreachable:NoExecute", cause: "ready-again" },
    ]);
  });
});

describe("node lifecycle controller: zones", () => {
  it.each([
    { conditions: ["True", "True", "True"], state: "Normal" },
    { conditions: ["Unknown", "Unknown", "Unknown"], state: "FullDisruption" },
    { conditions: [], state: "Normal" },
    // Two not ready: never partial, whatever the share.
    { conditions: ["Unknown", "Unknown", "True"], state: "Normal" },
    // Three of five: 0.6 ≥ 0.55.
    { conditions: ["Unknown", "False", "Unknown", "True", "True"], state: "PartialDisruption" },
    // Three of six: 0.5 < 0.55.
    { conditions: ["Unknown", "Unknown", "Unknown", "True", "True", "True"], state: "Normal" },
  ] as const)("ComputeZoneState $conditions → $state", ({ conditions, state }) => {
    expect(computeZoneState(conditions, 0.55)).toBe(state);
  });

  it.each([
    { state: "Normal", size: 10, rate: { flag: "node-eviction-rate", value: 0.1 } },
    { state: "FullDisruption", size: 10, rate: { flag: "node-eviction-rate", value: 0.1 } },
    { state: "PartialDisruption", size: 50, rate: { value: 0 } },
    { state: "PartialDisruption", size: 51, rate: { flag: "secondary-node-eviction-rate", value: 0.01 } },
  ] as const)("setLimiterInZone: $state with $size nodes → $rate", ({ state, size, rate }) => {
    expect(zoneRate(state, size, settings())).toEqual(rate);
  });

  it("a zone partially down (3 of 4, a small zone) stops NoExecute tainting: rate 0", () => {
    const h = cluster({ a1: "a", a2: "a", a3: "a", a4: "a" });
    keepAlive(h, "a4");
    h.to(300);
    expect(h.events("ZoneStateChanged")).toMatchObject([
      // Initial → Normal at the first pass is not an event.
      { zone: "a", from: "Normal", state: "PartialDisruption", nodes: 4, notReady: 3, rate: { value: 0 } },
    ]);
    expect(h.events("NodeTainted", (e) => e.taint.endsWith(":NoExecute"))).toEqual([]);
  });

  it("node.kubernetes.io/exclude-disruption excludes a node by its presence, an empty value too", () => {
    // The same zone as above (3 of 4 down), but one of the down nodes carries the label with "": the
    // zone counts 3 nodes with 2 not Ready, and two are never a partial disruption.
    const h = cluster({ a1: "a", a2: "a", a3: "a", a4: "a" });
    const a3 = h.store.get("Node", "a3")!;
    a3.metadata.labels = { ...a3.metadata.labels, "node.kubernetes.io/exclude-disruption": "" };
    h.store.update(a3);
    keepAlive(h, "a4");
    h.to(300);
    expect(h.events("ZoneStateChanged")).toEqual([]);
    expect(h.events("NodeTainted", (e) => e.taint.endsWith(":NoExecute")).length).toBeGreaterThan(0);
  });

  it("one zone fully down while another is up: tainted at node-eviction-rate, one node every 10s", () => {
    const h = cluster({ a1: "a", a2: "a", b1: "b" });
    keepAlive(h, "b1");
    h.to(300);
    expect(h.events("ZoneStateChanged")).toMatchObject([
      { zone: "a", state: "FullDisruption", rate: { flag: "node-eviction-rate", value: 0.1 } },
    ]);
    const noExecute = h.events("NodeTainted", (e) => e.taint.endsWith(":NoExecute"));
    expect(noExecute).toHaveLength(2);
    expect(noExecute[1]!.t - noExecute[0]!.t).toBeGreaterThanOrEqual(10 - 1e-6);
  });

  it("every zone down: the controller assumes it lost the nodes, removes NoExecute taints and stops tainting", () => {
    const h = cluster({ a1: "a", b1: "b" });
    h.to(300);
    const states = h.events("ZoneStateChanged");
    expect(states.map((e) => [e.zone, e.state, e.rate.value])).toEqual([
      ["a", "FullDisruption", 0],
      ["b", "FullDisruption", 0],
    ]);
    expect(h.events("NodeTainted", (e) => e.taint.endsWith(":NoExecute"))).toEqual([]);
    for (const n of ["a1", "b1"])
      expect(taintsOf(h, n)).toEqual(["node.kubernetes.io/unreachable:NoSchedule"]);
  });

  it("leaving all-zones-down: a fresh grace period for every node, then normal rates", () => {
    const h = cluster({ a1: "a", b1: "b" });
    h.to(100);
    // b1 comes back: zone b Normal, zone a still Full but no longer all of them.
    h.engine.at(100, () => {
      const n = h.store.get("Node", "b1")!;
      n.status.conditions = [{ type: "Ready", status: "True", lastHeartbeatTime: 100 }];
      h.store.update(n);
      renew(h, "b1");
    });
    keepAlive(h, "b1");
    h.to(400);
    const states = h.events("ZoneStateChanged").map((e) => [e.zone, e.state, e.rate.value]);
    // Zone a stays FullDisruption (no new state, no event) but its limiter is back to node-eviction-rate.
    expect(states).toEqual([
      ["a", "FullDisruption", 0],
      ["b", "FullDisruption", 0],
      ["b", "Normal", 0.1],
    ]);
    const [tainted] = h.events("NodeTainted", (e) => e.taint === "node.kubernetes.io/unreachable:NoExecute");
    expect(tainted).toMatchObject({ node: "a1", cause: "zone-queue", rate: { value: 0.1 } });
    // a1's grace period started again when the all-zones mode ended: no second NodeNotReady.
    expect(h.events("NodeNotReady", (e) => e.node === "a1")).toHaveLength(1);
  });
});
