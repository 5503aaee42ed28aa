// Budgets: the work a scenario implies is estimated before it runs; what would go
// past the budget is refused with one line naming the settings that multiply to it and the flag that
// raises it (exit 2); an underestimate still ends cleanly at the engine's hard cap.

import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { zoneLossAtScaleText } from "../../bench/zone-loss-at-scale.ts";
import { progressLine } from "../../src/cli/progress.ts";
import { loadScenarioFile, parseScenario } from "../../src/load/index.ts";
import { DEFAULT_BUDGET, estimateWork, overBudget } from "../../src/run/budget.ts";
import { simulate } from "../../src/run/simulate.ts";
import { cli, oneLine } from "./helpers.ts";

const EXAMPLES = readdirSync("examples")
  .filter((f) => f.endsWith(".yaml"))
  .map((f) => `examples/${f}`);

describe("the estimate, against real runs", () => {
  it.each(EXAMPLES)("%s: within a factor of 2 of the engine events it takes, and within budget", (file) => {
    const scenario = loadScenarioFile(file);
    const estimate = estimateWork(scenario);
    const actual = simulate(scenario).summary.engineEvents;
    expect(estimate.events / actual).toBeGreaterThan(0.5);
    expect(estimate.events / actual).toBeLessThan(2);
    expect(overBudget(estimate, DEFAULT_BUDGET)).toBeUndefined();
  });

  it("the traffic example's requests: rate × duration, within 1% of those sent", () => {
    const scenario = loadScenarioFile("examples/traffic-doks-power-off.yaml");
    const sent = simulate(scenario).traffic!.totals.sent;
    expect(Math.abs(estimateWork(scenario).requests / sent - 1)).toBeLessThan(0.01);
  });

  it("the 1,000-node benchmark (22,400 engine events when measured) is estimated near it and not refused", () => {
    const estimate = estimateWork(
      parseScenario(zoneLossAtScaleText(), "zone-loss-at-scale.yaml", () => undefined),
    );
    expect(estimate.events / 22_400).toBeGreaterThan(0.7);
    expect(estimate.events / 22_400).toBeLessThan(2);
    expect(estimate.events).toBeLessThan(DEFAULT_BUDGET.maxEvents / 2);
    expect(overBudget(estimate, DEFAULT_BUDGET)).toBeUndefined();
  });
});

/** Scenarios that would run for hours or exhaust memory. */
const ABSURD: [string, string, RegExp][] = [
  [
    "nodeStatusUpdateFrequency 1ms for 168h",
    "duration: 168h\nnodes: {count: 3}\nkubelet: {nodeStatusUpdateFrequency: 1ms}",
    /nodeStatus/,
  ],
  [
    "nodeMonitorPeriod 1ms for 168h",
    "duration: 168h\nnodes: {count: 3}\ncontrolPlane: {nodeMonitorPeriod: 1ms}",
    /nodeMonitorPeriod/,
  ],
  [
    "rate 100000 for 168h",
    `duration: 168h\nnodes: {count: 3}\nmanifests:\n${web(3)}\ntraffic: [{service: default/web, rate: 100000}]`,
    /traffic ticks|rate 100,000/,
  ],
  [
    "rate 100000 for 2h",
    `duration: 2h\nnodes: {count: 3}\nmanifests:\n${web(3)}\ntraffic: [{service: default/web, rate: 100000}]`,
    /720,000,000 simulated requests.*rate 100,000\/s × 7,200s.*--max-requests/,
  ],
  [
    "healthCheckInterval 1ms for 168h",
    `duration: 168h\nnodes: {count: 3}\nmanifests:\n${web(3).replace("spec: {selector", "spec: {type: LoadBalancer, selector")}\ntraffic: [{service: default/web, rate: 1}]\nnetwork: {loadBalancer: {healthCheckInterval: 1ms}}`,
    /healthCheckInterval/,
  ],
  [
    "150k replicas on 5,000 nodes for a day",
    `duration: 24h\nnodes: {count: 5000}\nmanifests:\n${web(150_000)}`,
    /5,000 nodes.*nodeStatusReportFrequency/,
  ],
];

function web(replicas: number): string {
  return [
    `  - {apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {replicas: ${replicas}, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: web}]}}}}`,
    "  - {apiVersion: v1, kind: Service, metadata: {name: web}, spec: {selector: {app: web}, ports: [{port: 80}]}}",
  ].join("\n");
}

describe("Kubernetes' documented limits run within the default budget", () => {
  it("5,000 nodes and 150,000 pods for 15 minutes (bench/scale.bench.ts, 79,018 events when measured) are not refused", () => {
    const estimate = estimateWork(
      parseScenario(zoneLossAtScaleText(5000), "zone-loss-at-scale.yaml", () => undefined),
    );
    expect(estimate.events / 79_018).toBeGreaterThan(0.7);
    expect(overBudget(estimate, DEFAULT_BUDGET)).toBeUndefined();
  });
});

describe("healthy Lease renewals are computed, not run (kubelet/node-lease.ts)", () => {
  it("1s leases × 100 nodes × 7 days cost no event per renewal and are not refused", () => {
    const scenario = parseScenario(
      "duration: 168h\nnodes: {count: 100}\nkubelet: {nodeLeaseDurationSeconds: 1}",
      "leases.yaml",
      () => undefined,
    );
    const estimate = estimateWork(scenario);
    // 100 nodes renewing every 0.25s for a week would be 242 M passes; only the first of each is an event.
    expect(estimate.eventTerms.find((t) => t.what === "Lease renewal passes")?.count).toBe(200);
    expect(overBudget(estimate, DEFAULT_BUDGET)).toBeUndefined();
  });
});

