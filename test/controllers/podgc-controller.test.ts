// The pod garbage collector alone (pkg/controller/podgc/gc_controller_test.go): every 20s,
// gcOrphaned force-deletes the pods of a node gone for the 40s quarantine, gcTerminating those
// terminating on a NotReady node with the out-of-service taint.

import { describe, expect, it } from "vitest";
import { PodGCController } from "../../src/controllers/podgc-controller.ts";
import type { ConditionStatus, Pod } from "../../src/kubernetes/objects.ts";
import { type Harness, harness, node, pod } from "./harness.ts";

function cluster(ready: ConditionStatus, outOfService: boolean): { h: Harness; p: Pod } {
  const h = harness();
  h.store.create(
    node("n1", {
      ready,
      taints: outOfService
        ? [{ key: "node.kubernetes.io/out-of-service", value: "nodeshutdown", effect: "NoExecute" }]
        : [],
    }),
  );
  const p = pod("db-0", { node: "n1" });
  h.store.create(p);
  new PodGCController(h);
  return { h, p };
}

describe("PodGC", () => {
  it("gcOrphaned: the pods of a deleted node go after the 40s quarantine, at a 20s pass, marked Failed", () => {
    const { h, p } = cluster("True", false);
    h.engine.at(100, () => h.store.delete(h.store.get("Node", "n1")!));
    h.to(300);
    const [e] = h.events("PodDeleted");
    expect(e).toMatchObject({
      object: "Pod/default/db-0",
      node: "n1",
      force: true,
      by: "pod-garbage-collector-controller",
      gc: "orphaned",
      gcCheckPeriod: 20,
      quarantine: 40,
    });
    // First seen missing at the first pass after 100; deleted at the pass 40s later.
    expect(e!.t).toBeGreaterThanOrEqual(140);
    expect(e!.t).toBeLessThanOrEqual(160 + 1e-6);
    expect(p.status.phase).toBe("Failed");
    expect(p.status.conditions.find((c) => c.type === "DisruptionTarget")).toMatchObject({
      reason: "DeletionByPodGC",
      message: "PodGC: node no longer exists",
    });
  });

  it.each([
    { ready: "Unknown", outOfService: true, terminating: true, deleted: true },
    { ready: "True", outOfService: true, terminating: true, deleted: false },
    { ready: "Unknown", outOfService: false, terminating: true, deleted: false },
    { ready: "Unknown", outOfService: true, terminating: false, deleted: false },
  ] as const)(
    "gcTerminating: node Ready=$ready, out-of-service $outOfService, pod terminating $terminating → deleted $deleted",
    ({ ready, outOfService, terminating, deleted }) => {
      const { h, p } = cluster(ready, outOfService);
      if (terminating) p.metadata.deletionTimestamp = 1000;
      h.to(100);
      expect(h.events("PodDeleted").length).toBe(deleted ? 1 : 0);
      if (deleted)
        expect(h.events("PodDeleted")[0]).toMatchObject({
          force: true,
          gc: "terminating",
          taint: "node.kubernetes.io/out-of-service",
        });
    },
  );
});
