// Issue 9 points 6 and 7: PodDisruptionBudgets as the disruption controller computes them
// (pkg/controller/disruption/disruption.go getExpectedPodCount, getExpectedScale, countHealthyPods,
// updatePdbStatus) and as the Eviction API reads them (pkg/registry/core/pod/storage/eviction.go:
// canIgnorePDB, unhealthyPodEvictionPolicy, checkAndDecrement's 429, the 500 for two budgets); and
// kubectl drain's filters and retries (staging/src/k8s.io/kubectl/pkg/drain/filters.go, drain.go;
// pkg/cmd/drain/drain.go).

import { describe, expect, it } from "vitest";
import { formatTimeline } from "../../src/report/text.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import { eventsOf, first, initialState, nameOf, only, onPod, run, scenario } from "../helpers/sim.ts";

const HOST = "kubernetes.io/hostname";
const RETRY = 5; // kubectl drain: "will retry after 5s" (drain.go evictPods, time.Sleep(5 * time.Second))

/** Three nodes, one per zone; `manifests` (YAML list items, indented 2) and `timeline` as given. */
function cluster(manifests: string, timeline: string, duration = "5m"): Scenario {
  return scenario(`
name: drain
kubernetesVersion: "1.32"
duration: ${duration}
nodes:
  - {name: worker-1, zone: a}
  - {name: worker-2, zone: b}
  - {name: worker-3, zone: c}
manifests:
${manifests}
timeline:
${timeline}`);
}

/** A workload of 3 replicas with one pod per node (required anti-affinity on the hostname), with a readiness probe. */
const spread = (kind: "Deployment" | "StatefulSet", name: string) => `  - apiVersion: apps/v1
    kind: ${kind}
    metadata: {name: ${name}}
    spec:
      replicas: 3
${kind === "StatefulSet" ? `      serviceName: ${name}\n` : ""}      selector: {matchLabels: {app: ${name}}}
      template:
        metadata: {labels: {app: ${name}}}
        spec:
          affinity:
            podAntiAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                - {topologyKey: ${HOST}, labelSelector: {matchLabels: {app: ${name}}}}
          containers:
            - {name: app, image: app, readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 5}}
`;

const pdb = (name: string, spec: string) => `  - apiVersion: policy/v1
    kind: PodDisruptionBudget
    metadata: {name: ${name}}
    spec: {${spec}}
`;

/** The pod of `prefix` on `node` at t=0, `<ns>/<name>`. */
function podOn(s: Scenario, prefix: string, node: string): string {
  return initialState(s).pods.find((p) => p.pod.startsWith(`default/${prefix}-`) && p.node === node)!.pod;
}

describe("PodDisruptionBudget status: resolved against the controllers' scale (getExpectedScale)", () => {
  // kv-0's node loses power at 10s; the taint eviction controller marks kv-0 for deletion at ~6m02
  // (unreachable taint + tolerationSeconds 300) and it stays Terminating on the dead node; the
  // StatefulSet does not replace it until it is gone. At 7m the drain of worker-2 asks for kv-1.
  // The StatefulSet's scale is 3 whatever pods exist: 2 are healthy.
  it.each([
    { spec: "maxUnavailable: 1", desired: 2 }, // 3 − 1
    { spec: 'minAvailable: "50%"', desired: 2 }, // ⌈0.5 × 3⌉
  ])("$spec: desiredHealthy $desired of scale 3, so nothing may go", ({ spec, desired }) => {
    const base = cluster(
      `${spread("StatefulSet", "kv")}${pdb("kv", `${spec}, selector: {matchLabels: {app: kv}}`)}`,
      "",
      "8m",
    );
    const lost = podOn(base, "kv", "worker-1");
    const onWorker2 = podOn(base, "kv", "worker-2");
    const s = cluster(
      `${spread("StatefulSet", "kv")}${pdb("kv", `${spec}, selector: {matchLabels: {app: kv}}`)}`,
      "  - {at: 10s, do: power-off, node: worker-1}\n  - {at: 7m, do: drain, node: worker-2}\n",
      "8m",
    );
    const r = run(s);
    expect(first(r, "PodEvicted", onPod(lost)).t).toBeLessThan(7 * 60);
    const blocked = only(r, "EvictionBlocked", onPod(onWorker2));
    expect(blocked).toMatchObject({
      expectedPods: 3,
      desiredHealthy: desired,
      currentHealthy: 2,
      disruptionsAllowed: 0,
    });
    expect(eventsOf(r, "PodEvicted", onPod(onWorker2))).toEqual([]);
    expect(r.summary.drains).toMatchObject([{ node: "worker-2", status: "blocked", evicted: 0 }]);
  });

  it("a budget with neither minAvailable nor maxUnavailable expects no pods: it allows no disruption", () => {
    const manifests = `${spread("Deployment", "web")}${pdb("web", "selector: {matchLabels: {app: web}}")}`;
    const s = cluster(manifests, "  - {at: 10s, do: drain, node: worker-2}\n");
    const r = run(s);
    const web = podOn(s, "web", "worker-2");
    expect(only(r, "EvictionBlocked", onPod(web))).toMatchObject({
      expectedPods: 0,
      desiredHealthy: 0,
      currentHealthy: 3,
      disruptionsAllowed: 0,
    });
    expect(eventsOf(r, "PodEvicted", onPod(web))).toEqual([]);
  });

  it("two budgets selecting the pod: the API server's 500, which kubectl does not retry; the drain fails", () => {
    const manifests = `${spread("Deployment", "web")}${pdb("a", "maxUnavailable: 1, selector: {matchLabels: {app: web}}")}${pdb("b", "maxUnavailable: 1, selector: {matchLabels: {app: web}}")}`;
    const s = cluster(manifests, "  - {at: 10s, do: drain, node: worker-2}\n");
    const r = run(s);
    const web = podOn(s, "web", "worker-2");
    const message =
      "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.";
    expect(only(r, "EvictionFailed", onPod(web))).toMatchObject({
      code: 500,
      error: message,
      pdbs: ["default/a", "default/b"],
    });
    expect(eventsOf(r, "PodEvicted", onPod(web))).toEqual([]);
    expect(r.summary.drains).toEqual([
      {
        node: "worker-2",
        at: 10,
        status: "failed",
        evicted: 0,
        error: `error when evicting pods/"${web.split("/")[1]}" -n "default": ${message}`,
      },
    ]);
  });
});