describe("refused before it runs: one line, exit 2, the settings that multiply to it and the override", () => {
  it.each(ABSURD)("%s", async (_what, text, names) => {
    const scenario = parseScenario(text, "absurd.yaml", () => undefined);
    const over = overBudget(estimateWork(scenario), DEFAULT_BUDGET);
    expect(over).toBeDefined();
    expect(over).toMatch(names);
    expect(over).toMatch(/--max-(events|requests) \d+/);
    expect(over).not.toContain("\n");
  });

  it("through the command line, with --max-events lowered on an example", async () => {
    const r = await cli(["simulate", "examples/node-power-loss.yaml", "--max-events", "100"]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(oneLine(r.err)).toBe(true);
    expect(r.err).toMatch(
      /^faultline: examples\/node-power-loss\.yaml: about [\d,]+ engine events per run, over the budget of 100; most are .*--max-events \d+\n$/,
    );
  });

  it("--max-events and --max-requests take whole numbers only", async () => {
    for (const bad of ["0", "-5", "1e9", "lots"]) {
      const r = await cli(["simulate", "examples/node-power-loss.yaml", "--max-events", bad]);
      expect(r.code).toBe(2);
      expect(oneLine(r.err)).toBe(true);
    }
  });
});

describe("an underestimate ends at the hard cap, cleanly", () => {
  it("a budget between the estimate and the real count stops the run with one line, exit 2", async () => {
    const scenario = loadScenarioFile("examples/short-grace.yaml");
    const estimate = Math.ceil(estimateWork(scenario).events);
    const actual = simulate(scenario).summary.engineEvents;
    expect(estimate).toBeLessThan(actual); // this example is the one the estimate undershoots
    const r = await cli(["simulate", "examples/short-grace.yaml", "--max-events", String(estimate)]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(oneLine(r.err)).toBe(true);
    expect(r.err).toMatch(
      /went past its budget of [\d,]+ engine events (at t=\S+|in the warm-up) .*--max-events \d+/,
    );
  });

  it("a budget at the real count runs it, with the same output as without one", async () => {
    const actual = simulate(loadScenarioFile("examples/short-grace.yaml")).summary.engineEvents;
    const capped = await cli([
      "simulate",
      "examples/short-grace.yaml",
      "--json",
      "--max-events",
      String(actual),
    ]);
    const free = await cli(["simulate", "examples/short-grace.yaml", "--json"]);
    expect(capped.code).toBe(0);
    expect(capped.out).toBe(free.out);
  });
});

describe("progress on a terminal", () => {
  const big = { events: 500_000, requests: 0, eventTerms: [], requestTerms: [] };

  it("a large run rewrites one line at most every 250ms, then clears it", () => {
    const lines: (string | undefined)[] = [];
    let wall = 0;
    const p = progressLine(
      { out: () => {}, err: () => {}, progress: (l) => lines.push(l) },
      "big",
      big,
      900,
      () => wall,
    )!;
    p.onProgress(-300, 4096);
    wall = 100;
    p.onProgress(-200, 8192);
    wall = 300;
    p.onProgress(-100, 12288);
    wall = 600;
    p.onProgress(450, 16384);
    p.done();
    expect(lines).toEqual([
      "faultline: big: warming up, t=-1m40s · 12,288 of ~500,000 events",
      "faultline: big: t=7m30s of 15m · 16,384 of ~500,000 events",
      undefined,
    ]);
  });

  it("silent when stderr is not a terminal, or the run is small", () => {
    expect(progressLine({ out: () => {}, err: () => {} }, "big", big, 900)).toBeUndefined();
    const small = { ...big, events: 1_000 };
    expect(
      progressLine({ out: () => {}, err: () => {}, progress: () => {} }, "small", small, 900),
    ).toBeUndefined();
  });

  it("the engine calls onProgress every 4,096 events; the output is unchanged", () => {
    const scenario = loadScenarioFile("examples/traffic-doks-power-off.yaml");
    const seen: number[] = [];
    const withProgress = simulate(scenario, { engine: { onProgress: (_t, n) => seen.push(n) } });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((n) => n % 4096 === 0)).toBe(true);
    expect(JSON.stringify(withProgress)).toBe(JSON.stringify(simulate(scenario)));
  });
});

describe("the levers' runs", () => {
  it("--no-levers skips them: the same run without its 'what shortens it' lines", async () => {
    const file = "examples/traffic-doks-power-off.yaml";
    const [full, skipped] = await Promise.all([
      cli(["simulate", file]),
      cli(["simulate", file, "--no-levers"]),
    ]);
    expect(full.code).toBe(0);
    expect(skipped.code).toBe(0);
    expect(full.out).toContain("what shortens it");
    expect(skipped.out).not.toContain("what shortens it");
    const withoutLevers = full.out
      .split("\n")
      .filter((l, i, all) => {
        const start = all.findIndex((x) => x.includes("what shortens it"));
        return i < start || !(i === start || /^ {4}\S/.test(l));
      })
      .join("\n");
    expect(skipped.out).toBe(withoutLevers);
  });

  it("run inside the run's progress line, under their own label", () => {
    const lines: (string | undefined)[] = [];
    let wall = 0;
    const p = progressLine(
      { out: () => {}, err: () => {}, progress: (l) => lines.push(l) },
      "shop",
      { events: 500_000, requests: 0, eventTerms: [], requestTerms: [] },
      900,
      () => (wall += 1000),
    )!;
    p.onProgress(900, 8192);
    p.relabel("shop, its levers' runs");
    p.onProgress(-100, 4096);
    expect(lines).toEqual([
      "faultline: shop: t=15m of 15m · 8,192 of ~500,000 events",
      "faultline: shop, its levers' runs: warming up, t=-1m40s · 4,096 of ~500,000 events",
    ]);
  });
});
