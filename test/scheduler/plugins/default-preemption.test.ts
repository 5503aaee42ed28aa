// DefaultPreemption (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go and
// framework/preemption/preemption.go), each case written from its rule: candidates where removing
// lower-priority pods makes the pod fit, victims reprieved most important first, PodDisruptionBudget
// violations minimised, pickOneNodeForPreemption's order, the DisruptionTarget condition, the
// nomination, and the FitError's preemption sentence in kube-scheduler's words. Also PrioritySort
// (queuesort/priority_sort.go): of two pods due at once, the higher priority goes first.

import { describe, expect, it } from "vitest";
import { createSimulation } from "../../../src/run/simulate.ts";
import { fitErrorMessage } from "../../../src/scheduler/framework/fit-error.ts";
import { eventsOf, first, only, run, scenario } from "../../helpers/sim.ts";

const node = (name: string, cpu = "2") =>
  `  - {name: ${name}, capacity: {cpu: "${cpu}", memory: 8Gi, pods: 110}}\n`;

function cluster(nodes: string[], manifests: string, timeline = "") {
  return scenario(
    `name: preempt\nkubernetesVersion: "1.32"\nduration: 2m\nstart: created\nnodes:\n${nodes.join("")}manifests:\n${manifests}${timeline}`,
  );
}

const cls = (name: string, value: number, extra = "") =>
  `  - {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: ${name}}, value: ${value}${extra}}\n`;

/** A bare pod, bound by nodeName when `on` is given, else scheduled. */
function pod(name: string, cpu: string, opts: { cls?: string; on?: string; labels?: string } = {}) {
  return `  - apiVersion: v1
    kind: Pod
    metadata: {name: ${name}${opts.labels ? `, labels: {${opts.labels}}` : ""}}
    spec:
${opts.on ? `      nodeName: ${opts.on}\n` : ""}${opts.cls ? `      priorityClassName: ${opts.cls}\n` : ""}      terminationGracePeriodSeconds: 5
      containers: [{name: c, image: x, resources: {requests: {cpu: ${cpu}}}}]
`;
}

const classes =
  cls("low", 10) + cls("mid", 50) + cls("high", 100) + cls("polite", 100, ", preemptionPolicy: Never");

describe("DefaultPreemption", () => {
  it("picks the node whose highest victim has the lowest priority; the victim gets DisruptionTarget and a graceful delete; the pod is nominated, then bound once the victim is gone", () => {
    const s = cluster(
      [node("worker-1"), node("worker-2")],
      classes +
        pod("v1", "1500m", { cls: "low", on: "worker-1" }) +
        pod("v2", "1500m", { cls: "mid", on: "worker-2" }) +
        pod("p", "1000m", { cls: "high" }),
    );
    const r = run(s);
    const evicted = only(r, "PodEvicted", (e) => e.by === "scheduler");
    expect(evicted.object).toBe("Pod/default/v1");
    expect(evicted).toMatchObject({
      node: "worker-1",
      reason: "PreemptionByScheduler",
      preemptor: "default/p",
      priority: 10,
      preemptorPriority: 100,
      victims: 1,
    });
    const failed = first(r, "FailedScheduling", (e) => e.object === "Pod/default/p");
    expect(failed.preemption.nominated).toEqual({ node: "worker-1", victims: ["default/v1"] });
    // Success: no preemption sentence after the FitError
    expect(fitErrorMessage(failed)).toBe("0/2 nodes are available: 2 Insufficient cpu.");
    const bound = only(r, "PodScheduled", (e) => e.object === "Pod/default/p");
    expect(bound.node).toBe("worker-1");
    const gone = only(r, "PodDeleted", (e) => e.object === "Pod/default/v1");
    expect(bound.t).toBeGreaterThanOrEqual(gone.t);
    expect(eventsOf(r, "PodEvicted", (e) => e.object === "Pod/default/v2")).toEqual([]);
  });

  it("the victim's DisruptionTarget condition and the preemptor's nominatedNodeName, as the API has them", () => {
    const s = cluster(
      [node("worker-1")],
      classes + pod("v1", "1500m", { cls: "low", on: "worker-1" }) + pod("p", "1000m", { cls: "high" }),
    );
    const sim = createSimulation(s);
    const seen: { name: string; deleting: boolean; target?: object; nominated?: string }[] = [];
    sim.store.watch("Pod", (_type, p) => {
      const target = p.status.conditions.find((c) => c.type === "DisruptionTarget");
      seen.push({
        name: p.metadata.name,
        deleting: p.metadata.deletionTimestamp !== undefined,
        ...(target
          ? { target: { status: target.status, reason: target.reason, message: target.message } }
          : {}),
        ...(p.status.nominatedNodeName ? { nominated: p.status.nominatedNodeName } : {}),
      });
    });
    sim.runUntil(1);
    expect(seen).toContainEqual({
      name: "v1",
      deleting: true,
      target: {
        status: "True",
        reason: "PreemptionByScheduler",
        message: "default-scheduler: preempting to accommodate a higher priority pod",
      },
    });
    expect(seen).toContainEqual({ name: "p", deleting: false, nominated: "worker-1" });
  });

  it("reprieves the most important victims: of 10, 20, 30 on a full node only the lowest goes when that makes room", () => {
    const s = cluster(
      [node("worker-1")],
      cls("p10", 10) +
        cls("p20", 20) +
        cls("p30", 30) +
        classes +
        pod("a", "500m", { cls: "p10", on: "worker-1" }) +
        pod("b", "500m", { cls: "p20", on: "worker-1" }) +
        pod("c", "900m", { cls: "p30", on: "worker-1" }) +
        pod("p", "600m", { cls: "high" }),
    );
    const r = run(s);
    expect(eventsOf(r, "PodEvicted", (e) => e.by === "scheduler").map((e) => e.object)).toEqual([
      "Pod/default/a",
    ]);
  });

  it("prefers the node where no PodDisruptionBudget is violated", () => {
    const pdb = `  - {apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: x}, spec: {minAvailable: 1, selector: {matchLabels: {app: x}}}}\n`;
    const s = cluster(
      [node("worker-1"), node("worker-2")],
      classes +
        pdb +
        pod("x", "1500m", { cls: "low", on: "worker-1", labels: "app: x" }) +
        pod("y", "1500m", { cls: "low", on: "worker-2", labels: "app: y" }) +
        pod("p", "1000m", { cls: "high" }),
    );
    const r = run(s);
    const evicted = only(r, "PodEvicted", (e) => e.by === "scheduler");
    expect(evicted.object).toBe("Pod/default/y");
    expect(evicted).toMatchObject({ pdbViolations: 0 });
  });

  it("the FitError's preemption sentence: no lower-priority pod, a pod that fits nowhere even alone, preemptionPolicy Never", () => {
    const fitError = (manifests: string) => {
      const r = run(cluster([node("worker-1")], classes + manifests));
      return first(r, "FailedScheduling", (e) => e.object === "Pod/default/p").podRow;
    };
    const message = (manifests: string) => {
      const sim = createSimulation(cluster([node("worker-1")], classes + manifests));
      sim.engine.run(0);
      return sim.store.get("Pod", "default/p")!.status.conditions.find((c) => c.type === "PodScheduled")
        ?.message;
    };
    // the same priority: nothing to preempt (the issue's case, now with a real comparison)
    expect(
      message(pod("v", "1500m", { cls: "high", on: "worker-1" }) + pod("p", "1000m", { cls: "high" })),
    ).toBe(
      "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
    );
    // a lower-priority pod is there, but the pod does not fit even without it: the filter's reason
    expect(message(pod("v", "1500m", { cls: "low", on: "worker-1" }) + pod("p", "3", { cls: "high" }))).toBe(
      "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Insufficient cpu.",
    );
    expect(
      message(pod("v", "1500m", { cls: "low", on: "worker-1" }) + pod("p", "1000m", { cls: "polite" })),
    ).toBe(
      "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.",
    );
    expect(
      fitError(pod("v", "1500m", { cls: "low", on: "worker-1" }) + pod("p", "1000m", { cls: "high" })),
    ).toBeDefined();
  });
});

