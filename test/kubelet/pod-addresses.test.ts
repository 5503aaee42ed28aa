// A node's pod addresses (src/kubelet/pod-host.ts nextIp): 10.244.<node index>.<n>, n counting up
// from 1, skipping an address a pod of the scenario (a cluster dump's) brought with it while that pod
// is on the node; once it is gone, its address is free again.

import { describe, expect, it } from "vitest";
import { Store } from "../../src/cluster/store.ts";
import { Engine } from "../../src/engine/engine.ts";
import { podWorkerHost } from "../../src/kubelet/pod-host.ts";
import { resolveKubelet } from "../../src/kubernetes/defaults.ts";
import type { Pod } from "../../src/kubernetes/objects.ts";
import { Trace } from "../../src/trace/events.ts";

function pod(name: string, node: string, podIP?: string): Pod {
  return {
    kind: "Pod",
    metadata: { name, namespace: "default" },
    spec: { nodeName: node, containers: [{ name: "c" }] },
    status: { phase: "Running", conditions: [], containerStatuses: [], ...(podIP ? { podIP } : {}) },
  };
}

function host(manifests: Pod[]) {
  const engine = new Engine(1);
  const store = new Store(engine);
  const ctx = {
    engine,
    store,
    trace: new Trace(engine),
    kubelet: resolveKubelet("1.32", {}),
    scenario: { manifests: manifests.map((object) => ({ object })) },
  };
  const kubelet = {
    name: "n-1",
    index: 1,
    minor: 32,
    kubeletStartedAt: 0,
    connected: () => true,
    whenRuntime: (action: () => void) => action(),
    started: () => {},
  };
  return { store, host: podWorkerHost(ctx, kubelet) };
}

describe("a node's pod addresses", () => {
  it("skips the addresses the scenario's pods on the node hold, and only while they are there", () => {
    const onNode = pod("dumped-a", "n-1", "10.244.1.2");
    const elsewhere = pod("dumped-b", "n-2", "10.244.1.3");
    const leaving = pod("dumped-c", "n-1", "10.244.1.5");
    const { store, host: h } = host([onNode, elsewhere, leaving]);
    for (const p of [onNode, elsewhere, leaving]) store.create(p);
    expect([h.nextIp(), h.nextIp(), h.nextIp()]).toEqual(["10.244.1.1", "10.244.1.3", "10.244.1.4"]);
    store.delete(leaving);
    expect(h.nextIp()).toBe("10.244.1.5");
    expect(h.nextIp()).toBe("10.244.1.6");
  });

  it("counts up from 1 when no pod brought an address", () => {
    const { store, host: h } = host([]);
    store.create(pod("web", "n-1"));
    expect([h.nextIp(), h.nextIp()]).toEqual(["10.244.1.1", "10.244.1.2"]);
  });
});
