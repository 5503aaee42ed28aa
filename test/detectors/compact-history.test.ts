// The compact history (intervals on a one-microsecond grid in 2, 3 or 8 bytes, running sums) against a
// straightforward Float64 computation: every interval kept as the double it was, mean and deviation recomputed
// from the array in two passes, φ from the exact expression. Rules: akka/akka-core
// `akka-remote/src/main/scala/akka/remote/PhiAccrualFailureDetector.scala` (HeartbeatHistory: mean, population
// variance, min-std-deviation floor, φ of the silence against mean + acceptable-heartbeat-pause; an interval is
// recorded only if the peer was available) and Cassandra `FailureDetector.java` (φ = t / mean / ln 10).
//
// The stated tolerance, derived from the rounding: each stored interval is within 0.5 µs of the double, so the
// mean and the population deviation (a norm of the centred intervals) each move by at most 0.5 µs, and
// y = (silence − shifted mean) / sd by at most 0.5 µs · (1 + |y|) / sd. Through φ's slope that is at most
// 1.52e-3 ms · (1 + φ) / sd for y up to 21.4 (where φ becomes +Infinity): checked below as
// |φ − φ64| <= 1.6e-3 ms · (1 + φ64) / sd64. At Akka's default min-std-deviation of 100 ms that is 1.6e-5 · (1 + φ);
// the logistic approximation itself is off by 0.00014 on the CDF at 3.16 σ, about 0.07 in φ there. Cassandra's
// φ moves with the mean only: |φ / φ64 − 1| <= 0.5 µs / mean.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ExponentialPhiDetector, PHI_FACTOR, PhiAccrualFailureDetector } from "../../src/detectors/index.ts";

const HALF_MICROSECOND_MS = 5e-4;

/** −log10(1 − F(y)), F Akka's logistic CDF, without cancellation (phi.test.ts checks it against Akka's). */
function exactPhi(y: number): number {
  const z = y * (1.5976 + 0.070566 * y * y);
  return (Math.max(z, 0) + Math.log1p(Math.exp(-Math.abs(z)))) * Math.LOG10E;
}

function meanOf(xs: number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

function deviationOf(xs: number[]): number {
  const m = meanOf(xs);
  let s = 0;
  for (const x of xs) s += (x - m) ** 2;
  return Math.sqrt(s / xs.length);
}

interface Options {
  threshold: number;
  maxSampleSize: number;
  minStdDeviationMs: number;
  acceptableHeartbeatPauseMs: number;
  firstHeartbeatEstimateMs: number;
}

/** Akka's detector over a plain array of doubles. */
class Float64Akka {
  private readonly intervals: number[] = [];
  constructor(private readonly o: Options) {
    // The bootstrap: est − est/4 and est + est/4 in Long division, appended as ordinary samples.
    const est = Math.trunc(o.firstHeartbeatEstimateMs);
    const spread = Math.trunc(est / 4);
    this.record(est - spread);
    this.record(est + spread);
  }
  record(interval: number): void {
    this.intervals.push(interval);
    if (this.intervals.length > this.o.maxSampleSize) this.intervals.shift();
  }
  get shiftedMean(): number {
    return meanOf(this.intervals) + this.o.acceptableHeartbeatPauseMs;
  }
  get sd(): number {
    return Math.max(deviationOf(this.intervals), this.o.minStdDeviationMs);
  }
  /** y of a silence, and the deviation used. */
  y(silenceMs: number): { y: number; sd: number } {
    const sd = this.sd;
    return { y: (silenceMs - this.shiftedMean) / sd, sd };
  }
}

const tolerance = (phi64: number, sd: number): number => (1.6e-3 * (1 + phi64)) / sd;

// Whole milliseconds (the 2-byte tier), fractional ones (3 bytes of microseconds) and, now and then, longer
// than 16.78 s (8 bytes).
const interval = fc.oneof(
  fc.integer({ min: 0, max: 5000 }),
  fc.double({ min: 0, max: 5000, noNaN: true }),
  fc.double({ min: 900, max: 1100, noNaN: true }),
  fc.double({ min: 0, max: 20_000, noNaN: true }),
);

const options = fc.record({
  threshold: fc.double({ min: 0.5, max: 16, noNaN: true }),
  maxSampleSize: fc.integer({ min: 1, max: 30 }),
  minStdDeviationMs: fc.double({ min: 1, max: 500, noNaN: true }),
  acceptableHeartbeatPauseMs: fc.integer({ min: 0, max: 5000 }),
  firstHeartbeatEstimateMs: fc.integer({ min: 1, max: 5000 }),
});

describe("the compact history gives the φ of a Float64 computation", () => {
  it("Akka's φ: within 1.6e-3 ms · (1 + φ) / sd, at every heartbeat and at silences up to 21 deviations", () => {
    fc.assert(
      fc.property(
        options,
        fc.double({ min: 0, max: 1e9, noNaN: true }),
        fc.array(interval, { minLength: 1, maxLength: 80 }),
        fc.array(fc.double({ min: -10, max: 21, noNaN: true }), { minLength: 1, maxLength: 8 }),
        (o, start, gaps, queries) => {
          const d = new PhiAccrualFailureDetector(o);
          const ref = new Float64Akka(o);
          const check = (last: number, now: number): void => {
            const { y, sd } = ref.y(now - last);
            if (y > 21) return; // φ64 > 300, and the compact φ is +Infinity from 21.4
            const phi64 = exactPhi(y);
            expect(Math.abs(d.phi(now) - phi64)).toBeLessThanOrEqual(tolerance(phi64, sd));
          };
          let last = start;
          d.heartbeat(last);
          for (const gap of gaps) {
            const now = last + gap;
            check(last, now);
            // Recorded only if available on the old state; within the tolerance of the threshold either answer
            // is right, so the reference follows the detector there and checks it elsewhere.
            const { y, sd } = ref.y(now - last);
            const phi64 = exactPhi(y);
            const available = d.isAvailable(now);
            if (Math.abs(phi64 - o.threshold) > tolerance(phi64, sd))
              expect(available).toBe(phi64 < o.threshold);
            if (available) ref.record(now - last);
            d.heartbeat(now);
            last = now;
          }
          for (const u of queries) check(last, last + Math.max(0, ref.shiftedMean + u * ref.sd));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("Cassandra's φ: within 0.5 µs / mean, relatively", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e9, noNaN: true }),
        fc.integer({ min: 1, max: 30 }),
        fc.array(interval, { minLength: 1, maxLength: 80 }),
        fc.double({ min: 0, max: 60_000, noNaN: true }),
        (start, windowSize, gaps, silence) => {
          const d = new ExponentialPhiDetector({ windowSize, maxIntervalMs: Number.POSITIVE_INFINITY });
          const kept = [2000]; // Cassandra's INITIAL_VALUE, the default firstIntervalMs
          let last = start;
          d.heartbeat(last);
          for (const gap of gaps) {
            const now = last + gap;
            d.heartbeat(now);
            kept.push(now - last);
            if (kept.length > windowSize) kept.shift();
            last = now;
          }
          const mean = meanOf(kept);
          fc.pre(mean >= 1); // a mean of a few microseconds is not a heartbeat interval
          const now = last + silence;
          const phi64 = PHI_FACTOR * ((now - last) / mean);
          const allowed = (phi64 * HALF_MICROSECOND_MS) / (mean - HALF_MICROSECOND_MS) + 1e-12 * phi64;
          expect(Math.abs(d.phi(now) - phi64)).toBeLessThanOrEqual(allowed);
        },
      ),
      { numRuns: 300 },
    );
  });
});
