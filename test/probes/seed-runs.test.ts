// Seed 002's three runs, on the seed's toy kubelet (probeSchedule: period-end, no CrashLoopBackOff),
// must come out exactly; its formula initialDelaySeconds + periodSeconds × failureThreshold is the
// first action time there and an upper bound on the real kubelet.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SimulationResult } from "../../src/run/simulate.ts";
import { eventsOf, example, first, run } from "../helpers/sim.ts";
import { app, cli, SEED_PROBES, TOY } from "./helpers.ts";

/** Times relative to the first container start, as the seed counts them. */
function seedView(r: SimulationResult, pod = "app", horizon = Number.POSITIVE_INFINITY): string[] {
  const mine = r.events.filter((e) => e.object.startsWith(`Pod/default/${pod}-`));
  const t0 = first(r, "ContainerStarted", (e) => e.object.startsWith(`Pod/default/${pod}-`)).t;
  const out: string[] = [];
  for (const e of mine) {
    const t = Math.round((e.t - t0) * 1e6) / 1e6;
    if (t > horizon) break;
    if (e.type === "ProbeSucceeded" && e.probe === "startup")
      out.push(`${t} startup passed, the other two begin`);
    if (e.type === "EndpointReady") out.push(`${t} added to endpoints`);
    if (e.type === "EndpointNotReady") out.push(`${t} removed from endpoints, still running`);
    if (e.type === "ContainerKilled")
      out.push(`${t} ${e.probe} failed ${e.probe === "startup" ? 30 : 3}x: restart`);
  }
  return out;
}

describe("the probe article's runs on its toy kubelet", () => {
  it("boots in 24s, deadlocks at 120s: startup 24, endpoint ready 44, not ready 134, liveness restart 144", () => {
    const r = run(
      app({
        kubelet: TOY,
        behaviour: { bootSeconds: 24, readyAfterSeconds: 40 },
        timeline: [{ at: 122, do: "deadlock", pod: "Deployment/app[0]" }],
        duration: "162s",
      }),
    );
    expect(seedView(r)).toEqual([
      "24 startup passed, the other two begin",
      "44 added to endpoints",
      "134 removed from endpoints, still running",
      "144 liveness failed 3x: restart",
    ]);
  });

  it("boots in 70s with a 60s budget: startup restarts at 60, 120, 180", () => {
    const r = run(app({ kubelet: TOY, behaviour: { bootSeconds: 70 }, duration: "202s" }));
    expect(seedView(r)).toEqual([
      "60 startup failed 30x: restart",
      "120 startup failed 30x: restart",
      "180 startup failed 30x: restart",
    ]);
    // In place: one pod, restartCount climbing.
    expect(eventsOf(r, "PodCreated")).toHaveLength(1);
    expect(eventsOf(r, "ContainerStarted").map((e) => e.restartCount)).toEqual([0, 1, 2, 3]);
  });

  it("no startup probe, boots in 45s: liveness restarts at 30, 60, 90", () => {
    const { startupProbe: _, ...probes } = SEED_PROBES;
    const r = run(app({ kubelet: TOY, probes, behaviour: { bootSeconds: 45 }, duration: "102s" }));
    expect(seedView(r)).toEqual([
      "30 liveness failed 3x: restart",
      "60 liveness failed 3x: restart",
      "90 liveness failed 3x: restart",
    ]);
  });

  it("examples/probes-seed.yaml runs the three side by side (2s later: the containers start at t=2)", () => {
    const r = run(example("probes-seed.yaml"));
    // The seed's horizon for this run is 160s.
    expect(seedView(r, "app", 160)).toEqual([
      "24 startup passed, the other two begin",
      "44 added to endpoints",
      "134 removed from endpoints, still running",
      "144 liveness failed 3x: restart",
    ]);
    expect(eventsOf(r, "ContainerKilled", (e) => e.object.includes("/slow-")).map((e) => e.t)).toEqual([
      62, 122, 182,
    ]);
    expect(eventsOf(r, "ContainerKilled", (e) => e.object.includes("/no-startup-")).map((e) => e.t)).toEqual([
      32, 62, 92, 122, 152, 182,
    ]);
  });
});

