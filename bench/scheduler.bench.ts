// The scheduler alone: 30,000 pods of 100 workloads placed one scheduling cycle each over 1,000
// nodes in 4 zones (numFeasibleNodesToFind = 420: each cycle filters at least 420 nodes and scores
// 420), each bound before the next, as the 1,000-node cluster benchmark's warm-up does. Only the
// engine, the store, the scheduler cache and the cycle run: the figure is the scheduler's own cost.

import type { Context } from "../src/cluster/context.ts";
import { Store } from "../src/cluster/store.ts";
import { Engine } from "../src/engine/engine.ts";
import type { Pod } from "../src/kubernetes/objects.ts";
import { SchedulerCache } from "../src/scheduler/framework/cache.ts";
import { type SchedulerState, SchedulingCycle } from "../src/scheduler/framework/cycle.ts";
import { podInfo } from "../src/scheduler/framework/pod-info.ts";

const NODES = 1000;
const WORKLOADS = 100;
const REPLICAS = 300;

export default async function (): Promise<void> {
  const engine = new Engine(1);
  const store = new Store(engine);
  const ctx = { engine, store, version: "1.32" } as unknown as Context;
  const zones = ["a", "b", "c", "d"];
  for (let i = 1; i <= NODES; i++)
    store.create({
      kind: "Node",
      metadata: {
        name: `worker-${i}`,
        labels: {
          "kubernetes.io/hostname": `worker-${i}`,
          "topology.kubernetes.io/zone": zones[(i - 1) % 4]!,
        },
      },
      spec: {},
      status: { capacity: {}, allocatable: { cpu: 4, memory: 16 * 2 ** 30, pods: 110 }, conditions: [] },
    });
  const cache = new SchedulerCache(ctx);
  const cycle = new SchedulingCycle(ctx, cache, "1.32");
  const rng = engine.rng.fork("scheduler");
  const state: SchedulerState = { nextStartNodeIndex: 0 };
  // The ReplicaSet controllers create their pods interleaved.
  const pods: Pod[] = [];
  for (let r = 0; r < REPLICAS; r++)
    for (let w = 0; w < WORKLOADS; w++)
      pods.push({
        kind: "Pod",
        metadata: {
          name: `app-${w}-${r}`,
          namespace: "default",
          labels: { app: `app-${w}` },
          ownerReferences: [{ kind: "ReplicaSet", name: `app-${w}`, controller: true }],
        },
        spec: { containers: [{ name: "app", resources: { requests: { cpu: 0.05, memory: 64 * 2 ** 20 } } }] },
        status: { phase: "Pending", conditions: [], containerStatuses: [] },
      });
  const place = (pod: Pod): boolean => {
    store.create(pod);
    const o = cycle.run(pod, podInfo(pod), rng, state);
    if (!o.node) return false;
    pod.spec.nodeName = o.node.metadata.name;
    store.update(pod, undefined);
    return true;
  };
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  let placed = 0;
  for (const pod of pods) if (place(pod)) placed++;
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `${placed.toLocaleString("en")} pods placed over ${NODES.toLocaleString("en")} nodes, one scheduling cycle each (creating and binding them included)`,
  );
  console.log(
    `  wall ${(ms / 1000).toFixed(2)} s, cpu ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s: ${((((cpu.user + cpu.system) / 1000) * 1000) / placed).toFixed(1)} µs of cpu per cycle`,
  );
}
