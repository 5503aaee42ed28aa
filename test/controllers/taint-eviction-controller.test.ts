// The taint eviction controller alone (pkg/controller/tainteviction/taint_eviction_test.go): a node,
// its pods, NoExecute taints written by hand. processPodOnNode: not tolerated → at once; the
// smallest tolerationSeconds counted from when the controller saw the taint; a running timer never
// moved, except by an update at the very instant it was created; no NoExecute taint left → cancelled.

import { describe, expect, it } from "vitest";
import { TaintEvictionController } from "../../src/controllers/taint-eviction-controller.ts";
import { admitPod } from "../../src/kubernetes/admission.ts";
import type { Taint, Toleration } from "../../src/kubernetes/objects.ts";
import { type Harness, harness, NOT_READY_NOEXECUTE, node, pod, UNREACHABLE_NOEXECUTE } from "./harness.ts";

const tolerate = (key: string, seconds?: number): Toleration => ({
  key,
  operator: "Exists",
  effect: "NoExecute",
  ...(seconds !== undefined ? { tolerationSeconds: seconds } : {}),
});
const UNREACHABLE = "node.kubernetes.io/unreachable";
const NOT_READY = "node.kubernetes.io/not-ready";

function cluster(tolerations: Toleration[] | "admission"): Harness {
  const h = harness();
  h.store.create(node("n1"));
  const p = pod("web-1", { node: "n1", tolerations: tolerations === "admission" ? [] : tolerations });
  if (tolerations === "admission") admitPod(p, h.admission);
  h.store.create(p);
  new TaintEvictionController(h);
  return h;
}

function setTaints(h: Harness, at: number, taints: Taint[]): void {
  h.engine.at(at, () => {
    const n = h.store.get("Node", "n1")!;
    n.spec.taints = taints.map((t) => ({ ...t, timeAdded: at }));
    h.store.update(n);
  });
}

describe("taint eviction controller", () => {
  it("a taint the pod does not tolerate: evicted at once, with the DisruptionTarget condition", () => {
    const h = cluster([tolerate(NOT_READY, 300)]);
    setTaints(h, 10, [UNREACHABLE_NOEXECUTE]);
    h.to(20);
    expect(h.events("PodEvicted")).toMatchObject([
      {
        t: 10,
        node: "n1",
        reason: "DeletionByTaintManager",
        by: "taint-eviction-controller",
        tolerated: false,
        taints: ["node.kubernetes.io/unreachable:NoExecute"],
        untolerated: ["node.kubernetes.io/unreachable:NoExecute"],
      },
    ]);
    const p = h.store.get("Pod", "default/web-1")!;
    expect(p.metadata.deletionTimestamp).toBe(10 + 30);
    expect(p.status.conditions.find((c) => c.type === "DisruptionTarget")).toMatchObject({
      status: "True",
      reason: "DeletionByTaintManager",
    });
  });

  it.each([
    {
      name: "written by hand",
      tolerations: [tolerate(UNREACHABLE, 300)] as Toleration[] | "admission",
      admission: false,
    },
    { name: "added by DefaultTolerationSeconds", tolerations: "admission" as const, admission: true },
  ])(
    "tolerated for 300s ($name): evicted 300s after the controller saw the taint",
    ({ tolerations, admission }) => {
      const h = cluster(tolerations);
      setTaints(h, 10, [UNREACHABLE_NOEXECUTE]);
      h.to(309);
      expect(h.events("PodEvicted")).toEqual([]);
      h.to(400);
      expect(h.events("PodEvicted")).toMatchObject([
        { t: 310, tolerated: true, tolerationSeconds: 300, createdAt: 10, admissionDefault: admission },
      ]);
    },
  );

  it("the smallest tolerationSeconds of the tolerations used wins", () => {
    const h = cluster([tolerate(UNREACHABLE, 300), tolerate(NOT_READY, 60)]);
    setTaints(h, 10, [UNREACHABLE_NOEXECUTE, NOT_READY_NOEXECUTE]);
    h.to(400);
    expect(h.events("PodEvicted")).toMatchObject([{ t: 70, tolerationSeconds: 60 }]);
  });

  it("a toleration without tolerationSeconds: never evicted", () => {
    const h = cluster([tolerate(UNREACHABLE)]);
    setTaints(h, 10, [UNREACHABLE_NOEXECUTE]);
    h.to(10_000);
    expect(h.events("PodEvicted")).toEqual([]);
  });

  it("a running timer is never extended: swapping unreachable for not-ready keeps the first deadline", () => {
    const h = cluster([tolerate(UNREACHABLE, 300), tolerate(NOT_READY, 300)]);
    setTaints(h, 10, [UNREACHABLE_NOEXECUTE]);
    setTaints(h, 100, [NOT_READY_NOEXECUTE]);
    h.to(400);
    expect(h.events("PodEvicted")).toMatchObject([{ t: 310, createdAt: 10 }]);
  });

  it.each([
    // Processed at the very instant the timer was created (C = now): replaced, fireAt = now + new min.
    { at: 10, evictedAt: 70 },
    // Any later: "C + min < triggerTime", the running timer stays.
    { at: 11, evictedAt: 310 },
  ])("tolerations shortened at t=$at: evicted at t=$evictedAt", ({ at, evictedAt }) => {
    const h = cluster([tolerate(UNREACHABLE, 300)]);
    setTaints(h, 10, [UNREACHABLE_NOEXECUTE]);
    h.engine.at(at, () => {
      const p = h.store.get("Pod", "default/web-1")!;
      p.spec.tolerations = [tolerate(UNREACHABLE, 60)];
      h.store.update(p);
    });
    h.to(400);
    expect(h.events("PodEvicted")).toMatchObject([{ t: evictedAt }]);
  });

  it("the last NoExecute taint removed: the eviction is cancelled (Cancelling deletion of Pod)", () => {
    const h = cluster([tolerate(UNREACHABLE, 300)]);
    setTaints(h, 10, [UNREACHABLE_NOEXECUTE]);
    setTaints(h, 50, []);
    h.to(400);
    expect(h.events("PodEvicted")).toEqual([]);
    expect(h.events("EvictionCancelled")).toMatchObject([
      { t: 50, object: "Pod/default/web-1", node: "n1", by: "taint-eviction-controller" },
    ]);
  });
});
