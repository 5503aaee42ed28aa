// The kubelet's prober: one worker per (pod, container, probe type), as
// pkg/kubelet/prober/worker.go and prober_manager.go run them.
//
// A worker keeps the real worker's state (the results-manager value, lastResult, resultRun,
// onHold) and its ticker phase (worker creation, plus the initial jitter when the kubelet is younger
// than a period), but it does not spend an engine event on every tick: a check that would change
// nothing (a passing probe whose result is already Success) is skipped, and the worker sleeps until
// something it reads changes (a new container, a fault, startup passing). Its next tick is then the
// next point of its phase, creation + k·periodSeconds, exactly where the real ticker would fire.
//
// `probeSchedule: period-end` is the seed's toy kubelet instead: each probe checks at the end of
// each of its periods counted from when it becomes active (container start, or startup success for
// liveness and readiness), with no jitter, no timeouts and no extra readiness runs.

import type { Engine, Timer } from "../engine/engine.ts";
import { TICKS_PER_SECOND, ticks } from "../engine/time.ts";
import { PROBE_DEFAULTS } from "../kubernetes/defaults.ts";
import type { Probe } from "../kubernetes/objects.ts";
import type { ProbeType } from "../trace/node-events.ts";

export type { ProbeType };
export const PROBE_TYPES: readonly ProbeType[] = ["startup", "liveness", "readiness"];

/** results.Result: the value the results manager holds for a container. */
export type Result = "Success" | "Failure" | "Unknown";

/** What one check finds: the app answers, fails at once (refused, 503), or never answers. */
export type Outcome = "pass" | "fail" | "timeout";

/** A probe with the API defaults applied. */
export interface ResolvedProbe {
  type: ProbeType;
  handler: "httpGet" | "tcpSocket" | "grpc" | "exec";
  /** `httpGet :8000/healthz`, `tcpSocket :5432`… */
  describe: string;
  initialDelaySeconds: number;
  periodSeconds: number;
  timeoutSeconds: number;
  successThreshold: number;
  failureThreshold: number;
  /** probe-level terminationGracePeriodSeconds (liveness and startup only, GA 1.28) */
  terminationGracePeriodSeconds?: number;
}

export function resolveProbe(type: ProbeType, p: Probe): ResolvedProbe {
  const handler = p.httpGet ? "httpGet" : p.tcpSocket ? "tcpSocket" : p.grpc ? "grpc" : "exec";
  return {
    type,
    handler,
    describe: describeHandler(p),
    initialDelaySeconds: p.initialDelaySeconds ?? PROBE_DEFAULTS.initialDelaySeconds,
    periodSeconds: p.periodSeconds ?? PROBE_DEFAULTS.periodSeconds,
    timeoutSeconds: p.timeoutSeconds ?? PROBE_DEFAULTS.timeoutSeconds,
    successThreshold: p.successThreshold ?? PROBE_DEFAULTS.successThreshold,
    failureThreshold: p.failureThreshold ?? PROBE_DEFAULTS.failureThreshold,
    ...(p.terminationGracePeriodSeconds !== undefined
      ? { terminationGracePeriodSeconds: p.terminationGracePeriodSeconds }
      : {}),
  };
}

export function describeHandler(p: Probe): string {
  if (p.httpGet) {
    const scheme = p.httpGet.scheme === "HTTPS" ? "https " : "";
    return `httpGet ${scheme}:${p.httpGet.port}${p.httpGet.path ?? "/"}`;
  }
  if (p.tcpSocket) return `tcpSocket :${p.tcpSocket.port}`;
  if (p.grpc) return `grpc :${p.grpc.port}${p.grpc.service ? ` service=${p.grpc.service}` : ""}`;
  return `exec ${(p.exec?.command ?? []).join(" ")}`;
}

/** The running instance of a container the prober looks at (owned by the pod worker). */
export interface ContainerView {
  /** container ID: a new one per start; 0 before the first */
  readonly id: number;
  readonly running: boolean;
  readonly startedAt: number;
  /** container.Started: startup passed, or there is no startup probe */
  readonly started: boolean;
}

/** What a worker needs from its pod worker. */
export interface ProberHost {
  readonly engine: Engine;
  readonly schedule: "kubernetes" | "period-end";
  /** PR #119089 (≈1.29): a manual run resets the ticker. */
  readonly manualResetsTicker: boolean;
  container(): ContainerView;
  /** What a check of this probe finds right now. */
  outcome(type: ProbeType, handler: ResolvedProbe["handler"], timeoutSeconds: number): Outcome;
  /**
   * The outcome can change without any event the worker hears of (a health check that queues
   * behind requests): such a worker keeps ticking even while it passes.
   */
  loadDependent(handler: ResolvedProbe["handler"]): boolean;
  /** A check ran: for ProbeFailed / ProbeSucceeded events. */
  checked(worker: ProbeWorker, ok: boolean, timedOut: boolean, changed: boolean): void;
  /** The results manager's value changed (the kubelet's syncLoop then syncs the pod: handleProbeSync). */
  resultChanged(worker: ProbeWorker, result: Result): void;
}

