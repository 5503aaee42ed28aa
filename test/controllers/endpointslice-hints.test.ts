// The EndpointSlice controller's hints for a Service with trafficDistribution
// (staging/src/k8s.io/endpointslice/trafficdist/trafficdist.go preferCloseHeuristic.update): a ready
// endpoint gets forZones = its zone (podToEndpoint's zone: the node's topology.kubernetes.io/zone)
// and, for PreferSameNode only, forNodes = its node; an endpoint with neither gets no hints; a
// Service without the field gets none (defaultHeuristic).

import { describe, expect, it } from "vitest";
import { EndpointSliceController } from "../../src/controllers/endpointslice-controller.ts";
import type { Service } from "../../src/kubernetes/objects.ts";
import { harness, node, pod, service } from "./harness.ts";

function sliceOf(td: Service["spec"]["trafficDistribution"], zone: string | undefined, ready = true) {
  const h = harness();
  new EndpointSliceController(h);
  h.store.create(node("n1", zone ? { zone } : {}));
  const svc = service("web", { app: "web" });
  if (td) svc.spec.trafficDistribution = td;
  h.store.create(svc);
  h.engine.at(1, () => h.store.create(pod("web-1", { node: "n1", labels: { app: "web" }, ready })));
  h.to(1);
  return h.store.get("EndpointSlice", "default/web")!.endpoints[0]!;
}

describe("EndpointSlice hints (trafficDistribution)", () => {
  it.each([
    { td: "PreferClose", hints: { forZones: [{ name: "a" }] } },
    { td: "PreferSameZone", hints: { forZones: [{ name: "a" }] } },
    { td: "PreferSameNode", hints: { forZones: [{ name: "a" }], forNodes: [{ name: "n1" }] } },
  ] as const)("$td: $hints", ({ td, hints }) => {
    const e = sliceOf(td, "a");
    expect(e.hints).toEqual(hints);
    expect(e.zone).toBe("a");
  });

  it("no trafficDistribution: no hints (defaultHeuristic), no zone written", () => {
    const e = sliceOf(undefined, "a");
    expect(e.hints).toBeUndefined();
    expect(e.zone).toBeUndefined();
  });

  it("a node without a zone label: no zone hint; PreferSameNode still hints the node", () => {
    expect(sliceOf("PreferSameZone", undefined).hints).toBeUndefined();
    expect(sliceOf("PreferSameNode", undefined).hints).toEqual({ forNodes: [{ name: "n1" }] });
  });

  it("an endpoint that is not ready gets no hint (the heuristic hints ready endpoints only)", () => {
    expect(sliceOf("PreferSameZone", "a", false).hints).toBeUndefined();
  });
});
