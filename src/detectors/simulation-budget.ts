// Every simulation is bounded. Before a run, its work is estimated from its settings and refused when it
// would pass a budget; during the run the same count is enforced (EventBudgetExceeded), so an estimate
// that is off still ends in a message, never a hang or an out-of-memory abort.
//
// Two budgets, both in SimulationConfig (`maxEvents`, `maxDetectors`):
// - events: every heartbeat delivered to a monitor, every timer (a beat sent, a judging tick, a pause, a
//   crash, a stall) and every judgement (one detector judging one peer at one tick). Default 20,000,000:
//   about 6–25 s of one core (3.5 M events/s at 100 nodes, 0.9 M/s at 500, measured). The estimate is an
//   upper bound: no message lost, the first beat at t = 0.
// - detector states: monitored pairs × detectors per pair (a pair without detectors still costs one: its
//   place in the topology). Default 1,000,000: 0.9 GiB peak in a 500-node, 4-detector run within the event
//   budget (a full φ window holds up to 3.5 KB, history.ts); enough for the 1,000-node all-to-all cost
//   scenario (999,000 pairs).

import { MAX_NODES, type SimulationSettings } from "./simulation-config.ts";
import { MAX_TIME_MS, numberIn, show } from "./validate.ts";

export const SIMULATION_BUDGET = {
  maxEvents: 20_000_000,
  maxDetectors: 1_000_000,
} as const;

/** What a run will do, from its settings alone. */
export interface SimulationEstimate {
  nodes: number;
  /** Monitors watching each node (their average). */
  monitorsPerNode: number;
  /** Monitored pairs: Σ over nodes of their monitors. */
  pairs: number;
  /** Detectors per pair. */
  detectorsPerPair: number;
  /** Entities that judge: every node, or only the lease store. */
  monitors: number;
  /** Beats each node sends at most: ⌊duration / interval⌋ + 1. */
  beatsPerNode: number;
  /** Judging ticks of each monitor at most: ⌊duration / check interval⌋ + 1. */
  checksPerMonitor: number;
  /** pairs × beatsPerNode. */
  deliveries: number;
  /** pairs × detectorsPerPair × checksPerMonitor. */
  judgements: number;
  /** Beat and judging timers, pauses (and their wake-ups), crashes, stalls. */
  timers: number;
  /** deliveries + judgements + timers: what `maxEvents` bounds. */
  events: number;
  /** pairs × max(1, detectorsPerPair): what `maxDetectors` bounds. */
  detectorStates: number;
}

export function estimateSimulation(s: SimulationSettings): SimulationEstimate {
  checkSettings(s);
  const n = s.nodes;
  const monitorsPerNode =
    s.topology.kind === "all-to-all"
      ? n - 1
      : s.topology.kind === "lease"
        ? 1
        : Math.min(s.topology.k, n - 1);
  const pairs = n * monitorsPerNode;
  const monitors = s.topology.kind === "lease" ? 1 : n;
  const detectorsPerPair = s.specs.length;
  const beatsPerNode = Math.floor(s.durationMs / s.intervalMs) + 1;
  const checksPerMonitor = Math.floor(s.durationMs / s.checkEveryMs) + 1;
  const deliveries = pairs * beatsPerNode;
  const judgements = pairs * detectorsPerPair * checksPerMonitor;
  const randomPauses =
    s.randomPauses === undefined
      ? 0
      : Math.ceil(n * s.randomPauses.perNodePerHour * (s.durationMs / 3_600_000));
  const timers =
    n * beatsPerNode +
    (detectorsPerPair > 0 ? monitors * checksPerMonitor : 0) +
    2 * (s.pauses.length + randomPauses) +
    s.crashes.length +
    s.stalls.length;
  return {
    nodes: n,
    monitorsPerNode,
    pairs,
    detectorsPerPair,
    monitors,
    beatsPerNode,
    checksPerMonitor,
    deliveries,
    judgements,
    timers,
    events: deliveries + judgements + timers,
    detectorStates: pairs * Math.max(1, detectorsPerPair),
  };
}

