// From a gap distribution to each detector's trade-off: the silence that triggers it, the time it takes to
// detect a real crash, and how often it wrongly suspects a healthy node. Closed forms, no sampling.
//
// Model. Gaps between a node's beats (as seen by a monitor) are i.i.d. with distribution G. In steady state a
// detector suspects once the silence reaches a fixed t* that depends on what it has learned:
//   fixed timeout D            t* = D
//   Akka deadline              t* = acceptableHeartbeatPause + heartbeatInterval
//   Cassandra exponential φ    t* = Φ · ln 10 · mean, mean learned from gaps <= maxInterval
//   Akka normal φ              t* solves phi(t*, mean + pause, max(sd, minSd)) = Φ, mean and sd learned from the
//                              gaps recorded while available (G < t*), found as a fixed point
// A healthy node is wrongly suspected once for every gap longer than t*: per day that is
// (86,400,000 / E[G]) · P(G > t*). A pause silences a node to every watcher at once, so the cluster sees one
// correlated false failure per such gap and node (× nodes per cluster-day), and every watcher suspects it
// (× watchers for peer-level suspicions).
// A crash happens at a random moment; the age A of the last beat then has density P(G > a) / E[G] (renewal
// theory), and the detection delay is max(0, t* − A): worst case t*, mean
// (1/E[G]) ∫0^t* (t* − a) P(G > a) da, both from the distribution's partial moments.

import { AKKA_CLUSTER_DEFAULTS } from "./akka.ts";
import type { GapDistribution } from "./distributions.ts";
import { exponentialSilenceFor, normalSilenceFor } from "./phi.ts";
import { MAX_TIME_MS, numberIn, show } from "./validate.ts";

export const MS_PER_DAY = 86_400_000;

export type AnalysisDetector =
  | { kind: "fixed"; timeoutMs: number }
  | { kind: "deadline"; acceptableHeartbeatPauseMs: number; heartbeatIntervalMs: number }
  | { kind: "phi-exponential"; threshold: number; maxIntervalMs?: number }
  | {
      kind: "phi-normal";
      threshold: number;
      acceptableHeartbeatPauseMs?: number;
      minStdDeviationMs?: number;
    };

export interface ClusterShape {
  /** Nodes in the cluster; default 1. */
  nodes?: number;
  /** Monitors watching each node; default nodes − 1 (all-to-all), at least 1. */
  watchersPerNode?: number;
}

export interface DetectionTime {
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  worstMs: number;
}

export interface DetectorAnalysis {
  label: string;
  detector: AnalysisDetector;
  /** Silence (ms) at which the detector suspects, in steady state. */
  suspectAfterMs: number;
  /** What the detector learned from the gaps (φ detectors only). */
  learnedMeanMs?: number;
  learnedStdDeviationMs?: number;
  /** P(G > suspectAfterMs): the chance that one gap is a false suspicion. */
  mistakeProbabilityPerGap: number;
  beatsPerNodePerDay: number;
  falseSuspicionsPerNodePerDay: number;
  falseSuspicionsPerClusterPerDay: number;
  peerSuspicionsPerDay: number;
  detection: DetectionTime;
}

export function detectorLabel(d: AnalysisDetector): string {
  checkDetector(d, "detectorLabel"); // a label of a detector analyzeDetector would refuse would be a lie
  switch (d.kind) {
    case "fixed":
      return `fixed timeout ${fmtMs(d.timeoutMs)}`;
    case "deadline":
      return `akka deadline ${fmtMs(d.acceptableHeartbeatPauseMs)}+${fmtMs(d.heartbeatIntervalMs)}`;
    case "phi-exponential":
      return `phi exponential ${d.threshold}`;
    case "phi-normal":
      return `phi normal (akka) ${d.threshold}`;
  }
}

function fmtMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** ∫0^x P(G > a) da = E[min(G, x)]. */
function integratedSf(dist: GapDistribution, x: number): number {
  if (x <= 0) return 0;
  const pm = dist.partial(x);
  return pm.m1 + x * (1 - pm.p);
}

