// What a heartbeat-system simulation is asked to do (SimulationConfig), what it reports (SimulationResult),
// and the checked settings a run uses: every number finite and in range, periods at least 1 ms, node
// indices that exist, defaults filled in. A mistake is a RangeError or TypeError naming the field.

import type { Topology } from "./analysis.ts";
import { MAX_TIME_MS, numberIn, show } from "./validate.ts";

export type SimDetectorSpec =
  | { kind: "fixed"; timeoutMs: number }
  | { kind: "deadline"; acceptableHeartbeatPauseMs?: number; heartbeatIntervalMs?: number }
  | {
      kind: "phi-exponential";
      threshold: number;
      windowSize?: number;
      firstIntervalMs?: number;
      maxIntervalMs?: number;
    }
  | {
      kind: "phi-normal";
      threshold?: number;
      maxSampleSize?: number;
      minStdDeviationMs?: number;
      acceptableHeartbeatPauseMs?: number;
      firstHeartbeatEstimateMs?: number;
    }
  | { kind: "lease"; durationMs: number; renewIntervalMs?: number }
  | { kind: "progress"; progressDeadlineMs: number; heartbeatTimeoutMs?: number };

export interface PauseEvent {
  /** Node index; with the lease topology, index `nodes` is the lease store. */
  node: number;
  atMs: number;
  durationMs: number;
}

export interface SimulationConfig {
  /** 2 to MAX_NODES. */
  nodes: number;
  /** Default all-to-all. */
  topology?: Topology;
  /** Default 1000 ms: akka-cluster `reference.conf` `heartbeat-interval = 1 s`; Cassandra gossips every second. */
  heartbeatIntervalMs?: number;
  /** Uniform ± jitter on each beat's schedule, below the interval; default 0. */
  sendJitterMs?: number;
  /** Fixed one-way delay; default 1 ms (faultline choice: one data centre). */
  networkDelayMs?: number;
  /** Mean of the exponential extra delay; default 5 ms (faultline choice). */
  networkJitterMs?: number;
  /** Default 0. */
  lossProbability?: number;
  durationMs: number;
  /** Default 1000 ms: akka-remote `reference.conf` `unreachable-nodes-reaper-interval = 1s`. */
  checkIntervalMs?: number;
  /** The PRNG's seed, 0 to 2^32 − 1; default 1. */
  seed?: number;
  detectors: SimDetectorSpec[];
  pauses?: PauseEvent[];
  /** Random stop-the-world pauses on every node: a Poisson process with this rate and fixed length. */
  randomPauses?: { perNodePerHour: number; durationMs: number };
  crashes?: Array<{ node: number; atMs: number }>;
  /** The work loop stops making progress at atMs; the heartbeat thread keeps beating. */
  stalls?: Array<{ node: number; atMs: number }>;
  /** Monitor self-pause detection (Cassandra's local-pause rule); default off. */
  selfPauseGuard?: false | { maxLocalPauseMs?: number };
  /** Events the run may take (simulation-budget.ts); default SIMULATION_BUDGET.maxEvents. */
  maxEvents?: number;
  /** Detector states the run may hold (simulation-budget.ts); default SIMULATION_BUDGET.maxDetectors. */
  maxDetectors?: number;
}

