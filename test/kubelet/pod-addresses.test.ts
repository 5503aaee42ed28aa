// A node's pod addresses (src/kubelet/pod-host.ts nextIp): 10.244.<node index>.<n> up to 255 nodes,
// 10.<index div 256>.<index mod 256>.<n> past them (a /16 holds 256 /24s), n counting up from 1,
// skipping an address a pod of the scenario (a cluster dump's) brought with it while that pod is on
// the node; once it is gone, its address is free again. Past .254 the count starts again at 1 and
// skips every address a pod on the node holds (host-local IPAM).

import { describe, expect, it } from "vitest";
import { Store } from "../../src/cluster/store.ts";
import { Engine } from "../../src/engine/engine.ts";
import { podCidr, podWorkerHost } from "../../src/kubelet/pod-host.ts";
import { type Ipv4Cidr, ipv4, parseIpv4Cidr } from "../../src/kubernetes/cidr.ts";
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

function host(manifests: Pod[], index = 1, nodes = 3, podCIDR?: Ipv4Cidr) {
  const engine = new Engine(1);
  const store = new Store(engine);
  const ctx = {
    engine,
    store,
    trace: new Trace(engine),
    kubelet: resolveKubelet("1.32", {}),
    scenario: { manifests: manifests.map((object) => ({ object })), nodes: new Array<unknown>(nodes) },
  };
  const kubelet = {
    name: "n-1",
    index,
    ...(podCIDR ? { podCIDR } : {}),
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

  it("starts again at 1 past .254, skipping every address a pod on the node holds", () => {
    const { store, host: h } = host([]);
    const given = Array.from({ length: 254 }, () => h.nextIp());
    expect(given.at(-1)).toBe("10.244.1.254");
    store.create(pod("old-a", "n-1", given[0]));
    store.create(pod("old-c", "n-1", given[2]));
    store.create(pod("old-elsewhere", "n-2", given[1]));
    expect([h.nextIp(), h.nextIp(), h.nextIp()]).toEqual(["10.244.1.2", "10.244.1.4", "10.244.1.5"]);
  });
});

describe("a node's pod CIDR", () => {
  it.each([
    // [node index, nodes in the cluster, the /24 without its last octet]
    [1, 3, "10.244.1"],
    [255, 255, "10.244.255"],
    [1, 256, "10.0.1"],
    [256, 256, "10.1.0"],
    [300, 1000, "10.1.44"],
    [5000, 5000, "10.19.136"],
  ])("node %i of %i: %s.0/24", (index, nodes, prefix) => {
    expect(podCidr(index, nodes)).toEqual(parseIpv4Cidr(`${prefix}.0/24`));
    expect(host([], index, nodes).host.nextIp()).toBe(`${prefix}.1`);
  });

  it("a dumped node's own spec.podCIDR gives its pods' addresses, from its first host address, wrapping at its last", () => {
    const { host: h } = host([], 7, 3, parseIpv4Cidr("10.42.3.64/26"));
    const given = Array.from({ length: 63 }, () => h.nextIp());
    expect(given.slice(0, 2)).toEqual(["10.42.3.65", "10.42.3.66"]);
    expect(given.at(61)).toBe("10.42.3.126");
    expect(given.at(62)).toBe("10.42.3.65");
  });

  it.each([
    ["10.42.3.0/24", { network: 10 * 16777216 + 42 * 65536 + 3 * 256, hosts: 254 }],
    ["10.42.3.7/24", { network: 10 * 16777216 + 42 * 65536 + 3 * 256, hosts: 254 }],
    ["192.168.0.0/16", { network: 192 * 16777216 + 168 * 65536, hosts: 65534 }],
    ["10.0.0.0/30", { network: 10 * 16777216, hosts: 2 }],
    ["10.0.0.0/31", undefined],
    ["10.0.0.256/24", undefined],
    ["fd00:10:244:1::/64", undefined],
    ["10.0.0.0", undefined],
  ])("parseIpv4Cidr(%s)", (text, cidr) => {
    expect(parseIpv4Cidr(text)).toEqual(cidr);
  });

  it("ipv4 writes an unsigned 32-bit address dotted", () => {
    expect(ipv4(parseIpv4Cidr("255.254.253.0/24")!.network + 252)).toBe("255.254.253.252");
  });
});
