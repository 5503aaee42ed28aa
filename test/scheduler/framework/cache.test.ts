// The scheduler cache (src/scheduler/framework/cache.ts) is updated write by write; whatever the
// writes, it must equal a count made from scratch from the store: per node the pods that count
// (bound, not Succeeded or Failed, Terminating included), their requests, and per workload the
// active (not Terminating) pods; and the room it keeps by position in the node list (room.ts) must
// answer as the walk's test would node by node. Built as Kubernetes' cache tests are: an engine, a
// store, the cache.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Context } from "../../../src/cluster/context.ts";
import { controllerOf, Store } from "../../../src/cluster/store.ts";
import { Engine } from "../../../src/engine/engine.ts";
import type { Node, Pod } from "../../../src/kubernetes/objects.ts";
import { SchedulerCache } from "../../../src/scheduler/framework/cache.ts";
import { markTerminating, replicaSetPod } from "../../helpers/store-writes.ts";

function node(name: string, pods: number): Node {
  return {
    kind: "Node",
    metadata: {
      name,
      labels: { "kubernetes.io/hostname": name, "topology.kubernetes.io/zone": name.slice(-1) },
    },
    spec: {},
    status: { capacity: {}, allocatable: { cpu: 4, memory: 2 ** 34, pods }, conditions: [] },
  };
}

function pod(i: number, owner: number): Pod {
  // every seventh pod asks for a fraction of a byte, which the room leaves to the walk
  const memory = 2 ** 20 * (i + 1) + (i % 7 === 0 ? 0.5 : 0);
  const requests = { cpu: 0.1 * (1 + (i % 3)), memory };
  return replicaSetPod(i, owner, { containers: [{ name: "c", resources: { requests } }] }, "Pending");
}

const NODES = ["n-a", "n-b", "n-c", "n-d"];

/** Requests the room is asked about: millicores and whole bytes (the walk asks for no other). */
const REQUESTS: [number, number][] = [
  [0, 0],
  [100, 2 ** 20],
  [3700, 2 ** 20],
  [200, 2 ** 34 - 2 ** 24],
  [4001, 0],
];

const ops = fc.array(
  fc.oneof(
    fc.record({ op: fc.constant("create" as const), owner: fc.integer({ min: 0, max: 2 }) }),
    fc.record({ op: fc.constant("bind" as const), pod: fc.nat(30), node: fc.nat(3) }),
    fc.record({ op: fc.constant("terminate" as const), pod: fc.nat(30) }),
    fc.record({ op: fc.constant("fail" as const), pod: fc.nat(30) }),
    fc.record({ op: fc.constant("delete" as const), pod: fc.nat(30) }),
    fc.record({ op: fc.constant("resize" as const), node: fc.nat(3), pods: fc.integer({ min: 0, max: 20 }) }),
    fc.record({ op: fc.constant("deleteNode" as const), node: fc.nat(3) }),
    fc.record({ op: fc.constant("cordon" as const), node: fc.nat(3) }),
  ),
  { maxLength: 80 },
);

function recount(store: Store) {
  const rows = new Map<string, { pods: number; cpuMilli: number; memory: number }>();
  const owners = new Map<string, number>();
  for (const p of store.list("Pod")) {
    const n = p.spec.nodeName;
    if (!n || p.status.phase === "Succeeded" || p.status.phase === "Failed") continue;
    const r = rows.get(n) ?? { pods: 0, cpuMilli: 0, memory: 0 };
    r.pods++;
    for (const c of p.spec.containers) {
      r.cpuMilli += Math.round((c.resources?.requests?.cpu ?? 0) * 1000);
      r.memory += c.resources?.requests?.memory ?? 0;
    }
    rows.set(n, r);
    if (p.metadata.deletionTimestamp === undefined) {
      const k = `${controllerOf(p)}|${n}`;
      owners.set(k, (owners.get(k) ?? 0) + 1);
    }
  }
  return { rows, owners };
}

