// The levers are variants like any other: patches on the source, validated by load/.

import { describe, expect, it } from "vitest";
import { EventBudgetExceeded } from "../../src/engine/engine.ts";
import { simulate } from "../../src/run/simulate.ts";
import { LEVERS, pullLever, pullLevers } from "../../src/whatif/index.ts";
import { example } from "../helpers/sim.ts";
import { withTraffic } from "./helpers.ts";

const lever = (name: string) => LEVERS.find((l) => l.lever.startsWith(name))!;

describe("levers", () => {
  it("halve the grace period in force: the profile's, the version's, the scenario's", () => {
    const halve = lever("node-monitor-grace-period halved");
    const grace = (s: ReturnType<typeof withTraffic>) =>
      pullLever(s, halve).controlPlane.nodeMonitorGracePeriod;
    expect(grace(example("traffic-doks-power-off.yaml"))).toBe(1.25);
    expect(grace(withTraffic("", "1.31"))).toBe(20);
    expect(grace(withTraffic("", "1.32"))).toBe(25);
    expect(grace(withTraffic("controlPlane: {nodeMonitorGracePeriod: 30s}\n"))).toBe(15);
  });

  it("caller levers change only the callers they apply to", () => {
    const s = withTraffic();
    const od = pullLever(s, lever("Envoy-style outlier detection"));
    expect(od.traffic?.map((t) => t.outlierDetection?.consecutive5xx)).toEqual([undefined, 5]);
    const timeout = pullLever(s, lever("a 2s caller timeout"));
    expect(timeout.traffic?.map((t) => t.timeout)).toEqual([2, 2]);
    const retries = pullLever(s, lever("2 retries"));
    expect(retries.traffic?.map((t) => [t.retries, t.retryBudget])).toEqual([
      [2, { ratio: 0.2, minRetriesPerSecond: 10 }],
      [2, { ratio: 0.2, minRetriesPerSecond: 10 }],
    ]);
  });

  it("the traffic policy lever applies where a caller's Service has another policy", () => {
    const s = withTraffic();
    expect(lever("externalTrafficPolicy: Local").applies(s)).toBe(true);
    expect(lever("externalTrafficPolicy: Cluster").applies(s)).toBe(false);
  });
});

describe("the levers' runs are bounded", () => {
  it("each lever's run has the engine budget of the run it varies", () => {
    const s = withTraffic();
    const base = simulate(s, { seed: 1 });
    const used = base.summary.engineEvents;
    // With the run's own budget (what it used, and room to spare) the levers run...
    expect(pullLevers(s, 1, base.traffic!, used * 4).length).toBeGreaterThan(0);
    // ...and a budget far below it stops the first lever's run instead of letting it run unbounded.
    expect(() => pullLevers(s, 1, base.traffic!, Math.floor(used / 10))).toThrow(EventBudgetExceeded);
  });
});
