// kube-proxy's topology (pkg/proxy/topology.go CategorizeEndpoints, topologyModeFromHints): Cluster
// traffic goes to the ready endpoints hinted for this node (PreferSameNode: every ready endpoint has
// a node hint, one is this node's), else for this zone (every ready endpoint has a zone hint, one is
// this zone's), else to every ready endpoint; with none ready, to the serving-terminating ones,
// hints ignored.

import { describe, expect, it } from "vitest";
import { type EndpointView, ServiceRules } from "../../src/network/kube-proxy.ts";

const ep = (
  id: number,
  node: string,
  zone: string | undefined,
  ready = true,
  hintNode = false,
): EndpointView => ({
  id,
  ip: `10.0.0.${id}`,
  node,
  ready,
  serving: ready,
  terminating: false,
  ...(zone ? { forZone: zone } : {}),
  ...(hintNode ? { forNode: node } : {}),
});

const ids = (r: ServiceRules, node: string, zone: string) => {
  const t = r.clusterFor(node, zone);
  return { mode: t.mode, ids: t.targets.map((e) => e.id) };
};

describe("kube-proxy topology", () => {
  const zonal = [ep(1, "a-1", "a"), ep(2, "a-2", "a"), ep(3, "b-1", "b")];

  it("zone hints: a node in zone a sends only to zone a's endpoints", () => {
    const r = new ServiceRules(zonal);
    expect(ids(r, "a-2", "a")).toEqual({ mode: "PreferSameZone", ids: [1, 2] });
    expect(ids(r, "b-1", "b")).toEqual({ mode: "PreferSameZone", ids: [3] });
  });

  it("no ready endpoint hinted for the node's zone: every ready endpoint", () => {
    const r = new ServiceRules([ep(1, "a-1", "a", false), ep(2, "a-2", "a", false), ep(3, "b-1", "b")]);
    expect(ids(r, "a-2", "a")).toEqual({ mode: "", ids: [3] });
    expect(r.clusterFor("a-2", "a").ignored).toBe(
      "Ignoring same-zone topology hints for service since no hints were provided for zone a",
    );
  });

  it("a node without a zone label: every ready endpoint", () => {
    expect(ids(new ServiceRules(zonal), "x", "")).toEqual({ mode: "", ids: [1, 2, 3] });
    expect(new ServiceRules(zonal).clusterFor("x", "").ignored).toContain("node is missing label");
  });

  it("one ready endpoint without a zone hint: hints ignored", () => {
    const r = new ServiceRules([...zonal, ep(4, "c-1", undefined)]);
    expect(ids(r, "a-1", "a")).toEqual({ mode: "", ids: [1, 2, 3, 4] });
  });

  it("node hints: the node's own endpoint; a node with none of its own: its zone's", () => {
    const r = new ServiceRules([
      ep(1, "a-1", "a", true, true),
      ep(2, "a-2", "a", true, true),
      ep(3, "b-1", "b", true, true),
    ]);
    expect(ids(r, "a-1", "a")).toEqual({ mode: "PreferSameNode", ids: [1] });
    expect(ids(r, "a-3", "a")).toEqual({ mode: "PreferSameZone", ids: [1, 2] });
  });

  it("no hints at all: the one cluster list, shared by every node", () => {
    const r = new ServiceRules([ep(1, "a-1", undefined), ep(2, "b-1", undefined)]);
    expect(r.clusterFor("a-1", "a").targets).toBe(r.cluster);
    expect(r.clusterFor("b-1", "b").targets).toBe(r.cluster);
  });
});
