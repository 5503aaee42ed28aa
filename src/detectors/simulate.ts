// Heartbeat-system simulation on the deterministic event loop: N nodes beating to their monitors over a lossy
// network, process pauses (GC) that freeze both sending and judging, crashes, and work loops that stall while
// the heartbeat thread keeps beating. Reports liveness traffic, crash-detection times and false suspicions for
// each detector. The configuration and results are in simulation-config.ts, who watches whom in
// simulation-topology.ts, the budgets in simulation-budget.ts: a run is estimated and refused before it starts
// when it would pass them.
//
// Model choices (stated, not hidden):
// - A pause freezes the whole process. Its timers do not fire during the pause; on wake, an overdue judging
//   tick runs first, then an overdue beat is sent, then the messages that arrived during the pause are
//   delivered in order (timer threads wake before the inbound queue is drained).
// - Each message: delay = networkDelayMs + Exponential(networkJitterMs); lost with lossProbability.
// - Push beats on every topology (Akka's cluster heartbeat is request/response, which doubles the count).
// - A monitor judges every checkIntervalMs; a suspicion is a transition from available to unavailable. It is
//   false when the target has neither crashed nor stalled at that moment.
// - Random draws come from the engine's PRNG, one fork per concern (network, schedule, pauses), so that
//   adding draws to one does not shift the others.

import { DeadlineFailureDetector, PhiAccrualFailureDetector } from "./akka.ts";
import { ExponentialPhiDetector } from "./cassandra.ts";
import { FixedTimeoutDetector, LeaseDetector, ProgressDetector } from "./simple.ts";
import { checkBudget, estimateSimulation, SIMULATION_BUDGET } from "./simulation-budget.ts";
import {
  type Distribution,
  type SimDetectorResult,
  type SimDetectorSpec,
  type SimulationConfig,
  type SimulationResult,
  simDetectorLabel,
  simulationSettings,
  topologyLabel,
} from "./simulation-config.ts";
import { type Entity, HeartbeatRun, type SimDet } from "./simulation-run.ts";
import { numberIn } from "./validate.ts";

/**
 * A spec's own options over the simulation's defaults for them: `kind` left out (the detectors refuse options
 * they do not know), and an option given as `undefined` does not hide its default.
 */
function optionsOf<S extends SimDetectorSpec, D extends object>(s: S, defaults: D): D & Omit<S, "kind"> {
  const out: Record<string, unknown> = { ...(defaults as Record<string, unknown>) };
  for (const [key, value] of Object.entries(s)) if (key !== "kind" && value !== undefined) out[key] = value;
  return out as D & Omit<S, "kind">;
}

function makeDetector(s: SimDetectorSpec, intervalMs: number): SimDet {
  switch (s.kind) {
    case "fixed":
      return new FixedTimeoutDetector(optionsOf(s, {}));
    case "deadline":
      return new DeadlineFailureDetector(optionsOf(s, { heartbeatIntervalMs: intervalMs }));
    case "phi-exponential":
      return new ExponentialPhiDetector(optionsOf(s, { firstIntervalMs: 2 * intervalMs }));
    case "phi-normal":
      return new PhiAccrualFailureDetector(optionsOf(s, { firstHeartbeatEstimateMs: intervalMs }));
    case "lease":
      return new LeaseDetector(optionsOf(s, { renewIntervalMs: intervalMs }));
    case "progress":
      // Kafka's session.timeout.ms when the spec does not say (simple.ts KAFKA_CONSUMER_DEFAULTS).
      return new ProgressDetector(optionsOf(s, { heartbeatTimeoutMs: 45_000 }));
  }
}

function summarize(xs: number[]): Distribution | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number): number => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!;
  return {
    count: s.length,
    minMs: s[0]!,
    meanMs: s.reduce((a, b) => a + b, 0) / s.length,
    p50Ms: q(0.5),
    p90Ms: q(0.9),
    p99Ms: q(0.99),
    maxMs: s[s.length - 1]!,
  };
}

