// Heartbeat gap distributions for the analysis: survival function, partial moments (for what a detector learns
// and for detection times) and sampling (from the engine's seeded PRNG). Times in ms; every parameter must be a
// finite number in its range (a RangeError otherwise).

import type { Rng } from "../engine/rng.ts";
import { exponential as expDeviate, normal as normalDeviate } from "./deviates.ts";
import { MAX_TIME_MS, show } from "./validate.ts";

/** A gap parameter (ms): finite and > 0 (or >= 0 when `zeroAllowed`), below MAX_TIME_MS. */
function gapParameter(what: string, value: number, zeroAllowed = false): void {
  if (!((zeroAllowed ? value >= 0 : value > 0) && value <= MAX_TIME_MS)) {
    throw new RangeError(`${what} must be a finite number ${zeroAllowed ? ">=" : ">"} 0, got ${value}`);
  }
}

/** Partial moments over gaps at most c: p = P(G <= c), m1 = E[G; G <= c], m2 = E[G²; G <= c]. */
export interface PartialMoments {
  p: number;
  m1: number;
  m2: number;
}

export interface GapDistribution {
  readonly label: string;
  readonly meanMs: number;
  readonly secondMomentMs2: number;
  /** P(G > t). */
  sf(tMs: number): number;
  partial(cMs: number): PartialMoments;
  sample(rng: Rng): number;
}

/**
 * Complementary error function (Numerical Recipes `erfcc`, fractional error < 1.2e-7 everywhere). ±Infinity
 * give its limits (0 and 2); NaN is a RangeError, as in every exported function here.
 */
export function erfc(x: number): number {
  return erfcOf(checked("erfc", "x", x));
}

/** Standard normal upper tail Q(z) = P(Z > z). */
export function normalSf(z: number): number {
  return sfOf(checked("normalSf", "z", z));
}

/** Standard normal CDF. */
export function normalCdf(z: number): number {
  return cdfOf(checked("normalCdf", "z", z));
}

function checked(owner: string, name: string, value: number): number {
  if (typeof value !== "number" || Number.isNaN(value))
    throw new RangeError(`${owner}: ${name} must be a number, got ${show(value)}`);
  return value;
}