/** Detection delay of a crash for a detector that fires after `t` ms of silence. */
export function detectionTime(dist: GapDistribution, t: number): DetectionTime {
  checkDistribution("detectionTime", dist);
  // A detector fires after a silence > 0 (FixedTimeoutDetector: timeoutMs > 0); +Infinity is one that never
  // fires (a φ threshold the model cannot reach).
  if (!(t > 0))
    throw new RangeError(
      `detectionTime: t must be a number > 0 (ms of silence; Infinity for a detector that never fires), got ${t}`,
    );
  return detectionDelay(dist, t);
}

/**
 * {@link detectionTime} unchecked, for analyzeDetector, whose silence is its detector's (a φ-normal threshold
 * below the shifted mean's φ can put it at or below 0: detected at once).
 */
function detectionDelay(dist: GapDistribution, t: number): DetectionTime {
  const mean = dist.meanMs;
  if (!(t > 0)) return { meanMs: 0, p50Ms: 0, p99Ms: 0, worstMs: 0 };
  if (!Number.isFinite(t)) {
    const inf = Number.POSITIVE_INFINITY;
    return { meanMs: inf, p50Ms: inf, p99Ms: inf, worstMs: inf };
  }
  const pm = dist.partial(t);
  const tail = 1 - pm.p;
  const meanDelay = (t * (pm.m1 + t * tail) - (pm.m2 + t * t * tail) / 2) / mean;
  // P(delay <= d) = 1 − I(t − d)/E[G] for 0 <= d <= t.
  const cdf = (d: number): number => 1 - integratedSf(dist, t - d) / mean;
  const quantile = (q: number): number => {
    if (cdf(0) >= q) return 0;
    let lo = 0;
    let hi = t;
    for (let i = 0; i < 100 && hi - lo > 1e-9 * t; i++) {
      const mid = (lo + hi) / 2;
      if (cdf(mid) >= q) hi = mid;
      else lo = mid;
    }
    return hi;
  };
  return { meanMs: Math.max(0, meanDelay), p50Ms: quantile(0.5), p99Ms: quantile(0.99), worstMs: t };
}

/** A whole number of nodes or watchers, at least 1 (analyzeDetector's nodes, simulate's topology.k). */
const COUNT = { min: 1, max: Number.MAX_SAFE_INTEGER, integer: true };

/** A GapDistribution as distributions.ts makes them: a TypeError for anything else. */
function checkDistribution(owner: string, dist: GapDistribution): void {
  if (typeof dist?.partial !== "function" || !(dist.meanMs > 0 && dist.meanMs <= MAX_TIME_MS))
    throw new TypeError(
      `${owner}: dist must be a gap distribution (exponentialGaps, normalGaps, empiricalGaps…), got ${show(dist)}`,
    );
}

/** Mean and population sd of G conditioned on G <= c (what a window that drops longer gaps learns). */
function conditionalStats(dist: GapDistribution, c: number): { mean: number; sd: number } {
  const pm = dist.partial(c);
  if (!(pm.p > 0))
    return { mean: dist.meanMs, sd: Math.sqrt(Math.max(0, dist.secondMomentMs2 - dist.meanMs ** 2)) };
  const mean = pm.m1 / pm.p;
  return { mean, sd: Math.sqrt(Math.max(0, pm.m2 / pm.p - mean * mean)) };
}

