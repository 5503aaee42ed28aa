// One node loss per platform (examples/platforms/<platform>.yaml), run under its profile and under
// stock: the timelines differ exactly where the platform's documentation says the platform acts
// (docs/platforms.md names each line's source), and nowhere before.

import { describe, expect, it } from "vitest";
import type { SimulationResult } from "../../src/run/simulate.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import { eventsOf, example, only, onNode, run } from "../helpers/sim.ts";

const SHUTDOWN = "node.cloudprovider.kubernetes.io/shutdown:NoSchedule";
const stock = (s: Scenario): Scenario => ({ ...s, profile: "stock" });
const db2 = (r: SimulationResult) => r.summary.pods.find((p) => p.pod === "default/db-2");
/** The events up to `t`, without their times' noise: what both runs share before the platform acts. */
const upTo = (r: SimulationResult, t: number) =>
  r.events.filter((e) => e.t < t).map((e) => `${e.t.toFixed(3)} ${e.type} ${e.object}`);

describe("examples/platforms/gke.yaml: power-off, then GKE's auto-repair re-creates the VM", () => {
  const s = example("platforms/gke.yaml");
  const gke = run(s);
  const base = run(stock(s));

  it("stock: db-2 stays Terminating; nothing deletes or repairs worker-2", () => {
    expect(db2(base)?.status).toBe("Terminating");
    expect(eventsOf(base, "NodeAutoRepair")).toEqual([]);
    expect(eventsOf(base, "NodeDeleted")).toEqual([]);
    expect(eventsOf(base, "NodeTainted", (e) => e.taint === SHUTDOWN)).toEqual([]);
  });

  it("GKE: the stopped instance is tainted shutdown within the CCM's 5s pass after NotReady", () => {
    const notReady = only(gke, "NodeNotReady", onNode("worker-2"));
    const shutdown = only(gke, "NodeTainted", (e) => e.taint === SHUTDOWN);
    expect(shutdown.by).toBe("cloud-node-lifecycle-controller");
    expect(shutdown.t - notReady.t).toBeGreaterThanOrEqual(0);
    expect(shutdown.t - notReady.t).toBeLessThanOrEqual(5);
  });

  it("GKE: the repair starts ~10 minutes (600s, within one 10s check) after NotReady, same name", () => {
    const notReady = only(gke, "NodeNotReady", onNode("worker-2"));
    const repair = only(gke, "NodeAutoRepair", onNode("worker-2"));
    expect(repair).toMatchObject({ platform: "gke", action: "recreate", sameName: true, afterSeconds: 600 });
    expect(repair.t - notReady.t).toBeGreaterThanOrEqual(600);
    expect(repair.t - notReady.t).toBeLessThanOrEqual(610);
    // The same name registers again once the re-created VM boots.
    const back = eventsOf(gke, "NodeRegistered", onNode("worker-2"));
    expect(back.length).toBeGreaterThan(0);
    expect(back.at(-1)!.t).toBeCloseTo(repair.t + repair.bootSeconds, 3);
  });

  it("GKE: the StatefulSet is back by itself: db-2 Running and Ready in its volume's zone", () => {
    expect(db2(gke)).toMatchObject({ status: "Running", ready: true });
    expect(["worker-2", "worker-3"]).toContain(db2(gke)!.node);
    expect(gke.summary.nodes.map((n) => n.status)).toEqual(["Ready", "Ready", "Ready"]);
  });

  it("the two timelines are the same until the cloud controller's first act", () => {
    const first = only(gke, "NodeTainted", (e) => e.taint === SHUTDOWN).t;
    const stockTypes = upTo(base, first).filter((l) => !l.includes("NodeTainted"));
    const gkeTypes = upTo(gke, first).filter((l) => !l.includes("NodeTainted"));
    expect(gkeTypes).toEqual(stockTypes);
  });
});

describe.each(["eks", "doks"])("examples/platforms/%s.yaml: vm-terminated", (platform) => {
  const s = example(`platforms/${platform}.yaml`);
  const cloud = run(s);
  const base = run(stock(s));

  it("stock: the instance's deletion changes nothing; db-2 stays Terminating", () => {
    expect(eventsOf(base, "NodeDeleted")).toEqual([]);
    expect(db2(base)?.status).toBe("Terminating");
  });

  it("the cloud controller deletes the Node at its first pass after NotReady; PodGC and the StatefulSet follow", () => {
    const notReady = only(cloud, "NodeNotReady", onNode("worker-2"));
    const deleted = only(cloud, "NodeDeleted", onNode("worker-2"));
    expect(deleted).toMatchObject({ by: "cloud-node-lifecycle-controller", instance: "not-found" });
    expect(deleted.t - notReady.t).toBeLessThanOrEqual(5);
    const gc = only(
      cloud,
      "PodDeleted",
      (e) => e.object === "Pod/default/db-2" && e.by === "pod-garbage-collector-controller",
    );
    // gcOrphaned: the 40s quarantine, seen at 20s passes.
    expect(gc.t - deleted.t).toBeGreaterThanOrEqual(40);
    expect(gc.t - deleted.t).toBeLessThanOrEqual(60 + 1e-6);
    // EKS's gp3 (EBS) volume is zonal: db-2 comes back on worker-3, the other node of zone b. A
    // DigitalOcean volume belongs to its region (do-block-storage, Immediate): db-2 may go anywhere.
    expect(db2(cloud)).toMatchObject({ status: "Running", ready: true });
    if (platform === "eks") expect(db2(cloud)?.node).toBe("worker-3");
    else expect(db2(cloud)?.node).not.toBe("worker-2");
    // No repair on either: EKS's is off on managed node groups, DigitalOcean documents none.
    expect(eventsOf(cloud, "NodeAutoRepair")).toEqual([]);
  });
});

