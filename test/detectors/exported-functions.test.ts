// Every exported function of the detector library refuses what its detector classes refuse: a silence that
// is NaN, ±Infinity or (but for Akka's phi) negative (the classes' "time went backwards"), a mean or deviation the classes never
// produce (a zero or negative deviation, below minStdDeviationMs > 0), a threshold that is not a finite
// number > 0, a count that is not a whole number, with a RangeError naming the function and the argument;
// never a NaN, ±Infinity, a negative φ or a zero detection time returned. The table covers every function
// src/detectors/index.ts exports (the last test fails on a new one without its rows).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as D from "../../src/detectors/index.ts";

const NAN = Number.NaN;
const INF = Number.POSITIVE_INFINITY;
const dist = D.exponentialGaps(1000);
const fixed = (timeoutMs: number) => ({ kind: "fixed" as const, timeoutMs });
const config = (over: Record<string, unknown>) =>
  ({ nodes: 3, durationMs: 10_000, seed: 1, detectors: [fixed(5000)], ...over }) as D.SimulationConfig;
const settings = D.simulationSettings(config({}));

/** [function, argument, a call with `x` in that argument, the values it must refuse, the message] */
type Row = [string, string, (x: number) => unknown, number[], RegExp];

/**
 * NaN, ±Infinity and times beyond the detectors' ±285 years: phi's silence and mean may be negative, a shift of
 * y that Akka's own tests evaluate (phi(−25, 0, 1) = 0, PhiAccrualFailureDetectorSpec "handle outliers").
 */
const NON_FINITE = [NAN, INF, -INF, 1e13, -1e13];
/** NaN, ±Infinity and negatives; zero too where the argument divides or is a count. */
const NON_FINITE_OR_NEGATIVE = [NAN, INF, -INF, -1, -1e-9];
const NOT_POSITIVE = [...NON_FINITE_OR_NEGATIVE, 0];

