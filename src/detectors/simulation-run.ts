// One heartbeat simulation's state and its timers (simulate.ts states the model choices): the entities, the
// event loop, the three PRNG forks, and the counters the result is read from. Each timer is a method, so the
// order of events and of random draws is the one simulate() has always had.

import { EventBudgetExceeded } from "../engine/engine.ts";
import { Rng } from "../engine/rng.ts";
import { exponential } from "./deviates.ts";
import { EventLoop } from "./events.ts";
import { SelfPauseGuard } from "./guards.ts";
import type { SimDetectorSpec, simulationSettings } from "./simulation-config.ts";
import { topologyOf } from "./simulation-topology.ts";

export type SimDet = {
  heartbeat(nowMs: number, progress?: number): void;
  isAvailable(nowMs: number): boolean;
};
type Settings = ReturnType<typeof simulationSettings>;

export interface Entity {
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

function entitiesOf(
  s: Settings,
  topology: ReturnType<typeof topologyOf>,
  makeDetector: (spec: SimDetectorSpec) => SimDet,
): Entity[] {
  const S = s.specs.length;
  const entities: Entity[] = [];
  for (let i = 0; i < s.total; i++) {
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
    for (let i = 0; i < e.targets.length * S; i++) e.detectors.push(makeDetector(s.specs[i % S]!));
  }
  return entities;
}

export class HeartbeatRun {
  readonly loop = new EventLoop();
  readonly entities: Entity[];
  readonly falseCount: number[];
  readonly crashDelays: Array<Array<{ monitor: number; ms: number }>>;
  readonly stallDelays: number[][];
  sent = 0;
  lost = 0;
  skippedChecks = 0;
  judgements = 0;
  expectedStalls = 0;
  private readonly S: number;
  private readonly network: Rng;
  private readonly schedule: Rng;
  private readonly pauseDraws: Rng;
  private readonly topology: ReturnType<typeof topologyOf>;

  constructor(
    private readonly s: Settings,
    private readonly maxEvents: number,
    makeDetector: (spec: SimDetectorSpec) => SimDet,
  ) {
    this.S = s.specs.length;
    const root = new Rng(s.seed);
    this.network = root.fork("network");
    this.schedule = root.fork("schedule");
    this.pauseDraws = root.fork("pauses");
    this.loop.maxEvents = maxEvents;
    this.topology = topologyOf(s);
    this.entities = entitiesOf(s, this.topology, makeDetector);
    this.falseCount = new Array<number>(this.S).fill(0);
    this.crashDelays = s.specs.map(() => []);
    this.stallDelays = s.specs.map(() => []);
  }

  private deliver(to: number, from: number, progress: number): void {
    const e = this.entities[to]!;
    const idx = this.topology.index(to, from);
    if (idx < 0) return;
    const now = this.loop.now;
    const base = idx * this.S;
    for (let k = 0; k < this.S; k++) e.detectors[base + k]!.heartbeat(now, progress);
  }

  private onArrive(to: number, from: number, progress: number): void {
    const e = this.entities[to]!;
    if (e.crashed) return;
    if (e.paused) {
      e.backlog.push({ from, progress });
      return;
    }
    this.deliver(to, from, progress);
  }

  private sendBeat(i: number): void {
    const { s, loop, network } = this;
    const e = this.entities[i]!;
    if (!e.stalled) e.progress++;
    const now = loop.now;
    for (const r of e.receivers) {
      this.sent++;
      if (s.loss > 0 && network.float() < s.loss) {
        this.lost++;
        continue;
      }
      const p = e.progress;
      loop.at(now + s.networkDelayMs + exponential(network, s.networkJitterMs), () => this.onArrive(r, i, p));
    }
  }

  private runCheck(m: number): void {
    const { loop, S, maxEvents } = this;
    const e = this.entities[m]!;
    const now = loop.now;
    if (e.guard !== undefined && !e.guard.check(now)) {
      this.skippedChecks++;
      return;
    }
    const targets = e.targets;
    // Judgements count towards the event budget: the loop may run only what is left of it.
    this.judgements += targets.length * S;
    if (loop.eventsRun + this.judgements > maxEvents) throw new EventBudgetExceeded(maxEvents, now / 1000);
    loop.maxEvents = maxEvents - this.judgements;
    for (let ti = 0; ti < targets.length; ti++) {
      for (let k = 0; k < S; k++) this.judge(m, e, targets[ti]!, ti * S + k, k, now);
    }
  }