describe("PrioritySort", () => {
  it("two pods due at one instant: the higher priority is tried first and takes the room", () => {
    const s = cluster(
      [node("worker-1")],
      classes +
        pod("blocker", "1500m", { on: "worker-1" }) +
        pod("lo", "1200m") +
        pod("hi", "1200m", { cls: "polite" }),
      "timeline:\n  - {at: 10s, do: force-delete-pod, pod: default/blocker}\n",
    );
    const r = run(s);
    const bound = eventsOf(r, "PodScheduled", (e) => e.by === "scheduler").map((e) => e.object);
    expect(bound).toEqual(["Pod/default/hi"]);
  });
});

describe("a node loss in a full cluster", () => {
  const deployment = (name: string, replicas: number, cls: string) => `  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: ${name}}
    spec:
      replicas: ${replicas}
      selector: {matchLabels: {app: ${name}}}
      template:
        metadata: {labels: {app: ${name}}}
        spec:
          priorityClassName: ${cls}
          terminationGracePeriodSeconds: 5
          containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
`;
  const build = (timeline: string) =>
    scenario(
      `name: loss\nkubernetesVersion: "1.32"\nduration: 8m\nstart: running\nnodes:\n${node("worker-1")}${node("worker-2")}manifests:\n${classes}${deployment("api", 1, "high")}${deployment("batch", 3, "low")}${timeline}`,
    );

  it("the high-priority pod of the lost node preempts a low-priority one once the taint eviction replaces it; the low one waits with no victims", () => {
    const apiNode = run({ ...build(""), duration: 0 }).initial.pods.find((p) => p.pod.includes("/api-"))!
      .node!;
    const r = run(build(`timeline:\n  - {at: 10s, do: power-off, node: ${apiNode}}\n`));
    const preempted = only(r, "PodEvicted", (e) => e.by === "scheduler");
    expect(preempted.object).toMatch(/^Pod\/default\/batch-/);
    expect(preempted.node).not.toBe(apiNode);
    expect(preempted).toMatchObject({ priority: 10, preemptorPriority: 100 });
    // the replacement api pod runs on the surviving node; the batch pods left over find no victim
    const api = eventsOf(r, "PodScheduled", (e) => e.object.startsWith("Pod/default/api-") && e.t > 10);
    expect(api.map((e) => e.node)).toEqual([preempted.node]);
    const batchWaits = eventsOf(
      r,
      "FailedScheduling",
      (e) => e.object.startsWith("Pod/default/batch-") && e.t > 10,
    );
    expect(batchWaits.length).toBeGreaterThan(0);
    expect(fitErrorMessage(batchWaits.at(-1)!)).toContain("No preemption victims found for incoming pod");
  });
});
