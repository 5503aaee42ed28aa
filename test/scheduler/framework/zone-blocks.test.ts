// The system default spreading's zone sums over a stretch of the node list come from per-workload
// blocks of 64 positions kept write by write (src/scheduler/framework/zone-blocks.ts): whatever the
// writes (binds, deletions, Terminating pods, nodes relabelled to another zone, removed, re-added),
// they must equal the sums node by node over the same stretch.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Context } from "../../../src/cluster/context.ts";
import { Store } from "../../../src/cluster/store.ts";
import { Engine } from "../../../src/engine/engine.ts";
import type { Node, Pod } from "../../../src/kubernetes/objects.ts";
import { SchedulerCache } from "../../../src/scheduler/framework/cache.ts";
import { markTerminating, replicaSetPod } from "../../helpers/store-writes.ts";

const NODES = 150;
const ZONES = ["a", "b", "c"];

function node(i: number, zone: string | undefined): Node {
  return {
    kind: "Node",
    metadata: {
      name: `n-${String(i).padStart(3, "0")}`,
      labels: {
        "kubernetes.io/hostname": `n-${i}`,
        ...(zone ? { "topology.kubernetes.io/zone": zone } : {}),
      },
    },
    spec: {},
    status: { capacity: {}, allocatable: { cpu: 4, memory: 2 ** 34, pods: 110 }, conditions: [] },
  };
}

function pod(i: number, owner: number, nodeName: string): Pod {
  return replicaSetPod(i, owner, { nodeName, containers: [{ name: "c" }] }, "Running");
}

const ops = fc.array(
  fc.oneof(
    fc.record({ op: fc.constant("bind" as const), owner: fc.nat(2), node: fc.nat(NODES - 1) }),
    fc.record({ op: fc.constant("delete" as const), pod: fc.nat(400) }),
    fc.record({ op: fc.constant("terminate" as const), pod: fc.nat(400) }),
    fc.record({ op: fc.constant("relabel" as const), node: fc.nat(NODES - 1), zone: fc.nat(ZONES.length) }),
    fc.record({ op: fc.constant("deleteNode" as const), node: fc.nat(NODES - 1) }),
    fc.record({
      op: fc.constant("sum" as const),
      start: fc.nat(NODES - 1),
      want: fc.integer({ min: 1, max: NODES }),
    }),
  ),
  { maxLength: 60 },
);

describe("the zone sums by blocks", () => {
  it("equal the sums node by node over any stretch, after any writes", () => {
    fc.assert(
      fc.property(ops, (steps) => {
        const engine = new Engine(1);
        const store = new Store(engine);
        for (let i = 0; i < NODES; i++) store.create(node(i, ZONES[i % ZONES.length]));
        const cache = new SchedulerCache({ engine, store } as unknown as Context);
        // a pod of some workload on every node, so that any relabelled or removed node moves a sum
        const pods: Pod[] = [];
        for (let i = 0; i < NODES; i++)
          pods.push(store.create(pod(i, i % 3, node(i, undefined).metadata.name)));
        const check = (start: number, want: number) => {
          const { rows } = cache.nodeList();
          const n = cache.nodeList().nodes.length;
          start %= n;
          want = Math.min(want, n);
          for (const [owner, own] of cache.workloads()) {
            const got = new Float64Array(cache.zones.length);
            cache.zoneSumsOver(owner, own, start, want, n, got);
            const expected = new Float64Array(cache.zones.length);
            for (let k = 0; k < want; k++) {
              const row = rows[(start + k) % n]!;
              if (cache.zone[row]! >= 0) expected[cache.zone[row]!]! += own[row]!;
            }
            expect([...got]).toEqual([...expected]);
          }
        };
        for (const s of steps) {
          const p = "pod" in s ? pods[s.pod % Math.max(1, pods.length)] : undefined;
          switch (s.op) {
            case "bind":
              pods.push(store.create(pod(pods.length, s.owner, node(s.node, undefined).metadata.name)));
              break;
            case "delete":
              if (p) store.delete(p);
              break;
            case "terminate":
              markTerminating(engine, store, p);
              break;
            case "relabel": {
              const n = store.get("Node", node(s.node, undefined).metadata.name);
              if (n) {
                const zone = ZONES[s.zone];
                n.metadata.labels = node(s.node, zone).metadata.labels;
                store.update(n);
              }
              break;
            }
            case "deleteNode": {
              const n = store.get("Node", node(s.node, undefined).metadata.name);
              if (n) store.delete(n);
              else store.create(node(s.node, ZONES[s.node % ZONES.length]));
              break;
            }
            case "sum":
              check(s.start, s.want);
              break;
          }
          check(0, NODES);
        }
        check(0, NODES);
        check(NODES - 70, NODES);
      }),
      { numRuns: 150 },
    );
  });
});
