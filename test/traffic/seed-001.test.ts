// Seed 001 on its calibrated profile (doks-measured): three nodes, 20 keep-alive clients at 175/s
// through the load balancer, 150s observed after a hard kill at t=30s.

import { describe, expect, it } from "vitest";
import { compareVariants, formatComparison } from "../../src/whatif/index.ts";
import { eventsOf, only } from "../helpers/sim.ts";
import { causeCount, failingSeconds, KILL, lost, runTraffic, trafficScenario } from "./helpers.ts";

const LB_LOST = "load balancer still sending to the lost node";
const ROUTED = "routed by a surviving node to an endpoint not yet removed";
const SEEDS = [1, 2, 3, 4, 5];

describe("the published DigitalOcean experiment on doks-measured", () => {
  it.each(SEEDS)(
    "seed %i: NotReady ~2.9s after the kill, kube-proxies drop the endpoint ~10s after that",
    (seed) => {
      const { r } = runTraffic({ profile: "doks-measured", seed });
      const notReady = only(r, "NodeNotReady", (e) => e.node === "worker-2");
      expect(notReady.t - KILL).toBeGreaterThan(2.3);
      expect(notReady.t - KILL).toBeLessThan(3.5);
      const syncs = eventsOf(r, "KubeProxySynced", (e) => e.stopped.length > 0);
      expect(syncs.length).toBeGreaterThanOrEqual(2);
      for (const s of syncs) {
        expect(s.t - notReady.t).toBeGreaterThan(9);
        expect(s.t - notReady.t).toBeLessThan(12);
      }
    },
  );

  it.each(SEEDS)("seed %i, Local: every failed request falls in one window of 10 ± 1.5s", (seed) => {
    const { t } = runTraffic({ profile: "doks-measured", policy: "Local", seed });
    expect(lost(t)).toBeGreaterThan(0);
    expect(t.lossWindow).toBeGreaterThanOrEqual(8.5);
    expect(t.lossWindow).toBeLessThanOrEqual(11.5);
    const secs = failingSeconds(t);
    // one window: consecutive seconds, starting at the kill
    expect(secs[0]).toBeGreaterThanOrEqual(KILL - 1);
    expect(secs.every((s, i) => i === 0 || s === secs[i - 1]! + 1)).toBe(true);
    expect(t.totals.refused).toBe(0);
    expect(causeCount(t, ROUTED)).toBe(0);
  });

  it.each(SEEDS)("seed %i, Cluster: the loss is split between its two causes", (seed) => {
    const { t } = runTraffic({ profile: "doks-measured", policy: "Cluster", seed });
    const total = lost(t);
    expect(causeCount(t, LB_LOST)).toBeGreaterThan(0.25 * total);
    expect(causeCount(t, ROUTED)).toBeGreaterThan(0.25 * total);
    // the load balancer's share ends when it takes the node out; the surviving nodes' share
    // when their kube-proxies drop the endpoint, later
    const lb = t.causes.find((c) => c.cause === LB_LOST)!;
    const routed = t.causes.find((c) => c.cause === ROUTED)!;
    expect(routed.last).toBeGreaterThan(lb.last);
  });

  it("the comparison explains when each policy loses what", () => {
    const s = trafficScenario({ profile: "doks-measured" });
    const results = compareVariants(s, "externalTrafficPolicy=Local,Cluster");
    const text = formatComparison("seed-001", results);
    expect(text).toMatch(
      /externalTrafficPolicy=Local loses:\n.*load balancer still sending to the lost node/,
    );
    expect(text).toMatch(/externalTrafficPolicy=Cluster loses:[\s\S]*routed by a surviving node/);
    expect(results[0]!.traffic!.lossWindow).toBeLessThan(results[1]!.traffic!.lossWindow);
  });

  // The published hard-kill experiment (the doks-measured profile's source) measured the same total
  // loss for Local and Cluster over five runs per policy. The model does not: over seeds 1-5 Local
  // loses 555-653, Cluster 1,104-1,170 (README, Traffic). The model's Cluster adds the surviving
  // nodes' share (kube-proxy routes Cluster traffic to any endpoint in its rules until the update),
  // which Local does not have.
  it("the model disagrees with the measurement: over five seeds Local loses about half of Cluster", () => {
    const losses = (policy: "Local" | "Cluster") =>
      SEEDS.map((seed) => lost(runTraffic({ profile: "doks-measured", policy, seed }).t));
    const local = losses("Local");
    const cluster = losses("Cluster");
    expect(Math.max(...local)).toBeLessThan(0.7 * Math.min(...cluster));
    expect(Math.min(...local)).toBeGreaterThan(0.4 * Math.max(...cluster));
  });

  it("a drain loses at most 2 of about 31,500 requests; a power-off loses over 1%", () => {
    const drain = runTraffic({ profile: "doks-measured", fault: "drain" }).t;
    expect(drain.totals.sent).toBeGreaterThan(31_500 * 0.97);
    expect(drain.totals.sent).toBeLessThan(31_500 * 1.03);
    expect(lost(drain)).toBeLessThanOrEqual(2);
    for (const policy of ["Local", "Cluster"] as const) {
      const off = runTraffic({ profile: "doks-measured", policy }).t;
      expect(lost(off) / off.totals.sent).toBeGreaterThan(0.01);
    }
  });
});