export interface Distribution {
  count: number;
  minMs: number;
  meanMs: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface SimDetectorResult {
  label: string;
  spec: SimDetectorSpec;
  /** Monitor→target suspicions of nodes that had neither crashed nor stalled. */
  falseSuspicions: number;
  /** Distinct healthy targets suspected at least once. */
  falselySuspectedNodes: number[];
  /** Monitors that falsely suspected the most distinct targets. */
  topAccusers: Array<{ monitor: number; targets: number }>;
  /** Healthy targets falsely suspected by the most distinct monitors. */
  topSuspects: Array<{ node: number; monitors: number }>;
  crashDetection: { expected: number; detected: number; delay: Distribution | null };
  stallDetection: { expected: number; detected: number; delay: Distribution | null };
}

export interface SimulationResult {
  nodes: number;
  topology: string;
  durationMs: number;
  seed: number;
  messages: { sent: number; lost: number; perSecond: number };
  /** Events the loop ran (beats, deliveries, judging ticks, pauses, crashes, stalls). */
  events: number;
  /** Judgements: one detector judging one peer at one tick. */
  judgements: number;
  selfPausesNoticed: number;
  skippedChecks: number;
  detectors: SimDetectorResult[];
}

/** The most nodes a simulation accepts (each node is an object with its own arrays). */
export const MAX_NODES = 100_000;
/** The most detectors per monitored pair. */
export const MAX_DETECTOR_SPECS = 32;

/** A SimulationConfig checked and with its defaults filled in. */
export interface SimulationSettings {
  nodes: number;
  topology: Topology;
  intervalMs: number;
  sendJitterMs: number;
  networkDelayMs: number;
  networkJitterMs: number;
  loss: number;
  durationMs: number;
  checkEveryMs: number;
  seed: number;
  specs: SimDetectorSpec[];
  pauses: PauseEvent[];
  randomPauses: { perNodePerHour: number; durationMs: number } | undefined;
  crashes: Array<{ node: number; atMs: number }>;
  stalls: Array<{ node: number; atMs: number }>;
  selfPauseGuard: { maxLocalPauseMs?: number } | undefined;
  /** Entities: the nodes, and the lease store with the lease topology. */
  total: number;
}

const OWNER = "simulate";
const DETECTOR_KINDS = ["fixed", "deadline", "phi-exponential", "phi-normal", "lease", "progress"];

/**
 * A spec's label; the number it shows held to its detector class's rule (FixedTimeoutDetector's timeoutMs,
 * the φ detectors' threshold, LeaseDetector's durationMs, ProgressDetector's progressDeadlineMs: > 0, finite).
 */
export function simDetectorLabel(s: SimDetectorSpec): string {
  const owner = "simDetectorLabel";
  if (typeof s !== "object" || s === null || !DETECTOR_KINDS.includes(s.kind))
    throw new RangeError(
      `${owner}: kind must be one of ${DETECTOR_KINDS.join(", ")}, got ${show((s as { kind?: unknown } | null)?.kind)}`,
    );
  const shown: Partial<Record<SimDetectorSpec["kind"], string>> = {
    fixed: "timeoutMs",
    "phi-exponential": "threshold",
    "phi-normal": "threshold",
    lease: "durationMs",
    progress: "progressDeadlineMs",
  };
  const field = shown[s.kind];
  const value = field === undefined ? undefined : (s as Record<string, unknown>)[field];
  if (field !== undefined && !(s.kind === "phi-normal" && value === undefined))
    numberIn(owner, field, value, { min: 0, max: MAX_TIME_MS, aboveMin: true });
  switch (s.kind) {
    case "fixed":
      return `fixed timeout ${s.timeoutMs}ms`;
    case "deadline":
      return `akka deadline`;
    case "phi-exponential":
      return `phi exponential ${s.threshold}`;
    case "phi-normal":
      return `phi normal (akka) ${s.threshold ?? 8}`;
    case "lease":
      return `lease ${s.durationMs}ms`;
    case "progress":
      return `progress ${s.progressDeadlineMs}ms`;
  }
}

export function topologyLabel(t: Topology): string {
  return t.kind === "watchers" ? `watchers:${t.k}` : t.kind;
}

/** The settings of `config`, or the RangeError/TypeError of its first mistake. */
export function simulationSettings(config: SimulationConfig): SimulationSettings {
  if (typeof config !== "object" || config === null) {
    throw new TypeError(`${OWNER}: missing configuration (nodes, durationMs, detectors)`);
  }
  const c = config;
  const nodes = numberIn(OWNER, "nodes", c.nodes, { min: 2, max: MAX_NODES, integer: true });
  const topology: Topology = c.topology ?? { kind: "all-to-all" };
  const kind: unknown = topology.kind;
  if (topology.kind === "watchers") {
    numberIn(OWNER, "topology.k (watchers per node)", topology.k, { min: 1, max: MAX_NODES, integer: true });
  } else if (kind !== "all-to-all" && kind !== "lease") {
    throw new RangeError(`${OWNER}: topology.kind must be all-to-all, lease or watchers, got ${show(kind)}`);
  }
  // A missing value without a default reads "must be a number, got undefined".
  const period = (name: string, value: unknown, fallback?: number): number =>
    numberIn(OWNER, name, value ?? fallback, {
      min: 1,
      max: MAX_TIME_MS,
      why: "nothing below 1 ms is simulated",
    });
  const time = (name: string, value: unknown, fallback?: number): number =>
    numberIn(OWNER, name, value ?? fallback, { min: 0, max: MAX_TIME_MS });
  const intervalMs = period("heartbeatIntervalMs", c.heartbeatIntervalMs, 1000);
  const sendJitterMs = numberIn(OWNER, "sendJitterMs", c.sendJitterMs ?? 0, {
    min: 0,
    max: intervalMs,
    belowMax: true,
    why: "below the heartbeat interval",
  });
  const total = topology.kind === "lease" ? nodes + 1 : nodes;
  const node = (what: string, value: unknown): number =>
    numberIn(OWNER, `${what}.node`, value, { min: 0, max: total - 1, integer: true });
  const list = <T>(what: string, value: T[] | undefined): T[] => {
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new TypeError(`${OWNER}: ${what} must be an array, got ${show(value)}`);
    return value;
  };
  const specs = list("detectors", c.detectors);
  if (c.detectors === undefined) throw new TypeError(`${OWNER}: missing detectors (an array, may be empty)`);
  if (specs.length > MAX_DETECTOR_SPECS) {
    throw new RangeError(`${OWNER}: at most ${MAX_DETECTOR_SPECS} detectors per pair, got ${specs.length}`);
  }
  for (const [i, s] of specs.entries()) {
    if (typeof s !== "object" || s === null || !DETECTOR_KINDS.includes(s.kind)) {
      throw new RangeError(
        `${OWNER}: detectors[${i}].kind must be one of ${DETECTOR_KINDS.join(", ")}, got ${show((s as { kind?: unknown } | null)?.kind)}`,
      );
    }
  }
  const randomPauses = c.randomPauses;
  if (randomPauses !== undefined) {
    numberIn(OWNER, "randomPauses.perNodePerHour", randomPauses.perNodePerHour, { min: 0, max: 3_600_000 });
    time("randomPauses.durationMs", randomPauses.durationMs, 0);
  }
  const guard = c.selfPauseGuard;
  return {
    nodes,
    topology,
    intervalMs,
    sendJitterMs,
    networkDelayMs: time("networkDelayMs", c.networkDelayMs, 1),
    networkJitterMs: time("networkJitterMs", c.networkJitterMs, 5),
    loss: numberIn(OWNER, "lossProbability", c.lossProbability ?? 0, { min: 0, max: 1, belowMax: true }),
    durationMs: period("durationMs", c.durationMs),
    checkEveryMs: period("checkIntervalMs", c.checkIntervalMs, 1000),
    seed: numberIn(OWNER, "seed", c.seed ?? 1, { min: 0, max: 0xffff_ffff, integer: true }),
    specs,
    pauses: list("pauses", c.pauses).map((p, i) => {
      node(`pauses[${i}]`, p.node);
      time(`pauses[${i}].atMs`, p.atMs);
      time(`pauses[${i}].durationMs`, p.durationMs);
      return p;
    }),
    randomPauses: randomPauses !== undefined && randomPauses.perNodePerHour > 0 ? randomPauses : undefined,
    crashes: list("crashes", c.crashes).map((x, i) => {
      node(`crashes[${i}]`, x.node);
      time(`crashes[${i}].atMs`, x.atMs);
      return x;
    }),
    stalls: list("stalls", c.stalls).map((x, i) => {
      node(`stalls[${i}]`, x.node);
      time(`stalls[${i}].atMs`, x.atMs);
      return x;
    }),
    selfPauseGuard: guard === undefined || guard === false ? undefined : guard,
    total,
  };
}
