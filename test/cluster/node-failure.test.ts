// Issue 2, "Done when": a powered-off node, from the missing heartbeat to the evictions and the
// volume. Rules: pkg/controller/nodelifecycle (node lifecycle), pkg/controller/tainteviction,
// plugin/pkg/admission/defaulttolerationseconds, pkg/controller/podgc, the workload controllers
// (replicaset, statefulset, daemon), pkg/controller/volume/attachdetach, the EndpointSlice
// conditions (staging/src/k8s.io/endpointslice/utils.go).

import { describe, expect, it } from "vitest";
import { createSimulation } from "../../src/run/simulate.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import {
  EPS,
  eventsOf,
  example,
  first,
  initialState,
  lastBefore,
  nameOf,
  only,
  onNode,
  onPod,
  podOf,
  run,
  US,
  variant,
} from "../helpers/sim.ts";

const UNREACHABLE_NOEXECUTE = "node.kubernetes.io/unreachable:NoExecute";
const UNREACHABLE_NOSCHEDULE = "node.kubernetes.io/unreachable:NoSchedule";

/** The pods on worker-2 at t=0 in the node-power-loss examples: one web replica, db-0, a node-exporter. */
function podsOnWorker2(s: Scenario): { web: string; db: string; exporter: string; all: string[] } {
  const pods = initialState(s)
    .pods.filter((p) => p.node === "worker-2")
    .map((p) => p.pod);
  const web = pods.filter((p) => p.startsWith("default/web-"));
  const exporter = pods.filter((p) => p.startsWith("default/node-exporter-"));
  expect(web).toHaveLength(1);
  expect(exporter).toHaveLength(1);
  expect(pods).toContain("default/db-0");
  return { web: web[0]!, db: "default/db-0", exporter: exporter[0]!, all: pods };
}

