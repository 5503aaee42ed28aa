// The printers of kube-scheduler's events (src/report/messages/scheduling.ts): the reasons and the
// FitError message in kube-scheduler's words (framework/types.go FitError.Error,
// preemption/preemption.go, each plugin's reason constant), from hand-made events.

import { describe, expect, it } from "vitest";
import type { PodRow } from "../../src/kubernetes/kubectl.ts";
import { proseOf } from "../../src/report/messages/index.ts";
import { fitErrorMessage, reasonText } from "../../src/report/messages/scheduling.ts";
import type { EventOf } from "../../src/trace/events.ts";

const row = (name: string, namespace: string, node: string, age: string): PodRow => ({
  name,
  namespace,
  ready: "0/1",
  status: "Pending",
  restarts: 0,
  age,
  ip: "<none>",
  node,
});
const failed = (fields: Partial<EventOf<"FailedScheduling">>): EventOf<"FailedScheduling"> => ({
  t: 130,
  type: "FailedScheduling",
  lane: "control-plane",
  object: "Pod/default/db-0",
  podRow: row("db-0", "default", "<none>", "30s"),
  nodes: 3,
  filtered: [],
  preemption: { notHelpful: 3, noVictims: 0 },
  ...fields,
});

describe("reasons", () => {
  it.each([
    [{ reason: "Unschedulable" }, "node(s) were unschedulable"],
    [{ reason: "NodeAffinity" }, "node(s) didn't match Pod's node affinity/selector"],
    [{ reason: "TooManyPods" }, "Too many pods"],
    [{ reason: "InsufficientCPU" }, "Insufficient cpu"],
    [{ reason: "VolumeNodeAffinityConflict" }, "node(s) had volume node affinity conflict"],
    [{ reason: "VolumeBindConflict" }, "node(s) didn't find available persistent volumes to bind"],
    [{ reason: "VolumeZoneConflict" }, "node(s) had no available volume zone"],
    [{ reason: "PodAntiAffinity" }, "node(s) didn't match pod anti-affinity rules"],
    [{ reason: "ExistingPodsAntiAffinity" }, "node(s) didn't satisfy existing pods anti-affinity rules"],
    [
      { reason: "TopologySpreadMissingLabel" },
      "node(s) didn't match pod topology spread constraints (missing required label)",
    ],
    [
      {
        reason: "UntoleratedTaint",
        taint: { key: "node.kubernetes.io/out-of-service", value: "nodeshutdown" },
      },
      "node(s) had untolerated taint {node.kubernetes.io/out-of-service: nodeshutdown}",
    ],
    [
      { reason: "UntoleratedTaint", taint: { key: "node.kubernetes.io/unreachable", value: "" } },
      "node(s) had untolerated taint {node.kubernetes.io/unreachable: }",
    ],
  ] as const)("%j", (f, text) => {
    expect(reasonText(f)).toBe(text);
  });
});

describe("the FitError message", () => {
  it("sorts the histogram as strings, count first, then adds DefaultPreemption's verdict", () => {
    const e = failed({
      nodes: 6,
      filtered: [
        { reason: "NodeAffinity", nodes: 2 },
        { reason: "UntoleratedTaint", nodes: 1, taint: { key: "node.kubernetes.io/unreachable", value: "" } },
        { reason: "InsufficientCPU", nodes: 3 },
      ],
      preemption: { notHelpful: 3, noVictims: 3 },
    });
    expect(fitErrorMessage(e)).toBe(
      "0/6 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 2 node(s) didn't match Pod's node affinity/selector, 3 Insufficient cpu. preemption: 0/6 nodes are available: 3 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.",
    );
  });

  it("a PreFilter rejection replaces the histogram", () => {
    expect(fitErrorMessage(failed({ preFilter: { reason: "UnboundImmediateClaims" } }))).toBe(
      "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
    expect(fitErrorMessage(failed({ preFilter: { reason: "ClaimNotFound", claim: "data" } }))).toBe(
      '0/3 nodes are available: persistentvolumeclaim "data" not found. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
  });

  it("no node at all", () => {
    expect(fitErrorMessage(failed({ nodes: 0, preemption: { notHelpful: 0, noVictims: 0 } }))).toBe(
      "no nodes available to schedule pods",
    );
  });

  it("the event reads: the pod, the message, and kubectl's Pending row", () => {
    const p = proseOf(failed({ filtered: [{ reason: "Unschedulable", nodes: 3 }] }));
    expect(p.message).toBe(
      "db-0 cannot be scheduled: 0/3 nodes are available: 3 node(s) were unschedulable. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
    expect(p.see).toBe(
      "$ kubectl get pod db-0 -o wide\nNAME   READY   STATUS    RESTARTS   AGE   IP       NODE\ndb-0   0/1     Pending   0          30s   <none>   <none>",
    );
  });
});

describe("PodScheduled", () => {
  const scheduled: EventOf<"PodScheduled"> = {
    t: 100,
    type: "PodScheduled",
    lane: "control-plane",
    object: "Pod/prod/web-abc-x1y2z",
    node: "worker-3",
    podRow: row("web-abc-x1y2z", "prod", "worker-3", "0s"),
    by: "scheduler",
    nodes: 1000,
    checked: 425,
    stoppedAt: 420,
    feasible: 420,
    filtered: [
      { reason: "UntoleratedTaint", nodes: 4, taint: { key: "node.kubernetes.io/unreachable", value: "" } },
      { reason: "InsufficientMemory", nodes: 1 },
    ],
    owner: "ReplicaSet/prod/web-abc",
    attempt: 2,
  };

  it("says how many nodes were checked and why some were turned down, in the order met", () => {
    const p = proseOf(scheduled);
    expect(p.message).toBe("Successfully assigned prod/web-abc-x1y2z to worker-3");
    expect(p.why).toBe(
      "420 of 425 nodes checked pass the filters (percentageOfNodesToScore: the scheduler stops at 420 feasible of 1000) (4 had untolerated taint {node.kubernetes.io/unreachable: }; 1 Insufficient memory); worker-3 runs the fewest pods of web-abc (topology spreading by node and zone); tried again after a cluster event once its backoff ran out (podInitialBackoffSeconds=1 doubling to podMaxBackoffSeconds=10; attempt 2)",
    );
    expect(p.see).toBe(
      "$ kubectl get pod web-abc-x1y2z -n prod -o wide\nNAME            READY   STATUS    RESTARTS   AGE   IP       NODE\nweb-abc-x1y2z   0/1     Pending   0          0s    <none>   worker-3",
    );
  });

  it("a DaemonSet pod is placed by its controller", () => {
    const p = proseOf({ ...scheduled, by: "daemonset-controller" } as EventOf<"PodScheduled">);
    expect(p.why).toBe(
      "DaemonSet pods are placed on their node through node affinity (metadata.name=worker-3)",
    );
  });
});

describe("volume events", () => {
  it("a provisioned volume says where it was created and why there", () => {
    const p = proseOf({
      t: 5,
      type: "ProvisioningSucceeded",
      lane: "control-plane",
      object: "PersistentVolumeClaim/default/data-db-0",
      volume: "pvc-uid-7",
      storageClass: "standard",
      assumedClass: true,
      zone: "b",
      selectedNode: "worker-2",
    });
    expect(p.message).toBe(
      "external provisioner creates volume pvc-uid-7 for default/data-db-0 in zone b; the PV controller binds them",
    );
    expect(p.why).toContain("WaitForFirstConsumer");
    expect(p.why).toContain("(worker-2, annotation volume.kubernetes.io/selected-node)");
    expect(p.why).toContain("keeps every pod of the claim in zone b");
  });
});
