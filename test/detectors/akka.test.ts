// Ports of Akka's own expectations:
//   akka/akka akka-remote/src/test/scala/akka/remote/AccrualFailureDetectorSpec.scala
//   akka/akka akka-remote/src/test/scala/akka/remote/DeadlineFailureDetectorSpec.scala
// The spec's fake clock hands out cumulative times, one per call of heartbeat()/phi/isAvailable; `clock` below
// does the same and each call passes the next time explicitly.
import { describe, expect, it } from "vitest";
import {
  DeadlineFailureDetector,
  HeartbeatHistory,
  PhiAccrualFailureDetector,
  phi,
} from "../../src/detectors/index.ts";

function clock(intervals: number[]): () => number {
  let t = 0;
  let i = 0;
  return () => {
    const step = intervals[i++];
    if (step === undefined) throw new Error("fake clock exhausted");
    t += step;
    return t;
  };
}

/** The spec's createFailureDetector defaults: threshold 8, 1000 samples, 100 ms, no pause, 1 s estimate. */
function fd(o: ConstructorParameters<typeof PhiAccrualFailureDetector>[0] = {}): PhiAccrualFailureDetector {
  return new PhiAccrualFailureDetector({
    threshold: 8,
    maxSampleSize: 1000,
    minStdDeviationMs: 100,
    acceptableHeartbeatPauseMs: 0,
    firstHeartbeatEstimateMs: 1000,
    ...o,
  });
}

const cdf = (p: number): number => 1 - 10 ** -p;

describe("phi (AccrualFailureDetectorSpec: use good enough cumulative distribution function)", () => {
  it.each([
    [0, 0, 10, 0.5, 0.001],
    [6, 0, 10, 0.7257, 0.001],
    [15, 0, 10, 0.9332, 0.001],
    [20, 0, 10, 0.97725, 0.001],
    [25, 0, 10, 0.99379, 0.001],
    [35, 0, 10, 0.99977, 0.001],
    [40, 0, 10, 0.99997, 0.0001],
    [22, 20, 3, 0.7475, 0.001],
  ])("cdf(phi(%d, %d, %d)) ≈ %d", (t, mean, sd, expected, tol) => {
    expect(Math.abs(cdf(phi(t, mean, sd)) - expected)).toBeLessThanOrEqual(tol);
  });

  it("is strictly increasing over 0..40", () => {
    for (let x = 0; x < 40; x++) expect(phi(x, 0, 10)).toBeLessThan(phi(x + 1, 0, 10));
  });
});

