// The DaemonSet controller alone: one pod per eligible node, bound to it, with the tolerations that
// keep it there (AddOrUpdateDaemonPodTolerations).

import { describe, expect, it } from "vitest";
import { DaemonSetController } from "../../src/controllers/daemonset-controller.ts";
import type { DaemonSet } from "../../src/kubernetes/objects.ts";
import { harness, node } from "./harness.ts";

describe("DaemonSet controller", () => {
  const ds: DaemonSet = {
    kind: "DaemonSet",
    metadata: { name: "node-exporter", namespace: "default" },
    spec: {
      selector: { matchLabels: { app: "node-exporter" } },
      template: {
        metadata: { labels: { app: "node-exporter" } },
        spec: { containers: [{ name: "exporter" }] },
      },
    },
  };

  it("one pod per eligible node, bound to it, with the tolerations that keep it there", () => {
    const h = harness();
    h.store.create(node("n1"));
    h.store.create(node("n2", { taints: [{ key: "dedicated", value: "gpu", effect: "NoSchedule" }] }));
    new DaemonSetController(h);
    h.store.create(ds);
    h.to(1);
    expect(h.events("PodCreated")).toMatchObject([
      {
        by: "daemonset-controller",
        daemonSet: "node-exporter",
        forNode: "n1",
        owner: "DaemonSet/default/node-exporter",
      },
    ]);
    const [p] = h.store.list("Pod");
    expect(p!.spec.nodeName).toBe("n1");
    // AddOrUpdateDaemonPodTolerations: not-ready and unreachable forever, so the admission adds none.
    const noExecute = p!.spec.tolerations!.filter((t) => t.effect === "NoExecute");
    expect(noExecute.map((t) => [t.key, t.tolerationSeconds])).toEqual([
      ["node.kubernetes.io/not-ready", undefined],
      ["node.kubernetes.io/unreachable", undefined],
    ]);
  });

  it("a node that joins gets its pod", () => {
    const h = harness();
    h.store.create(node("n1"));
    new DaemonSetController(h);
    h.store.create(ds);
    h.to(1);
    h.engine.at(10, () => h.store.create(node("n2")));
    h.to(11);
    expect(h.events("PodCreated").map((e) => [e.t, e.by === "daemonset-controller" && e.forNode])).toEqual([
      [0, "n1"],
      [10, "n2"],
    ]);
  });
});
