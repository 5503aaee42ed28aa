// Graceful node shutdown (KEP-2000), from pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go
// (kubernetes/kubernetes 0239cd73): migrateConfig's two groups, groupByPriority, each pod's
// gracePeriodOverride, the groups one after the other; and, in a run, what the API shows: the node's
// Ready=False "node is shutting down" (ShutdownStatus, nodestatus/setters.go ReadyCondition), each
// pod Running until its containers are gone (status_manager.go delays the terminal phase), then
// Failed, reason Terminated, "Pod was terminated in response to imminent node shutdown.", with
// DisruptionTarget=True (TerminationByKubelet).

import { describe, expect, it } from "vitest";
import { groupByPriority, shutdownGrace, shutdownPeriods } from "../../src/kubelet/node-shutdown.ts";
import { createSimulation } from "../../src/run/simulate.ts";
import { eventsOf, example, only, run, scenario, variant } from "../helpers/sim.ts";

const config = (all: number, critical: number) => ({
  shutdownGracePeriod: all,
  shutdownGracePeriodCriticalPods: critical,
  shutdownGracePeriodByPodPriority: [],
});

describe("NewManager's groups", () => {
  it("migrateConfig: priority 0 gets shutdownGracePeriod − shutdownGracePeriodCriticalPods, 2000000000 the rest", () => {
    expect(shutdownPeriods(config(30, 15))).toEqual([
      { priority: 0, shutdownGracePeriodSeconds: 15 },
      { priority: 2_000_000_000, shutdownGracePeriodSeconds: 15 },
    ]);
    expect(shutdownPeriods(config(30, 0))).toEqual([
      { priority: 0, shutdownGracePeriodSeconds: 30 },
      { priority: 2_000_000_000, shutdownGracePeriodSeconds: 0 },
    ]);
  });

  it("no shutdownGracePeriod (the default), or more for critical pods than in all: no groups, the shutdown is immediate", () => {
    expect(shutdownPeriods(config(0, 0))).toEqual([]);
    expect(shutdownPeriods(config(10, 20))).toEqual([]);
  });

  it("shutdownGracePeriodByPodPriority is used as given, sorted by priority low to high", () => {
    const byPriority = [
      { priority: 100000, shutdownGracePeriodSeconds: 10 },
      { priority: 0, shutdownGracePeriodSeconds: 60 },
      { priority: 10000, shutdownGracePeriodSeconds: 180 },
    ];
    expect(
      shutdownPeriods({ ...config(0, 0), shutdownGracePeriodByPodPriority: byPriority }).map(
        (p) => p.priority,
      ),
    ).toEqual([0, 10000, 100000]);
  });
});

describe("groupByPriority", () => {
  const periods = [
    { priority: 0, shutdownGracePeriodSeconds: 60 },
    { priority: 10000, shutdownGracePeriodSeconds: 180 },
    { priority: 100000, shutdownGracePeriodSeconds: 10 },
  ];
  const groupsOf = (priorities: number[]) =>
    groupByPriority(periods, priorities, (p) => p).map((g) => g.pods);

  it("a pod goes to the highest group at or below its priority; below all, to the lowest; above all, to the highest", () => {
    expect(groupsOf([-5, 0, 9999, 10000, 50000, 100000, 2_000_001_000])).toEqual([
      [-5, 0, 9999],
      [10000, 50000],
      [100000, 2_000_001_000],
    ]);
  });

  it("the migrated groups put system-cluster-critical and system-node-critical together, 1999999999 with the rest", () => {
    const groups = groupByPriority(
      shutdownPeriods(config(30, 15)),
      [1_999_999_999, 2_000_000_000, 2_000_001_000],
      (p) => p,
    );
    expect(groups.map((g) => g.pods)).toEqual([[1_999_999_999], [2_000_000_000, 2_000_001_000]]);
  });

  it("gracePeriodOverride: the group's period, or the pod's terminationGracePeriodSeconds when not longer", () => {
    expect(shutdownGrace(15, 30)).toBe(15);
    expect(shutdownGrace(15, 3)).toBe(3);
    expect(shutdownGrace(15, 15)).toBe(15);
  });
});

