// The walk's fast path (src/scheduler/framework/cycle.ts takeAll, from the room of room.ts) and
// the zone sums by blocks it lets the scoring read (zone-blocks.ts) must find and choose as the walk
// node by node does. A pod asking for half a byte more takes the walk node by node and the sums node
// by node (the room answers for whole bytes only) and is scored alike (memory is in no score, and at
// these sizes both requests pass the same nodes): from any start, round the end of the list, both
// must check, find and choose the same.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Context } from "../../../src/cluster/context.ts";
import { Store } from "../../../src/cluster/store.ts";
import { Engine } from "../../../src/engine/engine.ts";
import { Rng } from "../../../src/engine/rng.ts";
import type { Node, Pod } from "../../../src/kubernetes/objects.ts";
import { SchedulerCache } from "../../../src/scheduler/framework/cache.ts";
import { numFeasibleNodesToFind, SchedulingCycle } from "../../../src/scheduler/framework/cycle.ts";
import { podInfo } from "../../../src/scheduler/framework/pod-info.ts";
import { replicaSetPod } from "../../helpers/store-writes.ts";

/** 100 of them to find (numFeasibleNodesToFind), so that a stretch may wrap round the list. */
const NODES = 160;
const ZONES = ["a", "b", "c"];

function node(i: number, zone: number): Node {
  const name = `n-${String(i).padStart(3, "0")}`;
  return {
    kind: "Node",
    metadata: {
      name,
      labels: { "kubernetes.io/hostname": name, "topology.kubernetes.io/zone": ZONES[zone]! },
    },
    spec: {},
    status: { capacity: {}, allocatable: { cpu: 64, memory: 2 ** 34, pods: 110 }, conditions: [] },
  };
}

function pod(i: number, memory: number, nodeName?: string): Pod {
  const requests = { cpu: 0.1, memory };
  const spec = { ...(nodeName ? { nodeName } : {}), containers: [{ name: "c", resources: { requests } }] };
  return replicaSetPod(i, 0, spec, nodeName ? "Running" : "Pending");
}

describe("the walk's fast path", () => {
  it("checks, finds and chooses as the walk node by node, from any start", () => {
    expect(numFeasibleNodesToFind(NODES)).toBeLessThan(NODES);
    fc.assert(
      fc.property(
        fc.array(fc.nat(ZONES.length - 1), { minLength: NODES, maxLength: NODES }),
        fc.array(fc.record({ node: fc.nat(NODES - 1), pods: fc.integer({ min: 1, max: 6 }) }), {
          maxLength: 40,
        }),
        fc.nat(NODES - 1),
        fc.nat(),
        (zones, placed, start, seed) => {
          const engine = new Engine(1);
          const store = new Store(engine);
          for (let i = 0; i < NODES; i++) store.create(node(i, zones[i]!));
          const cache = new SchedulerCache({ engine, store } as unknown as Context);
          const cycle = new SchedulingCycle({ store } as unknown as Context, cache, "1.37");
          // the workload's pods, unevenly over the nodes and zones: the default spreading's terms
          let serial = 0;
          for (const p of placed)
            for (let k = 0; k < p.pods; k++)
              store.create(pod(serial++, 2 ** 20, node(p.node, 0).metadata.name));
          const whole = pod(serial++, 2 ** 20);
          const half = pod(serial++, 2 ** 20 + 0.5);
          const want = numFeasibleNodesToFind(NODES);
          // not a vacuous comparison: the room takes the whole stretch at once for one of them only
          expect(cache.nodeList().nodes.length).toBe(NODES);
          expect(cache.roomFor(start, want, NODES, 100, 2 ** 20)).toBe(true);
          const fast = { nextStartNodeIndex: start };
          const slow = { nextStartNodeIndex: start };
          const a = cycle.run(whole, podInfo(whole), new Rng(seed), fast);
          const b = cycle.run(half, podInfo(half), new Rng(seed), slow);
          expect(a.node?.metadata.name).toBe(b.node?.metadata.name);
          expect({ ...a, node: undefined }).toEqual({ ...b, node: undefined });
          expect(fast.nextStartNodeIndex).toBe(slow.nextStartNodeIndex);
        },
      ),
      { numRuns: 200 },
    );
  });
});
