// The node lifecycle controller does not read a silent Lease again (off any computed schedule, not
// written since it was read: controllers/node-health.ts) and skips the passes of dormant nodes (Unknown, already tainted
// unreachable:NoExecute and in their zone's queue, their Lease renewed by no computed schedule:
// controllers/quiet-nodes.ts, maybeDormant). Rule: monitorNodeHealth (pkg/controller/nodelifecycle/
// node_lifecycle_controller.go) reads every node at every pass; for such a node tryUpdateNodeHealth
// and processTaintBaseEviction change nothing, so the queue's order, probeTimestamp and every event
// are those of the full passes. Each scenario below runs with the skipping and without it, and the
// two runs are the same, byte for byte; each has passes skipped. The faults wake dormant nodes in
// every way a dormant node can be woken: power back on, a healed partition, a restarted kubelet (a
// Lease write), the Node deleted, a cordon (a Node write), every zone down (master disruption mode).

import { afterEach, describe, expect, it } from "vitest";
import type { Cluster } from "../../src/cluster/context.ts";
import { leaseSteadiness } from "../../src/cluster/lease-steadiness.ts";
import type { Store } from "../../src/cluster/store.ts";
import { firstSight, readyOf, silentLeases } from "../../src/controllers/node-health.ts";
import { dormantSkipping, QuietNodes } from "../../src/controllers/quiet-nodes.ts";
import { RateLimitedTimedQueue, TokenBucket } from "../../src/controllers/rate-limited-queue.ts";
import type { Node } from "../../src/kubernetes/objects.ts";
import { TAINT_UNREACHABLE } from "../../src/kubernetes/taints.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import { type Doc, fullJson, onAndOff, variant } from "../helpers/sim.ts";

function both(file: string, edit: (doc: Doc) => void): { skipped: string; full: string; passes: number } {
  let passes = 0;
  const counted = (s: Scenario): string => {
    dormantSkipping.skipped = 0;
    const json = fullJson(s);
    if (dormantSkipping.enabled) passes = dormantSkipping.skipped;
    else expect(dormantSkipping.skipped).toBe(0);
    return json;
  };
  const { on, off } = onAndOff(variant(file, edit), [dormantSkipping, silentLeases], counted);
  return { skipped: on, full: off, passes };
}

afterEach(() => {
  dormantSkipping.enabled = true;
  silentLeases.enabled = true;
});

describe("dormant nodes: skipped passes give the run every pass gives", () => {
  it.each([
    ["node-power-loss.yaml", [{ at: "10s", do: "power-off", node: "worker-2" }]],
    [
      "node-power-loss.yaml",
      [
        { at: "10s", do: "power-off", node: "worker-2" },
        { at: "9m3.3s", do: "cordon", node: "worker-2" },
        { at: "11m", do: "power-on", node: "worker-2" },
        { at: "17m", do: "power-off", node: "worker-2" },
        { at: "24m1.7s", do: "delete-node", node: "worker-2" },
      ],
    ],
    [
      "node-network-partition.yaml",
      [
        { at: "10s", do: "network-partition", node: "worker-2" },
        { at: "12m0.3s", do: "network-heal", node: "worker-2" },
      ],
    ],
    [
      "kubelet-stop.yaml",
      [
        { at: "10s", do: "kubelet-stop", node: "worker-2" },
        { at: "10m", do: "kubelet-start", node: "worker-2" },
      ],
    ],
    [
      "zone-outage.yaml",
      [
        { at: "10s", do: "power-off", node: "a-1" },
        { at: "10s", do: "power-off", node: "a-2" },
        { at: "2m", do: "power-off", node: "a-3" },
        { at: "14m", do: "power-on", node: "a-1" },
      ],
    ],
    [
      "cluster-wide-outage.yaml",
      [
        { at: "10s", do: "network-partition", node: "worker-1" },
        { at: "6m", do: "network-partition", node: "worker-2" },
        { at: "6m", do: "network-partition", node: "worker-3" },
        { at: "20m", do: "network-heal", node: "worker-3" },
      ],
    ],
  ])("%s", (file, timeline) => {
    const { skipped, full, passes } = both(file, (doc) => {
      doc.duration = "30m";
      doc.timeline = timeline;
    });
    expect(passes).toBeGreaterThan(0);
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped).toBe(full);
  });
});

describe("dormant nodes: which nodes a pass could change", () => {
  const unknown = { type: "Ready", status: "Unknown", lastHeartbeatTime: 0, lastTransitionTime: 0 };
  function setup(taints: { key: string; effect: string }[]) {
    const node = {
      kind: "Node",
      metadata: { name: "worker-2", labels: {} },
      spec: { taints },
      status: { conditions: [unknown] },
    } as unknown as Node;
    const store = {};
    const quiet = new QuietNodes({ store } as unknown as Cluster, 40, 5);
    const h = firstSight(node, 0);
    readyOf(node, h);
    h.written = false;
    h.queued = true;
    const queue = new RateLimitedTimedQueue(new TokenBucket(0.1, 0));
    queue.add("worker-2", 0);
    return { node, h, quiet, queue, store };
  }
  const tainted = [{ key: TAINT_UNREACHABLE, effect: "NoExecute" }];

  it("Unknown, tainted, in the queue's set, its Lease silent: dormant", () => {
    const { node, h, quiet, queue } = setup(tainted);
    quiet.maybeDormant(node, h, "Unknown", queue);
    expect(h.dormant).toBe(true);
  });

  it("waiting in the queue without its taint: not dormant (its Remove and Add move it to the back)", () => {
    const { node, h, quiet, queue } = setup([{ key: TAINT_UNREACHABLE, effect: "NoSchedule" }]);
    quiet.maybeDormant(node, h, "Unknown", queue);
    expect(h.dormant).toBe(false);
  });

  it("not in the queue's set, written during the pass, or Ready when the pass began: not dormant", () => {
    const a = setup(tainted);
    a.queue.remove("worker-2");
    a.quiet.maybeDormant(a.node, a.h, "Unknown", a.queue);
    expect(a.h.dormant).toBe(false);
    const b = setup(tainted);
    b.h.written = true;
    b.quiet.maybeDormant(b.node, b.h, "Unknown", b.queue);
    expect(b.h.dormant).toBe(false);
    const c = setup(tainted);
    c.quiet.maybeDormant(c.node, c.h, "True", c.queue);
    expect(c.h.dormant).toBe(false);
  });

  it("a Lease renewed on a computed schedule (renewTime moves without a write): not dormant", () => {
    const { node, h, quiet, queue, store } = setup(tainted);
    leaseSteadiness(store as unknown as Store).set(h.leaseKey, { steadyGap: 10.4, onUnsteady: undefined });
    quiet.maybeDormant(node, h, "Unknown", queue);
    expect(h.dormant).toBe(false);
  });
});