/** {@link erfc} unchecked: the distributions' own moments call it with numbers they computed. */
function erfcOf(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

function sfOf(z: number): number {
  return 0.5 * erfcOf(z / Math.SQRT2);
}

function cdfOf(z: number): number {
  return 0.5 * erfcOf(-z / Math.SQRT2);
}

function normalPdf(z: number): number {
  return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
}

/** Exponential gaps with the given mean (memoryless: Cassandra's model of the world). */
export function exponentialGaps(meanMs: number): GapDistribution {
  gapParameter("mean gap", meanMs);
  return {
    label: `exponential(mean ${meanMs}ms)`,
    meanMs,
    secondMomentMs2: 2 * meanMs * meanMs,
    sf: (t) => (t <= 0 ? 1 : Math.exp(-t / meanMs)),
    partial: (c) => {
      if (c <= 0) return { p: 0, m1: 0, m2: 0 };
      if (c === Number.POSITIVE_INFINITY) return { p: 1, m1: meanMs, m2: 2 * meanMs * meanMs };
      const e = Math.exp(-c / meanMs);
      return {
        p: 1 - e,
        m1: meanMs - (c + meanMs) * e,
        m2: 2 * meanMs * meanMs - (c * c + 2 * meanMs * c + 2 * meanMs * meanMs) * e,
      };
    },
    sample: (rng) => expDeviate(rng, meanMs),
  };
}

/** Normal gaps N(mean, sd²) truncated at 0 (a regular beat with jitter). */
export function normalGaps(meanMs: number, sdMs: number): GapDistribution {
  gapParameter("mean gap", meanMs);
  gapParameter("gap standard deviation", sdMs);
  const raw = (c: number): PartialMoments => {
    if (c === Number.POSITIVE_INFINITY) return { p: 1, m1: meanMs, m2: meanMs * meanMs + sdMs * sdMs };
    const z = (c - meanMs) / sdMs;
    const P = cdfOf(z);
    const f = normalPdf(z);
    return {
      p: P,
      m1: meanMs * P - sdMs * f,
      m2: (meanMs * meanMs + sdMs * sdMs) * P - sdMs * f * (meanMs + c),
    };
  };
  const at0 = raw(0);
  const mass = 1 - at0.p;
  const partial = (c: number): PartialMoments => {
    if (c <= 0) return { p: 0, m1: 0, m2: 0 };
    const r = raw(c);
    return { p: (r.p - at0.p) / mass, m1: (r.m1 - at0.m1) / mass, m2: (r.m2 - at0.m2) / mass };
  };
  const all = partial(Number.POSITIVE_INFINITY);
  return {
    label: `normal(mean ${meanMs}ms, sd ${sdMs}ms)`,
    meanMs: all.m1,
    secondMomentMs2: all.m2,
    sf: (t) => (t <= 0 ? 1 : sfOf((t - meanMs) / sdMs) / mass),
    partial,
    sample: (rng) => {
      for (;;) {
        const x = meanMs + sdMs * normalDeviate(rng);
        if (x >= 0) return x;
      }
    },
  };
}

/** Lognormal gaps with the given mean and log-space sigma. */
export function lognormalGaps(meanMs: number, sigma: number): GapDistribution {
  gapParameter("mean gap", meanMs);
  if (!(sigma > 0 && sigma <= 10)) throw new RangeError(`lognormal sigma must be in (0, 10], got ${sigma}`);
  const mu = Math.log(meanMs) - (sigma * sigma) / 2;
  return {
    label: `lognormal(mean ${meanMs}ms, sigma ${sigma})`,
    meanMs,
    secondMomentMs2: Math.exp(2 * mu + 2 * sigma * sigma),
    sf: (t) => (t <= 0 ? 1 : sfOf((Math.log(t) - mu) / sigma)),
    partial: (c) => {
      if (c <= 0) return { p: 0, m1: 0, m2: 0 };
      if (c === Number.POSITIVE_INFINITY)
        return { p: 1, m1: meanMs, m2: Math.exp(2 * mu + 2 * sigma * sigma) };
      const l = Math.log(c);
      return {
        p: cdfOf((l - mu) / sigma),
        m1: Math.exp(mu + (sigma * sigma) / 2) * cdfOf((l - mu - sigma * sigma) / sigma),
        m2: Math.exp(2 * mu + 2 * sigma * sigma) * cdfOf((l - mu - 2 * sigma * sigma) / sigma),
      };
    },
    sample: (rng) => Math.exp(mu + sigma * normalDeviate(rng)),
  };
}

/** shift + Exponential(scale): a pause of at least `shiftMs` (the GC-pause tail). */
export function shiftedExponentialGaps(shiftMs: number, scaleMs: number): GapDistribution {
  gapParameter("shift", shiftMs, true);
  gapParameter("tail scale", scaleMs);
  const e = exponentialGaps(scaleMs);
  return {
    label: `${shiftMs}ms + exponential(${scaleMs}ms)`,
    meanMs: shiftMs + scaleMs,
    secondMomentMs2: shiftMs * shiftMs + 2 * shiftMs * scaleMs + 2 * scaleMs * scaleMs,
    sf: (t) => (t < shiftMs ? 1 : Math.exp(-(t - shiftMs) / scaleMs)),
    partial: (c) => {
      if (c < shiftMs) return { p: 0, m1: 0, m2: 0 };
      const y = e.partial(c - shiftMs);
      return { p: y.p, m1: shiftMs * y.p + y.m1, m2: shiftMs * shiftMs * y.p + 2 * shiftMs * y.m1 + y.m2 };
    },
    sample: (rng) => shiftMs + expDeviate(rng, scaleMs),
  };
}

/** A weighted mixture; weights are normalised. */
export function mixtureGaps(
  parts: Array<{ weight: number; dist: GapDistribution }>,
  label?: string,
): GapDistribution {
  const total = parts.reduce((s, p) => s + p.weight, 0);
  if (!(total > 0 && total < Number.POSITIVE_INFINITY) || parts.some((p) => !(p.weight >= 0))) {
    throw new RangeError("mixture weights must be finite numbers >= 0, not all 0");
  }
  const ws = parts.map((p) => p.weight / total);
  const ds = parts.map((p) => p.dist);
  const sum = (f: (d: GapDistribution, i: number) => number): number =>
    ds.reduce((s, d, i) => s + ws[i]! * f(d, i), 0);
  return {
    label: label ?? `mixture(${ds.map((d, i) => `${ws[i]} × ${d.label}`).join(" + ")})`,
    meanMs: sum((d) => d.meanMs),
    secondMomentMs2: sum((d) => d.secondMomentMs2),
    sf: (t) => sum((d) => d.sf(t)),
    partial: (c) => {
      const out = { p: 0, m1: 0, m2: 0 };
      ds.forEach((d, i) => {
        const r = d.partial(c);
        out.p += ws[i]! * r.p;
        out.m1 += ws[i]! * r.m1;
        out.m2 += ws[i]! * r.m2;
      });
      return out;
    },
    sample: (rng) => {
      let u = rng.float();
      for (let i = 0; i < ds.length; i++) {
        u -= ws[i]!;
        if (u < 0) return ds[i]!.sample(rng);
      }
      return ds[ds.length - 1]!.sample(rng);
    },
  };
}

/**
 * A base distribution plus a GC-pause tail such that P(G > thresholdMs) = probability exactly: the tail is
 * thresholdMs + Exponential(excessScaleMs) with weight w = (q − b)/(1 − b), b = base P(G > threshold).
 */
export function withPauseTail(
  base: GapDistribution,
  thresholdMs: number,
  probability: number,
  excessScaleMs: number,
): GapDistribution {
  if (!(probability > 0 && probability < 1)) {
    throw new RangeError(`tail probability must be in (0, 1), got ${probability}`);
  }
  gapParameter("tail threshold", thresholdMs, true);
  const b = base.sf(thresholdMs);
  if (b > probability) {
    throw new RangeError(
      `the base distribution alone already exceeds ${thresholdMs}ms with probability ${b.toExponential(2)} > ${probability}`,
    );
  }
  const w = (probability - b) / (1 - b);
  return mixtureGaps(
    [
      { weight: 1 - w, dist: base },
      { weight: w, dist: shiftedExponentialGaps(thresholdMs, excessScaleMs) },
    ],
    `${base.label} with a pause tail: P(gap > ${thresholdMs}ms) = ${probability} (tail ${thresholdMs}ms + exponential(${excessScaleMs}ms), weight ${w.toExponential(3)})`,
  );
}

/** The empirical distribution of measured gaps (ms): at least one, each finite and >= 0, a mean > 0. */
export function empiricalGaps(gapsMs: ArrayLike<number>, label = "measured gaps"): GapDistribution {
  if (gapsMs.length === 0) throw new RangeError("no gaps");
  for (let i = 0; i < gapsMs.length; i++) gapParameter(`gap ${i + 1}`, gapsMs[i]!, true);
  const xs = Float64Array.from(gapsMs).sort();
  const n = xs.length;
  if (!(xs[n - 1]! > 0)) throw new RangeError("every gap is 0: the mean gap must be > 0");
  const c1 = new Float64Array(n + 1);
  const c2 = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    c1[i + 1] = c1[i]! + xs[i]!;
    c2[i + 1] = c2[i]! + xs[i]! * xs[i]!;
  }
  /** Number of samples <= c. */
  const atMost = (c: number): number => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[mid]! <= c) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return {
    label: `${label} (n = ${n})`,
    meanMs: c1[n]! / n,
    secondMomentMs2: c2[n]! / n,
    sf: (t) => (n - atMost(t)) / n,
    partial: (c) => {
      const k = atMost(c);
      return { p: k / n, m1: c1[k]! / n, m2: c2[k]! / n };
    },
    sample: (rng) => xs[Math.min(n - 1, Math.floor(rng.float() * n))]!,
  };
}