const ROWS: Row[] = [
  [
    "phi",
    "timeDiffMs",
    (x) => D.phi(x, 1000, 100),
    NON_FINITE,
    /^phi: timeDiffMs must be a finite number of milliseconds within ±/,
  ],
  [
    "phi",
    "meanMs",
    (x) => D.phi(1000, x, 100),
    [...NON_FINITE, ...NON_FINITE_OR_NEGATIVE],
    /^phi: meanMs must be a finite number >= 0, got/,
  ],
  [
    "phi",
    "stdDeviationMs",
    (x) => D.phi(1000, 1000, x),
    NOT_POSITIVE,
    /^failure-detector\.min-std-deviation must be > 0, got/,
  ],
  [
    "exponentialPhi",
    "timeDiffMs",
    (x) => D.exponentialPhi(x, 1000),
    NON_FINITE_OR_NEGATIVE,
    /^exponentialPhi: timeDiffMs must be a finite number >= 0/,
  ],
  [
    "exponentialPhi",
    "meanMs",
    (x) => D.exponentialPhi(1000, x),
    NOT_POSITIVE,
    /^exponentialPhi: meanMs must be a finite number > 0/,
  ],
  [
    "exponentialSilenceFor",
    "threshold",
    (x) => D.exponentialSilenceFor(x, 1000),
    NOT_POSITIVE,
    /^ExponentialPhiDetector: threshold must be a finite number > 0/,
  ],
  [
    "exponentialSilenceFor",
    "meanMs",
    (x) => D.exponentialSilenceFor(8, x),
    NOT_POSITIVE,
    /^exponentialSilenceFor: meanMs must be a finite number > 0/,
  ],
  [
    "phiNormalSilenceFor",
    "threshold",
    (x) => D.phiNormalSilenceFor(x, 1000, 100),
    NOT_POSITIVE,
    /^failure-detector\.threshold must be > 0, got/,
  ],
  [
    "phiNormalSilenceFor",
    "meanMs",
    (x) => D.phiNormalSilenceFor(8, x, 100),
    [...NON_FINITE, ...NON_FINITE_OR_NEGATIVE],
    /^phiNormalSilenceFor: meanMs must be a finite number >= 0, got/,
  ],
  [
    "phiNormalSilenceFor",
    "stdDeviationMs",
    (x) => D.phiNormalSilenceFor(8, 1000, x),
    NOT_POSITIVE,
    /^failure-detector\.min-std-deviation must be > 0, got/,
  ],
  [
    "detectionTime",
    "t",
    (x) => D.detectionTime(dist, x),
    [NAN, -INF, -1, 0],
    /^detectionTime: t must be a number > 0/,
  ],
  [
    "heartbeatMessagesPerSecond",
    "nodes",
    (x) => D.heartbeatMessagesPerSecond({ kind: "all-to-all" }, x, 1000),
    [...NOT_POSITIVE, 2.5],
    /^heartbeatMessagesPerSecond: nodes must be an integer/,
  ],
  [
    "heartbeatMessagesPerSecond",
    "intervalMs",
    (x) => D.heartbeatMessagesPerSecond({ kind: "lease" }, 10, x),
    NOT_POSITIVE,
    /^heartbeatMessagesPerSecond: intervalMs must be a finite number > 0/,
  ],
  [
    "heartbeatMessagesPerSecond",
    "topology.k",
    (x) => D.heartbeatMessagesPerSecond({ kind: "watchers", k: x }, 10, 1000),
    [...NOT_POSITIVE, 1.5],
    /^heartbeatMessagesPerSecond: topology\.k \(watchers per node\) must be an integer/,
  ],
  ["erfc", "x", (x) => D.erfc(x), [NAN], /^erfc: x must be a number, got NaN/],
  ["normalSf", "z", (x) => D.normalSf(x), [NAN], /^normalSf: z must be a number, got NaN/],
  ["normalCdf", "z", (x) => D.normalCdf(x), [NAN], /^normalCdf: z must be a number, got NaN/],
  [
    "exponential",
    "mean",
    (x) => D.exponential(new D.Rng(1), x),
    NON_FINITE_OR_NEGATIVE,
    /^exponential: mean must be a finite number >= 0/,
  ],
  [
    "exponentialGaps",
    "meanMs",
    (x) => D.exponentialGaps(x),
    NOT_POSITIVE,
    /^mean gap must be a finite number > 0/,
  ],
  [
    "normalGaps",
    "meanMs",
    (x) => D.normalGaps(x, 100),
    NOT_POSITIVE,
    /^mean gap must be a finite number > 0/,
  ],
  [
    "normalGaps",
    "sdMs",
    (x) => D.normalGaps(1000, x),
    NOT_POSITIVE,
    /^gap standard deviation must be a finite number > 0/,
  ],
  [
    "lognormalGaps",
    "meanMs",
    (x) => D.lognormalGaps(x, 0.5),
    NOT_POSITIVE,
    /^mean gap must be a finite number > 0/,
  ],
  [
    "lognormalGaps",
    "sigma",
    (x) => D.lognormalGaps(1000, x),
    NOT_POSITIVE,
    /^lognormal sigma must be in \(0, 10\]/,
  ],
  [
    "shiftedExponentialGaps",
    "shiftMs",
    (x) => D.shiftedExponentialGaps(x, 100),
    NON_FINITE_OR_NEGATIVE,
    /^shift must be a finite number >= 0/,
  ],
  [
    "shiftedExponentialGaps",
    "scaleMs",
    (x) => D.shiftedExponentialGaps(900, x),
    NOT_POSITIVE,
    /^tail scale must be a finite number > 0/,
  ],
  [
    "mixtureGaps",
    "weight",
    (x) => D.mixtureGaps([{ weight: x, dist }]),
    NOT_POSITIVE,
    /^mixture weights must be finite numbers >= 0, not all 0/,
  ],
  [
    "withPauseTail",
    "probability",
    (x) => D.withPauseTail(dist, 20_000, x, 5000),
    [...NOT_POSITIVE, 1],
    /^tail probability must be in \(0, 1\)/,
  ],
  [
    "withPauseTail",
    "thresholdMs",
    (x) => D.withPauseTail(dist, x, 0.01, 5000),
    NON_FINITE_OR_NEGATIVE,
    /^tail threshold must be a finite number >= 0/,
  ],
  [
    "withPauseTail",
    "excessScaleMs",
    (x) => D.withPauseTail(dist, 20_000, 0.01, x),
    NOT_POSITIVE,
    /^tail scale must be a finite number > 0/,
  ],
  [
    "empiricalGaps",
    "gapsMs[0]",
    (x) => D.empiricalGaps([x, 1000]),
    NON_FINITE_OR_NEGATIVE,
    /^gap 1 must be a finite number >= 0/,
  ],
  [
    "detectorLabel",
    "timeoutMs",
    (x) => D.detectorLabel(fixed(x)),
    NOT_POSITIVE,
    /^detectorLabel: timeoutMs must be a finite number > 0/,
  ],
  [
    "simDetectorLabel",
    "timeoutMs",
    (x) => D.simDetectorLabel(fixed(x)),
    NOT_POSITIVE,
    /^simDetectorLabel: timeoutMs must be a finite number > 0/,
  ],
  [
    "simDetectorLabel",
    "threshold",
    (x) => D.simDetectorLabel({ kind: "phi-exponential", threshold: x }),
    NOT_POSITIVE,
    /^simDetectorLabel: threshold must be a finite number > 0/,
  ],
  [
    "suspicionSilence",
    "timeoutMs",
    (x) => D.suspicionSilence(dist, fixed(x)),
    NOT_POSITIVE,
    /^analyzeDetector: timeoutMs must be a finite number > 0/,
  ],
  [
    "analyzeDetector",
    "timeoutMs",
    (x) => D.analyzeDetector(dist, fixed(x)),
    NOT_POSITIVE,
    /^analyzeDetector: timeoutMs must be a finite number > 0/,
  ],
  [
    "analyzeDetector",
    "shape.nodes",
    (x) => D.analyzeDetector(dist, fixed(5000), { nodes: x }),
    [...NOT_POSITIVE, 2.5],
    /^analyzeDetector: nodes must be an integer/,
  ],
  [
    "compareDetectors",
    "timeoutMs",
    (x) => D.compareDetectors(dist, [fixed(x)]),
    NOT_POSITIVE,
    /^analyzeDetector: timeoutMs must be a finite number > 0/,
  ],
  [
    "pickThreshold",
    "maxFalsePerNodePerDay",
    (x) => D.pickThreshold(dist, { kind: "fixed" }, x),
    [NAN, -INF, -1],
    /^target false-suspicion rate must be >= 0/,
  ],
  [
    "simulationSettings",
    "nodes",
    (x) => D.simulationSettings(config({ nodes: x })),
    [...NOT_POSITIVE, 1, 2.5],
    /^simulate: nodes must be an integer/,
  ],
  [
    "simulate",
    "durationMs",
    (x) => D.simulate(config({ durationMs: x })),
    NON_FINITE_OR_NEGATIVE,
    /^simulate: durationMs must be/,
  ],
  [
    "planScenario",
    "nodes",
    (x) => D.planScenario("gc-pause", { nodes: x }),
    [...NOT_POSITIVE, 1, 2.5],
    /^simulate: nodes must be an integer/,
  ],
  [
    "runScenario",
    "heartbeatIntervalMs",
    (x) => D.runScenario("gc-pause", { heartbeatIntervalMs: x }),
    NOT_POSITIVE,
    /^simulate: heartbeatIntervalMs must be a finite number >= 1/,
  ],
  [
    "estimateSimulation",
    "nodes",
    (x) => D.estimateSimulation({ ...settings, nodes: x }),
    [...NOT_POSITIVE, 1, 2.5],
    /^estimateSimulation: nodes must be an integer/,
  ],
  [
    "estimateSimulation",
    "intervalMs",
    (x) => D.estimateSimulation({ ...settings, intervalMs: x }),
    NOT_POSITIVE,
    /^estimateSimulation: intervalMs must be a finite number >= 1/,
  ],
  [
    "checkBudget",
    "maxEvents",
    (x) => D.checkBudget(D.estimateSimulation(settings), x),
    [NAN, -INF, -1],
    /^checkBudget: maxEvents must be a number >= 0/,
  ],
  [
    "checkBudget",
    "estimate.events",
    (x) => D.checkBudget({ ...D.estimateSimulation(settings), events: x }),
    [NAN, -INF, -1],
    /^checkBudget: estimate\.events must be a number >= 0/,
  ],
];

