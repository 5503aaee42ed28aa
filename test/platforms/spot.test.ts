// `spot-interruption` per platform (faults/spot.ts, each notice from its page): EKS's two-minute
// notice drained by the node termination handler; GKE's 30s notice and graceful node shutdown
// (pods Failed, reason Terminated, "Pod was terminated in response to imminent node shutdown.";
// the node Ready=False "node is shutting down"; test/kubelet/node-shutdown.test.ts has the groups);
// AKS's 30s Preempt notice with no handler. Stock refuses the step: it has no cloud to give notice.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LoadError } from "../../src/load/index.ts";
import type { ProfileName } from "../../src/scenario/types.ts";
import { eventsOf, example, only, onNode, run, scenario } from "../helpers/sim.ts";

const base = example("platforms/spot.yaml");
const on = (profile: ProfileName) => run({ ...base, profile });
const terminated = (profile: ProfileName) => {
  const r = on(profile);
  return { r, deleted: only(r, "NodeDeleted", onNode("worker-2")) };
};

describe("spot-interruption", () => {
  it("EKS: drained at the notice (the pod replaced on worker-1 at once), the instance gone 120s later", () => {
    const { r, deleted } = terminated("eks");
    const evicted = only(r, "PodEvicted", (e) => e.by === "operator");
    expect(evicted.t).toBeCloseTo(10, 3);
    const created = eventsOf(r, "PodCreated");
    expect(created[0]!.t - 10).toBeLessThan(1);
    // Terminated at 10 + 120; NotReady 50s (+ a pass) later; deleted at the cloud controller's next pass.
    expect(deleted.t).toBeGreaterThan(130 + 40);
    expect(deleted.t).toBeLessThan(130 + 50 + 5 + 5);
  });

  it("GKE: the kubelet's graceful shutdown ends the pods Failed with the KEP-2000 reason and message", () => {
    const { r, deleted } = terminated("gke");
    const shut = only(r, "PodShutDown");
    expect(shut).toMatchObject({
      node: "worker-2",
      reason: "Terminated",
      message: "Pod was terminated in response to imminent node shutdown.",
    });
    expect(shut.t).toBeCloseTo(10, 3);
    // The replacement goes to worker-1, not to the node shutting down.
    const bound = eventsOf(r, "PodScheduled");
    expect(bound[0]!.node).toBe("worker-1");
    // The kubelet posted Ready=False "node is shutting down" at the notice, so the cloud controller's
    // first pass after the instance is gone (at 10 + 30) deletes the Node: MonitorNodes skips only
    // Ready=True nodes (k8s.io/cloud-provider node_lifecycle_controller.go), every 5s.
    expect(only(r, "KubeletNodeNotReady").errors.message).toBe("node is shutting down");
    expect(deleted.t).toBeGreaterThan(40);
    expect(deleted.t).toBeLessThanOrEqual(40 + 5 + 0.01);
  });

  it("AKS: nothing until the 30s notice is over, then the node is lost like a vm-terminated", () => {
    const { r, deleted } = terminated("aks");
    expect(eventsOf(r, "PodEvicted")).toEqual([]);
    expect(eventsOf(r, "PodShutDown")).toEqual([]);
    expect(deleted.t).toBeGreaterThan(40 + 40);
  });

  it("stock refuses it, located at the step", () => {
    const text = readFileSync("examples/platforms/spot.yaml", "utf8").replace(
      "profile: eks",
      "profile: stock",
    );
    let err: unknown;
    try {
      scenario(text, "examples/platforms/spot.yaml");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LoadError);
    expect((err as LoadError).message).toMatch(/spot-interruption needs a platform profile/);
    expect((err as LoadError).line).toBeGreaterThan(30);
  });
});
