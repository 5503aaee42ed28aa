// What the HTML report derives from the trace, checked against the seed's story of a node losing power
// (the text timeline in README.md): no browser needed.

import { describe, expect, it } from "vitest";
import { loadScenarioFile } from "../../src/load/index.ts";
import {
  clusterSeries,
  headline,
  latencySeries,
  NEXT_LEVERS,
  podOwners,
  type ReportResult,
  steps,
} from "../../src/report/html/model/index.ts";
import { simulate } from "../../src/run/simulate.ts";
import { applyWhatIf, currentSettings } from "../../src/whatif/index.ts";
import { scenario as inline } from "../helpers/sim.ts";

const scenario = loadScenarioFile("examples/node-power-loss.yaml");
const result = simulate(scenario);
const at = (type: string, object?: string) =>
  result.events.find((e) => e.type === type && (object === undefined || e.object.includes(object)))!.t;

describe("the headline of runtime-down", () => {
  it("the cluster noticed when the kubelet posted Ready=False: the node controller never declares it Unknown", () => {
    const s = loadScenarioFile("examples/runtime-down.yaml");
    const r = simulate(s);
    const posted = r.events.find((e) => e.type === "KubeletNodeNotReady")!;
    expect(headline(r, s).noticed).toBe(posted.t);
  });
});

describe("the headline of node-power-loss (1.32)", () => {
  const hl = headline(result, scenario);

  it("names the failure, when the cluster noticed and when traffic stopped going to the lost pods", () => {
    expect(hl.faults).toHaveLength(1);
    expect(hl.faults[0]).toMatchObject({ t: 10, do: "power-off", kind: "node", targets: ["worker-2"] });
    expect(hl.failed).toBe(10);
    expect(hl.noticed).toBe(at("NodeNotReady", "worker-2"));
    expect(hl.noticed! - 10).toBeGreaterThan(40);
    // The web replica on worker-2 leaves the Service's ready endpoints when the node controller marks it.
    const webOut = result.events.find(
      (e) => e.type === "EndpointNotReady" && e.node === "worker-2" && e.object.includes("web-"),
    )!;
    expect(hl.trafficStopped).toBeGreaterThanOrEqual(webOut.t);
    expect(
      hl.faults[0]!.lostPods.map((p) => p.split("/")[2]!.replace(/-[a-z0-9]+(-[a-z0-9]{5})?$/, "")),
    ).toEqual(expect.arrayContaining(["db", "web"]));
  });

  it("the Deployment's replacement is Ready after the 300s toleration; the StatefulSet member waits", () => {
    expect(hl.replaced).toBeGreaterThan(10 + 300);
    expect(hl.notReplaced).toEqual(["db-0"]);
    expect(hl.requestsLost).toBeNull();
    expect(Object.values(NEXT_LEVERS).map((l) => l.title)).toContain(hl.next.title);
  });
});

