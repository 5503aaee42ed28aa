// A platform's node auto-repair alone (controllers/node-auto-repair.ts), each case from the page its
// rule cites: GKE acts on a node NotReady on consecutive checks for ~10 minutes; AKS after five
// minutes, but not on a node carrying node.cloudprovider.kubernetes.io/shutdown; a node Ready again
// in between starts the count over; a node whose instance is gone is not repaired.

import { describe, expect, it } from "vitest";
import type { InstanceState } from "../../src/controllers/cloud-node-lifecycle-controller.ts";
import { AUTO_REPAIR_CHECK_PERIOD, NodeAutoRepair } from "../../src/controllers/node-auto-repair.ts";
import type { Taint } from "../../src/kubernetes/objects.ts";
import { AKS } from "../../src/platforms/aks.ts";
import { GKE } from "../../src/platforms/gke.ts";
import { harness, node } from "./harness.ts";

function setup(rule: typeof GKE.autoRepair, opts: { taints?: Taint[]; instance?: InstanceState } = {}) {
  const h = harness();
  h.store.create(node("n1", { ready: "Unknown", taints: opts.taints ?? [] }));
  const acted: string[] = [];
  new NodeAutoRepair(h, "p", rule!, {
    instance: () => opts.instance ?? "running",
    recreate: (n) => acted.push(`recreate ${n}`),
    reboot: (n) => acted.push(`reboot ${n}`),
  });
  return { h, acted };
}

describe("node auto-repair", () => {
  it("GKE: re-creates a node not Ready for 600s, within one check period of it", () => {
    const { h, acted } = setup(GKE.autoRepair);
    h.to(600 - AUTO_REPAIR_CHECK_PERIOD);
    expect(acted).toEqual([]);
    h.to(600 + 2 * AUTO_REPAIR_CHECK_PERIOD);
    expect(acted).toEqual(["recreate n1"]);
    expect(h.events("NodeAutoRepair")[0]).toMatchObject({
      action: "recreate",
      sameName: true,
      afterSeconds: 600,
    });
  });

  it("AKS: reboots after 300s (NodeRebootStart), but never a node with the shutdown taint", () => {
    const a = setup(AKS.autoRepair);
    a.h.to(300 + 2 * AUTO_REPAIR_CHECK_PERIOD);
    expect(a.acted).toEqual(["reboot n1"]);
    expect(a.h.events("NodeAutoRepair")[0]?.event?.reason).toBe("NodeRebootStart");
    const b = setup(AKS.autoRepair, {
      taints: [{ key: "node.cloudprovider.kubernetes.io/shutdown", effect: "NoSchedule" }],
    });
    b.h.to(3600);
    expect(b.acted).toEqual([]);
  });

  it("a node Ready again starts the count over: the checks must be consecutive", () => {
    const { h, acted } = setup(GKE.autoRepair);
    h.to(400);
    const n = h.store.get("Node", "n1")!;
    n.status.conditions.find((c) => c.type === "Ready")!.status = "True";
    h.store.update(n);
    h.to(420);
    n.status.conditions.find((c) => c.type === "Ready")!.status = "Unknown";
    h.store.update(n);
    h.to(900);
    expect(acted).toEqual([]);
    h.to(420 + 600 + 2 * AUTO_REPAIR_CHECK_PERIOD);
    expect(acted).toEqual(["recreate n1"]);
  });

  it("a node whose instance no longer exists is left to the cloud controller", () => {
    const { h, acted } = setup(GKE.autoRepair, { instance: "not-found" });
    h.to(3600);
    expect(acted).toEqual([]);
  });
});