describe("faultline probes", () => {
  it("prints the seed's table: startup 60s, readiness 15s, liveness 30s at worst, and the boot budget", async () => {
    const { code, out } = await cli("probes", "examples/manifests-probes/app.yaml");
    expect(code).toBe(0);
    expect(out).toContain("examples/manifests-probes/app.yaml · Deployment app · container app");
    expect(out).toMatch(
      /startup +httpGet :8000\/healthz +container killed and restarted .*up to 60s = initialDelaySeconds 0 \+ periodSeconds 2 × failureThreshold 30/,
    );
    expect(out).toMatch(
      /liveness +httpGet :8000\/healthz +container killed and restarted .*up to 30s = initialDelaySeconds 0 \+ periodSeconds 10 × failureThreshold 3/,
    );
    expect(out).toMatch(
      /readiness +httpGet :8000\/ready +removed from Service endpoints, keeps running +up to 15s = initialDelaySeconds 0 \+ periodSeconds 5 × failureThreshold 3/,
    );
    expect(out).toContain("boot budget: 60s");
  });

  it("--json gives the same numbers", async () => {
    const { code, out } = await cli("probes", "examples/manifests-probes/app.yaml", "--json");
    expect(code).toBe(0);
    const j = JSON.parse(out);
    const probes = j.workloads[0].containers[0].probes;
    expect(
      Object.fromEntries(probes.map((p: { type: string; worstSeconds: number }) => [p.type, p.worstSeconds])),
    ).toEqual({
      startup: 60,
      liveness: 30,
      readiness: 15,
    });
    expect(j.workloads[0].containers[0].bootBudgetSeconds).toBe(60);
  });

  const toy = ["--probe-schedule", "period-end", "--no-crash-loop-back-off"];
  it.each([
    [
      [
        "examples/manifests-probes/app.yaml",
        "--boot",
        "24s",
        "--ready-after",
        "40s",
        "--deadlock-at",
        "120s",
        "--for",
        "160s",
      ],
      [
        "24s startup passed, the other two begin",
        "44s added to endpoints",
        "134s removed from endpoints, still running",
        "144s liveness failed 3x: restart",
      ],
    ],
    [
      ["examples/manifests-probes/app.yaml", "--boot", "70s", "--for", "200s"],
      [
        "60s startup failed 30x: restart",
        "120s startup failed 30x: restart",
        "180s startup failed 30x: restart",
      ],
    ],
    [
      ["examples/manifests-probes/no-startup.yaml", "--boot", "45s", "--for", "100s"],
      [
        "30s liveness failed 3x: restart",
        "60s liveness failed 3x: restart",
        "90s liveness failed 3x: restart",
      ],
    ],
  ])("--boot runs the container through the model as the seed does: %j", async (args, lines) => {
    const { code, out } = await cli("probes", ...args, ...toy);
    expect(code).toBe(0);
    const printed = out
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => /^\d+s (startup passed|added|removed|\w+ failed \d+x)/.test(l));
    expect(printed).toEqual(lines);
  });
});

describe("the formula initialDelaySeconds + periodSeconds × failureThreshold", () => {
  const setting = fc.record({
    period: fc.integer({ min: 1, max: 10 }),
    threshold: fc.integer({ min: 1, max: 30 }),
    delay: fc.integer({ min: 0, max: 20 }),
  });
  const firstKill = (
    p: { period: number; threshold: number; delay: number },
    kubelet?: Record<string, unknown>,
  ) => {
    const r = run(
      app({
        probes: {
          startupProbe: {
            httpGet: { path: "/healthz", port: 8000 },
            periodSeconds: p.period,
            failureThreshold: p.threshold,
            initialDelaySeconds: p.delay,
          },
        },
        behaviour: { bootSeconds: 100_000 },
        duration: "700s",
        ...(kubelet ? { kubelet } : {}),
      }),
    );
    const start = first(r, "ContainerStarted").t;
    return first(r, "ContainerKilled").t - start;
  };

  it("is the first action time on the toy kubelet", () => {
    fc.assert(
      fc.property(setting, (p) => {
        expect(firstKill(p, TOY)).toBeCloseTo(p.delay + p.period * p.threshold, 6);
      }),
      { numRuns: 60, seed: 2 },
    );
  });

  it("is never exceeded by the default kubelet, which acts at most a period sooner", () => {
    fc.assert(
      fc.property(setting, (p) => {
        const t = firstKill(p);
        const formula = p.delay + p.period * p.threshold;
        expect(t).toBeLessThanOrEqual(formula + 1e-6);
        expect(t).toBeGreaterThanOrEqual(formula - p.period - 1e-6);
      }),
      { numRuns: 60, seed: 2 },
    );
  });
});
