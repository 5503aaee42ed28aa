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

import { EventBudgetExceeded } from "../engine/engine.ts";
import { Rng } from "../engine/rng.ts";
import { DeadlineFailureDetector, PhiAccrualFailureDetector } from "./akka.ts";
import { ExponentialPhiDetector } from "./cassandra.ts";
import { exponential } from "./deviates.ts";
import { EventLoop } from "./events.ts";
import { SelfPauseGuard } from "./guards.ts";
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
import { topologyOf } from "./simulation-topology.ts";
import { numberIn } from "./validate.ts";

type SimDet = { heartbeat(nowMs: number, progress?: number): void; isAvailable(nowMs: number): boolean };

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

interface Entity {
  paused: boolean;
  pausedUntil: number;
  beatOverdue: boolean;
  checkOverdue: boolean;
  backlog: Array<{ from: number; progress: number }>;
  crashed: boolean;
  crashAt: number;
  stalled: boolean;
  stallAt: number;
  progress: number;
  /** Entities this one sends beats to. */
  receivers: number[];
  /** Entities this one judges; `targetIndex` finds a target's place. */
  targets: number[];
  /** detectors[targetIdx * specs + specIdx] */
  detectors: SimDet[];
  /** Per detector: suspected now; ever falsely suspected (same layout as `detectors`). */
  suspected: Uint8Array;
  falseEver: Uint8Array;
  guard: SelfPauseGuard | undefined;
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
  const specs = s.specs;
  const S = specs.length;
  for (const spec of specs) makeDetector(spec, s.intervalMs); // a spec's mistake, before anything is allocated

  const n = s.nodes;
  const total = s.total;
  const interval = s.intervalMs;
  const checkEvery = s.checkEveryMs;
  const root = new Rng(s.seed);
  const network = root.fork("network");
  const schedule = root.fork("schedule");
  const pauseDraws = root.fork("pauses");
  const loop = new EventLoop();
  loop.maxEvents = maxEvents;
  const topology = topologyOf(s);

  const entities: Entity[] = [];
  for (let i = 0; i < total; i++) {
    entities.push({
      paused: false,
      pausedUntil: 0,
      beatOverdue: false,
      checkOverdue: false,
      backlog: [],
      crashed: false,
      crashAt: 0,
      stalled: false,
      stallAt: 0,
      progress: 0,
      receivers: [],
      targets: [],
      detectors: [],
      suspected: new Uint8Array(0),
      falseEver: new Uint8Array(0),
      guard: s.selfPauseGuard ? new SelfPauseGuard(s.selfPauseGuard) : undefined,
    });
  }
  topology.watch((monitor, target) => {
    entities[target]!.receivers.push(monitor);
    entities[monitor]!.targets.push(target);
  });
  for (const e of entities) {
    e.suspected = new Uint8Array(e.targets.length * S);
    e.falseEver = new Uint8Array(e.targets.length * S);
    for (let i = 0; i < e.targets.length * S; i++) e.detectors.push(makeDetector(specs[i % S]!, interval));
  }

  const falseCount = new Array<number>(S).fill(0);
  const crashDelays: Array<Array<{ monitor: number; ms: number }>> = specs.map(() => []);
  const stallDelays: number[][] = specs.map(() => []);
  let sent = 0;
  let lost = 0;
  let skippedChecks = 0;
  let judgements = 0;

  const deliver = (to: number, from: number, progress: number): void => {
    const e = entities[to]!;
    const idx = topology.index(to, from);
    if (idx < 0) return;
    const now = loop.now;
    const base = idx * S;
    for (let k = 0; k < S; k++) e.detectors[base + k]!.heartbeat(now, progress);
  };

  const onArrive = (to: number, from: number, progress: number): void => {
    const e = entities[to]!;
    if (e.crashed) return;
    if (e.paused) {
      e.backlog.push({ from, progress });
      return;
    }
    deliver(to, from, progress);
  };

  const sendBeat = (i: number): void => {
    const e = entities[i]!;
    if (!e.stalled) e.progress++;
    const now = loop.now;
    for (const r of e.receivers) {
      sent++;
      if (s.loss > 0 && network.float() < s.loss) {
        lost++;
        continue;
      }
      const p = e.progress;
      loop.at(now + s.networkDelayMs + exponential(network, s.networkJitterMs), () => onArrive(r, i, p));
    }
  };

  const runCheck = (m: number): void => {
    const e = entities[m]!;
    const now = loop.now;
    if (e.guard !== undefined && !e.guard.check(now)) {
      skippedChecks++;
      return;
    }
    const targets = e.targets;
    // Judgements count towards the event budget: the loop may run only what is left of it.
    judgements += targets.length * S;
    if (loop.eventsRun + judgements > maxEvents) throw new EventBudgetExceeded(maxEvents, now / 1000);
    loop.maxEvents = maxEvents - judgements;
    for (let ti = 0; ti < targets.length; ti++) {
      const target = targets[ti]!;
      for (let k = 0; k < S; k++) {
        const at = ti * S + k;
        const available = e.detectors[at]!.isAvailable(now);
        if (available) {
          e.suspected[at] = 0;
          continue;
        }
        if (e.suspected[at] === 1) continue;
        e.suspected[at] = 1;
        const t = entities[target]!;
        if (t.crashed) crashDelays[k]!.push({ monitor: m, ms: now - t.crashAt });
        else if (t.stalled) stallDelays[k]!.push(now - t.stallAt);
        else {
          falseCount[k]!++;
          e.falseEver[at] = 1;
        }
      }
    }
  };