describe("phi outliers (handle outliers without losing precision or hitting exceptions)", () => {
  it("phi(10, 0, 1) ≈ 38 ± 1 and phi(-25, 0, 1) = 0", () => {
    expect(Math.abs(phi(10, 0, 1) - 38)).toBeLessThanOrEqual(1);
    expect(phi(-25, 0, 1)).toBe(0);
  });

  it("returns +0, never -0, where Akka's second branch yields -0.0", () => {
    // 1 − 1/(1 + e) rounds to exactly 1 here, and −log10(1) is −0 in IEEE arithmetic.
    expect(Object.is(-Math.log10(1), -0)).toBe(true);
    expect(Object.is(phi(-25, 0, 1), 0)).toBe(true);
    expect(Object.is(phi(0, 4000, 100), 0)).toBe(true);
  });

  it("stays finite as long as Akka's two-branch formula does, and matches the log-domain value", () => {
    for (let y = 1; y <= 21; y += 0.5) {
      const p = phi(y, 0, 1);
      expect(Number.isFinite(p)).toBe(true);
      // −log10(e/(1+e)) = (y(1.5976 + 0.070566y²) + ln(1 + e)) / ln 10
      const z = y * (1.5976 + 0.070566 * y * y);
      const exact = (z + Math.log1p(Math.exp(-z))) / Math.LN10;
      expect(Math.abs(p - exact) / exact).toBeLessThan(1e-9);
    }
    // The naive −log10(1 − cdf) saturates long before: already Infinity at y = 9.
    const naive = (y: number): number =>
      -Math.log10(1 - 1 / (1 + Math.exp(-y * (1.5976 + 0.070566 * y * y))));
    expect(naive(9)).toBe(Number.POSITIVE_INFINITY);
    expect(Number.isFinite(phi(9, 0, 1))).toBe(true);
  });

  it("returns +Infinity where exp underflows, as the JVM formula does", () => {
    expect(phi(30, 0, 1)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("phi realistic values (return realistic phi values)", () => {
  it.each([
    [0, 0.0],
    [500, 0.1],
    [1000, 0.3],
    [1200, 1.6],
    [1400, 4.7],
    [1600, 10.8],
    [1700, 15.3],
  ])("phi(%d, 1000, 100) ≈ %d", (t, expected) => {
    expect(Math.abs(phi(t, 1000, 100) - expected)).toBeLessThanOrEqual(0.1);
  });

  it("larger stdDeviation gives lower phi", () => {
    expect(phi(1100, 1000, 500)).toBeLessThan(phi(1100, 1000, 100));
  });
});

describe("PhiAccrualFailureDetector (AccrualFailureDetectorSpec stateful sequences)", () => {
  it("return phi value of 0.0 on startup for each address, when no heartbeats", () => {
    const d = fd();
    expect(d.phi(0)).toBe(0);
    expect(d.phi(123_456)).toBe(0);
    expect(d.isMonitoring).toBe(false);
    expect(d.isAvailable(1e12)).toBe(true);
  });

  it("return phi based on guess when only one heartbeat", () => {
    const now = clock([0, 1000, 1000, 1000, 1000]);
    const d = fd({ firstHeartbeatEstimateMs: 1000 });
    d.heartbeat(now());
    expect(Math.abs(d.phi(now()) - 0.3)).toBeLessThanOrEqual(0.2);
    expect(Math.abs(d.phi(now()) - 4.5)).toBeLessThanOrEqual(0.3);
    expect(d.phi(now())).toBeGreaterThan(15);
  });

  it("seeds the history with est − est/4 and est + est/4 in integer division", () => {
    const d = fd({ firstHeartbeatEstimateMs: 1001 });
    d.heartbeat(0);
    expect(d.intervals()).toEqual([751, 1251]);
  });

  it("return phi value using first interval after second heartbeat", () => {
    const now = clock([0, 100, 100, 100]);
    const d = fd();
    d.heartbeat(now());
    expect(d.phi(now())).toBeGreaterThan(0);
    d.heartbeat(now());
    expect(d.phi(now())).toBeGreaterThan(0);
  });

  it("mark node as monitored after a series of successful heartbeats", () => {
    const now = clock([0, 1000, 100, 100]);
    const d = fd();
    expect(d.isMonitoring).toBe(false);
    d.heartbeat(now());
    d.heartbeat(now());
    d.heartbeat(now());
    expect(d.isMonitoring).toBe(true);
    expect(d.isAvailable(now())).toBe(true);
  });

  it("mark node as dead if heartbeat are missed", () => {
    const now = clock([0, 1000, 100, 100, 7000]);
    const d = fd({ threshold: 3 });
    d.heartbeat(now()); // 0
    d.heartbeat(now()); // 1000
    d.heartbeat(now()); // 1100
    expect(d.isAvailable(now())).toBe(true); // 1200
    expect(d.isAvailable(now())).toBe(false); // 8200
  });

  it("mark node as available if it starts heartbeat again after being marked dead due to detection of failure", () => {
    const intervals = [
      0,
      ...new Array<number>(999).fill(1000),
      5 * 60 * 1000,
      100,
      900,
      100,
      7000,
      100,
      900,
      100,
      900,
    ];
    const now = clock(intervals);
    const d = fd({ threshold: 8, acceptableHeartbeatPauseMs: 3000 });
    for (let i = 0; i < 1000; i++) d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(false); // after the long pause
    d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(true);
    d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(false); // after the 7 seconds pause
    d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(true);
    d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(true);
  });

  it("does not record the first heartbeat after a failure", () => {
    const d = fd({ threshold: 3 });
    d.heartbeat(0);
    d.heartbeat(1000);
    d.heartbeat(2000);
    const before = d.intervals();
    d.heartbeat(60_000); // unavailable at this instant: interval not recorded
    expect(d.intervals()).toEqual(before);
    d.heartbeat(61_000); // available again: recorded
    expect(d.intervals()).toEqual([...before, 1000]);
  });

  it("accept some configured missing heartbeats", () => {
    const now = clock([0, 1000, 1000, 1000, 4000, 1000, 1000]);
    const d = fd({ acceptableHeartbeatPauseMs: 3000 });
    d.heartbeat(now());
    d.heartbeat(now());
    d.heartbeat(now());
    d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(true);
    d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(true);
  });

  it("fail after configured acceptable missing heartbeats", () => {
    const now = clock([0, 1000, 1000, 1000, 1000, 1000, 500, 500, 5000]);
    const d = fd({ acceptableHeartbeatPauseMs: 3000 });
    for (let i = 0; i < 6; i++) d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(true);
    d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(false);
  });

  it("use maxSampleSize heartbeats", () => {
    const now = clock([0, 100, 100, 100, 100, 600, 500, 500, 500, 500, 500]);
    const d = fd({ maxSampleSize: 3 });
    d.heartbeat(now()); // 0
    d.heartbeat(now()); // 100
    d.heartbeat(now()); // 200
    d.heartbeat(now()); // 300
    const phi1 = d.phi(now()); // 400
    d.heartbeat(now()); // 1000
    d.heartbeat(now()); // 1500
    d.heartbeat(now()); // 2000
    d.heartbeat(now()); // 2500
    const phi2 = d.phi(now()); // 3000
    expect(Math.abs(phi2 - phi1)).toBeLessThanOrEqual(0.001);
  });

  it("isAvailable is strict: phi equal to the threshold is unavailable", () => {
    const d = fd({ threshold: 1 });
    d.heartbeat(0);
    const p = d.phi(1300);
    const exact = new PhiAccrualFailureDetector({
      threshold: p,
      acceptableHeartbeatPauseMs: 0,
      firstHeartbeatEstimateMs: 1000,
    });
    exact.heartbeat(0);
    expect(exact.phi(1300)).toBe(p);
    expect(exact.isAvailable(1300)).toBe(false);
    expect(exact.isAvailable(1299)).toBe(true);
  });

  it("floors the deviation at min-std-deviation when every interval is identical (zero variance)", () => {
    const d = fd({ maxSampleSize: 10 });
    for (let i = 0; i <= 20; i++) d.heartbeat(i * 1000);
    expect(d.stdDeviationMs).toBe(0);
    expect(d.phi(20_000 + 1200)).toBeCloseTo(phi(1200, 1000, 100), 12);
  });

  it("uses Akka's cluster defaults when options are omitted", () => {
    const d = new PhiAccrualFailureDetector();
    expect([
      d.threshold,
      d.maxSampleSize,
      d.minStdDeviationMs,
      d.acceptableHeartbeatPauseMs,
      d.firstHeartbeatEstimateMs,
    ]).toEqual([8, 1000, 100, 3000, 1000]);
  });

  it.each([
    [{ threshold: 0 }, "failure-detector.threshold must be > 0"],
    [{ maxSampleSize: 0 }, "failure-detector.max-sample-size must be > 0"],
    [{ minStdDeviationMs: 0 }, "failure-detector.min-std-deviation must be > 0"],
    [{ acceptableHeartbeatPauseMs: -1 }, "failure-detector.acceptable-heartbeat-pause must be >= 0"],
    [{ firstHeartbeatEstimateMs: 0 }, "failure-detector.heartbeat-interval must be > 0"],
  ])("rejects %o like Akka's require", (o, message) => {
    expect(() => new PhiAccrualFailureDetector(o)).toThrow(message);
  });

  it("warns where Akka publishes 'heartbeat interval is growing too large' (pause / 3 * 2)", () => {
    const warnings: number[] = [];
    const d = new PhiAccrualFailureDetector({
      acceptableHeartbeatPauseMs: 3000,
      onIntervalWarning: (i) => warnings.push(i),
    });
    d.heartbeat(0);
    d.heartbeat(1999);
    d.heartbeat(3999);
    expect(warnings).toEqual([2000]);
  });
});

describe("HeartbeatHistory (AccrualFailureDetectorSpec: Statistics for heartbeats)", () => {
  it("calculate correct mean and variance", () => {
    const h = new HeartbeatHistory(20);
    for (const x of [100, 200, 125, 340, 130]) h.append(x);
    expect(Math.abs(h.mean - 179)).toBeLessThanOrEqual(0.00001);
    expect(Math.abs(h.variance - 7584)).toBeLessThanOrEqual(0.00001);
  });

  it("have 0.0 variance for one sample", () => {
    expect(new HeartbeatHistory(600).append(1000).variance).toBe(0);
  });

  it("be capped by the specified maxSampleSize", () => {
    const h = new HeartbeatHistory(3).append(100).append(110).append(90);
    expect(Math.abs(h.mean - 100)).toBeLessThanOrEqual(0.00001);
    expect(Math.abs(h.variance - 66.6666667)).toBeLessThanOrEqual(0.00001);
    h.append(140);
    expect(Math.abs(h.mean - 113.333333)).toBeLessThanOrEqual(0.00001);
    expect(Math.abs(h.variance - 422.222222)).toBeLessThanOrEqual(0.00001);
    h.append(80);
    expect(Math.abs(h.mean - 103.333333)).toBeLessThanOrEqual(0.00001);
    expect(Math.abs(h.variance - 688.88888889)).toBeLessThanOrEqual(0.00001);
  });

  it("rejects maxSampleSize < 1", () => {
    expect(() => new HeartbeatHistory(0)).toThrow(RangeError);
  });
});

describe("DeadlineFailureDetector (DeadlineFailureDetectorSpec, heartbeatInterval 1 s, pause 4 s)", () => {
  const make = (): DeadlineFailureDetector =>
    new DeadlineFailureDetector({ acceptableHeartbeatPauseMs: 4000, heartbeatIntervalMs: 1000 });

  it("mark node as monitored after a series of successful heartbeats", () => {
    const now = clock([0, 1000, 100, 100]);
    const d = make();
    expect(d.isMonitoring).toBe(false);
    d.heartbeat(now());
    d.heartbeat(now());
    d.heartbeat(now());
    expect(d.isMonitoring).toBe(true);
    expect(d.isAvailable(now())).toBe(true);
  });

  it("mark node as dead if heartbeat are missed", () => {
    const now = clock([0, 1000, 100, 100, 7000]);
    const d = make();
    d.heartbeat(now());
    d.heartbeat(now());
    d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(true);
    expect(d.isAvailable(now())).toBe(false);
  });

  it("mark node as available if it starts heartbeat again after being marked dead due to detection of failure", () => {
    const now = clock([
      0,
      ...new Array<number>(999).fill(1000),
      5 * 60 * 1000,
      100,
      900,
      100,
      7000,
      100,
      900,
      100,
      900,
    ]);
    const d = make();
    for (let i = 0; i < 1000; i++) d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(false);
    d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(true);
    d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(false);
    d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(true);
    d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(true);
  });

  it("accept some configured missing heartbeats", () => {
    const now = clock([0, 1000, 1000, 1000, 4000, 1000, 1000]);
    const d = make();
    for (let i = 0; i < 4; i++) d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(true);
    d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(true);
  });

  it("fail after configured acceptable missing heartbeats", () => {
    const now = clock([0, 1000, 1000, 1000, 1000, 1000, 500, 500, 5000]);
    const d = make();
    for (let i = 0; i < 6; i++) d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(true);
    d.heartbeat(now());
    expect(d.isAvailable(now())).toBe(false);
  });

  it("is strict at the deadline (interval + pause) and available before any heartbeat", () => {
    const d = make();
    expect(d.isAvailable(1e9)).toBe(true);
    d.heartbeat(0); // a heartbeat at t = 0 counts: no 0 sentinel
    expect(d.isAvailable(4999)).toBe(true);
    expect(d.isAvailable(5000)).toBe(false);
  });

  it("rejects negative pause and non-positive interval", () => {
    expect(() => new DeadlineFailureDetector({ acceptableHeartbeatPauseMs: -1 })).toThrow(RangeError);
    expect(() => new DeadlineFailureDetector({ heartbeatIntervalMs: 0 })).toThrow(RangeError);
  });
});
