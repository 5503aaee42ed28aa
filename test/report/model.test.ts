// What the HTML report derives from the trace, checked against the seed's story of a node losing power
// (the text timeline in README.md): no browser needed.

import { describe, expect, it } from "vitest";
import { loadScenarioFile } from "../../src/load/index.ts";
import { clusterSeries, headline, LEVERS, podOwners, steps } from "../../src/report/html/model.ts";
import { simulate } from "../../src/run/simulate.ts";
import { applyWhatIf, currentSettings } from "../../src/whatif/index.ts";

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
    expect(hl.failure).toMatchObject({ t: 10, do: "power-off", node: "worker-2" });
    expect(hl.noticed).toBe(at("NodeNotReady", "worker-2"));
    expect(hl.noticed! - 10).toBeGreaterThan(40);
    // The web replica on worker-2 leaves the Service's ready endpoints when the node controller marks it.
    const webOut = result.events.find(
      (e) => e.type === "EndpointNotReady" && e.node === "worker-2" && e.object.includes("web-"),
    )!;
    expect(hl.trafficStopped).toBeGreaterThanOrEqual(webOut.t);
    expect(hl.lostPods.map((p) => p.split("/")[2]!.replace(/-[a-z0-9]+(-[a-z0-9]{5})?$/, ""))).toEqual(
      expect.arrayContaining(["db", "web"]),
    );
  });

  it("the Deployment's replacement is Ready after the 300s toleration; the StatefulSet member waits", () => {
    expect(hl.replaced).toBeGreaterThan(10 + 300);
    expect(hl.notReplaced).toEqual(["db-0"]);
    expect(hl.requestsLost).toBeNull();
    expect(Object.values(LEVERS).map((l) => l.title)).toContain(hl.next.title);
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

  it("every pod maps to its workload", () => {
    const owners = podOwners(result, scenario);
    for (const p of result.summary.pods)
      expect(owners.get(`Pod/${p.pod}`), p.pod).toMatch(/^(Deployment|StatefulSet|DaemonSet)\/default\//);
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

describe("the headline of a run with callers (seed 001's platform)", () => {
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
