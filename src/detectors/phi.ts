// The two φ formulas: Akka's normal model (logistic approximation of the normal CDF) and Cassandra's
// exponential model. Pure functions of numbers in milliseconds; no state, no clock. The exported functions
// refuse what the detector classes refuse (a silence that is negative, NaN or ±Infinity, a mean or a deviation
// the classes never produce) with a RangeError naming the function and the argument, or, for a threshold and a
// deviation, the class's own message word for word (one check in validate.ts for both); the classes call the
// unchecked formula (`phiNormal`) on their hot path, their inputs checked where they enter.

import {
  checkAkkaDeviation,
  checkAkkaThreshold,
  checkExponentialThreshold,
  MAX_TIME_MS,
  numberIn,
  show,
} from "./validate.ts";
//
// Akka's φ is evaluated without calling `exp` and `log10` (the slow part: about 3× the rest of a heartbeat)
// wherever it is below its far tail. Both of Akka's branches are −log10(1 − F) with F = 1/(1 + e) and
// e = exp(−z), z = y·(1.5976 + 0.070566·y²); algebraically that is
//   φ = (max(z, 0) + g(|z|)) · log10(e),   g(a) = ln(1 + exp(−a)),
// and g, a smooth decreasing function from ln 2 to 0, is read from a table of cubic Hermite polynomials (through
// its values and slopes every 1/128) up to a = 37, beyond which g(a) = exp(−a) to the last bit. Measured
// against the same expression in double precision, the result is within 6e-13 absolute; against Akka's
// two-branch formula as written (whose own rounding reaches 1.6e-9 at φ ≈ 300, and which cancels to 0 below
// the mean) within 1e-12 + 1e-11·φ wherever Akka's e is a normal double, y < 21.2 (beyond, its e keeps only a
// few bits and its φ is off by up to log10 2; this stays precise). test/detectors/phi.test.ts checks both on a
// fine grid and at random points. The JVM's
// `Math.exp` and `Math.log10` are themselves allowed an error of 1 ulp, so Akka's last bits were never
// reproducible across machines anyway.

/** 1 / ln(10) ≈ 0.434. Cassandra `FailureDetector.java` `PHI_FACTOR = 1.0 / Math.log(10.0)`. */
export const PHI_FACTOR = 1 / Math.log(10);

/** log10(2): the largest φ the normal model can return while the silence is at most the (shifted) mean. */
export const PHI_AT_MEAN = Math.log10(2);

/** Table steps per unit of a, and the end of the table. */
const STEPS = 128;
const TABLE_END = 37;
/**
 * On each step [i, i + 1] / STEPS, i = 0 … TABLE_END · STEPS, the cubic Hermite polynomial in f = a · STEPS − i
 * through g and its slope at both ends, as coefficients: G[4i … 4i + 3] = c0, c1, c2, c3 with g ≈ c0 + f·(c1 +
 * f·(c2 + f·c3)). Stored expanded rather than as values and slopes: g is then a few operations, small enough
 * for V8 to inline into a heartbeat loop (151,584 bytes, once per process).
 */
const G = new Float64Array(4 * (TABLE_END * STEPS + 1));
for (let i = 0; i <= TABLE_END * STEPS; i++) {
  const e0 = Math.exp(-i / STEPS);
  const e1 = Math.exp(-(i + 1) / STEPS);
  const p0 = Math.log1p(e0);
  const p1 = Math.log1p(e1);
  const m0 = -e0 / (1 + e0) / STEPS;
  const m1 = -e1 / (1 + e1) / STEPS;
  G[4 * i] = p0;
  G[4 * i + 1] = m0;
  G[4 * i + 2] = 3 * (p1 - p0) - 2 * m0 - m1;
  G[4 * i + 3] = 2 * (p0 - p1) + m0 + m1;
}

/**
 * Akka's φ for a silence of `timeDiffMs` against a normal distribution N(meanMs, stdDeviationMs²).
 *
 * Rule (akka/akka `akka-remote/src/main/scala/akka/remote/PhiAccrualFailureDetector.scala`, `phi(timeDiff, mean,
 * stdDeviation)`): y = (t − mean)/sd, e = exp(−y·(1.5976 + 0.070566·y²)); if t > mean, φ = −log10(e/(1 + e)),
 * otherwise φ = −log10(1 − 1/(1 + e)). Both branches are −log10(1 − F) with F = 1/(1 + e), the logistic
 * approximation of the normal CDF; the first avoids the cancellation in 1 − F when F is close to 1, so φ stays
 * finite (≈ 38 at y = 10) until e itself underflows to 0 near y ≈ 21.4 — exactly where Akka's own formula
 * returns +Infinity on the JVM, so this port does too. Evaluated as the file's comment says, to 1e-11.
 *
 * Where Akka returns −0.0 (y < −7.5: 1/(1 + e) rounds to 0 and −log10(1) is −0) this returns +0, so that
 * `Object.is`, `toBe(0)` and JSON all agree. Where Akka leaves a zero deviation to its caller (y = ±Infinity,
 * or NaN at t = mean), this refuses it with the detector's own message for a `minStdDeviationMs` of 0, and
 * refuses a non-finite silence, a mean below 0 or non-finite: a RangeError. For every input it accepts, φ is
 * a number in [0, ∞], never negative or NaN (test/detectors/exported-functions.test.ts checks it at random).
 */
