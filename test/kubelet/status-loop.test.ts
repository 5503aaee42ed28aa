// A healthy kubelet undoes what the node lifecycle controller wrote while it was fine.
// Its status loop runs every nodeStatusUpdateFrequency (10s, wait.JitterUntil with 4%
// jitter; pkg/kubelet/kubelet.go Run) and patches at once when the Node's conditions differ from
// the ones it computes (kubelet_node_status.go tryUpdateNodeStatus, nodeStatusHasChanged), not
// only at nodeStatusReportFrequency (5m). Its status manager's ticker (syncPeriod 10s,
// status_manager.go Start) compares each pod's status in the API with its own (needsReconcile) and
// writes its own back: the pods MarkPodsNotReady marked are Ready again within 10s. The scenario:
// node-monitor-grace-period 8s, shorter than the 10s Lease renewal, so the controller declares
// healthy nodes Unknown between renewals.

import { describe, expect, it } from "vitest";
import { eventsOf, run, scenario } from "../helpers/sim.ts";

const FLAPPING = `
name: grace-shorter-than-renewal
kubernetesVersion: "1.32"
duration: 4m
controlPlane: {nodeMonitorGracePeriod: 8s}
nodes:
  - {name: worker-1, zone: a}
  - {name: worker-2, zone: b}
  - {name: worker-3, zone: c}
manifests:
  - manifests/
`;

/** nodeStatusUpdateFrequency (10s) × (1 + 0.04): the longest wait for the status loop's next run. */
const NEXT_STATUS_LOOP_RUN = 10 * 1.04;
/** The status manager's syncPeriod: its ticker's next tick. */
const STATUS_MANAGER_TICK = 10;

describe("a node the controller declared Unknown while its kubelet was fine", () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`seed ${seed}: is Ready again within one run of the status loop, each time`, () => {
      const r = run(scenario(FLAPPING), seed);
      const unknown = eventsOf(r, "NodeNotReady");
      expect(unknown.length).toBeGreaterThan(0);
      for (const e of unknown) {
        const back = eventsOf(r, "NodeReady", (x) => x.node === e.node && x.t > e.t)[0];
        if (!back) {
          // Declared Unknown too close to the end for the kubelet to answer within the run.
          expect(e.t).toBeGreaterThan(r.summary.duration - NEXT_STATUS_LOOP_RUN);
          continue;
        }
        expect(back.cause).toBe("status-differs");
        expect(back.t - e.t).toBeLessThanOrEqual(NEXT_STATUS_LOOP_RUN);
      }
    });

    it(`seed ${seed}: its pods, marked not ready by the controller, are Ready again at the status manager's next tick`, () => {
      const r = run(scenario(FLAPPING), seed);
      const marked = eventsOf(r, "PodNotReady", (e) => e.by === "node-lifecycle-controller");
      expect(marked.length).toBeGreaterThan(0);
      for (const e of marked) {
        const back = eventsOf(r, "PodReady", (x) => x.object === e.object && x.t > e.t)[0];
        if (!back) {
          expect(e.t).toBeGreaterThan(r.summary.duration - STATUS_MANAGER_TICK);
          continue;
        }
        expect(back).toMatchObject({ by: "kubelet", cause: "status-reconcile", syncPeriod: 10 });
        expect(back.t - e.t).toBeLessThanOrEqual(STATUS_MANAGER_TICK);
      }
    });
  }

  it("the status manager's ticker keeps its phase: every reconcile of one node falls on the same 10s lattice", () => {
    const r = run(scenario(FLAPPING), 1);
    const byNode = new Map<string, number[]>();
    for (const e of eventsOf(r, "PodReady", (x) => x.by === "kubelet" && x.cause === "status-reconcile"))
      byNode.set(e.node!, [...(byNode.get(e.node!) ?? []), e.t]);
    const phases = [...byNode.values()].filter((ts) => ts.length > 1);
    expect(phases.length).toBeGreaterThan(0);
    for (const ts of phases)
      for (const t of ts) {
        const k = (t - ts[0]!) / STATUS_MANAGER_TICK;
        expect(Math.abs(k - Math.round(k))).toBeLessThan(1e-4);
      }
  });

  it("a kubelet that cannot reach the API server does not answer: the node stays Unknown", () => {
    const r = run(
      scenario(`${FLAPPING}timeline:\n  - {at: 30s, do: network-partition, node: worker-2}\n`),
      1,
    );
    const cut = eventsOf(r, "NodeNotReady", (e) => e.node === "worker-2" && e.t > 30)[0]!;
    expect(cut).toBeDefined();
    expect(eventsOf(r, "NodeReady", (e) => e.node === "worker-2" && e.t > cut.t)).toEqual([]);
    expect(eventsOf(r, "PodReady", (e) => e.node === "worker-2" && e.t > cut.t)).toEqual([]);
  });
});