export class ProbeWorker {
  /** results-manager value for the current container */
  result: Result;
  lastResult: Result | undefined;
  resultRun = 0;
  /** the last check found no answer within timeoutSeconds (the Unhealthy event's output says so) */
  lastTimedOut = false;
  onHold = false;
  private containerId = 0;
  private stopped = false;
  private timer: Timer | undefined;
  /** a check that waits for its timeout: its start */
  private inFlight: number | undefined;
  private pendingManual = false;
  private lastRunAt = Number.NEGATIVE_INFINITY;
  /** period-end: when this probe became active for the current container (start or startup success) */
  private activeFrom: number | undefined;
  /** how many checks have run (all workers): a measure of the prober's cost */
  static checks = 0;

  constructor(
    private readonly host: ProberHost,
    readonly spec: ResolvedProbe,
    /** the ticker's phase: worker creation plus any initial jitter; ticks at phase + k·period */
    private phase: number,
  ) {
    this.result = initialValue(spec.type);
  }

  get type(): ProbeType {
    return this.spec.type;
  }

  /** A new container ID: the result goes back to its initial value and a hold ends (doProbe). */
  newContainer(): void {
    const c = this.host.container();
    this.containerId = c.id;
    this.result = initialValue(this.type);
    this.onHold = false;
    this.activeFrom = this.type === "startup" || c.started ? c.startedAt : undefined;
    this.cancel();
    this.arm();
  }

  /**
   * A new kubelet process finds the container running since before it started (KEP-4781, 1.35+:
   * worker.go does not seed the initial result for a container older than the kubelet's start plus
   * its grace; prober_manager.go setReadyStateOnKubeletRestart): the result carries on from what
   * the kubelet reported before (Started, and Ready while the pod's Ready condition is True).
   */
  adopt(started: boolean, ready: boolean): void {
    this.newContainer();
    if (this.type === "readiness" && ready) this.result = "Success";
    if (this.type === "startup" && started) this.result = "Success";
  }

  /** Startup passed: liveness and readiness become active (period-end counts their periods from here). */
  containerStarted(): void {
    if (this.type !== "startup") this.activeFrom = this.host.engine.now;
    this.arm();
  }

  /** The container is not running any more: Failure for every probe type (doProbe step 5). */
  containerStopped(): void {
    this.cancel();
    if (this.containerId !== 0) this.result = "Failure";
  }

  /** Something the checks read changed (a fault, a recovery): make sure a check is coming. */
  poke(): void {
    this.arm();
  }

  /** manualTriggerCh: an immediate readiness run (prober_manager.go UpdatePodStatus). */
  trigger(): void {
    if (this.stopped || this.host.schedule === "period-end") return;
    if (this.inFlight !== undefined) {
      // The channel holds one trigger while the worker is busy.
      this.pendingManual = true;
      return;
    }
    const now = this.host.engine.now;
    // A worker made by a kubelet younger than its period sleeps U[0, period) before its first
    // doProbe (worker.go run) and reads no trigger meanwhile: its first run, at `phase`, comes anyway.
    if (now < this.phase) return;
    if (this.host.manualResetsTicker) this.phase = now;
    this.cancel();
    this.run();
  }

  stop(): void {
    this.stopped = true;
    this.cancel();
  }

  private cancel(): void {
    if (this.timer) this.host.engine.cancel(this.timer);
    this.timer = undefined;
  }

  /** Schedule the next check if one can change anything. */
  arm(): void {
    if (this.timer || this.stopped || this.inFlight !== undefined) return;
    const c = this.host.container();
    if (!c.running || c.id !== this.containerId || this.onHold) return;
    if (this.type === "startup" ? c.started : !c.started) return;
    if (this.steady()) return;
    const at = this.nextTick(c);
    this.timer = this.host.engine.at(at, () => {
      this.timer = undefined;
      this.run();
    });
  }

  /** A passing check would change nothing: the result is Success and the app answers. */
  private steady(): boolean {
    if (this.result !== "Success" || this.lastResult === "Failure") return false;
    if (this.host.loadDependent(this.spec.handler)) return false;
    return this.host.outcome(this.type, this.spec.handler, this.spec.timeoutSeconds) === "pass";
  }

