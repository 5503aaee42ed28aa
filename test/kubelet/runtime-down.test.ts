// Kubelet alive, node NotReady: the container runtime stops while the kubelet
// runs on. updateRuntimeUp (every 5s, pkg/kubelet/kubelet.go) stops succeeding; runtimeErrors says
// "container runtime is down" once its last success is maxWaitForContainerRuntime (30s) old
// (runtime.go), and "PLEG is not healthy: pleg was last seen active … ago; threshold is 3m0s" once
// the last relist (every 1s) is more than 3m old (pleg/generic.go Healthy); the status loop
// (10s + 4%) posts Ready=False, reason KubeletNotReady, with them (nodestatus/setters.go). The Lease
// is still renewed, so the node controller never declares the node Unknown and never marks its
// pods not ready: MarkPodsNotReady only runs on a Ready → not-Ready transition it made itself
// (node_lifecycle_controller.go monitorNodeHealth, Kubernetes issue #125618). The not-ready taints
// follow Ready=False (doNoScheduleTaintingPass, processTaintBaseEviction). The syncLoop skips pod
// synchronization while runtimeErrors is not empty: nothing is started, restarted or stopped there.

import { describe, expect, it } from "vitest";
import { renewalTimes } from "../../src/trace/lease-renewals.ts";
import { eventsOf, run, scenario } from "../helpers/sim.ts";

const DOWN = 10;
const UP = 600;
const SCENARIO = (extra = "") => `
name: runtime-down
kubernetesVersion: "1.32"
duration: 15m
nodes:
  - {name: worker-1, zone: a}
  - {name: worker-2, zone: b}
  - {name: worker-3, zone: c}
manifests:
  - manifests/
timeline:
  - {at: ${DOWN}s, do: runtime-down, node: worker-2}
  - {at: ${UP}s, do: runtime-up, node: worker-2}
${extra}`;

const on2 = (e: { node?: string }) => e.node === "worker-2";
/** updateRuntimeUp's period, maxWaitForContainerRuntime, the status loop's longest wait. */
const RUNTIME_UP_PERIOD = 5;
const MAX_WAIT = 30;
const LOOP = 10 * 1.04;