/** The detector's numbers, checked: finite and in range (a NaN timeout would "detect" in 0 ms). */
function checkDetector(d: AnalysisDetector, owner = "analyzeDetector"): void {
  if (typeof d !== "object" || d === null)
    throw new TypeError(`${owner}: the detector must be an object with a kind, got ${show(d)}`);
  const ms = { min: 0, max: MAX_TIME_MS, aboveMin: true };
  const phi = { min: 0, max: 1000, aboveMin: true };
  switch (d.kind) {
    case "fixed":
      numberIn(owner, "timeoutMs", d.timeoutMs, ms);
      return;
    case "deadline":
      numberIn(owner, "acceptableHeartbeatPauseMs", d.acceptableHeartbeatPauseMs, { ...ms, aboveMin: false });
      numberIn(owner, "heartbeatIntervalMs", d.heartbeatIntervalMs, ms);
      return;
    case "phi-exponential":
      numberIn(owner, "threshold", d.threshold, phi);
      if (d.maxIntervalMs !== undefined) numberIn(owner, "maxIntervalMs", d.maxIntervalMs, ms);
      return;
    case "phi-normal":
      numberIn(owner, "threshold", d.threshold, phi);
      if (d.acceptableHeartbeatPauseMs !== undefined) {
        numberIn(owner, "acceptableHeartbeatPauseMs", d.acceptableHeartbeatPauseMs, {
          ...ms,
          aboveMin: false,
        });
      }
      if (d.minStdDeviationMs !== undefined) {
        numberIn(owner, "minStdDeviationMs", d.minStdDeviationMs, { ...ms, aboveMin: false });
      }
      return;
    default:
      throw new RangeError(
        `${owner}: unknown detector kind ${JSON.stringify((d as { kind?: unknown }).kind)}`,
      );
  }
}

/** Steady-state silence that triggers the detector, and what it learned. */
export function suspicionSilence(
  dist: GapDistribution,
  d: AnalysisDetector,
): { t: number; learnedMeanMs?: number; learnedStdDeviationMs?: number } {
  checkDetector(d);
  switch (d.kind) {
    case "fixed":
      return { t: d.timeoutMs };
    case "deadline":
      return { t: d.acceptableHeartbeatPauseMs + d.heartbeatIntervalMs };
    case "phi-exponential": {
      // Cassandra's window drops intervals above maxInterval, which defaults to 2 × the gossip interval
      // (INITIAL_VALUE = 2 × Gossiper.intervalInMillis); here the gossip interval is the mean gap.
      const maxInterval = d.maxIntervalMs ?? 2 * dist.meanMs;
      const { mean } = conditionalStats(dist, maxInterval);
      return { t: exponentialSilenceFor(d.threshold, mean), learnedMeanMs: mean };
    }
    case "phi-normal": {
      const pause = d.acceptableHeartbeatPauseMs ?? AKKA_CLUSTER_DEFAULTS.acceptableHeartbeatPauseMs;
      const minSd = d.minStdDeviationMs ?? AKKA_CLUSTER_DEFAULTS.minStdDeviationMs;
      // Akka records an interval only while available, i.e. gaps below t*: iterate to the fixed point.
      let stats = conditionalStats(dist, Number.POSITIVE_INFINITY);
      let t = normalSilenceFor(d.threshold, stats.mean + pause, Math.max(stats.sd, minSd));
      for (let i = 0; i < 200; i++) {
        stats = conditionalStats(dist, t);
        const next = normalSilenceFor(d.threshold, stats.mean + pause, Math.max(stats.sd, minSd));
        if (Math.abs(next - t) <= 1e-9 * t) {
          t = next;
          break;
        }
        t = next;
      }
      return { t, learnedMeanMs: stats.mean, learnedStdDeviationMs: stats.sd };
    }
  }
}

export function analyzeDetector(
  dist: GapDistribution,
  detector: AnalysisDetector,
  shape: ClusterShape = {},
): DetectorAnalysis {
  const count = { min: 1, max: Number.MAX_SAFE_INTEGER, integer: true };
  const nodes = numberIn("analyzeDetector", "nodes", shape.nodes ?? 1, count);
  const watchers = numberIn(
    "analyzeDetector",
    "watchersPerNode",
    shape.watchersPerNode ?? Math.max(1, nodes - 1),
    count,
  );
  const s = suspicionSilence(dist, detector);
  const pMistake = dist.sf(s.t);
  const beats = MS_PER_DAY / dist.meanMs;
  const perNode = beats * pMistake;
  const out: DetectorAnalysis = {
    label: detectorLabel(detector),
    detector,
    suspectAfterMs: s.t,
    mistakeProbabilityPerGap: pMistake,
    beatsPerNodePerDay: beats,
    falseSuspicionsPerNodePerDay: perNode,
    falseSuspicionsPerClusterPerDay: perNode * nodes,
    peerSuspicionsPerDay: perNode * nodes * watchers,
    detection: detectionDelay(dist, s.t),
  };
  if (s.learnedMeanMs !== undefined) out.learnedMeanMs = s.learnedMeanMs;
  if (s.learnedStdDeviationMs !== undefined) out.learnedStdDeviationMs = s.learnedStdDeviationMs;
  return out;
}

