// The seed's worked example must come out of the analysis (seeds/003: "Detecting dead nodes with heartbeats").
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  analyzeDetector,
  compareDetectors,
  detectionTime,
  empiricalGaps,
  exponentialGaps,
  exponentialPhi,
  exponentialSilenceFor,
  type GapDistribution,
  heartbeatMessagesPerSecond,
  lognormalGaps,
  normalGaps,
  phi,
  phiNormalSilenceFor,
  pickThreshold,
  shiftedExponentialGaps,
  withPauseTail,
} from "../../src/detectors/index.ts";

const seedGaps = (): GapDistribution => withPauseTail(normalGaps(1000, 100), 5000, 1e-4, 1000);

describe("the seed's worked example", () => {
  it("5s fixed timeout, one gap in 10,000 over 5s: ≈ 8.6 false suspicions per node per day, ≈ 2,600 across 300 nodes", () => {
    const a = analyzeDetector(seedGaps(), { kind: "fixed", timeoutMs: 5000 }, { nodes: 300 });
    expect(a.mistakeProbabilityPerGap).toBeCloseTo(1e-4, 10);
    expect(a.falseSuspicionsPerNodePerDay).toBeGreaterThan(8.55);
    expect(a.falseSuspicionsPerNodePerDay).toBeLessThan(8.65);
    expect(a.falseSuspicionsPerClusterPerDay).toBeGreaterThan(2550);
    expect(a.falseSuspicionsPerClusterPerDay).toBeLessThan(2650);
    expect(a.peerSuspicionsPerDay).toBeCloseTo(a.falseSuspicionsPerClusterPerDay * 299, 6);
  });

  it.each([
    [1000, 2, 4605],
    [1000, 8, 18_421],
    [1500, 2, 6908],
    [1500, 8, 27_631],
  ])("mean gap %d ms: phi %d after ≈ %d ms of silence", (mean, threshold, expected) => {
    expect(Math.abs(exponentialSilenceFor(threshold, mean) - expected)).toBeLessThan(1);
    expect(exponentialPhi(exponentialSilenceFor(threshold, mean), mean)).toBeCloseTo(threshold, 12);
  });

  it("the analysis learns the 1s mean from the gaps and puts phi 2 / 8 at ≈ 4.6s / 18.4s", () => {
    const [p2, p8] = compareDetectors(seedGaps(), [
      { kind: "phi-exponential", threshold: 2 },
      { kind: "phi-exponential", threshold: 8 },
    ]);
    expect(p2!.suspectAfterMs / 1000).toBeCloseTo(4.6, 1);
    expect(p8!.suspectAfterMs / 1000).toBeCloseTo(18.4, 1);
    expect(p8!.falseSuspicionsPerNodePerDay).toBeLessThan(1e-3);
  });

  it("after 6s of silence phi ≈ 2.6 with a 1s mean and ≈ 0.87 with a 3s mean", () => {
    expect(exponentialPhi(6000, 1000)).toBeCloseTo(2.606, 3);
    expect(exponentialPhi(6000, 3000)).toBeCloseTo(0.869, 3);
  });

  it("all-to-all at 1,000 nodes is about a million messages a second", () => {
    expect(heartbeatMessagesPerSecond({ kind: "all-to-all" }, 1000, 1000)).toBe(999_000);
    expect(heartbeatMessagesPerSecond({ kind: "lease" }, 1000, 1000)).toBe(1000);
    expect(heartbeatMessagesPerSecond({ kind: "watchers", k: 9 }, 1000, 1000)).toBe(9000);
  });
});

describe("Akka normal model in the analysis", () => {
  it("the silence for a threshold inverts phi", () => {
    for (const th of [0.5, 1, 2, 3, 8, 12, 30]) {
      const t = phiNormalSilenceFor(th, 4000, 100);
      expect(phi(t, 4000, 100)).toBeGreaterThanOrEqual(th);
      expect(phi(t - 1e-6, 4000, 100)).toBeLessThan(th);
    }
  });

  it("steady state with regular 1s beats: phi 8 at about mean + pause + 5.2 × min-sd", () => {
    const a = analyzeDetector(normalGaps(1000, 50), { kind: "phi-normal", threshold: 8 });
    expect(a.learnedMeanMs!).toBeCloseTo(1000, 0);
    expect(a.suspectAfterMs).toBeGreaterThan(4500);
    expect(a.suspectAfterMs).toBeLessThan(4550);
  });

  it("no phi threshold rescues the normal model from a 5s pause tail with a 3s acceptable pause", () => {
    expect(pickThreshold(seedGaps(), { kind: "phi-normal" }, 0.01)).toBeUndefined();
    expect(
      pickThreshold(seedGaps(), { kind: "phi-normal", acceptableHeartbeatPauseMs: 12_000 }, 0.01),
    ).toBeDefined();
  });
});