export function simulate(config: SimulationConfig): SimulationResult {
  const s = simulationSettings(config);
  const budget = { min: 0, max: Number.POSITIVE_INFINITY };
  const maxEvents = numberIn(
    "simulate",
    "maxEvents",
    config.maxEvents ?? SIMULATION_BUDGET.maxEvents,
    budget,
  );
  const maxDetectors = numberIn(
    "simulate",
    "maxDetectors",
    config.maxDetectors ?? SIMULATION_BUDGET.maxDetectors,
    budget,
  );
  checkBudget(estimateSimulation(s), maxEvents, maxDetectors);
  for (const spec of s.specs) makeDetector(spec, s.intervalMs); // a spec's mistake, before anything is allocated

  const run = new HeartbeatRun(s, maxEvents, (spec) => makeDetector(spec, s.intervalMs));
  run.plan();
  run.loop.run(s.durationMs);

  return {
    nodes: s.nodes,
    topology: topologyLabel(s.topology),
    durationMs: s.durationMs,
    seed: s.seed,
    messages: { sent: run.sent, lost: run.lost, perSecond: run.sent / (s.durationMs / 1000) },
    events: run.loop.eventsRun,
    judgements: run.judgements,
    selfPausesNoticed: run.entities.reduce((a, e) => a + (e.guard?.pauseCount ?? 0), 0),
    skippedChecks: run.skippedChecks,
    detectors: detectorResults(s.specs, s.crashes, run),
  };
}

/** Each detector's figures, read from the run's counters once the loop has run. */
function detectorResults(
  specs: SimDetectorSpec[],
  crashes: ReadonlyArray<{ node: number }>,
  run: HeartbeatRun,
): SimDetectorResult[] {
  const { entities } = run;
  // A crash is expected to be detected by each of its monitors that is still alive at the end.
  const crashedTargets = new Set(crashes.map((c) => c.node));
  let expectedCrashes = 0;
  for (const c of crashedTargets) {
    for (const m of entities[c]!.receivers) if (!entities[m]!.crashed) expectedCrashes++;
  }
  return specs.map((spec, k) => {
    const { accusers, suspects } = falseSuspicionsOf(entities, specs.length, k);
    const crashMs = run.crashDelays[k]!.filter((d) => !entities[d.monitor]!.crashed).map((d) => d.ms);
    return {
      label: simDetectorLabel(spec),
      spec,
      falseSuspicions: run.falseCount[k]!,
      falselySuspectedNodes: suspects.map((x) => x.node).sort((a, b) => a - b),
      topAccusers: accusers.slice(0, 3),
      topSuspects: suspects.slice(0, 3),
      crashDetection: { expected: expectedCrashes, detected: crashMs.length, delay: summarize(crashMs) },
      stallDetection: {
        expected: run.expectedStalls,
        detected: run.stallDelays[k]!.length,
        delay: summarize(run.stallDelays[k]!),
      },
    };
  });
}

/** Who falsely suspected how many targets, and who was falsely suspected by how many, for detector k. */
function falseSuspicionsOf(entities: Entity[], S: number, k: number) {
  const byTarget = new Array<number>(entities.length).fill(0);
  const accusers: Array<{ monitor: number; targets: number }> = [];
  for (let m = 0; m < entities.length; m++) {
    const e = entities[m]!;
    let c = 0;
    for (let ti = 0; ti < e.targets.length; ti++) {
      if (e.falseEver[ti * S + k] === 1) {
        c++;
        byTarget[e.targets[ti]!]!++;
      }
    }
    if (c > 0) accusers.push({ monitor: m, targets: c });
  }
  accusers.sort((a, b) => b.targets - a.targets || a.monitor - b.monitor);
  const suspects = byTarget
    .map((monitors, node) => ({ node, monitors }))
    .filter((x) => x.monitors > 0)
    .sort((a, b) => b.monitors - a.monitors || a.node - b.node);
  return { accusers, suspects };
}