export function phi(timeDiffMs: number, meanMs: number, stdDeviationMs: number): number {
  const owner = "phi";
  // A finite silence below 0 is only a shift of y, φ still in [0, ∞): Akka's own tests evaluate
  // phi(−25, 0, 1) = 0 (PhiAccrualFailureDetectorSpec "handle outliers"), so it is accepted, though the
  // class's clock never goes there. The mean is refused below 0: the class's (the mean interval plus
  // acceptable-heartbeat-pause, both >= 0) never is, and those tests feed a mean of 0, never a negative
  // one. The deviation is refused as the class refuses its floor (failure-detector.min-std-deviation).
  finiteMs(owner, "timeDiffMs", timeDiffMs);
  numberIn(owner, "meanMs", meanMs, SILENCE);
  checkAkkaDeviation(stdDeviationMs);
  return phiNormal(timeDiffMs, meanMs, stdDeviationMs);
}

/** A time (ms) in the detectors' range, either side of 0, with the classes' message for a bad time. */
function finiteMs(owner: string, name: string, value: number): void {
  if (!(value >= -MAX_TIME_MS && value <= MAX_TIME_MS))
    throw new RangeError(
      `${owner}: ${name} must be a finite number of milliseconds within ±${MAX_TIME_MS} (285 years), got ${show(value)}`,
    );
}
/** A silence or a mean (ms): finite, >= 0, within the detectors' time range. */
const SILENCE = { min: 0, max: MAX_TIME_MS };
/** A deviation or a mean that divides (ms): finite, > 0. */
const POSITIVE_MS = { min: 0, max: MAX_TIME_MS, aboveMin: true };

/** {@link phi} without its checks: the detector's hot path, which checks its times where they enter. */
export function phiNormal(timeDiffMs: number, meanMs: number, stdDeviationMs: number): number {
  const y = (timeDiffMs - meanMs) / stdDeviationMs;
  if (y < -7.5) return 0; // e > e^41.7: Akka's 1 − 1/(1 + e) rounds to exactly 1, φ = −0
  const z = y * (1.5976 + 0.070566 * y * y);
  const a = z > 0 ? z : -z;
  // Beyond the table (or NaN) in a function of its own, so that this one stays small enough for V8 to inline
  // into a caller's loop together with a heartbeat: a call that is not inlined returns φ as a heap-allocated
  // number.
  if (!(a <= TABLE_END)) return farTail(z);
  return (Math.max(z, 0) + g(a)) * Math.LOG10E;
}

/** φ for |z| > TABLE_END, where ln(1 + e^−|z|) = e^−|z| to the last bit; NaN for NaN. */
function farTail(z: number): number {
  if (z > 0) {
    const e = Math.exp(-z);
    return e === 0 ? Number.POSITIVE_INFINITY : (z + e) * Math.LOG10E;
  }
  return Number.isNaN(z) ? Number.NaN : Math.exp(z) * Math.LOG10E;
}

/** ln(1 + exp(−a)) for 0 <= a <= TABLE_END, from the table. */
function g(a: number): number {
  const table = G;
  const u = a * STEPS;
  const i = u | 0;
  const f = u - i;
  const j = 4 * i;
  return table[j]! + f * (table[j + 1]! + f * (table[j + 2]! + f * table[j + 3]!));
}

/**
 * The silence (ms) at which Akka's φ reaches `threshold` for a given shifted mean and deviation: the inverse of
 * {@link phi} in its first argument, found by bisection on `phi` itself so that it agrees with `phi` to the last
 * bit that matters (`phi(t) < threshold` for every t below the result).
 */
export function phiNormalSilenceFor(threshold: number, meanMs: number, stdDeviationMs: number): number {
  // PhiAccrualFailureDetector's rules for its threshold and its deviation's floor, in its words; a mean as phi's.
  checkAkkaThreshold(threshold);
  numberIn("phiNormalSilenceFor", "meanMs", meanMs, SILENCE);
  checkAkkaDeviation(stdDeviationMs);
  return normalSilenceFor(threshold, meanMs, stdDeviationMs);
}

/**
 * {@link phiNormalSilenceFor} unchecked, for callers whose deviation may be a floor of 0 (analyzeDetector's
 * minStdDeviationMs >= 0, `detector threshold --min-std 0`): then φ steps from 0 to ∞ at the mean, and the
 * silence is the mean.
 */
export function normalSilenceFor(threshold: number, meanMs: number, stdDeviationMs: number): number {
  let lo = -60;
  let hi = 60;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (phiNormal(meanMs + mid * stdDeviationMs, meanMs, stdDeviationMs) < threshold) lo = mid;
    else hi = mid;
    if (hi - lo < 1e-13) break;
  }
  return meanMs + hi * stdDeviationMs;
}

/**
 * Cassandra's φ (the Hayashibara value): −log10(P(gap ≥ t)) with exponentially distributed gaps,
 * = t / (mean · ln 10) = PHI_FACTOR · (t / mean). Cassandra `FailureDetector.java`: `ArrivalWindow.phi` returns
 * t / mean() and `interpret` compares `PHI_FACTOR * phi` with `phi_convict_threshold`; see CASSANDRA-2597.
 */
export function exponentialPhi(timeDiffMs: number, meanMs: number): number {
  // The class's silence is >= 0 and its window's mean > 0 (ExponentialPhiDetector: firstIntervalMs > 0).
  numberIn("exponentialPhi", "timeDiffMs", timeDiffMs, SILENCE);
  numberIn("exponentialPhi", "meanMs", meanMs, POSITIVE_MS);
  return PHI_FACTOR * (timeDiffMs / meanMs);
}

/** Silence at which the exponential φ reaches `threshold`: threshold · ln 10 · mean (≈ 18.42 · mean at 8). */
export function exponentialSilenceFor(threshold: number, meanMs: number): number {
  // ExponentialPhiDetector's own rule and message for its threshold (one function for both).
  checkExponentialThreshold(threshold);
  numberIn("exponentialSilenceFor", "meanMs", meanMs, POSITIVE_MS);
  return (threshold * meanMs) / PHI_FACTOR;
}
