// The EndpointSlice controller alone: a Service, pods changed by hand. Endpoint conditions
// (staging/src/k8s.io/endpointslice/utils.go): serving = the pod's Ready, terminating = a
// deletionTimestamp, ready = publishNotReadyAddresses || (serving && !terminating); membership
// (ShouldPodBeInEndpoints with includeTerminating): an IP and not terminal.

import { describe, expect, it } from "vitest";
import { EndpointSliceController } from "../../src/controllers/endpointslice-controller.ts";
import type { Pod } from "../../src/kubernetes/objects.ts";
import { type Harness, harness, pod, service } from "./harness.ts";

function cluster(publishNotReadyAddresses = false): { h: Harness; p: Pod } {
  const h = harness();
  new EndpointSliceController(h);
  h.store.create(service("web", { app: "web" }, publishNotReadyAddresses));
  const p = pod("web-1", { node: "n1", labels: { app: "web" }, ip: "10.244.1.5" });
  h.engine.at(1, () => h.store.create(p));
  h.to(1);
  return { h, p };
}

const change = (h: Harness, p: Pod, at: number, edit: (p: Pod) => void) =>
  h.engine.at(at, () => {
    edit(p);
    h.store.update(p, p.spec.nodeName);
  });

const setReady = (ready: boolean) => (p: Pod) => {
  p.status.conditions = [{ type: "Ready", status: ready ? "True" : "False" }];
};

describe("EndpointSlice controller", () => {
  it("a Ready pod is a ready endpoint", () => {
    const { h } = cluster();
    expect(h.events("EndpointReady")).toMatchObject([
      {
        t: 1,
        service: "default/web",
        endpoint: { address: "10.244.1.5", ready: true, serving: true, terminating: false, nodeName: "n1" },
      },
    ]);
    expect(h.store.get("EndpointSlice", "default/web")!.endpoints).toHaveLength(1);
  });

  it.each([
    {
      name: "Ready=False",
      edit: setReady(false),
      endpoint: { ready: false, serving: false, terminating: false },
    },
    {
      name: "terminating while still Ready",
      edit: (p: Pod) => {
        p.metadata.deletionTimestamp = 40;
      },
      endpoint: { ready: false, serving: true, terminating: true },
    },
  ])("$name: not ready, still listed", ({ edit, endpoint }) => {
    const { h, p } = cluster();
    change(h, p, 10, edit);
    h.to(11);
    expect(h.events("EndpointNotReady")).toMatchObject([{ t: 10, removed: false, endpoint }]);
    expect(h.events("EndpointRemoved")).toEqual([]);
  });

  it("publishNotReadyAddresses: ready whatever the pod's readiness", () => {
    const { h, p } = cluster(true);
    change(h, p, 10, setReady(false));
    h.to(11);
    expect(h.events("EndpointNotReady")).toEqual([]);
    expect(h.store.get("EndpointSlice", "default/web")!.endpoints[0]!.conditions).toEqual({
      ready: true,
      serving: false,
      terminating: false,
    });
  });

  it("the pod object removed: the ready endpoint leaves the slice", () => {
    const { h, p } = cluster();
    h.engine.at(10, () => h.store.delete(p));
    h.to(11);
    expect(h.events("EndpointNotReady")).toMatchObject([{ t: 10, removed: true, endpoint: { ready: true } }]);
    expect(h.events("EndpointRemoved")).toMatchObject([{ t: 10, address: "10.244.1.5", podDeleted: true }]);
    expect(h.store.get("EndpointSlice", "default/web")!.endpoints).toEqual([]);
  });

  it("a terminal pod leaves the slice though its object remains", () => {
    const { h, p } = cluster();
    change(h, p, 10, (x) => {
      x.status.phase = "Failed";
      setReady(false)(x);
    });
    h.to(11);
    expect(h.events("EndpointRemoved")).toMatchObject([{ podDeleted: false }]);
  });
});