  /** One detector's verdict on one target: a new suspicion is counted as a detection or a false one. */
  private judge(m: number, e: Entity, target: number, at: number, k: number, now: number): void {
    if (e.detectors[at]!.isAvailable(now)) {
      e.suspected[at] = 0;
      return;
    }
    if (e.suspected[at] === 1) return;
    e.suspected[at] = 1;
    const t = this.entities[target]!;
    if (t.crashed) this.crashDelays[k]!.push({ monitor: m, ms: now - t.crashAt });
    else if (t.stalled) this.stallDelays[k]!.push(now - t.stallAt);
    else {
      this.falseCount[k]!++;
      e.falseEver[at] = 1;
    }
  }

  private beatTimer(i: number): void {
    const e = this.entities[i]!;
    if (e.crashed) return;
    if (e.paused) {
      e.beatOverdue = true;
      return;
    }
    this.sendBeat(i);
    this.scheduleBeat(i, this.s.intervalMs);
  }

  private scheduleBeat(i: number, after: number): void {
    const jitter = this.s.sendJitterMs;
    const j = jitter > 0 ? (this.schedule.float() * 2 - 1) * jitter : 0;
    this.loop.after(after + j, () => this.beatTimer(i));
  }

  private checkTimer(m: number): void {
    const e = this.entities[m]!;
    if (e.crashed) return;
    if (e.paused) {
      e.checkOverdue = true;
      return;
    }
    this.runCheck(m);
    this.loop.after(this.s.checkEveryMs, () => this.checkTimer(m));
  }

  private wake(i: number): void {
    const e = this.entities[i]!;
    if (e.crashed || !e.paused || this.loop.now < e.pausedUntil) return;
    e.paused = false;
    if (e.checkOverdue) {
      e.checkOverdue = false;
      this.runCheck(i);
      this.loop.after(this.s.checkEveryMs, () => this.checkTimer(i));
    }
    if (e.beatOverdue) {
      e.beatOverdue = false;
      this.sendBeat(i);
      this.scheduleBeat(i, this.s.intervalMs);
    }
    const backlog = e.backlog;
    e.backlog = [];
    for (const b of backlog) this.deliver(i, b.from, b.progress);
  }

  private pause(i: number, durationMs: number): void {
    const e = this.entities[i]!;
    if (e.crashed) return;
    e.paused = true;
    e.pausedUntil = Math.max(e.pausedUntil, this.loop.now + durationMs);
    this.loop.at(e.pausedUntil, () => this.wake(i));
  }

  /** Schedules every timer, pause, crash and stall, in the order the draws have always been made. */
  plan(): void {
    const { s, loop, entities, schedule, S } = this;
    for (let i = 0; i < s.total; i++) {
      if (entities[i]!.receivers.length > 0)
        loop.at(schedule.float() * s.intervalMs, () => this.beatTimer(i));
      if (entities[i]!.targets.length > 0 && S > 0)
        loop.at(schedule.float() * s.checkEveryMs, () => this.checkTimer(i));
    }
    for (const p of s.pauses) loop.at(p.atMs, () => this.pause(p.node, p.durationMs));
    if (s.randomPauses !== undefined) {
      const meanGap = 3_600_000 / s.randomPauses.perNodePerHour;
      const len = s.randomPauses.durationMs;
      for (let i = 0; i < s.nodes; i++) {
        let t = exponential(this.pauseDraws, meanGap);
        for (; t < s.durationMs; t += exponential(this.pauseDraws, meanGap))
          loop.at(t, () => this.pause(i, len));
      }
    }
    this.planFailures();
  }

  private planFailures(): void {
    const { s, loop, entities } = this;
    for (const c of s.crashes) {
      loop.at(c.atMs, () => {
        const e = entities[c.node]!;
        if (!e.crashed) {
          e.crashed = true;
          e.crashAt = loop.now;
        }
      });
    }
    for (const st of s.stalls) {
      this.expectedStalls += entities[st.node]!.receivers.length;
      loop.at(st.atMs, () => {
        const e = entities[st.node]!;
        if (!e.stalled) {
          e.stalled = true;
          e.stallAt = loop.now;
        }
      });
    }
  }
}