describe("detection time", () => {
  it("regular beats: a crash is detected between D − T and D after it, D − T/2 on average", () => {
    const d = detectionTime(normalGaps(1000, 1), 5000);
    expect(d.meanMs).toBeCloseTo(4500, 0);
    expect(d.p50Ms).toBeCloseTo(4500, 0);
    expect(d.p99Ms).toBeCloseTo(4990, 0);
    expect(d.worstMs).toBe(5000);
  });

  it("exponential gaps are memoryless: the mean delay is t* − mean·(1 − e^(−t*/mean))", () => {
    const d = detectionTime(exponentialGaps(1000), 5000);
    expect(d.meanMs).toBeCloseTo(5000 - 1000 * (1 - Math.exp(-5)), 6);
  });
});

describe("pickThreshold", () => {
  it("returns the lowest threshold within budget, and lower budgets need higher thresholds", () => {
    const dist = seedGaps();
    const a = pickThreshold(dist, { kind: "phi-exponential" }, 1)!;
    const b = pickThreshold(dist, { kind: "phi-exponential" }, 0.001)!;
    expect(a.analysis.falseSuspicionsPerNodePerDay).toBeLessThanOrEqual(1);
    expect(b.value).toBeGreaterThan(a.value);
    const below = analyzeDetector(dist, { kind: "phi-exponential", threshold: a.value - 0.01 });
    expect(below.falseSuspicionsPerNodePerDay).toBeGreaterThan(1);
    const fixed = pickThreshold(dist, { kind: "fixed" }, 1)!;
    expect(fixed.value).toBeGreaterThan(5000);
  });
});

describe("distributions", () => {
  const dists: Array<[string, GapDistribution]> = [
    ["exponential", exponentialGaps(1000)],
    ["normal", normalGaps(1000, 300)],
    ["lognormal", lognormalGaps(1000, 0.5)],
    ["shifted exponential", shiftedExponentialGaps(5000, 1000)],
    ["pause tail", withPauseTail(normalGaps(1000, 100), 5000, 1e-3, 2000)],
    ["empirical", empiricalGaps([900, 1000, 1000, 1100, 1200, 7000])],
  ];

  it.each(dists)(
    "%s: partial moments agree with numerical integration of the survival function",
    (_name, d) => {
      fc.assert(
        fc.property(fc.double({ min: 1, max: 20_000, noNaN: true }), (c) => {
          const pm = d.partial(c);
          expect(pm.p).toBeCloseTo(1 - d.sf(c), 5);
          // E[min(G, c)] = ∫0^c sf
          let integral = 0;
          const steps = 4000;
          for (let i = 0; i < steps; i++) integral += d.sf(((i + 0.5) * c) / steps) * (c / steps);
          expect(Math.abs(pm.m1 + c * (1 - pm.p) - integral)).toBeLessThan(2e-3 * Math.max(1, c) + 2);
        }),
        { numRuns: 25 },
      );
    },
  );

  it.each(dists)("%s: the partial moments at infinity are the full moments", (_name, d) => {
    const pm = d.partial(Number.POSITIVE_INFINITY);
    expect(pm.p).toBeCloseTo(1, 6);
    expect(pm.m1 / d.meanMs).toBeCloseTo(1, 6);
    expect(pm.m2 / d.secondMomentMs2).toBeCloseTo(1, 6);
  });

  it("a pause tail makes P(gap > T) exactly the requested probability", () => {
    const d = withPauseTail(normalGaps(1000, 100), 5000, 1e-4, 1000);
    expect(d.sf(5000)).toBeCloseTo(1e-4, 12);
    expect(() => withPauseTail(exponentialGaps(1000), 5000, 1e-4, 1000)).toThrow(/already exceeds/);
  });
});
