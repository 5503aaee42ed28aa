// The simulation puts the seed's claims to the test (small clusters keep the tests fast).
import { describe, expect, it } from "vitest";
import {
  EventLoop,
  estimateSimulation,
  planScenario,
  Rng,
  runScenario,
  SimulationBudgetExceeded,
  simulate,
  simulationSettings,
} from "../../src/detectors/index.ts";

describe("EventLoop", () => {
  it("runs events in (time, sequence) order and stops at the horizon", () => {
    const loop = new EventLoop();
    const seen: string[] = [];
    loop.at(5, () => seen.push("b"));
    loop.at(1, () => {
      seen.push("a");
      loop.at(5, () => seen.push("c")); // same time as b, scheduled later: runs after b
    });
    loop.at(9, () => seen.push("late"));
    loop.run(8);
    expect(seen).toEqual(["a", "b", "c"]);
    expect(loop.now).toBe(8);
    expect(() => loop.at(7, () => {})).toThrow(RangeError);
  });

  it("keeps heap order for many random events", () => {
    const rng = new Rng(7);
    const loop = new EventLoop();
    const times: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const t = Math.floor(rng.float() * 100);
      loop.at(t, () => times.push(t));
    }
    loop.run(1000);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});

describe("heartbeat-system simulation", () => {
  it("is deterministic for a seed", () => {
    const cfg = {
      nodes: 8,
      durationMs: 20_000,
      seed: 3,
      lossProbability: 0.05,
      detectors: [{ kind: "fixed" as const, timeoutMs: 2500 }],
    };
    expect(simulate(cfg)).toEqual(simulate(cfg));
  });

  it("counts N(N − 1) messages per interval all-to-all, k·N with watchers, N with a lease store", () => {
    const all = simulate({ nodes: 20, durationMs: 10_000, detectors: [] });
    expect(all.messages.perSecond).toBeGreaterThan(20 * 19 * 0.97);
    expect(all.messages.perSecond).toBeLessThanOrEqual(20 * 19);
    const report = runScenario("cost", { nodes: 50, durationMs: 10_000 });
    const rates = Object.fromEntries(report.runs.map((r) => [r.label, r.result.messages.perSecond]));
    expect(rates["all-to-all"]).toBeCloseTo(2450, -2);
    expect(rates["watchers:9"]).toBeCloseTo(450, -1);
    expect(rates.lease).toBeCloseTo(50, 0);
  });

  it("a 6s GC pause: the fixed 5s timeout convicts the node at every peer, phi 8 (exponential) at none", () => {
    const r = runScenario("gc-pause", { nodes: 12 }).runs[0]!.result;
    const by = Object.fromEntries(r.detectors.map((d) => [d.label, d]));
    const fixed = by["fixed timeout 5000ms"]!;
    expect(fixed.topSuspects[0]).toEqual({ node: 0, monitors: 11 });
    const phi8 = by["phi exponential 8"]!;
    expect(phi8.falseSuspicions).toBe(0);
    // Akka's normal model with its default 3s acceptable pause fires at ≈ 4.5s of silence: it convicts too.
    expect(by["phi normal (akka) 8"]!.topSuspects[0]).toEqual({ node: 0, monitors: 11 });
  });

  it("a paused monitor convicts everyone without self-pause detection and no one with it", () => {
    const [without, withGuard] = runScenario("monitor-pause", { nodes: 12 }).runs;
    for (const d of without!.result.detectors) expect(d.topAccusers[0]).toEqual({ monitor: 0, targets: 11 });
    for (const d of withGuard!.result.detectors) {
      expect(d.topAccusers.find((a) => a.monitor === 0)).toBeUndefined();
      // the peers still (rightly, by their rules) suspect the silent node 0
      expect(d.falselySuspectedNodes).toEqual([0]);
    }
    expect(withGuard!.result.selfPausesNoticed).toBe(1);
  });

  it("a heartbeat thread beating while progress stalls is caught only by the ProgressDetector", () => {
    const r = runScenario("stalled-progress", { nodes: 6 }).runs[0]!.result;
    const by = Object.fromEntries(r.detectors.map((d) => [d.label, d]));
    expect(by["fixed timeout 5000ms"]!.stallDetection.detected).toBe(0);
    expect(by["phi normal (akka) 8"]!.stallDetection.detected).toBe(0);
    const p = by["progress 30000ms"]!;
    expect(p.stallDetection.detected).toBe(5);
    expect(p.stallDetection.delay!.minMs).toBeGreaterThanOrEqual(29_000);
    expect(p.stallDetection.delay!.maxMs).toBeLessThanOrEqual(32_000);
    expect(p.falseSuspicions).toBe(0);
  });

  it("crashes are detected by every live monitor, fixed 5s between 4s and 6s, phi 8 (exponential) near 18.4s", () => {
    const r = runScenario("crash", { nodes: 10 }).runs[0]!.result;
    const by = Object.fromEntries(r.detectors.map((d) => [d.label, d]));
    for (const d of r.detectors) {
      expect(d.crashDetection.detected).toBe(d.crashDetection.expected);
      expect(d.falseSuspicions).toBe(0);
    }
    const f = by["fixed timeout 5000ms"]!.crashDetection.delay!;
    expect(f.minMs).toBeGreaterThanOrEqual(4000);
    expect(f.maxMs).toBeLessThanOrEqual(6100);
    const p = by["phi exponential 8"]!.crashDetection.delay!;
    expect(p.meanMs).toBeGreaterThan(17_000);
    expect(p.meanMs).toBeLessThan(20_500);
  });

  it("packet loss makes a tight fixed timeout flap and leaves phi 8 (exponential) quiet", () => {
    const r = simulate({
      nodes: 10,
      durationMs: 300_000,
      lossProbability: 0.3,
      detectors: [
        { kind: "fixed", timeoutMs: 2500 },
        { kind: "phi-exponential", threshold: 8 },
      ],
    });
    expect(r.messages.lost / r.messages.sent).toBeCloseTo(0.3, 1);
    expect(r.detectors[0]!.falseSuspicions).toBeGreaterThan(10);
    expect(r.detectors[1]!.falseSuspicions).toBe(0);
  });

  it("watchers: each node is judged by exactly k monitors", () => {
    const r = simulate({
      nodes: 20,
      topology: { kind: "watchers", k: 3 },
      durationMs: 30_000,
      detectors: [{ kind: "fixed", timeoutMs: 3000 }],
      crashes: [{ node: 7, atMs: 10_000 }],
    });
    expect(r.detectors[0]!.crashDetection.expected).toBe(3);
    expect(r.detectors[0]!.crashDetection.detected).toBe(3);
  });

  it("lease store: one monitor, lease expiry detects the crash", () => {
    const r = simulate({
      nodes: 10,
      topology: { kind: "lease" },
      heartbeatIntervalMs: 1000,
      durationMs: 30_000,
      detectors: [{ kind: "lease", durationMs: 4000 }],
      crashes: [{ node: 2, atMs: 10_000 }],
    });
    expect(r.messages.perSecond).toBeCloseTo((9 * 30 + 10) / 30, 0); // node 2 stops beating at 10s
    expect(r.detectors[0]!.crashDetection.detected).toBe(1);
    expect(r.detectors[0]!.crashDetection.delay!.maxMs).toBeLessThanOrEqual(5000);
  });

  it("rejects bad configurations", () => {
    expect(() => simulate({ nodes: 1, durationMs: 1000, detectors: [] })).toThrow(RangeError);
    expect(() =>
      simulate({ nodes: 3, durationMs: 1000, detectors: [], pauses: [{ node: 9, atMs: 0, durationMs: 1 }] }),
    ).toThrow("simulate: pauses[0].node must be an integer from 0 to 2, got 9");
    // biome-ignore lint/suspicious/noExplicitAny: calling as JavaScript would
    expect(() => simulate(undefined as any)).toThrow(/missing configuration/);
    // biome-ignore lint/suspicious/noExplicitAny: calling as JavaScript would
    expect(() => simulate({ nodes: 3, detectors: [] } as any)).toThrow(
      /durationMs must be a number, got undefined/,
    );
    expect(() =>
      simulate({ nodes: 3, durationMs: 1000, detectors: [{ kind: "fixed", timeoutMs: Number.NaN }] }),
    ).toThrow(/FixedTimeoutDetector: timeoutMs must be > 0, got NaN/);
    expect(() => simulate({ nodes: 3, durationMs: Number.POSITIVE_INFINITY, detectors: [] })).toThrow(
      RangeError,
    );
  });
});

describe("the simulation's bounds", () => {
  const gc = (o: Parameters<typeof planScenario>[1]) => planScenario("gc-pause", o).runs[0]!.config;

  it("nothing below 1 ms: a heartbeat interval or a judging interval of 0.5 ms is refused", () => {
    expect(() => simulate({ ...gc({ nodes: 3 }), heartbeatIntervalMs: 0.5 })).toThrow(
      "simulate: heartbeatIntervalMs must be a finite number >= 1 (nothing below 1 ms is simulated), got 0.5",
    );
    expect(() => simulate({ ...gc({ nodes: 3 }), checkIntervalMs: 0 })).toThrow(/nothing below 1 ms/);
    expect(() => simulate({ ...gc({ nodes: 3 }), sendJitterMs: 1000 })).toThrow(
      /below the heartbeat interval/,
    );
  });

  it("3,000 nodes all-to-all are refused before anything is allocated (it used to abort out of memory)", () => {
    const config = gc({ nodes: 3000 });
    const e = estimateSimulation(simulationSettings(config));
    expect(e.pairs).toBe(3000 * 2999);
    expect(e.detectorStates).toBe(3000 * 2999 * 4);
    let error: unknown;
    try {
      simulate(config);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SimulationBudgetExceeded);
    expect((error as SimulationBudgetExceeded).budget).toBe("detectors");
    expect((error as Error).message).toContain(
      "35,988,000 detector states (3,000 nodes × 2,999 monitors each × 4 detectors)",
    );
  });

  it("a 1 ms interval or 1,000 hours are refused by the event budget, with the product that makes them", () => {
    expect(() => simulate({ ...gc({ nodes: 100 }), heartbeatIntervalMs: 1 })).toThrow(
      /about 1,2\d\d,\d{3},\d{3} events \(100 nodes × 99 monitors each × 120,001 beats = /,
    );
    expect(() => simulate({ ...gc({ nodes: 100 }), durationMs: 3_600_000_000 })).toThrow(
      SimulationBudgetExceeded,
    );
  });

  it("the estimate is an upper bound of what the run does, and the default scenarios fit the budget", () => {
    for (const name of ["gc-pause", "monitor-pause", "stalled-progress", "crash"] as const) {
      for (const run of planScenario(name, { nodes: 12 }).runs) {
        const e = estimateSimulation(simulationSettings(run.config));
        const r = simulate(run.config);
        expect(r.events).toBeLessThanOrEqual(e.deliveries + e.timers);
        expect(r.judgements).toBeLessThanOrEqual(e.judgements);
        expect(r.events).toBeGreaterThan(0.5 * (e.deliveries + e.timers));
      }
      for (const run of planScenario(name).runs) {
        expect(estimateSimulation(simulationSettings(run.config)).events).toBeLessThan(20_000_000);
      }
    }
    const cost = planScenario("cost").runs.map((r) => estimateSimulation(simulationSettings(r.config)));
    expect(cost[0]!.detectorStates).toBe(999_000);
  });
});
