// The ReplicaSet and Deployment controllers alone: a ReplicaSet or Deployment written by hand, the
// pods they create read from the store and the events (replica_set_test.go does the same).

import { describe, expect, it } from "vitest";
import { ReplicaSetController } from "../../src/controllers/replicaset-controller.ts";
import type { Deployment } from "../../src/kubernetes/objects.ts";
import { harness } from "./harness.ts";
import { pods, replicaSet, runReady, template } from "./workloads.ts";

describe("ReplicaSet controller", () => {
  it("creates spec.replicas pods, each event saying what it counted", () => {
    const h = harness();
    new ReplicaSetController(h);
    h.store.create(replicaSet(3));
    h.to(1);
    expect(pods(h, "web-abc-")).toHaveLength(3);
    const counted = {
      by: "replicaset-controller",
      owner: "ReplicaSet/default/web-abc",
      replicas: 3,
      active: 0,
    };
    expect(h.events("PodCreated")).toMatchObject([counted, counted, counted]);
    // DefaultTolerationSeconds on the way in.
    expect(pods(h, "web-abc-")[0]!.spec.tolerations?.map((t) => [t.key, t.tolerationSeconds])).toEqual([
      ["node.kubernetes.io/not-ready", 300],
      ["node.kubernetes.io/unreachable", 300],
    ]);
  });

  it("a pod with a deletionTimestamp no longer counts: replaced at once (FilterActivePods)", () => {
    const h = harness();
    new ReplicaSetController(h);
    h.store.create(replicaSet(2));
    h.to(1);
    h.engine.at(5, () => {
      const p = pods(h, "web-abc-")[0]!;
      p.metadata.deletionTimestamp = 35;
      h.store.update(p);
    });
    h.to(6);
    const created = h.events("PodCreated");
    expect(created).toHaveLength(3);
    expect(created[2]).toMatchObject({ t: 5, replicas: 2, active: 1, terminating: 1 });
  });

  it("a Deployment's ReplicaSet is <deployment>-<pod-template-hash>; its pods' owner is the Deployment", () => {
    const h = harness();
    new ReplicaSetController(h);
    const d: Deployment = {
      kind: "Deployment",
      metadata: { name: "web", namespace: "default" },
      spec: { replicas: 1, selector: { matchLabels: { app: "web" } }, template },
    };
    h.store.create(d);
    h.to(1);
    const [rs] = h.store.list("ReplicaSet");
    expect(rs!.metadata.name).toMatch(/^web-[a-z0-9]+$/);
    expect(h.events("PodCreated")).toMatchObject([
      { owner: "Deployment/default/web", replicaSet: rs!.metadata.name },
    ]);
  });

  it("scaling down deletes the pods least far along first (getPodsToDelete): an unscheduled one goes at once", () => {
    const h = harness();
    new ReplicaSetController(h);
    h.store.create(replicaSet(2));
    h.to(1);
    const [a, b] = pods(h, "web-abc-");
    a!.spec.nodeName = "n1";
    runReady(h, a!);
    h.engine.at(5, () => {
      const rs = h.store.get("ReplicaSet", "default/web-abc")!;
      rs.spec.replicas = 1;
      h.store.update(rs);
    });
    h.to(6);
    expect(h.events("PodDeleted")).toMatchObject([
      {
        object: `Pod/default/${b!.metadata.name}`,
        force: false,
        by: "replicaset-controller",
        replicas: 1,
        active: 2,
      },
    ]);
    expect(h.store.exists(a!)).toBe(true);
  });
});