describe("a headline names every fault of the run", () => {
  it("zone-outage: two nodes at 10s, a third at 2m, each with its pods; zone a PartialDisruption", () => {
    const s = loadScenarioFile("examples/zone-outage.yaml");
    const r = simulate(s);
    const hl = headline(r, s);
    expect(hl.faults.map((f) => [f.t, f.targets])).toEqual([
      [10, ["a-1", "a-2"]],
      [120, ["a-3"]],
    ]);
    expect(hl.nodesLost).toBe(3);
    // Every pod on a lost node is lost by one fault: the per-fault lists add up to the run's.
    const onLost = new Set(
      r.events
        .filter((e) => e.type === "PodNotReady" && ["a-1", "a-2", "a-3"].includes(e.node ?? ""))
        .map((e) => e.object),
    );
    expect(hl.podsLost).toBe(onLost.size);
    expect(hl.faults.reduce((a, f) => a + f.lostPods.length, 0)).toBe(onLost.size);
    // The web replica on a-2 leaves the endpoints and is replaced once evicted (a-3 ran no pod).
    expect(hl.faults[0]!.endpointsLost).toBe(1);
    const evicted = r.events.find((e) => e.type === "PodEvicted")!;
    const replacement = r.events.find((e) => e.type === "PodReady" && e.t >= evicted.t)!;
    expect(hl.faults[0]!.replaced).toBe(replacement.t);
    expect(hl.faults[1]!.lostPods).toEqual([]);
    expect(hl.zones).toEqual([expect.objectContaining({ zone: "a", state: "PartialDisruption" })]);
    expect(hl.podsReady).toBe(r.summary.pods.filter((p) => p.ready).length);
  });

  it("probes: pod faults speak of pods, not nodes; the dependency's return is a recovery", () => {
    const s = loadScenarioFile("examples/probes.yaml");
    const r = simulate(s);
    const hl = headline(r, s);
    expect(hl.nodesLost).toBe(0);
    expect(hl.faults.map((f) => f.do)).toEqual([
      "dependency-down",
      "dependency-up",
      "deadlock",
      "crash",
      "crash",
      "crash",
      "crash",
    ]);
    expect(hl.faults.every((f) => f.kind === "pod")).toBe(true);
    expect(hl.faults[1]!.recovery).toBe(true);
    // The crash at 401s finds the container running again: after the liveness kill, the first exit
    // leaves no back-off behind (kuberuntime_manager.go doBackOff reads the status from before the
    // kill), so the kubelet restarted it at once, and this crash has an effect.
    expect(hl.faults[4]!.noEffect).not.toBe(true);
    // The deadlock: liveness kills the container and the kubelet restarts it in place.
    expect(hl.faults[2]!.restarts).toBeGreaterThan(0);
    expect(hl.faults[2]!.noticed).toBeGreaterThan(200);
  });
});

describe("series, steps and owners", () => {
  it("ready endpoints: 4 at the start (3 web + db), 2 once worker-2's are out, 3 with the replacement", () => {
    const s = clusterSeries(result, scenario);
    expect(s.readyEndpoints[0]).toBe(4);
    expect(s.readyEndpoints[Math.ceil(at("NodeNotReady")) + 1]).toBe(2);
    expect(s.readyEndpoints[s.readyEndpoints.length - 1]).toBe(3);
    // 7 pods Running and Ready at the start: 3 web, db-0, 3 node-exporter.
    expect(s.phases[2]![0]).toBe(7);
  });

  it("steps group the events by time and show only the Lease renewal before the silence", () => {
    const st = steps(result);
    expect(st.map((x) => x.t)).toEqual([...st.map((x) => x.t)].sort((a, b) => a - b));
    const leases = st.flatMap((x) => x.events).filter((i) => result.events[i]!.type === "LeaseRenewed");
    expect(leases).toHaveLength(1);
  });

  it("every pod maps to its workload: the three at t=0 by kind, and the replacement the ReplicaSet created", () => {
    const owners = podOwners(result);
    expect(Object.fromEntries(owners)).toEqual({
      "Pod/default/db-0": "StatefulSet/default/db",
      "Pod/default/node-exporter-7p8v5": "DaemonSet/default/node-exporter",
      "Pod/default/node-exporter-m9l45": "DaemonSet/default/node-exporter",
      "Pod/default/node-exporter-vphwg": "DaemonSet/default/node-exporter",
      "Pod/default/web-7c574d4ccf-7m7q6": "Deployment/default/web",
      "Pod/default/web-7c574d4ccf-fcc4r": "Deployment/default/web",
      "Pod/default/web-7c574d4ccf-zcmpl": "Deployment/default/web",
      "Pod/default/web-7c574d4ccf-vbw89": "Deployment/default/web",
    });
  });

  it("owners are the ones the run names, not guessed from names: a bare Pod named like a Deployment's pods is its own", () => {
    // A Pod named `<deployment>-<hash>-<suffix>` or `<statefulset>-<ordinal>` is still a bare Pod: a
    // pod's workload is its controller's (metadata.ownerReferences), which the result carries.
    const s = inline(`name: look-alikes
kubernetesVersion: "1.32"
duration: 1m
nodes: [{name: worker-1}]
manifests:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 1
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: web, image: nginx}]}
  - apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: db}
    spec:
      replicas: 1
      serviceName: db
      selector: {matchLabels: {app: db}}
      template:
        metadata: {labels: {app: db}}
        spec: {containers: [{name: db, image: postgres}]}
  - apiVersion: v1
    kind: Pod
    metadata: {name: web-5d8f7c9b6-abcde, labels: {app: tool}}
    spec: {containers: [{name: tool, image: busybox}]}
  - apiVersion: v1
    kind: Pod
    metadata: {name: db-7, labels: {app: tool}}
    spec: {containers: [{name: tool, image: busybox}]}
`);
    const r = simulate(s);
    const owners = podOwners(r);
    expect(owners.get("Pod/default/web-5d8f7c9b6-abcde")).toBe("Pod/default/web-5d8f7c9b6-abcde");
    expect(owners.get("Pod/default/db-7")).toBe("Pod/default/db-7");
    expect(owners.get("Pod/default/db-0")).toBe("StatefulSet/default/db");
    expect([...owners.values()].filter((o) => o === "Deployment/default/web")).toHaveLength(1);
    expect(owners.size).toBe(4);
  });
});

