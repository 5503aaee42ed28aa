// The simulation puts the seed's claims to the test (small clusters keep the tests fast).
import { describe, expect, it } from "vitest";
import { createRng, EventLoop, runScenario, simulate } from "../../src/detectors/index.ts";

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
    const rng = createRng(7);
    const loop = new EventLoop();
    const times: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const t = Math.floor(rng() * 100);
      loop.at(t, () => times.push(t));
    }
    loop.run(1000);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});

describe("createRng", () => {
  it("is deterministic per seed and uniform-looking", () => {
    const a = createRng(42);
    const b = createRng(42);
    const xs = Array.from({ length: 10_000 }, () => a());
    expect(xs.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b()));
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.01);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
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
    ).toThrow(/no node 9/);
  });
});