  private nextTick(c: ContainerView): number {
    const now = this.host.engine.now;
    const period = this.spec.periodSeconds;
    let anchor: number;
    let from: number;
    if (this.host.schedule === "period-end") {
      // The end of each period counted from when the probe became active (never at that moment).
      anchor = (this.activeFrom ?? now) + this.spec.initialDelaySeconds;
      from = Math.max(now, anchor + period);
    } else {
      // Probe disabled for initialDelaySeconds, counted from the container's start (worker.go).
      anchor = this.phase;
      from = Math.max(now, c.startedAt + this.spec.initialDelaySeconds);
    }
    // In whole ticks of the engine's grid, so "the first tick at or after `from`" is exact.
    const p = ticks(period);
    const a = ticks(anchor);
    let tick = a + Math.max(0, Math.ceil((ticks(from) - a) / p)) * p;
    // One check per tick: a tick that already ran is spent.
    const last = ticks(this.lastRunAt);
    while (tick <= last) tick += p;
    return tick / TICKS_PER_SECOND;
  }

  private run(): void {
    const c = this.host.container();
    if (this.stopped || !c.running || c.id !== this.containerId || this.onHold) return;
    if (this.type === "startup" ? c.started : !c.started) return;
    if (
      this.host.schedule === "kubernetes" &&
      this.host.engine.since(c.startedAt) < this.spec.initialDelaySeconds
    ) {
      // doProbe: "Probe disabled for InitialDelaySeconds" (int32 of the seconds since the container's
      // StartedAt < initialDelaySeconds), whatever woke the worker: its ticker, or a pod sync's manual
      // run for readiness. The result keeps its initial value (readiness Failure).
      this.arm();
      return;
    }
    const now = this.host.engine.now;
    this.lastRunAt = now;
    ProbeWorker.checks++;
    const outcome = this.host.outcome(this.type, this.spec.handler, this.spec.timeoutSeconds);
    if (outcome === "timeout" && this.host.schedule === "kubernetes") {
      // The check waits timeoutSeconds for an answer that never comes.
      this.inFlight = now;
      const id = c.id;
      this.host.engine.after(this.spec.timeoutSeconds, () => this.finish(now, id, false, true));
      return;
    }
    this.finish(now, c.id, outcome === "pass", outcome === "timeout");
  }

  private finish(start: number, id: number, ok: boolean, timedOut: boolean): void {
    this.inFlight = undefined;
    const c = this.host.container();
    if (this.stopped || !c.running || c.id !== id) return;
    const result: Result = ok ? "Success" : "Failure";
    this.lastTimedOut = timedOut;
    const before = this.lastResult;
    if (this.lastResult === result) this.resultRun++;
    else {
      this.lastResult = result;
      this.resultRun = 1;
    }
    const threshold = ok ? this.spec.successThreshold : this.spec.failureThreshold;
    const crosses = this.resultRun >= threshold;
    const changed = crosses && this.result !== result;
    this.host.checked(this, ok, timedOut, ok && (changed || before === "Failure"));
    if (crosses) {
      this.result = result;
      if (this.type !== "readiness" && result === "Failure") {
        // "Stop probing until we see a new container ID."
        this.onHold = true;
        this.resultRun = 0;
      }
      if (changed) this.host.resultChanged(this, result);
    }
    this.armAfter(start);
  }

  /**
   * After a check that started at `start`: a tick that fell while it ran waits in the ticker's
   * one-slot channel and runs at once; a manual trigger likewise.
   */
  private armAfter(start: number): void {
    const now = this.host.engine.now;
    if (this.pendingManual) {
      this.pendingManual = false;
      this.trigger();
      return;
    }
    if (this.host.schedule === "kubernetes" && now > start) {
      const p = ticks(this.spec.periodSeconds);
      const phase = ticks(this.phase);
      const tickAfterStart = phase + (Math.floor((ticks(start) - phase) / p) + 1) * p;
      if (tickAfterStart <= ticks(now) && !this.timer) {
        const c = this.host.container();
        if (c.running && c.id === this.containerId && !this.onHold && !this.steady()) {
          this.timer = this.host.engine.at(now, () => {
            this.timer = undefined;
            this.run();
          });
          return;
        }
      }
    }
    this.arm();
  }
}

/** The worker's initialValue: readiness Failure, liveness Success, startup Unknown (worker.go). */
export function initialValue(type: ProbeType): Result {
  return type === "readiness" ? "Failure" : type === "liveness" ? "Success" : "Unknown";
}