describe("what-if", () => {
  it("applies settings to a copy and leaves the loaded scenario alone", () => {
    const s = applyWhatIf(scenario, {
      kubernetesVersion: "1.31",
      nodeMonitorGracePeriod: 20,
      defaultUnreachableTolerationSeconds: 60,
      externalTrafficPolicy: "Local",
      probes: [{ workload: "Deployment/web", container: "web", probe: "readiness", periodSeconds: 2 }],
    });
    expect(currentSettings(s)).toMatchObject({
      kubernetesVersion: "1.31",
      nodeMonitorGracePeriod: 20,
      defaultUnreachableTolerationSeconds: 60,
      externalTrafficPolicy: "Local",
    });
    expect(currentSettings(scenario)).toMatchObject({
      nodeMonitorGracePeriod: 50,
      externalTrafficPolicy: "Cluster",
    });
    const hl = headline(simulate(s), s);
    expect(hl.noticed! - 10).toBeLessThan(35);
    expect(hl.replaced! - 10).toBeLessThan(150);
  });
});

describe("the headline of a run with callers (the published experiment's platform)", () => {
  it("traffic stopped when the callers' last request reached the lost node, not when the EndpointSlice changed", () => {
    const s = loadScenarioFile("examples/traffic-doks-power-off.yaml");
    const r = simulate(s);
    const hl = headline(r, s);
    const endpointOut = r.events.find((e) => e.type === "EndpointNotReady" && e.node === "worker-2")!.t;
    const lastToLostNode = Math.max(
      ...r
        .traffic!.causes.filter((c) => c.count > 0 && /lost node|not yet removed/.test(c.cause))
        .map((c) => c.last),
    );
    // kube-proxy and the load balancer lag the EndpointSlice by about 10s on this platform.
    expect(lastToLostNode - endpointOut).toBeGreaterThan(5);
    expect(hl.trafficStopped).toBe(lastToLostNode);
  });
});

