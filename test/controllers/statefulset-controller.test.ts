// The StatefulSet controller alone: ordinals in order (OrderedReady) or at once (Parallel), one
// claim per ordinal, at most one pod per identity.

import { describe, expect, it } from "vitest";
import { StatefulSetController } from "../../src/controllers/statefulset-controller.ts";
import type { StatefulSet } from "../../src/kubernetes/objects.ts";
import { harness } from "./harness.ts";
import { pods, runReady } from "./workloads.ts";

function statefulSet(replicas: number, policy?: "Parallel"): StatefulSet {
  return {
    kind: "StatefulSet",
    metadata: { name: "db", namespace: "default" },
    spec: {
      replicas,
      serviceName: "db",
      selector: { matchLabels: { app: "db" } },
      ...(policy ? { podManagementPolicy: policy } : {}),
      template: {
        metadata: { labels: { app: "db" } },
        spec: {
          containers: [{ name: "postgres" }],
          // Named like the claim template: the claim replaces it (updateStorage).
          volumes: [
            { name: "data", persistentVolumeClaim: { claimName: "data" } },
            { name: "config", persistentVolumeClaim: { claimName: "shared-config" } },
          ],
        },
      },
      volumeClaimTemplates: [{ metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"] } }],
    },
  };
}

describe("StatefulSet controller", () => {
  it("OrderedReady: db-0 first, db-1 once db-0 is Running and Ready", () => {
    const h = harness();
    new StatefulSetController(h);
    h.store.create(statefulSet(2));
    h.to(1);
    expect(pods(h, "db-").map((p) => p.metadata.name)).toEqual(["db-0"]);
    h.engine.at(5, () => runReady(h, h.store.get("Pod", "default/db-0")!));
    h.to(6);
    expect(pods(h, "db-").map((p) => p.metadata.name)).toEqual(["db-0", "db-1"]);
    expect(h.events("PodCreated")).toMatchObject([
      { t: 0, by: "statefulset-controller", statefulSet: "db", ordinal: 0, recreated: false },
      { t: 5, ordinal: 1, recreated: false },
    ]);
  });

  it("Parallel: every ordinal at once", () => {
    const h = harness();
    new StatefulSetController(h);
    h.store.create(statefulSet(3, "Parallel"));
    h.to(1);
    expect(pods(h, "db-").map((p) => p.metadata.name)).toEqual(["db-0", "db-1", "db-2"]);
  });

  it("one claim per ordinal from the template, replacing the template's volume of the same name", () => {
    const h = harness();
    new StatefulSetController(h);
    h.store.create(statefulSet(1));
    h.to(1);
    expect(h.store.get("PersistentVolumeClaim", "default/data-db-0")).toBeDefined();
    const db0 = h.store.get("Pod", "default/db-0")!;
    expect(db0.spec.volumes?.map((v) => [v.name, v.persistentVolumeClaim?.claimName])).toEqual([
      ["config", "shared-config"],
      ["data", "data-db-0"],
    ]);
    expect(db0.spec.hostname).toBe("db-0");
    expect(db0.spec.subdomain).toBe("db");
  });

  it("at most one pod per identity: no replacement while the old object exists, one once it is gone", () => {
    const h = harness();
    new StatefulSetController(h);
    h.store.create(statefulSet(1));
    h.to(1);
    const old = h.store.get("Pod", "default/db-0")!;
    h.engine.at(10, () => {
      old.metadata.deletionTimestamp = 40;
      h.store.update(old);
    });
    h.to(20);
    expect(h.events("PodCreated")).toHaveLength(1);
    h.engine.at(30, () => h.store.delete(old));
    h.to(31);
    expect(h.events("PodCreated")).toMatchObject([{ t: 0 }, { t: 30, ordinal: 0, recreated: true }]);
  });
});