/** A value each argument accepts, to show that the refusals are about the value. */
const VALID: Record<string, number> = {
  probability: 0.01,
  thresholdMs: 20_000,
  "gapsMs[0]": 900,
  sigma: 0.5,
  weight: 1,
  "topology.k": 2,
};
const valid = (arg: string) => VALID[arg] ?? (arg === "nodes" || arg === "shape.nodes" ? 3 : 1000);

describe("the detector library's exported functions", () => {
  describe.each(ROWS.map((r) => [`${r[0]}(${r[1]})`, ...r] as const))(
    "%s",
    (_label, _fn, arg, call, invalid, message) => {
      it("accepts a valid value", () => {
        expect(() => call(valid(arg))).not.toThrow();
      });
      it.each(invalid)("refuses %d with a RangeError naming it", (x) => {
        expect(() => call(x)).toThrow(RangeError);
        expect(() => call(x)).toThrow(message);
      });
    },
  );

  it("return no NaN, ±Infinity or negative φ for what they accept", () => {
    // (Some 21 deviations beyond the mean φ-normal is +Infinity, where Akka's is: the class's answer too.)
    for (const t of [0, 1, 999, 1000, 5000, 1e4]) {
      for (const v of [D.phi(t, 1000, 1000), D.exponentialPhi(t, 1000)]) {
        expect(Number.isFinite(v)).toBe(true);
        expect(v).toBeGreaterThanOrEqual(0);
      }
    }
    expect(D.detectionTime(dist, 5000).meanMs).toBeGreaterThan(0);
  });

  it("never return a negative or NaN φ for a valid input, a negative silence included", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e9, max: 1e9, noNaN: true }),
        fc.double({ min: 0, max: 1e9, noNaN: true }),
        fc.double({ min: 1e-6, max: 1e9, noNaN: true }),
        (t, mean, sd) => {
          const p = D.phi(t, mean, sd);
          expect(p >= 0 && !Number.isNaN(p)).toBe(true);
          // Cassandra's t / mean: finite while the mean is at least the detectors' microsecond resolution.
          if (t >= 0 && mean >= 1e-3) {
            const e = D.exponentialPhi(t, mean);
            expect(Number.isFinite(e) && e >= 0).toBe(true);
          }
        },
      ),
      { seed: 30, numRuns: 2000 },
    );
  });

  // One check for a class and the functions of its model (validate.ts): the same value, the same words.
  const refusal = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e instanceof RangeError ? e.message : `not a RangeError: ${String(e)}`;
    }
    return "accepted";
  };
  it.each([0, -1, NAN, INF, -INF])(
    "refuse a threshold or a deviation of %d in the class's own words",
    (x) => {
      const akkaThreshold = refusal(() => new D.PhiAccrualFailureDetector({ threshold: x }));
      const akkaDeviation = refusal(() => new D.PhiAccrualFailureDetector({ minStdDeviationMs: x }));
      const exponential = refusal(() => new D.ExponentialPhiDetector({ threshold: x }));
      expect(akkaThreshold).toMatch(/^failure-detector\.threshold must be > 0, got /);
      expect(refusal(() => D.phiNormalSilenceFor(x, 1000, 100))).toBe(akkaThreshold);
      expect(akkaDeviation).toMatch(/^failure-detector\.min-std-deviation must be > 0, got /);
      expect(refusal(() => D.phi(1000, 1000, x))).toBe(akkaDeviation);
      expect(refusal(() => D.phiNormalSilenceFor(8, 1000, x))).toBe(akkaDeviation);
      expect(exponential).toMatch(/^ExponentialPhiDetector: threshold must be a finite number > 0, got /);
      expect(refusal(() => D.exponentialSilenceFor(x, 1000))).toBe(exponential);
    },
  );

  it("refuse a negative mean, which no detector holds (Akka's tests feed a negative silence, never a negative mean)", () => {
    expect(D.phi(-25, 0, 1)).toBe(0);
    expect(() => D.phi(1000, -1, 100)).toThrow(
      new RangeError("phi: meanMs must be a finite number >= 0, got -1"),
    );
    expect(() => D.phiNormalSilenceFor(8, -1, 100)).toThrow(RangeError);
  });

  it("normal and exponential refuse what is not an Rng", () => {
    expect(() => D.normal({} as never)).toThrow(
      new TypeError("normal: rng must be an Rng (new Rng(seed)), got object"),
    );
    expect(() => D.exponential(undefined as never, 1)).toThrow(TypeError);
    expect(Number.isFinite(D.normal(new D.Rng(1)))).toBe(true);
  });

  it("are all in the table", () => {
    const exported = Object.entries(D)
      .filter(([name, v]) => typeof v === "function" && !/^[A-Z]/.test(name))
      .map(([name]) => name)
      .sort();
    expect([...new Set([...ROWS.map((r) => r[0]), "normal"])].sort()).toEqual(exported);
  });
});