export function compareDetectors(
  dist: GapDistribution,
  detectors: readonly AnalysisDetector[],
  shape: ClusterShape = {},
): DetectorAnalysis[] {
  return detectors.map((d) => analyzeDetector(dist, d, shape));
}

export type ThresholdFamily =
  | { kind: "fixed" }
  | { kind: "phi-exponential"; maxIntervalMs?: number }
  | { kind: "phi-normal"; acceptableHeartbeatPauseMs?: number; minStdDeviationMs?: number };

/**
 * The lowest threshold (φ) or shortest timeout (ms) whose false suspicions stay at or below
 * `maxFalsePerNodePerDay`, with its analysis; undefined if none in range (φ up to 100, timeouts up to 1 day).
 */
export function pickThreshold(
  dist: GapDistribution,
  family: ThresholdFamily,
  maxFalsePerNodePerDay: number,
  shape: ClusterShape = {},
): { value: number; analysis: DetectorAnalysis } | undefined {
  if (!(maxFalsePerNodePerDay >= 0)) throw new RangeError("target false-suspicion rate must be >= 0");
  const make = (v: number): AnalysisDetector =>
    family.kind === "fixed" ? { kind: "fixed", timeoutMs: v } : { ...family, threshold: v };
  const ok = (v: number): boolean =>
    analyzeDetector(dist, make(v), shape).falseSuspicionsPerNodePerDay <= maxFalsePerNodePerDay;
  let lo = family.kind === "fixed" ? 1 : 0.01;
  let hi = family.kind === "fixed" ? MS_PER_DAY : 100;
  if (!ok(hi)) return undefined;
  if (ok(lo)) hi = lo;
  for (let i = 0; i < 200 && hi - lo > 1e-6 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (ok(mid)) hi = mid;
    else lo = mid;
  }
  const value = family.kind === "fixed" ? Math.ceil(hi) : Math.ceil(hi * 1000) / 1000;
  return { value, analysis: analyzeDetector(dist, make(value), shape) };
}

export type Topology = { kind: "all-to-all" } | { kind: "lease" } | { kind: "watchers"; k: number };

/**
 * Liveness messages per second: all-to-all N(N − 1)/T; a central lease store N/T (renewal requests);
 * k watchers per node k·N/T with push beats (Akka's request/response heartbeat doubles it).
 */
export function heartbeatMessagesPerSecond(topology: Topology, nodes: number, intervalMs: number): number {
  const owner = "heartbeatMessagesPerSecond";
  const kind: unknown = topology?.kind;
  if (kind === "watchers")
    numberIn(owner, "topology.k (watchers per node)", (topology as { k: unknown }).k, COUNT);
  else if (kind !== "all-to-all" && kind !== "lease")
    throw new RangeError(`${owner}: topology.kind must be all-to-all, lease or watchers, got ${show(kind)}`);
  numberIn(owner, "nodes", nodes, COUNT);
  numberIn(owner, "intervalMs", intervalMs, { min: 0, max: MAX_TIME_MS, aboveMin: true });
  const perInterval =
    topology.kind === "all-to-all"
      ? nodes * (nodes - 1)
      : topology.kind === "lease"
        ? nodes
        : nodes * Math.min(topology.k, nodes - 1);
  return (perInterval * 1000) / intervalMs;
}