describe("unhealthyPodEvictionPolicy: a pod that is not Ready, under a budget with nothing to spare", () => {
  // minAvailable 3 of 3; the web pod on worker-2 fails readiness from 1s: currentHealthy 2 < 3.
  it.each([
    { policy: "", evicted: false }, // IfHealthyBudget, the default: currentHealthy ≥ desiredHealthy fails → 429
    { policy: ", unhealthyPodEvictionPolicy: IfHealthyBudget", evicted: false },
    { policy: ", unhealthyPodEvictionPolicy: AlwaysAllow", evicted: true }, // goes whatever the budget
  ])("minAvailable 3$policy: evicted $evicted", ({ policy, evicted }) => {
    const manifests = `${spread("Deployment", "web")}${pdb("web", `minAvailable: 3, selector: {matchLabels: {app: web}}${policy}`)}`;
    const web = podOn(cluster(manifests, ""), "web", "worker-2");
    const s = cluster(
      manifests,
      `  - {at: 1s, do: dependency-down, pod: ${web}}\n  - {at: 1m, do: drain, node: worker-2}\n`,
    );
    const r = run(s);
    expect(first(r, "PodNotReady", onPod(web)).t).toBeLessThan(60);
    if (evicted) {
      expect(only(r, "PodEvicted", onPod(web)).t).toBe(60);
      expect(eventsOf(r, "EvictionBlocked", onPod(web))).toEqual([]);
    } else {
      expect(eventsOf(r, "PodEvicted", onPod(web))).toEqual([]);
      expect(only(r, "EvictionBlocked", onPod(web))).toMatchObject({ desiredHealthy: 3, currentHealthy: 2 });
    }
  });
});

describe("a drain blocked by a budget: one line, retried every 5s, its state at the end", () => {
  const manifests = `${spread("Deployment", "web")}${pdb("web", "minAvailable: 2, selector: {matchLabels: {app: web}}")}`;
  const base = cluster(manifests, "");
  const other = podOn(base, "web", "worker-1");
  const web = podOn(base, "web", "worker-2");

  it("still refused at the end: one EvictionBlocked; the summary counts every 5s retry", () => {
    const s = cluster(
      manifests,
      `  - {at: 1s, do: dependency-down, pod: ${other}}\n  - {at: 1m, do: drain, node: worker-2}\n`,
    );
    const r = run(s);
    const blocked = only(r, "EvictionBlocked", onPod(web));
    expect(blocked).toMatchObject({ t: 60, pdb: "default/web", retryAfter: RETRY });
    // Refused at 60s and at every retry up to the end of the run (5m), both included.
    const refusals = Math.floor((300 - 60) / RETRY) + 1;
    expect(r.summary.drains).toEqual([
      {
        node: "worker-2",
        at: 60,
        status: "blocked",
        evicted: 0,
        blocked: [{ pod: web, pdb: "default/web", since: 60, refusals }],
      },
    ]);
    const end = formatTimeline(r, s).split("At the end")[1]!;
    expect(end).toContain(
      `drain of worker-2 (t+1:00): still blocked: ${web.split("/")[1]} refused by PodDisruptionBudget default/web since t+1:00 (${refusals} refusals, kubectl retrying every 5s)`,
    );
  });

  it("allowed again once the other replica is Ready: evicted at the next retry, the drain finishes", () => {
    const s = cluster(
      manifests,
      `  - {at: 1s, do: dependency-down, pod: ${other}}\n  - {at: 1m, do: drain, node: worker-2}\n  - {at: 2m, do: dependency-up, pod: ${other}}\n`,
    );
    const r = run(s);
    expect(only(r, "EvictionBlocked", onPod(web)).t).toBe(60);
    const readyAgain = first(r, "PodReady", (e) => e.object === `Pod/${other}` && e.t > 120).t;
    const evicted = only(r, "PodEvicted", onPod(web)).t;
    expect((evicted - 60) % RETRY).toBeCloseTo(0, 6);
    expect(evicted).toBeGreaterThanOrEqual(readyAgain);
    expect(evicted).toBeLessThan(readyAgain + RETRY);
    expect(r.summary.drains).toEqual([{ node: "worker-2", at: 60, status: "drained", evicted: 1 }]);
  });
});