describe("examples/platforms/aks.yaml: kubelet-stop, then AKS reboots the node after 5 minutes", () => {
  const s = example("platforms/aks.yaml");
  const aks = run(s);
  const base = run(stock(s));

  it("stock: worker-2 stays NotReady; db-2 stays Terminating", () => {
    expect(base.summary.nodes.find((n) => n.name === "worker-2")?.status).not.toBe("Ready");
    expect(db2(base)?.status).toBe("Terminating");
  });

  it("AKS: a reboot (NodeRebootStart) 300s after NotReady, the node Ready after the boot, db-2 back", () => {
    const notReady = only(aks, "NodeNotReady", onNode("worker-2"));
    const repair = only(aks, "NodeAutoRepair", onNode("worker-2"));
    expect(repair).toMatchObject({
      action: "reboot",
      afterSeconds: 300,
      event: { reason: "NodeRebootStart" },
    });
    expect(repair.t - notReady.t).toBeGreaterThanOrEqual(300);
    expect(repair.t - notReady.t).toBeLessThanOrEqual(310);
    expect(aks.summary.nodes.find((n) => n.name === "worker-2")?.status).toBe("Ready");
    expect(db2(aks)).toMatchObject({ status: "Running", ready: true });
  });

  it("AKS: a powered-off VM gets the shutdown taint and is not repaired (the documented exception)", () => {
    const off = run({ ...s, timeline: s.timeline.map((step) => ({ ...step, do: "power-off" as const })) });
    only(off, "NodeTainted", (e) => e.taint === SHUTDOWN);
    expect(eventsOf(off, "NodeAutoRepair")).toEqual([]);
  });
});

describe("examples/platforms/eks-auto-repair.yaml: power-off, then EKS replaces the node (autoRepair: true)", () => {
  const s = example("platforms/eks-auto-repair.yaml");
  const on = run(s);
  const off = run({ ...s, autoRepair: false });

  it("off (EKS's default: 'Node auto repair is disabled by default'): db-2 stays Terminating, no repair", () => {
    expect(eventsOf(off, "NodeAutoRepair")).toEqual([]);
    expect(eventsOf(off, "NodeDeleted")).toEqual([]);
    expect(db2(off)?.status).toBe("Terminating");
  });

  it("on: node-repair.html's 'Ready: Repair after 30m, Replace', within one 10s check", () => {
    const notReady = only(on, "NodeNotReady", onNode("worker-2"));
    const repair = only(on, "NodeAutoRepair", onNode("worker-2"));
    expect(repair).toMatchObject({ action: "replace", sameName: false, replacement: "worker-2-r1" });
    expect(repair.t - notReady.t).toBeGreaterThanOrEqual(1800);
    expect(repair.t - notReady.t).toBeLessThanOrEqual(1810);
    expect(upTo(on, repair.t)).toEqual(upTo(off, repair.t));
  });

  it("on: the terminated instance's Node is deleted by the cloud controller; the new node is Ready 30s on", () => {
    const repair = only(on, "NodeAutoRepair", onNode("worker-2"));
    const deleted = only(on, "NodeDeleted", onNode("worker-2"));
    expect(deleted.t - repair.t).toBeLessThanOrEqual(5);
    const ready = only(on, "RepairedNodeReady", onNode("worker-2-r1"));
    expect(ready.t - repair.t).toBeCloseTo(30, 3);
    expect(on.summary.nodes.map((n) => `${n.name} ${n.status}`)).toEqual([
      "worker-1 Ready",
      "worker-2-r1 Ready",
      "worker-3 Ready",
    ]);
    // The StatefulSet's pod comes back in its volume's zone b: on the new node of worker-2's group.
    expect(db2(on)).toMatchObject({ status: "Running", ready: true, node: "worker-2-r1" });
  });
});

describe("deterministic: the same platform example and seed give byte-identical output", () => {
  it.each(["gke", "eks", "eks-auto-repair", "aks", "doks", "autoscaler", "spot"])(
    "examples/platforms/%s.yaml",
    (name) => {
      const s = example(`platforms/${name}.yaml`);
      expect(JSON.stringify(run(s, 7))).toBe(JSON.stringify(run(s, 7)));
    },
  );
});