const SPOT_ON_GKE = `
name: gke-graceful-shutdown
kubernetesVersion: "1.33"
profile: gke
duration: 2m
nodes:
  - {name: worker-1, zone: a}
  - {name: worker-2, zone: a}
manifests:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 1
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          nodeSelector: {kubernetes.io/hostname: worker-2}
          containers: [{name: web, image: "nginx:1.27"}]
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: quick}
    spec:
      replicas: 1
      selector: {matchLabels: {app: quick}}
      template:
        metadata: {labels: {app: quick}}
        spec:
          nodeSelector: {kubernetes.io/hostname: worker-2}
          terminationGracePeriodSeconds: 3
          containers: [{name: quick, image: "nginx:1.27"}]
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: agent, namespace: kube-system}
    spec:
      replicas: 1
      selector: {matchLabels: {app: agent}}
      template:
        metadata: {labels: {app: agent}}
        spec:
          nodeSelector: {kubernetes.io/hostname: worker-2}
          priorityClassName: system-cluster-critical
          containers: [{name: agent, image: "fluent-bit:3"}]
behaviour:
  web: {shutdownSeconds: 40}
  quick: {shutdownSeconds: 10}
  agent: {shutdownSeconds: 5}
timeline:
  - {at: 10s, do: spot-interruption, node: worker-2}
`;

describe("a GKE spot reclaim: the kubelet's graceful shutdown with GKE's 15s + 15s", () => {
  const r = run(scenario(SPOT_ON_GKE));
  const shut = (prefix: string) =>
    only(r, "PodShutDown", (e) => e.object.split("/")[2]!.startsWith(`${prefix}-`));

  it("the node posts Ready=False with the manager's error at the shutdown event, not at the status loop's next run", () => {
    const notReady = only(r, "KubeletNodeNotReady");
    expect(notReady.t).toBeCloseTo(10, 6);
    expect(notReady.errors.message).toBe("node is shutting down");
    expect(notReady.cause).toBe("node-shutdown");
  });

  it("the groups: priority 0 with 15s (web, quick), then priority 2000000000 with 15s (agent)", () => {
    const started = only(r, "NodeShutdownStarted");
    expect(started.t).toBeCloseTo(10, 6);
    expect(started.groups).toEqual([
      { priority: 0, shutdownGracePeriodSeconds: 15, pods: 2 },
      { priority: 2_000_000_000, shutdownGracePeriodSeconds: 15, pods: 1 },
    ]);
  });

  it("non-critical pods first: quick's own 3s grace, web's group 15s; both SIGKILLed", () => {
    expect(shut("quick")).toMatchObject({ gracePeriodSeconds: 3, signal: "SIGKILL", groupPriority: 0 });
    expect(shut("quick").t).toBeCloseTo(13, 3);
    expect(shut("web")).toMatchObject({ gracePeriodSeconds: 15, signal: "SIGKILL", groupSeconds: 15 });
    expect(shut("web").t).toBeCloseTo(25, 3);
  });

  it("the critical pod only after the first group's 15s, then in its own 15s: it exits after 5s", () => {
    const agent = shut("agent");
    expect(agent).toMatchObject({ groupPriority: 2_000_000_000, gracePeriodSeconds: 15, signal: "SIGTERM" });
    expect(agent.t).toBeCloseTo(30, 3);
    const done = only(r, "NodeShutdownDone");
    expect(done.t).toBeCloseTo(30, 3);
  });

  it("each pod ends Failed, reason Terminated, the KEP's message, DisruptionTarget by TerminationByKubelet", () => {
    for (const e of eventsOf(r, "PodShutDown")) {
      expect(e.reason).toBe("Terminated");
      expect(e.message).toBe("Pod was terminated in response to imminent node shutdown.");
    }
    const sim = createSimulation(scenario(SPOT_ON_GKE));
    const webOf = () =>
      sim.store
        .list("Pod")
        .find((p) => p.metadata.name.startsWith("web-") && p.spec.nodeName === "worker-2")!;
    sim.runUntil(24);
    // Still Running while its container is being killed: the status manager holds the phase back.
    expect(webOf().status.phase).toBe("Running");
    sim.runUntil(26);
    const web = webOf();
    expect(web.status).toMatchObject({
      phase: "Failed",
      reason: "Terminated",
      message: "Pod was terminated in response to imminent node shutdown.",
    });
    expect(web.status.conditions.find((c) => c.type === "DisruptionTarget")).toMatchObject({
      status: "True",
      reason: "TerminationByKubelet",
      message: "Pod was terminated in response to imminent node shutdown.",
    });
    expect(web.status.conditions.find((c) => c.type === "Ready")).toMatchObject({
      status: "False",
      reason: "PodFailed",
    });
  });

  it("the pod stays Ready until its containers are gone (the terminal phase waits for them)", () => {
    const web = shut("web");
    const notReady = only(r, "PodNotReady", (e) => e.object === web.object);
    expect(notReady.t).toBeCloseTo(web.t, 6);
  });
});