  const beatTimer = (i: number): void => {
    const e = entities[i]!;
    if (e.crashed) return;
    if (e.paused) {
      e.beatOverdue = true;
      return;
    }
    sendBeat(i);
    scheduleBeat(i, interval);
  };
  const scheduleBeat = (i: number, after: number): void => {
    const j = s.sendJitterMs > 0 ? (schedule.float() * 2 - 1) * s.sendJitterMs : 0;
    loop.after(after + j, () => beatTimer(i));
  };
  const checkTimer = (m: number): void => {
    const e = entities[m]!;
    if (e.crashed) return;
    if (e.paused) {
      e.checkOverdue = true;
      return;
    }
    runCheck(m);
    loop.after(checkEvery, () => checkTimer(m));
  };
  const wake = (i: number): void => {
    const e = entities[i]!;
    if (e.crashed || !e.paused || loop.now < e.pausedUntil) return;
    e.paused = false;
    if (e.checkOverdue) {
      e.checkOverdue = false;
      runCheck(i);
      loop.after(checkEvery, () => checkTimer(i));
    }
    if (e.beatOverdue) {
      e.beatOverdue = false;
      sendBeat(i);
      scheduleBeat(i, interval);
    }
    const backlog = e.backlog;
    e.backlog = [];
    for (const b of backlog) deliver(i, b.from, b.progress);
  };
  const pause = (i: number, durationMs: number): void => {
    const e = entities[i]!;
    if (e.crashed) return;
    e.paused = true;
    e.pausedUntil = Math.max(e.pausedUntil, loop.now + durationMs);
    loop.at(e.pausedUntil, () => wake(i));
  };

  for (let i = 0; i < total; i++) {
    if (entities[i]!.receivers.length > 0) loop.at(schedule.float() * interval, () => beatTimer(i));
    if (entities[i]!.targets.length > 0 && S > 0) loop.at(schedule.float() * checkEvery, () => checkTimer(i));
  }
  for (const p of s.pauses) loop.at(p.atMs, () => pause(p.node, p.durationMs));
  if (s.randomPauses !== undefined) {
    const meanGap = 3_600_000 / s.randomPauses.perNodePerHour;
    const len = s.randomPauses.durationMs;
    for (let i = 0; i < n; i++) {
      let t = exponential(pauseDraws, meanGap);
      for (; t < s.durationMs; t += exponential(pauseDraws, meanGap)) loop.at(t, () => pause(i, len));
    }
  }
  for (const c of s.crashes) {
    loop.at(c.atMs, () => {
      const e = entities[c.node]!;
      if (!e.crashed) {
        e.crashed = true;
        e.crashAt = loop.now;
      }
    });
  }
  let expectedStalls = 0;
  for (const st of s.stalls) {
    expectedStalls += entities[st.node]!.receivers.length;
    loop.at(st.atMs, () => {
      const e = entities[st.node]!;
      if (!e.stalled) {
        e.stalled = true;
        e.stallAt = loop.now;
      }
    });
  }

  loop.run(s.durationMs);

  // A crash is expected to be detected by each of its monitors that is still alive at the end.
  const crashedTargets = new Set(s.crashes.map((c) => c.node));
  let expectedCrashes = 0;
  for (const c of crashedTargets) {
    for (const m of entities[c]!.receivers) if (!entities[m]!.crashed) expectedCrashes++;
  }

  const results: SimDetectorResult[] = specs.map((spec, k) => {
    const byTarget = new Array<number>(total).fill(0);
    const accusers: Array<{ monitor: number; targets: number }> = [];
    for (let m = 0; m < total; m++) {
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
    const crashMs = crashDelays[k]!.filter((d) => !entities[d.monitor]!.crashed).map((d) => d.ms);
    return {
      label: simDetectorLabel(spec),
      spec,
      falseSuspicions: falseCount[k]!,
      falselySuspectedNodes: suspects.map((x) => x.node).sort((a, b) => a - b),
      topAccusers: accusers.slice(0, 3),
      topSuspects: suspects.slice(0, 3),
      crashDetection: { expected: expectedCrashes, detected: crashMs.length, delay: summarize(crashMs) },
      stallDetection: {
        expected: expectedStalls,
        detected: stallDelays[k]!.length,
        delay: summarize(stallDelays[k]!),
      },
    };
  });

  return {
    nodes: n,
    topology: topologyLabel(s.topology),
    durationMs: s.durationMs,
    seed: s.seed,
    messages: { sent, lost, perSecond: sent / (s.durationMs / 1000) },
    events: loop.eventsRun,
    judgements,
    selfPausesNoticed: entities.reduce((a, e) => a + (e.guard?.pauseCount ?? 0), 0),
    skippedChecks,
    detectors: results,
  };
}
