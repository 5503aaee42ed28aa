// The two φ formulas: Akka's normal model (logistic approximation of the normal CDF) and Cassandra's
// exponential model. Pure functions of numbers in milliseconds; no state, no clock.

/** 1 / ln(10) ≈ 0.434. Cassandra `FailureDetector.java` `PHI_FACTOR = 1.0 / Math.log(10.0)`. */
export const PHI_FACTOR = 1 / Math.log(10);

/** log10(2): the largest φ the normal model can return while the silence is at most the (shifted) mean. */
export const PHI_AT_MEAN = Math.log10(2);

/**
 * Akka's φ for a silence of `timeDiffMs` against a normal distribution N(meanMs, stdDeviationMs²).
 *
 * Rule (akka/akka `akka-remote/src/main/scala/akka/remote/PhiAccrualFailureDetector.scala`, `phi(timeDiff, mean,
 * stdDeviation)`): y = (t − mean)/sd, e = exp(−y·(1.5976 + 0.070566·y²)); if t > mean, φ = −log10(e/(1 + e)),
 * otherwise φ = −log10(1 − 1/(1 + e)). Both branches are −log10(1 − F) with F = 1/(1 + e), the logistic
 * approximation of the normal CDF; the first avoids the cancellation in 1 − F when F is close to 1, so φ stays
 * finite (≈ 38 at y = 10) until e itself underflows to 0 near y ≈ 21.4 — exactly where Akka's own formula
 * returns +Infinity on the JVM, so this port does too.
 *
 * Deviation kept small on purpose: Akka returns −0.0 in the second branch when 1/(1 + e) rounds to 0 (the JVM
 * compares −0.0 == 0.0); this returns +0 so that `Object.is`, `toBe(0)` and JSON all agree.
 * A zero `stdDeviationMs` is the caller's problem exactly as in Akka (y = ±Infinity or NaN); the detector
 * never passes one because it floors the deviation at `minStdDeviationMs`.
 */
export function phi(timeDiffMs: number, meanMs: number, stdDeviationMs: number): number {
  const y = (timeDiffMs - meanMs) / stdDeviationMs;
  // Exact shortcut: for y < −7.5, e > e^41.7 > 1e18, so 1/(1 + e) < 2^−54 and 1 − 1/(1 + e) rounds to exactly 1:
  // the formula's value is −log10(1) = −0, returned here as +0 without computing exp and log10.
  if (y < -7.5) return 0;
  const e = Math.exp(-y * (1.5976 + 0.070566 * y * y));
  const value = timeDiffMs > meanMs ? -Math.log10(e / (1 + e)) : -Math.log10(1 - 1 / (1 + e));
  return value + 0; // −0 + 0 = +0
}

/**
 * The silence (ms) at which Akka's φ reaches `threshold` for a given shifted mean and deviation: the inverse of
 * {@link phi} in its first argument, found by bisection on the formula itself so that it agrees with `phi`
 * to the last bit that matters (`phi(t) < threshold` for every t below the result).
 */
export function phiNormalSilenceFor(threshold: number, meanMs: number, stdDeviationMs: number): number {
  if (!(threshold > 0)) throw new RangeError(`threshold must be > 0, got ${threshold}`);
  let lo = -60;
  let hi = 60;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (phi(meanMs + mid * stdDeviationMs, meanMs, stdDeviationMs) < threshold) lo = mid;
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
  return PHI_FACTOR * (timeDiffMs / meanMs);
}

/** Silence at which the exponential φ reaches `threshold`: threshold · ln 10 · mean (≈ 18.42 · mean at 8). */
export function exponentialSilenceFor(threshold: number, meanMs: number): number {
  return (threshold * meanMs) / PHI_FACTOR;
}