describe("Admit while the node shuts down", () => {
  // A pod that tolerates every taint lands on the shutting-down node again.
  const text = SPOT_ON_GKE.replace("name: gke-graceful-shutdown", "name: gke-shutdown-admit").replace(
    "          containers: [{name: web,",
    "          tolerations: [{operator: Exists}]\n          containers: [{name: web,",
  );
  const r = run(scenario(text));

  it("the replacement bound there is rejected: phase Failed, reason NodeShutdown, rejectPod's prefix and Admit's message", () => {
    const rejected = only(r, "PodRejected");
    expect(rejected).toMatchObject({
      node: "worker-2",
      reason: "NodeShutdown",
      message: "Pod was rejected: Pod was rejected as the node is shutting down.",
    });
    expect(rejected.controller).toMatch(/^ReplicaSet\/default\/web-/);
    // web exits only at SIGKILL, 15s after the notice: its replacement is rejected then.
    expect(rejected.t).toBeCloseTo(25, 3);
  });
});

describe("the `shutdown` timeline action (examples/graceful-shutdown.yaml)", () => {
  it("with shutdownGracePeriod 30s / critical 10s: the pod gets 20s, exits after 5s, and the machine powers off then", () => {
    const r = run(example("graceful-shutdown.yaml"));
    expect(only(r, "NodeShutdownStarted").groups).toEqual([
      { priority: 0, shutdownGracePeriodSeconds: 20, pods: 1 },
      { priority: 2_000_000_000, shutdownGracePeriodSeconds: 10, pods: 0 },
    ]);
    const pod = only(r, "PodShutDown");
    expect(pod).toMatchObject({ gracePeriodSeconds: 20, signal: "SIGTERM", exitAfterSeconds: 5 });
    expect(only(r, "NodeShutdownDone").t).toBeCloseTo(15, 3);
    // Powered off at 15s: the Lease stops, and the node controller's Unknown follows the grace period.
    const unknown = only(r, "NodeNotReady", (e) => e.object === "Node/worker-2");
    expect(unknown.t).toBeGreaterThan(15 + 40);
  });

  it("with the default (no shutdownGracePeriod): no graceful shutdown, the machine powers off at once", () => {
    const r = run(variant("graceful-shutdown.yaml", (doc) => delete doc.kubelet));
    expect(eventsOf(r, "NodeShutdownStarted")).toEqual([]);
    expect(eventsOf(r, "PodShutDown")).toEqual([]);
    expect(eventsOf(r, "Note").map((n) => n.lane)).toEqual(["kubelet", "app", "network"]);
    expect(eventsOf(r, "KubeletNodeNotReady")).toEqual([]);
  });
});

describe("shutdownGracePeriodByPodPriority (KEP-2712) in a run: three groups, lowest priority first", () => {
  const text = `
name: shutdown-by-priority
kubernetesVersion: "1.33"
duration: 2m
kubelet:
  shutdownGracePeriodByPodPriority:
    - {priority: 0, shutdownGracePeriodSeconds: 10}
    - {priority: 100000, shutdownGracePeriodSeconds: 20}
    - {priority: 2000000000, shutdownGracePeriodSeconds: 5}
nodes:
  - {name: worker-1, zone: a}
manifests:
  - apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata: {name: important}
    value: 100000
${["batch", "api"]
  .map(
    (app) => `  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: ${app}}
    spec:
      replicas: 1
      selector: {matchLabels: {app: ${app}}}
      template:
        metadata: {labels: {app: ${app}}}
        spec:
${app === "api" ? "          priorityClassName: important\n" : ""}          containers: [{name: ${app}, image: "nginx:1.27"}]`,
  )
  .join("\n")}
behaviour:
  batch: {shutdownSeconds: 60}
  api: {shutdownSeconds: 3}
timeline:
  - {at: 10s, do: shutdown, node: worker-1}
`;
  const r = run(scenario(text));
  const shut = (app: string) => only(r, "PodShutDown", (e) => e.object.split("/")[2]!.startsWith(`${app}-`));

  it("the groups as given, sorted; the empty critical group is skipped", () => {
    expect(only(r, "NodeShutdownStarted").groups).toEqual([
      { priority: 0, shutdownGracePeriodSeconds: 10, pods: 1 },
      { priority: 100000, shutdownGracePeriodSeconds: 20, pods: 1 },
      { priority: 2_000_000_000, shutdownGracePeriodSeconds: 5, pods: 0 },
    ]);
  });

  it("batch (priority 0) is SIGKILLed at its group's 10s; api (100000) only then, and exits after its 3s", () => {
    expect(shut("batch")).toMatchObject({ groupPriority: 0, gracePeriodSeconds: 10, signal: "SIGKILL" });
    expect(shut("batch").t).toBeCloseTo(20, 3);
    expect(shut("api")).toMatchObject({ groupPriority: 100000, gracePeriodSeconds: 20, signal: "SIGTERM" });
    expect(shut("api").t).toBeCloseTo(23, 3);
    expect(only(r, "NodeShutdownDone").t).toBeCloseTo(23, 3);
  });
});
