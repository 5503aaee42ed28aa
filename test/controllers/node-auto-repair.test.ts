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
    replace: (n, r, boot) => acted.push(`replace ${n} by ${r} in ${boot}s`),
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
      replace: (n, r) => acted.push(`replace ${n} by ${r}`),
    });
    h.to(1800 - AUTO_REPAIR_CHECK_PERIOD);
    expect(acted).toEqual([]);
    h.to(1800 + 2 * AUTO_REPAIR_CHECK_PERIOD);
    expect(acted).toEqual(["reboot n1"]);
    expect(h.events("NodeAutoRepair")[0]).toMatchObject({ node: "n1", afterSeconds: 1800 });
  });

  // node-repair.html's table: "Ready ... Repair after 30m, Replace"; the replacement boots for the
  // platform's boot-to-Ready (EKS_BOOT_TO_READY, 30s) under its own name.
  it("EKS: replaces a node not Ready for 1800s (30m) with one under a new name, once", () => {
    const { h, acted } = setup(EKS.autoRepair);
    h.to(1800 - AUTO_REPAIR_CHECK_PERIOD);
    expect(acted).toEqual([]);
    h.to(1800 + 2 * AUTO_REPAIR_CHECK_PERIOD);
    expect(acted).toEqual(["replace n1 by n1-r1 in 30s"]);
    expect(h.events("NodeAutoRepair")[0]).toMatchObject({
      action: "replace",
      sameName: false,
      afterSeconds: 1800,
      replacement: "n1-r1",
    });
    h.to(7200);
    expect(acted).toHaveLength(1);
  });

  // node-repair.html: on a managed node group, repairs are not started when the group has "more than
  // five nodes" and "more than 20% of the nodes in the node group are unhealthy"; under way ones go on.
  it("EKS: no repair in a node group of more than five with more than 20% unhealthy", () => {
    const acted = (size: number, bad: number, group = true) => {
      const h = harness();
      for (let i = 1; i <= size; i++) {
        const n = node(`n${i}`, { ready: i <= bad ? "Unknown" : "True" });
        if (group) n.metadata.labels = { ...n.metadata.labels, "eks.amazonaws.com/nodegroup": "ng-1" };
        h.store.create(n);
      }
      const out: string[] = [];
      new NodeAutoRepair(h, "eks", EKS.autoRepair!, {
        instance: () => "running",
        recreate: () => {},
        reboot: () => {},
        replace: (n) => out.push(n),
      });
      h.to(1800 + 2 * AUTO_REPAIR_CHECK_PERIOD);
      return out.length;
    };
    expect(acted(10, 2)).toBe(2); // 20%: not more than 20%
    expect(acted(10, 3)).toBe(0); // 30% of ten
    expect(acted(5, 5)).toBe(5); // five nodes: not more than five
    expect(acted(6, 2)).toBe(0); // 33% of six
    expect(acted(10, 3, false)).toBe(0); // nodes without the label: one group
  });
});
