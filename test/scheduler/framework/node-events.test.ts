// kube-scheduler's Node update rule (framework/node-events.ts, from pkg/scheduler/framework/events.go
// NodeSchedulingPropertiesChange): a heartbeat-only status post moves no waiting pod; a taint
// removal, an uncordon, an allocatable, label or condition status change does.

import { describe, expect, it } from "vitest";
import type { Node } from "../../../src/kubernetes/objects.ts";
import { nodeProperties, nodeUpdateRequeues } from "../../../src/scheduler/framework/node-events.ts";
import { eventsOf, run, scenario } from "../../helpers/sim.ts";

function node(): Node {
  return {
    kind: "Node",
    metadata: { name: "worker-1", labels: { "kubernetes.io/hostname": "worker-1", zone: "a" } },
    spec: { taints: [{ key: "node.kubernetes.io/not-ready", effect: "NoSchedule" }] },
    status: {
      capacity: { cpu: 4, memory: 8e9, pods: 110 },
      allocatable: { cpu: 3.9, memory: 7e9, pods: 110 },
      conditions: [
        { type: "MemoryPressure", status: "False", lastHeartbeatTime: 0, lastTransitionTime: 0 },
        {
          type: "Ready",
          status: "True",
          reason: "KubeletReady",
          lastHeartbeatTime: 0,
          lastTransitionTime: 0,
        },
      ],
    },
  } as Node;
}

/** Whether changing a node by `edit` requeues the waiting pods. */
function requeues(edit: (n: Node) => void): boolean {
  const n = node();
  const before = nodeProperties(n);
  edit(n);
  return nodeUpdateRequeues(before, n);
}

describe("NodeSchedulingPropertiesChange", () => {
  it("a status post renewing only the heartbeat (and reason, message) is no event", () => {
    expect(
      requeues((n) => {
        for (const c of n.status.conditions) c.lastHeartbeatTime = 300;
        n.status.conditions[1]!.message = "kubelet is posting ready status";
      }),
    ).toBe(false);
  });
  it("the conditions in another order are the same map of type to status", () => {
    expect(requeues((n) => n.status.conditions.reverse())).toBe(false);
  });
  it("a taint removal, an uncordon, an allocatable, label, condition or annotation change are events", () => {
    expect(requeues((n) => (n.spec.taints = []))).toBe(true);
    expect(requeues((n) => n.spec.taints!.push({ key: "x", effect: "NoExecute", timeAdded: 5 }))).toBe(true);
    expect(requeues((n) => (n.status.allocatable.cpu = 3.8))).toBe(true);
    expect(requeues((n) => (n.status.allocatable.scalar = { "nvidia.com/gpu": 1 }))).toBe(true);
    expect(requeues((n) => (n.metadata.labels!.zone = "b"))).toBe(true);
    expect(requeues((n) => (n.status.conditions[1]!.status = "Unknown"))).toBe(true);
    expect(requeues((n) => (n.metadata.annotations = { a: "1" }))).toBe(true);
    const cordoned = node();
    cordoned.spec.unschedulable = true;
    const before = nodeProperties(cordoned);
    cordoned.spec.unschedulable = false;
    expect(nodeUpdateRequeues(before, cordoned)).toBe(true);
  });
  it("a cordon alone is no event (extractNodeSpecUnschedulableChange: only to schedulable)", () => {
    expect(requeues((n) => (n.spec.unschedulable = true))).toBe(false);
  });
});

describe("the scheduler at Node updates", () => {
  const run1 = (uncordonAt: string) =>
    run(
      scenario(`
duration: 15m
nodes: [{name: worker-1}]
manifests: [manifests/web.yaml]
timeline:
  - {at: 10s, do: cordon, node: worker-1}
  - {at: 100s, do: drain, node: worker-1}
  - {at: ${uncordonAt}, do: uncordon, node: worker-1}
`),
    );

  it("a Pending pod is not retried at the kubelet's 5-minute status posts, only at the uncordon", () => {
    const r = run1("700s");
    const scheduled = eventsOf(r, "PodScheduled", (e) => e.t >= 100);
    expect(scheduled.length).toBe(3);
    for (const e of scheduled) {
      expect(e.t).toBe(700);
      // tried at the drain (100 s), when the evicted pods were deleted (AssignedPodDelete) and at
      // the uncordon: the two status posts between (at 5 and 10 min) moved nothing (5 before).
      expect(e.by === "scheduler" ? e.attempt : undefined).toBe(3);
    }
  });
});