describe("kubectl drain's filters", () => {
  const bare = (name: string, volumes = "") => `  - apiVersion: v1
    kind: Pod
    metadata: {name: ${name}, labels: {app: ${name}}}
    spec:
      nodeSelector: {${HOST}: worker-2}
      containers: [{name: c, image: c}]
${volumes}`;
  const emptyDir = "      volumes: [{name: scratch, emptyDir: {}}]\n";
  const cache = `  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: cache}
    spec:
      replicas: 1
      selector: {matchLabels: {app: cache}}
      template:
        metadata: {labels: {app: cache}}
        spec:
          nodeSelector: {${HOST}: worker-2}
          containers: [{name: c, image: c}]
          volumes: [{name: scratch, emptyDir: {}}]
`;
  const agent = `  - apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: agent}
    spec:
      selector: {matchLabels: {app: agent}}
      template:
        metadata: {labels: {app: agent}}
        spec:
          containers: [{name: c, image: c}]
`;
  const unmanaged = "cannot delete Pods that declare no controller (use --force to override)";
  const local = "cannot delete Pods with local storage (use --delete-emptydir-data to override)";
  const daemon = "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore)";
  const cachePod = (s: Scenario) => podOn(s, "cache", "worker-2");
  const agentPod = (s: Scenario) => podOn(s, "agent", "worker-2");

  it.each([
    {
      name: "a pod no controller manages",
      m: bare("solo"),
      flags: "",
      error: () => `${unmanaged}: default/solo`,
    },
    { name: "the same with force", m: bare("solo"), flags: ", force: true", error: undefined },
    {
      name: "a pod with an emptyDir",
      m: cache,
      flags: "",
      error: (s: Scenario) => `${local}: ${cachePod(s)}`,
    },
    {
      name: "the same with deleteEmptyDirData",
      m: cache,
      flags: ", deleteEmptyDirData: true",
      error: undefined,
    },
    {
      name: "both: kubectl's aggregate, in the filters' order",
      m: `${bare("solo")}${cache}`,
      flags: "",
      error: (s: Scenario) => `[${local}: ${cachePod(s)}, ${unmanaged}: default/solo]`,
    },
    {
      // The filters stop at the first that refuses a pod: local storage comes before the controller.
      name: "a bare pod with an emptyDir: refused for its local storage only",
      m: bare("scratch", emptyDir),
      flags: "",
      error: () => `${local}: default/scratch`,
    },
    {
      name: "a bare pod with an emptyDir and deleteEmptyDirData: refused for having no controller",
      m: bare("scratch", emptyDir),
      flags: ", deleteEmptyDirData: true",
      error: () => `${unmanaged}: default/scratch`,
    },
    {
      name: "a DaemonSet's pod: left by default (--ignore-daemonsets)",
      m: agent,
      flags: "",
      error: undefined,
    },
    {
      name: "a DaemonSet's pod with ignoreDaemonSets: false",
      m: agent,
      flags: ", ignoreDaemonSets: false",
      error: (s: Scenario) => `${daemon}: ${agentPod(s)}`,
    },
  ])("$name", ({ m, flags, error }) => {
    const s = cluster(
      `${spread("Deployment", "web")}${m}`,
      `  - {at: 10s, do: drain, node: worker-2${flags}}\n`,
    );
    const r = run(s);
    const onWorker2 = initialState(s).pods.filter((p) => p.node === "worker-2");
    const evicted = eventsOf(r, "PodEvicted").map((e) => nameOf(e.object));
    const worker2 = r.summary.nodes.find((n) => n.name === "worker-2")!;
    expect(worker2.status).toBe("Ready,SchedulingDisabled");
    if (error) {
      // kubectl stops before evicting anything; the node stays cordoned.
      const expected = error(s);
      expect(only(r, "DrainFailed")).toMatchObject({ t: 10, node: "worker-2", error: expected });
      expect(evicted).toEqual([]);
      expect(r.summary.drains).toEqual([
        { node: "worker-2", at: 10, status: "failed", evicted: 0, error: expected },
      ]);
    } else {
      expect(eventsOf(r, "DrainFailed")).toEqual([]);
      const expected = onWorker2.filter((p) => !p.pod.startsWith("default/agent-")).map((p) => p.pod);
      expect(evicted.sort()).toEqual(expected.sort());
      expect(r.summary.drains[0]).toMatchObject({ status: "drained", evicted: expected.length });
    }
  });
});
