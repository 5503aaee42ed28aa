// Named simulation scenarios that test the usual claims about heartbeat detectors: a 6 s GC pause convicts a
// node under a 5 s timeout but not under φ 8 (exponential); a paused monitor convicts everyone unless it
// notices its own pause; a heartbeat thread that beats while the work loop is stuck fools every detector but
// a progress check; all-to-all heartbeating costs N(N − 1) messages per interval. Each scenario is a plan of
// one or more labelled runs (planScenario), so that a caller can estimate them all before running any.

import type { Topology } from "./analysis.ts";
import { simulate } from "./simulate.ts";
import {
  type SimDetectorSpec,
  type SimulationConfig,
  type SimulationResult,
  simulationSettings,
} from "./simulation-config.ts";
import { show } from "./validate.ts";

export const SCENARIOS = ["gc-pause", "monitor-pause", "stalled-progress", "crash", "cost"] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface ScenarioOptions {
  nodes?: number;
  topology?: Topology;
  durationMs?: number;
  seed?: number;
  lossProbability?: number;
  heartbeatIntervalMs?: number;
  /** The budgets of each run (simulation-budget.ts). */
  maxEvents?: number;
  maxDetectors?: number;
}

export interface ScenarioRun {
  label: string;
  result: SimulationResult;
}

export interface ScenarioReport {
  scenario: ScenarioName;
  description: string;
  runs: ScenarioRun[];
}

export interface ScenarioPlan {
  scenario: ScenarioName;
  description: string;
  runs: Array<{ label: string; config: SimulationConfig }>;
}

const FIXED_5S: SimDetectorSpec = { kind: "fixed", timeoutMs: 5000 };
const PHI_EXP_2: SimDetectorSpec = { kind: "phi-exponential", threshold: 2 };
const PHI_EXP_8: SimDetectorSpec = { kind: "phi-exponential", threshold: 8 };
const PHI_AKKA_8: SimDetectorSpec = { kind: "phi-normal", threshold: 8 };

function base(o: ScenarioOptions, durationMs: number, detectors: SimDetectorSpec[]): SimulationConfig {
  const c: SimulationConfig = {
    nodes: o.nodes ?? 100,
    durationMs: o.durationMs ?? durationMs,
    seed: o.seed ?? 1,
    detectors,
  };
  if (o.topology) c.topology = o.topology;
  if (o.lossProbability !== undefined) c.lossProbability = o.lossProbability;
  if (o.heartbeatIntervalMs !== undefined) c.heartbeatIntervalMs = o.heartbeatIntervalMs;
  if (o.maxEvents !== undefined) c.maxEvents = o.maxEvents;
  if (o.maxDetectors !== undefined) c.maxDetectors = o.maxDetectors;
  return c;
}

/** Runs every run of a scenario's plan, in order. */
export function runScenario(name: ScenarioName, o: ScenarioOptions = {}): ScenarioReport {
  const plan = planScenario(name, o);
  return {
    scenario: plan.scenario,
    description: plan.description,
    runs: plan.runs.map((r) => ({ label: r.label, result: simulate(r.config) })),
  };
}

/**
 * The runs a scenario is made of, not yet run; each run's configuration checked as simulate checks it, so
 * that options it would refuse are refused here, with its messages, before anything is returned.
 */
export function planScenario(name: ScenarioName, o: ScenarioOptions = {}): ScenarioPlan {
  if (!(SCENARIOS as readonly string[]).includes(name)) {
    throw new RangeError(`scenario must be one of ${SCENARIOS.join(", ")}, got ${JSON.stringify(name)}`);
  }
  if (typeof o !== "object" || o === null)
    throw new TypeError(`planScenario: options must be an object, got ${show(o)}`);
  const plan = planOf(name, o);
  for (const run of plan.runs) simulationSettings(run.config);
  return plan;
}

function planOf(name: ScenarioName, o: ScenarioOptions): ScenarioPlan {
  switch (name) {
    case "gc-pause": {
      const c = base(o, 120_000, [FIXED_5S, PHI_EXP_2, PHI_EXP_8, PHI_AKKA_8]);
      c.pauses = [{ node: 0, atMs: 60_000, durationMs: 6000 }];
      return {
        scenario: name,
        description: "node 0 stops the world for 6s at t = 60s; everyone else is healthy",
        runs: [{ label: "6s GC pause on node 0", config: c }],
      };
    }
    case "monitor-pause": {
      const detectors = [FIXED_5S, PHI_EXP_8, PHI_AKKA_8];
      const c = base(o, 120_000, detectors);
      c.pauses = [{ node: 0, atMs: 60_000, durationMs: 20_000 }];
      const guarded: SimulationConfig = { ...c, selfPauseGuard: {} };
      return {
        scenario: name,
        description: "monitor node 0 pauses for 20s at t = 60s, then judges its peers",
        runs: [
          { label: "without self-pause detection", config: c },
          { label: "with self-pause detection (Cassandra rule, 5s)", config: guarded },
        ],
      };
    }
    case "stalled-progress": {
      const c = base(o, 120_000, [FIXED_5S, PHI_AKKA_8, { kind: "progress", progressDeadlineMs: 30_000 }]);
      c.stalls = [{ node: 0, atMs: 30_000 }];
      return {
        scenario: name,
        description: "node 0's work loop wedges at t = 30s while its heartbeat thread keeps beating",
        runs: [{ label: "stalled work loop on node 0", config: c }],
      };
    }
    case "crash": {
      const c = base(o, 120_000, [FIXED_5S, PHI_EXP_2, PHI_EXP_8, PHI_AKKA_8]);
      const nodes = c.nodes;
      c.crashes = Array.from({ length: Math.min(5, nodes - 1) }, (_, i) => ({
        node: i,
        atMs: 40_000 + i * 7_321,
      }));
      return {
        scenario: name,
        description: "nodes 0–4 crash between t = 40s and 70s",
        runs: [{ label: "crashes", config: c }],
      };
    }
    case "cost": {
      const nodes = o.nodes ?? 1000;
      const topologies: Topology[] = o.topology
        ? [o.topology]
        : [{ kind: "all-to-all" }, { kind: "watchers", k: 9 }, { kind: "lease" }];
      return {
        scenario: name,
        description: `liveness traffic of ${nodes} nodes beating every ${(o.heartbeatIntervalMs ?? 1000) / 1000}s`,
        runs: topologies.map((t) => {
          const c = base({ ...o, nodes, topology: t }, 3000, []);
          return { label: t.kind === "watchers" ? `watchers:${t.k}` : t.kind, config: c };
        }),
      };
    }
  }
}