describe("the container runtime stops under a running kubelet", () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}: Ready=False (KubeletNotReady, "container runtime is down") 30s after its last status check, within one status-loop run`, () => {
      const r = run(scenario(SCENARIO()), seed);
      const [first] = eventsOf(r, "KubeletNodeNotReady", on2);
      expect(first).toMatchObject({ errors: { message: "container runtime is down" } });
      expect(first!.nodeRow.status).toBe("NotReady");
      // The last success is at most one period before the stop; the error holds 30s after it.
      expect(first!.t).toBeGreaterThanOrEqual(DOWN - RUNTIME_UP_PERIOD + MAX_WAIT);
      expect(first!.t).toBeLessThanOrEqual(DOWN + MAX_WAIT + LOOP);
    });

    it(`seed ${seed}: the Lease is renewed throughout: no Unknown, and the pods are never marked not ready by the node controller`, () => {
      const r = run(scenario(SCENARIO()), seed);
      expect(eventsOf(r, "NodeNotReady", on2)).toEqual([]);
      const renewals = renewalTimes(r.leases!)["worker-2"]!.filter((t) => t > DOWN && t < UP);
      // One renewal every 10s (+4%) over the outage.
      expect(renewals.length).toBeGreaterThanOrEqual(Math.floor((UP - DOWN) / LOOP) - 1);
      expect(eventsOf(r, "PodNotReady", (e) => on2(e) && e.by === "node-lifecycle-controller")).toEqual([]);
    });
  }

  it("the not-ready taints follow: NoSchedule at once, NoExecute through the zone's queue", () => {
    const r = run(scenario(SCENARIO()), 1);
    const posted = eventsOf(r, "KubeletNodeNotReady", on2)[0]!;
    const noSchedule = eventsOf(
      r,
      "NodeTainted",
      (e) => on2(e) && e.taint === "node.kubernetes.io/not-ready:NoSchedule",
    )[0]!;
    const noExecute = eventsOf(
      r,
      "NodeTainted",
      (e) => on2(e) && e.taint === "node.kubernetes.io/not-ready:NoExecute",
    )[0]!;
    expect(noSchedule.t).toBe(posted.t);
    // processTaintBaseEviction at the next monitor pass (5s), then the 100ms tainting ticker.
    expect(noExecute.t).toBeGreaterThan(posted.t);
    expect(noExecute.t).toBeLessThanOrEqual(posted.t + 5 + 0.1 + 1e-3);
    expect(
      eventsOf(r, "NodeTainted", (e) => on2(e) && e.taint.startsWith("node.kubernetes.io/unreachable")),
    ).toEqual([]);
  });

  it("the pods stay Ready endpoints until the not-ready toleration (300s) evicts them, and their containers keep running", () => {
    const r = run(scenario(SCENARIO()), 1);
    const noExecute = eventsOf(
      r,
      "NodeTainted",
      (e) => on2(e) && e.taint === "node.kubernetes.io/not-ready:NoExecute",
    )[0]!;
    const notReady = eventsOf(r, "PodNotReady", on2);
    expect(notReady).toEqual([]);
    const evicted = eventsOf(r, "PodEvicted", on2);
    expect(evicted.length).toBeGreaterThan(0);
    for (const e of evicted) expect(e.t).toBeGreaterThanOrEqual(noExecute.t + 300 - 1e-3);
    expect(eventsOf(r, "ContainerExited", (e) => on2(e) && e.t < UP)).toEqual([]);
  });

  it("after 3m without a relist the PLEG's health check joins the message, in Go's duration format", () => {
    const r = run(scenario(SCENARIO()), 1);
    const pleg = eventsOf(r, "KubeletNodeNotReady", (e) => on2(e) && e.errors.pleg !== undefined)[0]!;
    expect(pleg.errors.message).toMatch(
      /^\[container runtime is down, PLEG is not healthy: pleg was last seen active 3m[0-9.]+s ago; threshold is 3m0s\]$/,
    );
    // The last relist is at most 1s before the stop; unhealthy strictly after 3m; posted at the next run.
    expect(pleg.t).toBeGreaterThan(DOWN - 1 + 180);
    expect(pleg.t).toBeLessThanOrEqual(DOWN + 180 + LOOP);
  });

  it("nothing is started or stopped on the node until the runtime is back; then the evicted pods stop and the node is Ready", () => {
    const r = run(scenario(SCENARIO()), 1);
    const during = (e: { t: number }) => e.t > DOWN && e.t < UP;
    expect(eventsOf(r, "ContainerStarted", (e) => on2(e) && during(e))).toEqual([]);
    expect(eventsOf(r, "PodTerminated", (e) => on2(e) && during(e))).toEqual([]);
    const terminated = eventsOf(r, "PodTerminated", on2);
    expect(terminated.length).toBeGreaterThan(0);
    // The next status check succeeds within 5s; syncLoop's back-off sleep is at most 5s.
    for (const e of terminated) expect(e.t).toBeLessThanOrEqual(UP + RUNTIME_UP_PERIOD + 5);
    const ready = eventsOf(r, "NodeReady", (e) => on2(e) && e.t > UP)[0]!;
    expect(ready.cause).toBe("runtime");
    expect(ready.t).toBeLessThanOrEqual(UP + RUNTIME_UP_PERIOD + LOOP);
  });

  it("a container that crashes meanwhile is restarted only when the runtime is back", () => {
    // A 2-minute outage: shorter than the not-ready toleration, so db-0 is not evicted meanwhile.
    const up = 120;
    const yaml = SCENARIO(`  - {at: 60s, do: crash, pod: "StatefulSet/db[0]"}`).replace(
      `at: ${UP}s, do: runtime-up`,
      `at: ${up}s, do: runtime-up`,
    );
    const r = run(scenario(yaml), 1);
    const exited = eventsOf(r, "ContainerExited", (e) => e.object === "Pod/default/db-0")[0]!;
    expect(exited.t).toBe(60);
    const restarted = eventsOf(r, "ContainerStarted", (e) => e.object === "Pod/default/db-0" && e.t > 60)[0]!;
    expect(restarted.t).toBeGreaterThan(up);
    expect(restarted.t).toBeLessThanOrEqual(up + RUNTIME_UP_PERIOD + 5);
  });

  it("probes go on (readiness reaches the API), but a liveness kill waits for the runtime", () => {
    // A deadlock under a stopped runtime: the readiness probe (httpGet, periodSeconds 5, failureThreshold
    // 3) takes the pod out of the endpoints through the status manager, which needs no runtime; the
    // liveness failure (10s × 3) is handled by the syncLoop, which skips pod synchronization.
    const up = 200;
    const r = run(
      scenario(`