describe("the scheduler cache", () => {
  it("equals a count from scratch after any sequence of writes", () => {
    fc.assert(
      fc.property(ops, (steps) => {
        const engine = new Engine(1);
        const store = new Store(engine);
        for (const n of NODES) store.create(node(n, 10));
        const cache = new SchedulerCache({ engine, store } as unknown as Context);
        // The room, as a scheduling cycle reads it after listing the nodes: what the walk would find.
        const checkRoom = () => {
          const { nodes, rows } = cache.nodeList();
          const n = nodes.length;
          const passes = (row: number, cpu: number, memory: number) =>
            cache.blocked[row] === 0 &&
            cache.freePods[row]! >= 1 &&
            cache.freeCpuMilli[row]! >= cpu &&
            cache.memory[row]! + memory <= cache.allocMemory[row]!;
          for (const [cpu, memory] of REQUESTS)
            for (let start = 0; start < n; start++)
              for (let want = 1; want <= n; want++) {
                let all = true;
                let whole = true;
                for (let k = 0; k < want; k++) {
                  const row = rows[(start + k) % n]!;
                  all &&= passes(row, cpu, memory);
                  whole &&= Number.isSafeInteger(cache.memory[row]);
                }
                // where a node holds a fraction of a byte the room says no and leaves it to the walk
                expect(cache.roomFor(start, want, n, cpu, memory)).toBe(all && whole);
              }
        };
        const pods: Pod[] = [];
        for (const s of steps) {
          const p = "pod" in s ? pods[s.pod % Math.max(1, pods.length)] : undefined;
          switch (s.op) {
            case "create":
              pods.push(store.create(pod(pods.length, s.owner)));
              break;
            case "bind":
              if (p && !p.spec.nodeName && store.exists(p)) {
                p.spec.nodeName = NODES[s.node]!;
                store.update(p, undefined);
              }
              break;
            case "terminate":
              markTerminating(engine, store, p);
              break;
            case "fail":
              if (p && store.exists(p)) {
                p.status.phase = "Failed";
                store.update(p, p.spec.nodeName);
              }
              break;
            case "delete":
              if (p) store.delete(p);
              break;
            case "resize": {
              const n = store.get("Node", NODES[s.node]!);
              if (n) {
                n.status.allocatable.pods = s.pods;
                store.update(n);
              }
              break;
            }
            case "deleteNode": {
              const n = store.get("Node", NODES[s.node]!);
              if (n) store.delete(n);
              else store.create(node(NODES[s.node]!, 10));
              break;
            }
            case "cordon": {
              const n = store.get("Node", NODES[s.node]!);
              if (n) {
                n.spec.unschedulable = !n.spec.unschedulable;
                store.update(n);
              }
              break;
            }
          }
          // a scheduling cycle lists the nodes between writes (and reads the room kept write by write)
          if ("pod" in s && s.pod % 2 === 0) checkRoom();
        }
        const want = recount(store);
        for (const name of NODES) {
          const row = cache.rowOf(name);
          const r = want.rows.get(name) ?? { pods: 0, cpuMilli: 0, memory: 0 };
          expect(cache.podCount[row]).toBe(r.pods);
          expect(cache.cpuMilli[row]).toBe(r.cpuMilli);
          expect(cache.memory[row]).toBe(r.memory);
          const alloc = store.get("Node", name)?.status.allocatable;
          if (alloc) {
            expect(cache.freePods[row]).toBe((alloc.pods ?? Number.POSITIVE_INFINITY) - r.pods);
            expect(cache.freeCpuMilli[row]).toBe(Math.round((alloc.cpu ?? 0) * 1000) - r.cpuMilli);
          }
          for (const owner of [0, 1, 2]) {
            const key = `ReplicaSet/default/rs-${owner}`;
            expect(cache.ownerCounts(key)?.[row] ?? 0).toBe(want.owners.get(`${key}|${name}`) ?? 0);
          }
        }
        checkRoom();
      }),
      { numRuns: 200 },
    );
  });
});