describe("the latency chart's series", () => {
  const s = loadScenarioFile("examples/traffic-doks-power-off.yaml");
  const r = simulate(s);
  const t = r.traffic!;

  it("only with callers", () => {
    expect(latencySeries(result, scenario)).toBeNull();
    expect(latencySeries(r, s)).not.toBeNull();
  });

  it("the run's own per-second percentiles, its callers' 10s timeout, the loss window by send time", () => {
    const l = latencySeries(r, s)!;
    expect(l.t).toEqual(t.perSecond.map((p) => p.t));
    expect(l.p99).toEqual(t.perSecond.map((p) => p.p99Ms));
    expect(l.lines).toEqual([{ kind: "timeout", ms: 10_000, services: ["default/web"] }]);
    expect(l.window).toEqual({ first: t.firstFailure, last: t.lastFailure });
  });

  it("the table: every second once, in order; a row's seconds share its percentiles and whether any was lost", () => {
    const l = latencySeries(r, s)!;
    expect(
      l.rows.flatMap((row) => Array.from({ length: row.to - row.from + 1 }, (_, i) => row.from + i)),
    ).toEqual(l.t);
    for (const row of l.rows) {
      const secs = t.perSecond.filter((p) => p.t >= row.from && p.t <= row.to);
      for (const p of secs) {
        expect([p.p50Ms, p.p99Ms, p.maxMs]).toEqual([row.p50Ms, row.p99Ms, row.maxMs]);
        expect(p.timeout + p.refused + p.error > 0).toBe(row.lost > 0);
      }
      expect(row.sent).toBe(secs.reduce((a, p) => a + p.sent, 0));
    }
    expect(l.rows.reduce((a, row) => a + row.lost, 0)).toBe(
      t.totals.timeout + t.totals.refused + t.totals.error,
    );
    // Merged: far fewer rows than seconds, and no two neighbours that could have been one.
    expect(l.rows.length).toBeLessThan(l.t.length / 10);
    const key = (row: (typeof l.rows)[number]) => [row.p50Ms, row.p99Ms, row.maxMs, row.lost > 0];
    for (let i = 1; i < l.rows.length; i++) expect(key(l.rows[i]!)).not.toEqual(key(l.rows[i - 1]!));
  });

  it.each([
    ["one caller", [{ service: "a/x", timeout: 5 }], [{ kind: "timeout", ms: 5000, services: ["a/x"] }]],
    [
      "two callers with one timeout",
      [
        { service: "a/x", timeout: 5 },
        { service: "a/y", timeout: 5 },
      ],
      [{ kind: "timeout", ms: 5000, services: ["a/x", "a/y"] }],
    ],
    [
      "an SLO",
      [
        { service: "a/x", timeout: 5, slo: 0.5 },
        { service: "a/y", timeout: 2 },
      ],
      [
        { kind: "timeout", ms: 5000, services: ["a/x"] },
        { kind: "slo", ms: 500, services: ["a/x"] },
        { kind: "timeout", ms: 2000, services: ["a/y"] },
      ],
    ],
  ])("lines: %s", (_name, callers, lines) => {
    const sc = { ...s, traffic: callers.map((c) => ({ ...s.traffic![0]!, slo: undefined, ...c })) };
    expect(latencySeries(r as ReportResult, sc)!.lines).toEqual(lines);
  });
});

describe("the headline's words fit the run", () => {
  it("statefulset-recovery: the out-of-service taint is an operator's action, not a second fault; the loss keeps its window", () => {
    const s = loadScenarioFile("examples/statefulset-recovery.yaml");
    const hl = headline(simulate(s), s);
    const taint = hl.faults.find((f) => f.do === "taint-out-of-service")!;
    expect(taint.recovery).toBe(true);
    const real = hl.faults.filter((f) => !f.recovery && !f.noEffect);
    expect(real.map((f) => f.do)).toEqual(["power-off"]);
    // PodGC force-deletes the pods of the tainted node: the StatefulSet member is replaced after it
    expect(real[0]!.replaced).toBeGreaterThan(taint.t);
  });

  it("a run without callers gets no caller-side advice (outlier detection, timeouts)", () => {
    expect(scenario.traffic ?? []).toEqual([]);
    expect([NEXT_LEVERS.callerChecks.title, NEXT_LEVERS.timeouts.title]).not.toContain(
      headline(result, scenario).next.title,
    );
  });
});