describe("a powered-off node is noticed after node-monitor-grace-period", () => {
  const cases: { name: string; scenario: () => Scenario; grace: number }[] = [
    { name: "1.32 (50s)", scenario: () => example("node-power-loss.yaml"), grace: 50 },
    { name: "1.31 (40s)", scenario: () => example("node-power-loss-1.31.yaml"), grace: 40 },
    {
      name: "nodeMonitorGracePeriod: 20s",
      scenario: () =>
        variant("node-power-loss.yaml", (d) => (d.controlPlane = { nodeMonitorGracePeriod: "20s" })),
      grace: 20,
    },
  ];

  for (const c of cases) {
    describe(c.name, () => {
      const s = c.scenario();
      const on2 = podsOnWorker2(s);

      it.each([1, 2, 3, 4, 5])(
        "seed %i: NodeNotReady in (grace, grace + 5s + 11ε] after the last heartbeat (LeaseRenewed or status post)",
        (seed) => {
          // The node lifecycle controller's probeTimestamp moves at a Lease renewal and at a status
          // post's new lastHeartbeatTime (tryUpdateNodeHealth): the posts are not in the trace, so
          // the test watches worker-2's Node for them.
          const sim = createSimulation(s, { seed });
          let posted = Number.NEGATIVE_INFINITY;
          sim.store.watch("Node", (_type, n) => {
            const ready = n.status.conditions.find((x) => x.type === "Ready");
            if (n.metadata.name === "worker-2" && ready?.status === "True")
              posted = Math.max(posted, ready.lastHeartbeatTime ?? posted);
          });
          sim.runUntil(s.duration);
          const r = sim.result();
          const off = only(r, "FaultInjected", (e) => e.do === "power-off");
          const notReady = only(r, "NodeNotReady", onNode("worker-2"));
          const lease = lastBefore(
            r,
            "LeaseRenewed",
            notReady.t,
            (e) => e.object === "Lease/kube-node-lease/worker-2",
          );
          expect(lease).toBeDefined();
          expect(lease!.t).toBeLessThanOrEqual(off.t);
          expect(eventsOf(r, "LeaseRenewed", (e) => e.node === "worker-2" && e.t > off.t)).toEqual([]);
          expect(posted).toBeLessThanOrEqual(off.t);
          const silent = notReady.t - Math.max(lease!.t, posted);
          expect(silent).toBeGreaterThan(c.grace);
          expect(silent).toBeLessThanOrEqual(c.grace + 5 + 11 * EPS + US);
          expect(notReady.status).toBe("Unknown");
          // The other nodes keep heartbeating and stay Ready.
          expect(eventsOf(r, "NodeNotReady", (e) => e.node !== "worker-2")).toEqual([]);
        },
      );

      it("at that same moment its pods go not ready and their endpoints not ready", () => {
        const r = run(s);
        const notReady = only(r, "NodeNotReady", onNode("worker-2"));
        const podsNotReady = eventsOf(r, "PodNotReady", (e) => e.t === notReady.t).map((e) =>
          nameOf(e.object),
        );
        expect(podsNotReady.sort()).toEqual([...on2.all].sort());
        // node-exporter is behind no Service; web and db are.
        const endpoints = eventsOf(r, "EndpointNotReady", (e) => e.t === notReady.t).map(
          (e) => `${e.service} ${nameOf(e.object)}`,
        );
        expect(endpoints.sort()).toEqual([`default/db ${on2.db}`, `default/web ${on2.web}`]);
        // Nothing was not ready before the node controller noticed.
        expect(eventsOf(r, "PodNotReady", (e) => e.t < notReady.t)).toEqual([]);
        expect(eventsOf(r, "EndpointNotReady", (e) => e.t < notReady.t)).toEqual([]);
      });

      it("unreachable:NoSchedule follows at once, unreachable:NoExecute one monitor pass later", () => {
        for (const seed of [1, 2, 3]) {
          const r = run(s, seed);
          const notReady = only(r, "NodeNotReady", onNode("worker-2"));
          const noSchedule = only(
            r,
            "NodeTainted",
            (e) => e.node === "worker-2" && e.taint === UNREACHABLE_NOSCHEDULE,
          );
          expect(noSchedule.t - notReady.t).toBeGreaterThanOrEqual(0);
          expect(noSchedule.t - notReady.t).toBeLessThan(1);
          const noExecute = only(
            r,
            "NodeTainted",
            (e) => e.node === "worker-2" && e.taint === UNREACHABLE_NOEXECUTE,
          );
          const delay = noExecute.t - notReady.t;
          expect(delay).toBeGreaterThan(5);
          expect(delay).toBeLessThanOrEqual(5 + 0.1 + 2 * EPS + US);
        }
      });

      it("evicts the Deployment pod 300s after the NoExecute taint and replaces it on another node", () => {
        const r = run(s);
        const taint = only(
          r,
          "NodeTainted",
          (e) => e.node === "worker-2" && e.taint === UNREACHABLE_NOEXECUTE,
        );
        const evicted = only(r, "PodEvicted", onPod(on2.web));
        expect(evicted.reason).toBe("DeletionByTaintManager");
        expect(evicted.lane).toBe("control-plane");
        expect(Math.abs(evicted.t - (taint.t + 300))).toBeLessThanOrEqual(0.001);

        const created = only(r, "PodCreated", podOf("default", "web"));
        expect(created.owner).toBe("Deployment/default/web");
        expect(created.t).toBeGreaterThanOrEqual(evicted.t);
        const replacement = nameOf(created.object);
        const scheduled = only(r, "PodScheduled", onPod(replacement));
        expect(scheduled.node).toBeDefined();
        expect(scheduled.node).not.toBe("worker-2");
        const ready = only(r, "PodReady", onPod(replacement));
        expect(ready.t).toBeGreaterThanOrEqual(scheduled.t);
        const endpoint = only(r, "EndpointReady", onPod(replacement));
        expect(endpoint.service).toBe("default/web");
        expect(endpoint.t).toBeGreaterThanOrEqual(ready.t);
        // The summary: the old replica Terminating on worker-2, three web pods not terminating.
        const web = r.summary.pods.filter((p) => p.pod.startsWith("default/web-"));
        expect(web.find((p) => p.pod === on2.web)?.status).toBe("Terminating");
        expect(web.filter((p) => p.status === "Running" && p.ready)).toHaveLength(3);
      });

      it("never evicts the DaemonSet pod", () => {
        const r = run(s);
        expect(eventsOf(r, "PodEvicted", podOf("default", "node-exporter"))).toEqual([]);
        expect(r.summary.pods.find((p) => p.pod === on2.exporter)?.node).toBe("worker-2");
      });

      it("evicts db-0 too, which stays Terminating with no replacement and keeps its volume attached", () => {
        const r = run(s);
        const taint = only(
          r,
          "NodeTainted",
          (e) => e.node === "worker-2" && e.taint === UNREACHABLE_NOEXECUTE,
        );
        const evicted = only(r, "PodEvicted", onPod("default/db-0"));
        expect(evicted.reason).toBe("DeletionByTaintManager");
        expect(Math.abs(evicted.t - (taint.t + 300))).toBeLessThanOrEqual(0.001);
        expect(eventsOf(r, "PodCreated", onPod("default/db-0"))).toEqual([]);
        expect(eventsOf(r, "PodDeleted", onPod("default/db-0"))).toEqual([]);
        expect(r.summary.pods.find((p) => p.pod === "default/db-0")).toMatchObject({
          node: "worker-2",
          status: "Terminating",
        });
        // IsPodTerminated (pkg/volume/util/util.go) needs the containers reported stopped, which a lost
        // kubelet never does: the volume stays wanted, so no detach is even requested.
        expect(eventsOf(r, "VolumeDetached")).toEqual([]);
      });
    });
  }
});