name: runtime-down-liveness
kubernetesVersion: "1.32"
duration: 5m
nodes: [{name: worker-1}]
manifests: [manifests-probes/no-startup.yaml]
timeline:
  - {at: 10s, do: runtime-down, node: worker-1}
  - {at: 20s, do: deadlock, pod: "Deployment/no-startup[0]"}
  - {at: ${up}s, do: runtime-up, node: worker-1}
`),
      1,
    );
    const notReady = eventsOf(r, "PodNotReady", (e) => e.by === "kubelet")[0]!;
    expect(notReady.t).toBeGreaterThan(20);
    expect(notReady.t).toBeLessThanOrEqual(20 + 5 * 3 + 5);
    const livenessFailed = eventsOf(r, "ProbeFailed", (e) => e.probe === "liveness")[0]!;
    expect(livenessFailed.t).toBeLessThan(up);
    const killed = eventsOf(r, "ContainerKilled", (e) => e.cause === "probe")[0]!;
    expect(killed.t).toBeGreaterThan(up);
    expect(killed.t).toBeLessThanOrEqual(up + RUNTIME_UP_PERIOD + 5);
  });

  it("a kubelet that starts while the runtime is down says its checks never succeeded, and is Ready once the runtime is back", () => {
    const yaml = SCENARIO(
      `  - {at: 100s, do: kubelet-stop, node: worker-2}\n  - {at: 110s, do: kubelet-start, node: worker-2}`,
    );
    const r = run(scenario(yaml), 1);
    const restart = eventsOf(r, "KubeletNodeNotReady", (e) => on2(e) && e.cause === "kubelet-restart")[0]!;
    expect(restart.t).toBe(110);
    expect(restart.errors.message).toBe(
      "[container runtime status check may not have completed yet, PLEG is not healthy: pleg has yet to be successful]",
    );
    const ready = eventsOf(r, "NodeReady", (e) => on2(e) && e.t > UP)[0]!;
    // Its updateRuntimeUp loop runs every 5s from the kubelet's start: the first run after the runtime is back succeeds.
    expect(ready.t).toBeLessThanOrEqual(UP + RUNTIME_UP_PERIOD + LOOP);
  });

  it("Ready=False then a silent kubelet: the controller's Unknown still leaves the pods Ready (False → Unknown, issue #112733)", () => {
    const r = run(scenario(SCENARIO(`  - {at: 120s, do: kubelet-stop, node: worker-2}`)), 1);
    const unknown = eventsOf(r, "NodeNotReady", on2)[0]!;
    expect(unknown.t).toBeGreaterThan(120);
    expect(eventsOf(r, "PodNotReady", (e) => on2(e) && e.by === "node-lifecycle-controller")).toEqual([]);
  });

  it("a runtime that is back within 30s never makes the node NotReady", () => {
    const r = run(
      scenario(SCENARIO().replace(`at: ${UP}s, do: runtime-up`, `at: ${DOWN + 20}s, do: runtime-up`)),
      1,
    );
    expect(eventsOf(r, "KubeletNodeNotReady", on2)).toEqual([]);
    expect(eventsOf(r, "NodeTainted", on2)).toEqual([]);
  });
});
