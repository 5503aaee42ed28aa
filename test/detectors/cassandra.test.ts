// Ports of Cassandra's expectations:
//   apache/cassandra test/unit/org/apache/cassandra/gms/ArrivalWindowTest.java (two generations: the older one
//   asserts the PHI_FACTOR-scaled value, the newer one the raw t/mean) and the local-pause rule of
//   src/java/org/apache/cassandra/gms/FailureDetector.java `interpret`.
import { describe, expect, it } from "vitest";
import {
  ExponentialPhiDetector,
  exponentialPhi,
  PHI_FACTOR,
  SelfPauseGuard,
} from "../../src/detectors/index.ts";

describe("ExponentialPhiDetector (ArrivalWindowTest.testWithNanoTime, window 4)", () => {
  const window = (): ExponentialPhiDetector => {
    const w = new ExponentialPhiDetector({ windowSize: 4 });
    for (const t of [111, 222, 333, 444, 555]) w.heartbeat(t);
    return w;
  };

  it("newer test: raw phi 1.0 at 666 and 22.03 at 3000 (± 0.01)", () => {
    const w = window();
    expect(Math.abs(w.rawPhi(666) - 1.0)).toBeLessThanOrEqual(0.01);
    expect(Math.abs(w.rawPhi(3000) - 22.03)).toBeLessThanOrEqual(0.01);
  });

  it("older test: scaled phi 0.4342 at 666 and 9.566 at 3000 (± 0.01)", () => {
    const w = window();
    // biome-ignore lint/suspicious/noApproximativeNumericConstant: the literal of Cassandra's test
    expect(Math.abs(w.phi(666) - 0.4342)).toBeLessThanOrEqual(0.01);
    expect(Math.abs(w.phi(3000) - 9.566)).toBeLessThanOrEqual(0.01);
  });

  it("the first heartbeat puts the initial value (2 × gossip interval = 2000 ms) into the window", () => {
    const w = new ExponentialPhiDetector({ windowSize: 4 });
    w.heartbeat(111);
    expect(w.intervals()).toEqual([2000]);
    w.heartbeat(222);
    expect(w.intervals()).toEqual([2000, 111]);
    expect(w.meanMs).toBe(1055.5);
  });

  it("ignores intervals above maxInterval (intended default: the initial value, CASSANDRA-21025)", () => {
    const w = new ExponentialPhiDetector();
    w.heartbeat(0); // t = 0 is a real heartbeat here (Cassandra's tLast = 0 sentinel is not reproduced)
    w.heartbeat(1000);
    w.heartbeat(3001); // 2001 > 2000: not recorded
    w.heartbeat(5001); // exactly 2000: recorded
    expect(w.intervals()).toEqual([2000, 1000, 2000]);
    const legacy = new ExponentialPhiDetector({ maxIntervalMs: Number.POSITIVE_INFINITY });
    legacy.heartbeat(0);
    legacy.heartbeat(60_000);
    expect(legacy.intervals()).toEqual([2000, 60_000]);
  });

  it("phi = PHI_FACTOR · t / mean = −log10(e^(−t/mean))", () => {
    for (const [t, mean] of [
      [6000, 1000],
      [6000, 3000],
      [18_420, 1000],
    ] as const) {
      expect(exponentialPhi(t, mean)).toBeCloseTo(-Math.log10(Math.exp(-t / mean)), 12);
    }
    expect(PHI_FACTOR).toBeCloseTo(Math.LOG10E, 15); // 1 / ln 10 ≈ 0.434
  });

  it("convicts on phi > threshold, strictly", () => {
    const w = new ExponentialPhiDetector({ threshold: 8 });
    for (let t = 0; t <= 2000 * 1000; t += 1000) w.heartbeat(t);
    // the window is now 1000 samples of 1000 ms (the 2000 ms seed has left)
    expect(w.meanMs).toBe(1000);
    const last = 2000 * 1000;
    const atThreshold = last + (8 * 1000) / PHI_FACTOR;
    expect(w.isConvicted(atThreshold - 1)).toBe(false);
    expect(w.isConvicted(atThreshold + 1)).toBe(true);
    expect(w.isAvailable(atThreshold + 1)).toBe(false);
  });

  it("before any heartbeat: phi 0 and available (Cassandra asserts instead)", () => {
    const w = new ExponentialPhiDetector();
    expect(w.phi(1e9)).toBe(0);
    expect(w.isAvailable(1e9)).toBe(true);
    expect(w.isMonitoring).toBe(false);
  });
});

describe("SelfPauseGuard (FailureDetector.interpret local-pause rule, 5 s default)", () => {
  it("skips judging on a gap > max pause, and until max pause has passed since it", () => {
    const g = new SelfPauseGuard();
    expect(g.check(0)).toBe(true);
    expect(g.check(1000)).toBe(true);
    expect(g.check(6000)).toBe(true); // gap exactly 5000: not a pause
    expect(g.check(11_001)).toBe(false); // gap 5001: pause noticed
    expect(g.pauseCount).toBe(1);
    expect(g.check(12_000)).toBe(false); // still within 5 s of the pause
    expect(g.check(16_000)).toBe(false); // 4999 after it
    expect(g.check(16_001)).toBe(true); // 5000 after it
  });

  it("calls onPause with the measured gap", () => {
    const seen: Array<[number, number]> = [];
    const g = new SelfPauseGuard({ maxLocalPauseMs: 100, onPause: (now, gap) => seen.push([now, gap]) });
    g.check(0);
    g.check(500);
    expect(seen).toEqual([[500, 500]]);
  });
});
