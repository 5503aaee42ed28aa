// Heartbeat-system simulation on the deterministic event loop: N nodes beating to their monitors over a lossy
// network, process pauses (GC) that freeze both sending and judging, crashes, and work loops that stall while
// the heartbeat thread keeps beating. Reports liveness traffic, crash-detection times and false suspicions for
// each detector.
//
// Model choices (stated, not hidden):
// - A pause freezes the whole process. Its timers do not fire during the pause; on wake, an overdue judging
//   tick runs first, then an overdue beat is sent, then the messages that arrived during the pause are
//   delivered in order (timer threads wake before the inbound queue is drained).
// - Each message: delay = networkDelayMs + Exponential(networkJitterMs); lost with lossProbability.
// - Push beats on every topology (Akka's cluster heartbeat is request/response, which doubles the count).
// - A monitor judges every checkIntervalMs; a suspicion is a transition from available to unavailable. It is
//   false when the target has neither crashed nor stalled at that moment.

import { DeadlineFailureDetector, PhiAccrualFailureDetector } from "./akka.ts";
import type { Topology } from "./analysis.ts";
import { ExponentialPhiDetector } from "./cassandra.ts";
import { EventLoop } from "./events.ts";
import { SelfPauseGuard } from "./guards.ts";
import { createRng, exponential } from "./rng.ts";
import { FixedTimeoutDetector, LeaseDetector, ProgressDetector } from "./simple.ts";

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
  nodes: number;
  /** Default all-to-all. */
  topology?: Topology;
  /** Default 1000 ms: akka-cluster `reference.conf` `heartbeat-interval = 1 s`; Cassandra gossips every second. */
  heartbeatIntervalMs?: number;
  /** Uniform ± jitter on each beat's schedule; default 0. */
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
  /** Default 1. */
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
  events: number;
  selfPausesNoticed: number;
  skippedChecks: number;
  detectors: SimDetectorResult[];
}

type SimDet = { heartbeat(nowMs: number, progress?: number): void; isAvailable(nowMs: number): boolean };

