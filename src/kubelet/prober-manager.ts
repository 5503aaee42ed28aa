// The kubelet's probe manager for one pod (pkg/kubelet/prober/prober_manager.go): a worker per
// probe, created when the kubelet adds the pod (AddPod), each checking the application
// (app.ts); the results it reports (ProbeFailed / ProbeSucceeded), and what a changed result makes
// the pod worker do (the syncLoop's handleProbeSync: a sync, or a kill for liveness and startup).

import type { Engine } from "../engine/engine.ts";
import type { Rng } from "../engine/rng.ts";
import type { Trace } from "../trace/events.ts";
import type { App } from "./app.ts";
import { type ProberHost, ProbeWorker, type Result } from "./prober.ts";
import type { ContainerRun } from "./runtime.ts";

/** What the probe manager needs from its kubelet (the pod worker's host has it all). */
export interface ProberEnv {
  readonly engine: Engine;
  readonly trace: Trace;
  readonly settings: { readonly probeSchedule: "kubernetes" | "period-end" };
  /** PR #119089 (≈1.29): a manual run resets the ticker. */
  readonly manualProbeResetsTicker: boolean;
  /** when the kubelet process started (the initial jitter applies while it is younger than a period) */
  readonly kubeletStartedAt: number;
  /** the prober's random source */
  rng(): Rng;
}

/** What the probe manager tells its pod worker. */
export interface ProbeResults {
  /** The fields every event of the pod starts with: object, node, owner. */
  eventBase(): { object: string; node: string; owner?: string };
  /** Startup passed: the container is Started; the pod syncs. */
  startupPassed(c: ContainerRun): void;
  /** Readiness changed: the pod syncs. */
  readinessChanged(c: ContainerRun, w: ProbeWorker, result: Result): void;
  /** Liveness or startup failed: computePodActions kills the container. */
  killForProbe(c: ContainerRun, w: ProbeWorker): void;
}

export class ProbeManager {
  constructor(
    private readonly env: ProberEnv,
    private readonly results: ProbeResults,
    private readonly app: App,
  ) {}

  /**
   * One worker per probe, created when the kubelet adds the pod (and again by a new kubelet
   * process). The first run happens at creation and finds no container; then a ticker of
   * periodSeconds. The initial sleep of U[0, period) happens only when the kubelet process started
   * less than a period ago (worker.go run).
   */
  addPod(containers: readonly ContainerRun[]): void {
    const engine = this.env.engine;
    const now = engine.now;
    const kubernetes = this.env.settings.probeSchedule === "kubernetes";
    for (const c of containers) {
      for (const w of c.workers.values()) w.stop();
      c.workers.clear();
      for (const spec of c.probes) {
        const period = spec.periodSeconds;
        let phase = now;
        if (kubernetes && engine.since(this.env.kubeletStartedAt) < period)
          phase = now + this.env.rng().uniform(0, period);
        c.workers.set(spec.type, new ProbeWorker(this.proberHost(c), spec, phase));
      }
    }
  }

  private proberHost(c: ContainerRun): ProberHost {
    return {
      engine: this.env.engine,
      schedule: this.env.settings.probeSchedule,
      manualResetsTicker: this.env.manualProbeResetsTicker,
      container: () => c,
      outcome: (type, handler, timeoutSeconds) => this.app.outcome(c, type, handler, timeoutSeconds),
      loadDependent: (handler) => this.app.sharesRequestQueue(c, handler),
      checked: (w, ok, timedOut, changed) => this.checked(c, w, ok, timedOut, changed),
      resultChanged: (w, result) => this.resultChanged(c, w, result),
    };
  }

  /** A check ran: a failure is reported each time, a success when it changes something. */
  private checked(c: ContainerRun, w: ProbeWorker, ok: boolean, timedOut: boolean, changed: boolean): void {
    if (ok && !changed) return;
    const p = w.spec;
    const run = {
      lane: "kubelet",
      ...this.results.eventBase(),
      container: c.name,
      probe: p.type,
      periodSeconds: p.periodSeconds,
      schedule: this.env.settings.probeSchedule,
    } as const;
    if (ok) {
      this.env.trace.emit({
        type: "ProbeSucceeded",
        ...run,
        handler: p.describe,
        upSeconds: this.app.upFor(c),
        consecutive: w.resultRun,
        successThreshold: p.successThreshold,
      });
      return;
    }
    this.env.trace.emit({
      type: "ProbeFailed",
      ...run,
      consecutive: w.resultRun,
      failureThreshold: p.failureThreshold,
      ...this.app.finding(c, timedOut, p.timeoutSeconds),
    });
  }

  /** The kubelet's syncLoop saw a probe result change (handleProbeSync). */
  private resultChanged(c: ContainerRun, w: ProbeWorker, result: Result): void {
    const type = w.spec.type;
    if (type === "startup" && result === "Success") this.results.startupPassed(c);
    else if (type === "readiness") this.results.readinessChanged(c, w, result);
    else if (result === "Failure") this.results.killForProbe(c, w);
  }

  /** Something the checks read changed (a fault, a recovery): make sure a check is coming. */
  poke(containers: readonly ContainerRun[]): void {
    for (const c of containers) for (const w of c.workers.values()) w.poke();
  }
}