/**
 * The numbers the estimate reads, held to simulationSettings' own ranges (with its messages' form), so that
 * settings not made by it cannot give a NaN estimate that passes every budget.
 */
function checkSettings(s: SimulationSettings): void {
  const owner = "estimateSimulation";
  if (typeof s !== "object" || s === null)
    throw new TypeError(`${owner}: settings must be simulationSettings(config)'s, got ${show(s)}`);
  numberIn(owner, "nodes", s.nodes, { min: 2, max: MAX_NODES, integer: true });
  const kind: unknown = s.topology?.kind;
  if (kind === "watchers")
    numberIn(owner, "topology.k (watchers per node)", (s.topology as { k: unknown }).k, {
      min: 1,
      max: MAX_NODES,
      integer: true,
    });
  else if (kind !== "all-to-all" && kind !== "lease")
    throw new RangeError(`${owner}: topology.kind must be all-to-all, lease or watchers, got ${show(kind)}`);
  const period = { min: 1, max: MAX_TIME_MS, why: "nothing below 1 ms is simulated" };
  numberIn(owner, "intervalMs", s.intervalMs, period);
  numberIn(owner, "checkEveryMs", s.checkEveryMs, period);
  numberIn(owner, "durationMs", s.durationMs, { min: 0, max: MAX_TIME_MS });
  for (const name of ["specs", "pauses", "crashes", "stalls"] as const)
    if (!Array.isArray(s[name]))
      throw new TypeError(`${owner}: ${name} must be an array, got ${show(s[name])}`);
  const rp = s.randomPauses;
  if (rp !== undefined)
    numberIn(owner, "randomPauses.perNodePerHour", rp?.perNodePerHour, { min: 0, max: 3_600_000 });
}

/** A run refused before it starts: `estimate` passes `limit` on `budget`. */
export class SimulationBudgetExceeded extends RangeError {
  constructor(
    readonly budget: "events" | "detectors",
    readonly estimate: SimulationEstimate,
    readonly limit: number,
  ) {
    const e = estimate;
    const count = (x: number): string => Math.round(x).toLocaleString("en-US");
    super(
      budget === "events"
        ? `the simulation would take about ${count(e.events)} events (${count(e.nodes)} nodes × ${count(e.monitorsPerNode)} monitors each × ${count(e.beatsPerNode)} beats = ${count(e.deliveries)} heartbeats delivered, + ${count(e.pairs)} pairs × ${e.detectorsPerPair} detectors × ${count(e.checksPerMonitor)} judging ticks = ${count(e.judgements)} judgements), over its budget of ${count(limit)} (maxEvents)`
        : `the simulation would hold ${count(e.detectorStates)} detector states (${count(e.nodes)} nodes × ${count(e.monitorsPerNode)} monitors each × ${Math.max(1, e.detectorsPerPair)} detectors), over its budget of ${count(limit)} (maxDetectors)`,
    );
  }
}

/** Throws SimulationBudgetExceeded if the estimate passes either budget; returns the estimate otherwise. */
export function checkBudget(
  estimate: SimulationEstimate,
  maxEvents: number = SIMULATION_BUDGET.maxEvents,
  maxDetectors: number = SIMULATION_BUDGET.maxDetectors,
): SimulationEstimate {
  // A NaN limit or estimate would pass every comparison below: a budget that holds nothing. Infinity is no
  // budget, as simulate's maxEvents and maxDetectors allow.
  const count = { min: 0, max: Number.POSITIVE_INFINITY };
  numberIn("checkBudget", "maxEvents", maxEvents, count);
  numberIn("checkBudget", "maxDetectors", maxDetectors, count);
  numberIn("checkBudget", "estimate.events", estimate?.events, count);
  numberIn("checkBudget", "estimate.detectorStates", estimate?.detectorStates, count);
  if (estimate.detectorStates > maxDetectors)
    throw new SimulationBudgetExceeded("detectors", estimate, maxDetectors);
  if (estimate.events > maxEvents) throw new SimulationBudgetExceeded("events", estimate, maxEvents);
  return estimate;
}
