// A platform's node auto-repair alone (controllers/node-auto-repair.ts), each case from the page its
// rule cites: GKE acts on a node NotReady on consecutive checks for ~10 minutes; AKS after five
// minutes, but not on a node carrying node.cloudprovider.kubernetes.io/shutdown; a node Ready again
// in between starts the count over; a node whose instance is gone is not repaired; EKS also
// watches the node monitoring agent's conditions, each with its own wait (node-repair.md's table).

import { describe, expect, it } from "vitest";
import type { InstanceState } from "../../src/controllers/cloud-node-lifecycle-controller.ts";
import { AUTO_REPAIR_CHECK_PERIOD, NodeAutoRepair } from "../../src/controllers/node-auto-repair.ts";
import type { Taint } from "../../src/kubernetes/objects.ts";
import { AKS } from "../../src/platforms/aks.ts";
import { EKS } from "../../src/platforms/eks.ts";
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

  it("EKS's table: Ready and the agent's conditions 30m, AcceleratedHardwareReady 10m, all Replace", () => {
    const r = EKS.autoRepair!;
    expect([r.afterSeconds, r.action, r.sameName, r.enabledByDefault]).toEqual([
      1800,
      "replace",
      false,
      false,
    ]);
    expect(r.conditions?.map((c) => `${c.type} ${c.afterSeconds} ${c.action}`)).toEqual([
      "AcceleratedHardwareReady 600 replace",
      "ContainerRuntimeReady 1800 replace",
      "KernelReady 1800 replace",
      "NetworkingReady 1800 replace",
      "StorageReady 1800 replace",
    ]);
  });

  it("an agent's condition not True for its own wait is due, on a node still Ready; absent, it is not judged", () => {
    // EKS's rule with its Replace read as a reboot, to see the watch act (Replace is not modelled).
    const rule = {
      ...EKS.autoRepair!,
      conditions: EKS.autoRepair!.conditions!.map((c) => ({ ...c, action: "reboot" as const })),
    };
    const h = harness();
    const broken = node("n1");
    broken.status.conditions.push({ ...broken.status.conditions[0]!, type: "KernelReady", status: "False" });
    h.store.create(broken);
    h.store.create(node("n2"));
    const acted: string[] = [];
    new NodeAutoRepair(h, "eks", rule, {
      instance: () => "running",
      recreate: (n) => acted.push(`recreate ${n}`),
      reboot: (n) => acted.push(`reboot ${n}`),
    });
    h.to(1800 - AUTO_REPAIR_CHECK_PERIOD);
    expect(acted).toEqual([]);
    h.to(1800 + 2 * AUTO_REPAIR_CHECK_PERIOD);
    expect(acted).toEqual(["reboot n1"]);
    expect(h.events("NodeAutoRepair")[0]).toMatchObject({ node: "n1", afterSeconds: 1800 });
  });

  it("EKS's Replace (a node under a new name) is not acted on yet", () => {
    const { h, acted } = setup(EKS.autoRepair);
    h.to(3600);
    expect(acted).toEqual([]);
  });
});