describe("getting db-0 back", () => {
  const withStep = (step: Record<string, unknown>, controlPlane?: Record<string, unknown>) =>
    variant("node-power-loss.yaml", (d) => {
      d.timeline.push(step);
      if (controlPlane) d.controlPlane = controlPlane;
    });

  // statefulset-recovery.yaml without its out-of-service step: a StatefulSet that can move, whose
  // member on the lost worker-2 is freed by deleting the Node instead.
  const deleteNodeInstead = (controlPlane?: Record<string, unknown>) =>
    variant("statefulset-recovery.yaml", (d) => {
      d.duration = "20m";
      d.timeline = [
        { at: "10s", do: "power-off", node: "worker-2" },
        { at: "8m", do: "delete-node", node: "worker-2" },
      ];
      if (controlPlane) d.controlPlane = controlPlane;
    });

  it("force detach: 6 minutes after the pod object is gone, the replacement waiting on Multi-Attach until then", () => {
    const r = run(deleteNodeInstead());
    const deleted = first(r, "PodDeleted", (e) => e.node === "worker-2");
    const pod = deleted.object;
    const claim = `PersistentVolumeClaim/default/data-db-${pod.split("-").pop()}`;
    const detached = only(r, "VolumeDetached", (e) => e.object === claim);
    expect(detached.forced).toBe(true);
    expect(detached.t).toBeGreaterThan(deleted.t + 360);
    expect(detached.t).toBeLessThanOrEqual(deleted.t + 360.2);
    const waiting = first(r, "FailedAttachVolume", (e) => e.object === pod);
    expect(waiting).toMatchObject({ prefix: "Multi-Attach error", attachedTo: "worker-2" }); // 1.32's words
    expect(waiting.t).toBeGreaterThanOrEqual(deleted.t);
    expect(waiting.t).toBeLessThan(detached.t);
    const attached = only(r, "VolumeAttached", (e) => e.object === claim);
    expect(attached.t).toBeGreaterThanOrEqual(detached.t);
    expect(first(r, "PodReady", (e) => e.object === pod && e.t > attached.t).t).toBeLessThan(
      r.summary.duration,
    );
  });

  it("with --disable-force-detach-on-timeout the volume is never detached, and the replacement waits", () => {
    const r = run(deleteNodeInstead({ disableForceDetachOnTimeout: true }));
    expect(r.summary.settings.disableForceDetachOnTimeout).toBe(true);
    const pod = first(r, "PodDeleted", (e) => e.node === "worker-2").object;
    expect(eventsOf(r, "VolumeDetached")).toEqual([]);
    expect(r.summary.pods.find((p) => `Pod/${p.pod}` === pod)?.ready).toBe(false);
  });

  it.each(["2m", "8m"])(
    "taint-out-of-service at %s: PodGC force-deletes db-0, the volume is detached at once, db-0 is recreated",
    (at) => {
      const r = run(withStep({ at, do: "taint-out-of-service", node: "worker-2" }));
      const fault = only(r, "FaultInjected", (e) => e.do === "taint-out-of-service");
      const deleted = only(r, "PodDeleted", onPod("default/db-0"));
      // Detached the moment the pod object is gone, without the 6-minute wait.
      const detached = only(
        r,
        "VolumeDetached",
        (e) => e.object === "PersistentVolumeClaim/default/data-db-0",
      );
      expect(detached.forced).toBe(true);
      expect(detached.t - deleted.t).toBeGreaterThanOrEqual(0);
      expect(detached.t - deleted.t).toBeLessThanOrEqual(0.2);
      expect(deleted.force).toBe(true);
      expect(deleted.lane).toBe("control-plane");
      expect(deleted.t - fault.t).toBeGreaterThanOrEqual(0);
      expect(deleted.t - fault.t).toBeLessThanOrEqual(20);
      const recreated = only(r, "PodCreated", onPod("default/db-0"));
      expect(recreated.owner).toBe("StatefulSet/default/db");
      expect(recreated.t).toBeGreaterThanOrEqual(deleted.t);
      // The eviction the out-of-service taint brings is not the 300s one.
      // Nothing tolerates the out-of-service taint: every pod still there is evicted at once, the
      // DaemonSet pod included (AddOrUpdateDaemonPodTolerations does not tolerate it).
      const evicted = only(r, "PodEvicted", onPod("default/db-0"));
      expect(evicted.t).toBeLessThanOrEqual(deleted.t);
      if (at === "2m") expect(evicted.t).toBe(fault.t);
      expect(only(r, "PodEvicted", podOf("default", "node-exporter")).t).toBe(fault.t);
    },
  );

  it("taint-out-of-service twice: the node carries the taint once (taints are unique by key and effect)", () => {
    const r = run(
      variant("node-power-loss.yaml", (d) => {
        d.timeline.push({ at: "2m", do: "taint-out-of-service", node: "worker-2" });
        d.timeline.push({ at: "4m", do: "taint-out-of-service", node: "worker-2" });
      }),
    );
    const taints = r.summary.nodes.find((n) => n.name === "worker-2")?.taints ?? [];
    expect(taints.filter((t) => t.startsWith("node.kubernetes.io/out-of-service"))).toHaveLength(1);
    expect(
      eventsOf(r, "NodeTainted", (e) => e.taint === "node.kubernetes.io/out-of-service:NoExecute"),
    ).toHaveLength(1);
  });

  it("delete-node: PodGC's orphan path force-deletes db-0 40–60s after the Node is deleted, then db-0 is recreated", () => {
    const r = run(withStep({ at: "8m", do: "delete-node", node: "worker-2" }));
    const fault = only(r, "FaultInjected", (e) => e.do === "delete-node");
    only(r, "NodeDeleted", onNode("worker-2"));
    const deleted = only(r, "PodDeleted", onPod("default/db-0"));
    expect(deleted.force).toBe(true);
    expect(deleted.t - fault.t).toBeGreaterThanOrEqual(40);
    expect(deleted.t - fault.t).toBeLessThanOrEqual(60);
    const recreated = only(r, "PodCreated", onPod("default/db-0"));
    expect(recreated.t).toBeGreaterThanOrEqual(deleted.t);
    // Every pod bound to the deleted node goes the same way, at the same pass.
    for (const e of eventsOf(r, "PodDeleted")) {
      expect(e.force).toBe(true);
      expect(e.t).toBe(deleted.t);
    }
    expect(r.summary.nodes.map((n) => n.name)).not.toContain("worker-2");
  });

  it("force-delete-pod default/db-0: the identity is free at once and db-0 is recreated", () => {
    const r = run(withStep({ at: "8m", do: "force-delete-pod", pod: "default/db-0" }));
    const fault = only(r, "FaultInjected", (e) => e.do === "force-delete-pod");
    const deleted = only(r, "PodDeleted", onPod("default/db-0"));
    expect(deleted.force).toBe(true);
    expect(deleted.lane).toBe("operator");
    expect(deleted.t).toBe(fault.t);
    const recreated = only(r, "PodCreated", onPod("default/db-0"));
    expect(recreated.t).toBeGreaterThanOrEqual(deleted.t);
    expect(recreated.t - deleted.t).toBeLessThan(1);
  });

  it("power-on: the kubelet returns, deletes the old db-0, and db-0 runs again on worker-2", () => {
    const r = run(withStep({ at: "8m", do: "power-on", node: "worker-2" }));
    const fault = only(r, "FaultInjected", (e) => e.do === "power-on");
    const nodeReady = first(r, "NodeReady", onNode("worker-2"));
    expect(nodeReady.t).toBeGreaterThanOrEqual(fault.t);
    const deleted = only(r, "PodDeleted", onPod("default/db-0"));
    expect(deleted.t).toBeGreaterThanOrEqual(fault.t);
    const recreated = only(r, "PodCreated", onPod("default/db-0"));
    expect(recreated.t).toBeGreaterThanOrEqual(deleted.t);
    const ready = first(r, "PodReady", (e) => e.object === "Pod/default/db-0" && e.t >= recreated.t);
    expect(ready.t).toBeLessThan(r.summary.duration);
    expect(r.summary.pods.find((p) => p.pod === "default/db-0")).toMatchObject({
      node: "worker-2",
      status: "Running",
      ready: true,
    });
    expect(
      r.summary.nodes.find((n) => n.name === "worker-2")?.taints.filter((t) => t.includes("NoExecute")),
    ).toEqual([]);
  });
});
