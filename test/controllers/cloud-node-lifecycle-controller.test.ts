// The cloud controller manager's node lifecycle controller alone, each case written from
// k8s.io/cloud-provider controllers/nodelifecycle/node_lifecycle_controller.go MonitorNodes (and its
// node_lifecycle_controller_test.go cases): Ready True removes the shutdown taint; otherwise a
// missing instance deletes the Node, a shut-down one gets node.cloudprovider.kubernetes.io/shutdown:NoSchedule.

import { describe, expect, it } from "vitest";
import {
  CLOUD_NODE_MONITOR_PERIOD,
  CloudNodeLifecycleController,
  type InstanceState,
} from "../../src/controllers/cloud-node-lifecycle-controller.ts";
import type { ConditionStatus } from "../../src/kubernetes/objects.ts";
import { harness, node } from "./harness.ts";

const SHUTDOWN = "node.cloudprovider.kubernetes.io/shutdown";

function run(ready: ConditionStatus, instance: InstanceState, tainted = false) {
  const h = harness();
  h.store.create(node("n1", { ready, taints: tainted ? [{ key: SHUTDOWN, effect: "NoSchedule" }] : [] }));
  new CloudNodeLifecycleController(h, {
    nodeMonitorPeriod: CLOUD_NODE_MONITOR_PERIOD,
    instance: () => instance,
  });
  h.to(CLOUD_NODE_MONITOR_PERIOD * 3);
  return h;
}

describe("cloud node lifecycle controller (MonitorNodes)", () => {
  it("its --node-monitor-period defaults to 5s (config/v1alpha1/defaults.go)", () => {
    expect(CLOUD_NODE_MONITOR_PERIOD).toBe(5);
  });

  it("a NotReady Node whose instance no longer exists is deleted, once, within one period", () => {
    const h = run("Unknown", "not-found");
    expect(h.store.get("Node", "n1")).toBeUndefined();
    const deleted = h.events("NodeDeleted");
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({
      by: "cloud-node-lifecycle-controller",
      ready: "Unknown",
      instance: "not-found",
      nodeMonitorPeriod: 5,
    });
    expect(deleted[0]!.t).toBeLessThanOrEqual(CLOUD_NODE_MONITOR_PERIOD);
  });

  it("a shut-down instance's NotReady Node gets the shutdown taint, NoSchedule, once", () => {
    const h = run("Unknown", "shutdown");
    const n = h.store.get("Node", "n1")!;
    expect(n.spec.taints).toEqual([expect.objectContaining({ key: SHUTDOWN, effect: "NoSchedule" })]);
    expect(h.events("NodeTainted")).toHaveLength(1);
    expect(h.events("NodeTainted")[0]).toMatchObject({
      taint: `${SHUTDOWN}:NoSchedule`,
      cause: "instance-shutdown",
    });
  });

  it("a Ready node loses the shutdown taint (RemoveTaintOffNode), whatever the cloud says", () => {
    const h = run("True", "running", true);
    expect(h.store.get("Node", "n1")!.spec.taints).toEqual([]);
    expect(h.events("NodeTaintRemoved")).toMatchObject([
      { by: "cloud-node-lifecycle-controller", taint: `${SHUTDOWN}:NoSchedule`, cause: "ready-again" },
    ]);
  });

  it("a Ready node is never looked up in the cloud: a missing instance does not delete it", () => {
    const h = run("True", "not-found");
    expect(h.store.get("Node", "n1")).toBeDefined();
  });

  it("a NotReady node whose instance runs (a kubelet or network fault) is left alone", () => {
    const h = run("False", "running");
    expect(h.store.get("Node", "n1")!.spec.taints).toEqual([]);
    expect(h.events("NodeDeleted")).toHaveLength(0);
  });
});
