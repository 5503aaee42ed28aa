// KEP-3902: the taint eviction controller as its own controller (SeparateTaintEvictionController:
// beta and on by default in 1.29, GA in 1.34), which kube-controller-manager can run without
// (--controllers=*,-taint-eviction-controller): the node lifecycle controller still taints a lost
// node NoExecute, but nothing evicts its pods. Before 1.29 there is no such controller to disable.

import { describe, expect, it } from "vitest";
import { eventsOf, run, variant } from "../helpers/sim.ts";
import { expectLoadError } from "../load/helpers.ts";

const powerLoss = (version: string, enabled?: boolean) =>
  variant("node-power-loss.yaml", (d) => {
    d.kubernetesVersion = version;
    if (enabled !== undefined)
      d.controlPlane = { ...(d.controlPlane ?? {}), taintEvictionController: enabled };
  });

describe("controlPlane.taintEvictionController (--controllers=-taint-eviction-controller)", () => {
  it("on by default: the lost node's pods are evicted for the unreachable taint (1.32)", () => {
    const r = run(powerLoss("1.32"));
    expect(eventsOf(r, "PodEvicted", (e) => e.by === "taint-eviction-controller").length).toBeGreaterThan(0);
  });

  it.each(["1.29", "1.34"])(
    "disabled in %s: the NoExecute taint is added, no pod is evicted for it",
    (version) => {
      const r = run(powerLoss(version, false));
      expect(
        eventsOf(r, "NodeTainted", (e) => e.taint.includes("unreachable:NoExecute")).length,
      ).toBeGreaterThan(0);
      expect(eventsOf(r, "PodEvicted", (e) => e.by === "taint-eviction-controller")).toEqual([]);
    },
  );

  it("1.28 has no taint-eviction-controller to disable: a located error", () => {
    expectLoadError({
      name: "1.28",
      scenario: `kubernetesVersion: "1.28"\nduration: 1m\nnodes: [{name: worker-1}]\ncontrolPlane: {taintEvictionController: »false}\n`,
      code: "invalid-value",
      path: "controlPlane.taintEvictionController",
      message: "Kubernetes 1.28 has no taint-eviction-controller to disable",
    });
  });
});
