// A volume's unmount reaches the attach/detach controller as the kubelet posts it: the VolumesInUse
// setter (pkg/kubelet/nodestatus/setters.go) fills the status, the status loop's next run finds it
// changed (kubelet_node_status.go tryUpdateNodeStatus, nodeStatusHasChanged) and patches it within
// nodeStatusUpdateFrequency, and the controller reacts to that Node write (nodeUpdate →
// processVolumesInUse), its reconciler within reconcilerLoopPeriod (100ms; the model at once).
// Before, the kubelet wrote the list in place, with no write anyone saw, and the detach waited for
// whatever Node write came next (examples/node-drain.yaml: the drain's own, at the same instant).

import { describe, expect, it } from "vitest";
import { ATTACH_DETACH_LOOP_PERIOD } from "../../src/kubernetes/defaults.ts";
import { createSimulation } from "../../src/run/simulate.ts";
import { example } from "../helpers/sim.ts";

const CLAIM = "default/data-db-0";

describe("the drained node's unmount, posted", () => {
  it("is detached at the kubelet's patch of volumesInUse, within nodeStatusUpdateFrequency of the unmount, not at the drain's writes or a later heartbeat", () => {
    const s = example("node-drain.yaml");
    const sim = createSimulation(s);
    /** worker-2's Node writes after t=0: when, and whether the claim is still listed in use. */
    const writes: { t: number; inUse: boolean }[] = [];
    sim.store.watch("Node", (type, n) => {
      if (type === "MODIFIED" && n.metadata.name === "worker-2")
        writes.push({ t: sim.engine.now, inUse: (n.status.volumesInUse ?? []).includes(CLAIM) });
    });
    sim.runUntil(60);
    const { events } = sim.result();
    const removed = events.find(
      (e) => e.type === "PodDeleted" && e.lane === "kubelet" && e.object === "Pod/default/db-0",
    )!;
    const detached = events.filter((e) => e.type === "VolumeDetached");
    expect(detached).toHaveLength(1);
    const d = detached[0]!;
    expect(d).toMatchObject({ node: "worker-2", claim: CLAIM, cause: "unmounted", forced: false });
    // The patch that drops the claim: the first write without it, and the detach at that write.
    const patch = writes.find((w) => !w.inUse)!;
    expect(d.t).toBeGreaterThanOrEqual(patch.t);
    expect(d.t).toBeLessThanOrEqual(patch.t + ATTACH_DETACH_LOOP_PERIOD);
    // Writes of worker-2 at the unmount's instant (the drain's cordon, the kubelet's pod status)
    // do not carry it: the API still lists the claim until the status loop's next run.
    expect(writes.filter((w) => w.t <= removed.t).every((w) => w.inUse)).toBe(true);
    expect(d.t).toBeGreaterThan(removed.t);
    expect(sim.ctx.kubelet.nodeStatusUpdateFrequency).toBe(10);
    expect(d.t - removed.t).toBeLessThanOrEqual(sim.ctx.kubelet.nodeStatusUpdateFrequency);
  });
});
