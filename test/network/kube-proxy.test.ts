// kube-proxy's rules from an endpoint list: ready first, serving-terminating as the fallback
// (KEP-1669), Local targets per node, and what healthCheckNodePort counts.

import { describe, expect, it } from "vitest";
import { type EndpointView, ServiceRules } from "../../src/network/kube-proxy.ts";

const ep = (
  id: number,
  node: string,
  ready: boolean,
  serving: boolean,
  terminating: boolean,
): EndpointView => ({
  id,
  ip: `10.0.0.${id}`,
  node,
  ready,
  serving,
  terminating,
});

describe("ServiceRules", () => {
  it.each([
    {
      name: "ready endpoints only",
      eps: [ep(1, "a", true, true, false), ep(2, "b", false, true, true)],
      cluster: [1],
      localA: [1],
      localB: [2],
      readyA: 1,
      readyB: 0,
    },
    {
      name: "no ready endpoint: fall back to serving-terminating ones",
      eps: [ep(1, "a", false, true, true), ep(2, "b", false, false, true)],
      cluster: [1],
      localA: [1],
      localB: [],
      readyA: 0,
      readyB: 0,
    },
    {
      name: "not ready and not terminating (node lost): nothing",
      eps: [ep(1, "a", false, false, false)],
      cluster: [],
      localA: [],
      localB: [],
      readyA: 0,
      readyB: 0,
    },
  ])("$name", ({ eps, cluster, localA, localB, readyA, readyB }) => {
    const r = new ServiceRules(eps);
    expect(r.cluster.map((e) => e.id)).toEqual(cluster);
    expect(r.localTargets("a").map((e) => e.id)).toEqual(localA);
    expect(r.localTargets("b").map((e) => e.id)).toEqual(localB);
    expect(r.localReadyCount("a")).toBe(readyA);
    expect(r.localReadyCount("b")).toBe(readyB);
  });
});