export function simDetectorLabel(s: SimDetectorSpec): string {
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

function makeDetector(s: SimDetectorSpec, intervalMs: number): SimDet {
  switch (s.kind) {
    case "fixed":
      return new FixedTimeoutDetector({ timeoutMs: s.timeoutMs });
    case "deadline":
      return new DeadlineFailureDetector({ heartbeatIntervalMs: intervalMs, ...s });
    case "phi-exponential":
      return new ExponentialPhiDetector({ firstIntervalMs: 2 * intervalMs, ...s });
    case "phi-normal":
      return new PhiAccrualFailureDetector({ firstHeartbeatEstimateMs: intervalMs, ...s });
    case "lease":
      return new LeaseDetector({
        durationMs: s.durationMs,
        renewIntervalMs: s.renewIntervalMs ?? intervalMs,
      });
    case "progress":
      return new ProgressDetector({
        progressDeadlineMs: s.progressDeadlineMs,
        heartbeatTimeoutMs: s.heartbeatTimeoutMs ?? 45_000,
      });
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

function topologyLabel(t: Topology): string {
  return t.kind === "watchers" ? `watchers:${t.k}` : t.kind;
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
  /** Entities this one judges. */
  targets: number[];
  /** target entity → index in `targets`, or −1. */
  targetIndex: Int32Array;
  /** detectors[targetIdx * specs + specIdx] */
  detectors: SimDet[];
  suspected: Uint8Array;
  guard: SelfPauseGuard | undefined;
}

export function simulate(config: SimulationConfig): SimulationResult {
  const n = config.nodes;
  if (!(Number.isInteger(n) && n >= 2)) throw new RangeError("nodes must be an integer >= 2");
  if (!(config.durationMs > 0)) throw new RangeError("durationMs must be > 0");
  const topology = config.topology ?? { kind: "all-to-all" };
  if (topology.kind === "watchers" && !(Number.isInteger(topology.k) && topology.k >= 1)) {
    throw new RangeError("watchers k must be an integer >= 1");
  }
  const interval = config.heartbeatIntervalMs ?? 1000;
  const sendJitter = config.sendJitterMs ?? 0;
  const delay = config.networkDelayMs ?? 1;
  const jitter = config.networkJitterMs ?? 5;
  const loss = config.lossProbability ?? 0;
  if (!(loss >= 0 && loss < 1)) throw new RangeError("lossProbability must be in [0, 1)");
  const checkEvery = config.checkIntervalMs ?? 1000;
  const seed = config.seed ?? 1;
  const specs = config.detectors;
  const S = specs.length;
  const rng = createRng(seed);
  const loop = new EventLoop();
  const total = topology.kind === "lease" ? n + 1 : n;
  const store = n; // lease topology only

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
      targetIndex: new Int32Array(0),
      detectors: [],
      suspected: new Uint8Array(0),
      guard: config.selfPauseGuard ? new SelfPauseGuard(config.selfPauseGuard) : undefined,
    });
  }
  const watchEdge = (monitor: number, target: number): void => {
    entities[target]!.receivers.push(monitor);
    entities[monitor]!.targets.push(target);
  };
  for (let i = 0; i < n; i++) {
    if (topology.kind === "all-to-all") {
      for (let j = 0; j < n; j++) if (j !== i) watchEdge(j, i);
    } else if (topology.kind === "lease") {
      watchEdge(store, i);
    } else {
      const k = Math.min(topology.k, n - 1);
      for (let d = 1; d <= k; d++) watchEdge((i + d) % n, i);
    }
  }
  for (const e of entities) {
    e.targetIndex = new Int32Array(total).fill(-1);
    e.targets.forEach((t, idx) => {
      e.targetIndex[t] = idx;
    });
    e.suspected = new Uint8Array(e.targets.length * S);
    for (let i = 0; i < e.targets.length * S; i++) e.detectors.push(makeDetector(specs[i % S]!, interval));
  }

  const falseCount = new Array<number>(S).fill(0);
  const falseEver = specs.map(() => new Uint8Array(total * total));
  const crashDelays: Array<Array<{ monitor: number; ms: number }>> = specs.map(() => []);
  const stallDelays: number[][] = specs.map(() => []);
  let sent = 0;
  let lost = 0;
  let skippedChecks = 0;

  const deliver = (to: number, from: number, progress: number): void => {
    const e = entities[to]!;
    const idx = e.targetIndex[from]!;
    if (idx < 0) return;
    const now = loop.now;
    const base = idx * S;
    for (let s = 0; s < S; s++) e.detectors[base + s]!.heartbeat(now, progress);
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
      if (loss > 0 && rng() < loss) {
        lost++;
        continue;
      }
      const p = e.progress;
      loop.at(now + delay + exponential(rng, jitter), () => onArrive(r, i, p));
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
    for (let ti = 0; ti < targets.length; ti++) {
      const target = targets[ti]!;
      for (let s = 0; s < S; s++) {
        const k = ti * S + s;
        const available = e.detectors[k]!.isAvailable(now);
        if (available) {
          e.suspected[k] = 0;
          continue;
        }
        if (e.suspected[k] === 1) continue;
        e.suspected[k] = 1;
        const t = entities[target]!;
        if (t.crashed) crashDelays[s]!.push({ monitor: m, ms: now - t.crashAt });
        else if (t.stalled) stallDelays[s]!.push(now - t.stallAt);
        else {
          falseCount[s]!++;
          falseEver[s]![m * total + target] = 1;
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
    const j = sendJitter > 0 ? (rng() * 2 - 1) * sendJitter : 0;
    loop.after(Math.max(0, after + j), () => beatTimer(i));
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
    if (entities[i]!.receivers.length > 0) loop.at(rng() * interval, () => beatTimer(i));
    if (entities[i]!.targets.length > 0 && S > 0) loop.at(rng() * checkEvery, () => checkTimer(i));
  }
  const checkNode = (node: number, what: string): void => {
    if (!(Number.isInteger(node) && node >= 0 && node < total))
      throw new RangeError(`${what}: no node ${node}`);
  };
  for (const p of config.pauses ?? []) {
    checkNode(p.node, "pause");
    loop.at(p.atMs, () => pause(p.node, p.durationMs));
  }
  if (config.randomPauses && config.randomPauses.perNodePerHour > 0) {
    const meanGap = 3_600_000 / config.randomPauses.perNodePerHour;
    const len = config.randomPauses.durationMs;
    for (let i = 0; i < n; i++) {
      for (let t = exponential(rng, meanGap); t < config.durationMs; t += exponential(rng, meanGap)) {
        loop.at(t, () => pause(i, len));
      }
    }
  }
  for (const c of config.crashes ?? []) {
    checkNode(c.node, "crash");
    loop.at(c.atMs, () => {
      const e = entities[c.node]!;
      if (!e.crashed) {
        e.crashed = true;
        e.crashAt = loop.now;
      }
    });
  }
  let expectedStalls = 0;
  for (const st of config.stalls ?? []) {
    checkNode(st.node, "stall");
    expectedStalls += entities[st.node]!.receivers.length;
    loop.at(st.atMs, () => {
      const e = entities[st.node]!;
      if (!e.stalled) {
        e.stalled = true;
        e.stallAt = loop.now;
      }
    });
  }

  loop.run(config.durationMs);

  // A crash is expected to be detected by each of its monitors that is still alive at the end.
  const crashedTargets = new Set((config.crashes ?? []).map((c) => c.node));
  let expectedCrashes = 0;
  for (const c of crashedTargets) {
    for (const m of entities[c]!.receivers) if (!entities[m]!.crashed) expectedCrashes++;
  }

  const results: SimDetectorResult[] = specs.map((spec, s) => {
    const ever = falseEver[s]!;
    const byTarget = new Array<number>(total).fill(0);
    const accusers: Array<{ monitor: number; targets: number }> = [];
    for (let m = 0; m < total; m++) {
      let c = 0;
      for (let t = 0; t < total; t++) {
        if (ever[m * total + t] === 1) {
          c++;
          byTarget[t]!++;
        }
      }
      if (c > 0) accusers.push({ monitor: m, targets: c });
    }
    accusers.sort((a, b) => b.targets - a.targets || a.monitor - b.monitor);
    const suspects = byTarget
      .map((monitors, node) => ({ node, monitors }))
      .filter((x) => x.monitors > 0)
      .sort((a, b) => b.monitors - a.monitors || a.node - b.node);
    const crashMs = crashDelays[s]!.filter((d) => !entities[d.monitor]!.crashed).map((d) => d.ms);
    return {
      label: simDetectorLabel(spec),
      spec,
      falseSuspicions: falseCount[s]!,
      falselySuspectedNodes: suspects.map((x) => x.node).sort((a, b) => a - b),
      topAccusers: accusers.slice(0, 3),
      topSuspects: suspects.slice(0, 3),
      crashDetection: { expected: expectedCrashes, detected: crashMs.length, delay: summarize(crashMs) },
      stallDetection: {
        expected: expectedStalls,
        detected: stallDelays[s]!.length,
        delay: summarize(stallDelays[s]!),
      },
    };
  });

  return {
    nodes: n,
    topology: topologyLabel(topology),
    durationMs: config.durationMs,
    seed,
    messages: { sent, lost, perSecond: sent / (config.durationMs / 1000) },
    events: loop.eventsRun,
    selfPausesNoticed: entities.reduce((a, e) => a + (e.guard?.pauseCount ?? 0), 0),
    skippedChecks,
    detectors: results,
  };
}
