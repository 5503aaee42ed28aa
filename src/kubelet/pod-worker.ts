// Over 400 lines: split by the perf/kubelet change landing beside this.
// One pod on one kubelet, as pkg/kubelet/pod_workers.go drives it: its containers start, are
// probed (prober-manager.ts), killed for a failed probe, exit, restart in place or wait out their
// back-off (restart.ts), and terminate when the pod is deleted; each change reaches the API through
// the kubelet's status manager (status-manager.ts). The application inside follows the scenario's
// `behaviour` (app.ts) and the timeline's pod actions (deadlock, crash, dependency-down/up, recover).

import type { Timer } from "../engine/engine.ts";
import { type PodRow, podRow } from "../kubernetes/kubectl.ts";
import type { ContainerStatus, Pod } from "../kubernetes/objects.ts";
import type { Behaviour } from "../scenario/types.ts";
import type { KubeletReadyCause, OwnExit, ProbeType, StartCause } from "../trace/node-events.ts";
import type { TimelineStepRef } from "../trace/timeline-events.ts";
import { App } from "./app.ts";
import { deletionGracePeriod, type KillEnv, type KillPlan, startProbeKill, terminatePod } from "./kill.ts";
import type { PodWorkerHost } from "./pod-host.ts";
import type { ProbeWorker, Result } from "./prober.ts";
import { ProbeManager, type ProbeResults } from "./prober-manager.ts";
import { type RestartHost, Restarts } from "./restart.ts";
import {
  ContainerRun,
  DEFAULT_CRASH_EXIT_CODE,
  EXIT_SIGKILL,
  EXIT_SIGTERM,
  writeContainerStatus,
} from "./runtime.ts";
import type { PodStatusSource } from "./status-manager.ts";

// A large cluster has a pod worker per pod: what most pods never need (the application model, a
// probe manager for a pod without probes, restarts and their back-off, timers, the event fields)
// is made when first needed, and the status manager is the kubelet's (pod-host.ts).
export class PodWorker implements ProbeResults, RestartHost, PodStatusSource {
  readonly containers: ContainerRun[];
  /** the pod's deletionTimestamp was seen: its containers are being killed (preStop, SIGTERM), no more restarts */
  terminating = false;
  /** stop() ran: everything this worker had scheduled is cancelled (its start among them) */
  stopped = false;
  /** its containers ran before (the machine came back: their statuses keep the start times this kubelet wrote): restartCount climbs */
  readonly rebooted: boolean;
  resyncTimer: Timer | undefined;
  /** the kubelet process runs: its PLEG sees exits and its pod worker restarts them */
  private kubeletRunning = true;
  private timers: Timer[] | undefined;
  /** while the pod terminates: a container exited by itself during its kill */
  private terminated: ((c: ContainerRun) => void) | undefined;
  private appModel: App | undefined;
  /** made when the kubelet adds a pod with probes */
  private prober: ProbeManager | undefined;
  private restartsModel: Restarts | undefined;
  private base: { object: string; node: string; owner?: string } | undefined;

  constructor(
    private readonly host: PodWorkerHost,
    readonly pod: Pod,
    /** the pod's workload (`Deployment/<ns>/<name>`…), for events; undefined for a bare Pod */
    readonly owner: string | undefined,
    /** the scenario's behaviour for the pod's workload, or for one of its containers */
    behaviourOf: (container?: string) => Behaviour,
  ) {
    this.containers = pod.spec.containers.map((c) => new ContainerRun(c, behaviourOf(c.name)));
    // A cluster dump's pod brings only its counts (load/cluster/dump.ts writes no start time): it is
    // not rebooted, and starts from them.
    this.rebooted = pod.status.containerStatuses.some((s) => s.startedAt !== undefined);
  }

  /** The application inside (app.ts); its dependency flag is the pod's, so it is made once. */
  private get app(): App {
    this.appModel ??= new App(this.host.engine, this.host.healthChecks, this.pod);
    return this.appModel;
  }

  // The prober, the status manager and the restarts call back into this worker's own methods and
  // fields (ProbeResults, PodStatusSource, RestartHost): no closures per pod.
  /** The container restarts and their back-off (restart.ts), made at the first exit. */
  private get restarts(): Restarts {
    this.restartsModel ??= new Restarts(this.host, this);
    return this.restartsModel;
  }

  get running(): boolean {
    return this.containers.some((c) => c.running);
  }

  /** What a caller's connection to the pod IP meets (the first container serves). */
  appState(): "serving" | "hung" | "refusing" {
    return this.app.connection(this.containers[0]);
  }

  /** The fields every event of this pod starts with, built once. */
  eventBase(): { object: string; node: string; owner?: string } {
    if (this.base) return this.base;
    const pod = this.pod;
    this.base = {
      object: `Pod/${pod.metadata.namespace}/${pod.metadata.name}`,
      node: this.host.node,
      ...(this.owner === undefined ? {} : { owner: this.owner }),
    };
    return this.base;
  }

  private writeStatus(c: ContainerRun, patch: Partial<ContainerStatus>): void {
    writeContainerStatus(this.pod, this.containers, c, patch);
  }

  // ---- start ----------------------------------------------------------------------------------

  /** The kubelet added the pod (prober_manager.go AddPod): probe workers, before its containers exist. */
  added(): void {
    this.addProbeWorkers();
  }

  /** A probe worker per probe; a pod without probes has none to make, nor a manager for them. */
  private addProbeWorkers(): void {
    if (!this.prober && this.containers.every((c) => c.probes.length === 0)) return;
    this.prober ??= new ProbeManager(this.host, this, this.app);
    this.prober.addPod(this.containers);
  }

  /**
   * The sandbox is up (the kubelet's start, POD_STARTUP_SECONDS after it admitted the pod): every
   * container starts, then the kubelet's "runs twice" check. Nothing once the worker is stopped.
   */
  start(): void {
    if (this.stopped) return;
    const cause: Extract<StartCause, { start: "scheduled" | "rebooted" }> = this.rebooted
      ? { start: "rebooted", restartPolicy: this.restartPolicy() }
      : { start: "scheduled" };
    for (const c of this.containers) this.startContainer(c, this.rebooted, cause);
    this.host.started(this.pod);
  }

  private startContainer(c: ContainerRun, restart: boolean, cause: StartCause): void {
    const pod = this.pod;
    const engine = this.host.engine;
    const now = engine.now;
    engine.cancel(c.waitingTimer);
    c.waitingTimer = undefined;
    c.id++;
    c.running = true;
    c.endKill();
    c.hung = false;
    c.startedAt = now;
    c.started = !c.workers.has("startup");
    c.ready = false;
    const prev = pod.status.containerStatuses.find((s) => s.name === c.name);
    c.restartCount = Math.max(c.restartCount, prev?.restartCount ?? 0) + (restart ? 1 : 0);
    if (!pod.status.podIP) pod.status.podIP = this.host.nextIp();
    pod.status.phase = "Running";
    this.writeStatus(c, { state: "running", startedAt: now });
    for (const w of c.workers.values()) w.newContainer();
    const exitAfter = c.behaviour.exitAfterSeconds;
    if (exitAfter !== undefined)
      c.exitTimer = engine.after(exitAfter, () => this.exitsByItself(c, exitAfter));
    if (this.host.connected()) this.host.api.update(pod);
    // The event and its kubectl row are built only when recorded (not during the muted warm-up).
    const trace = this.host.trace;
    if (!trace.muted)
      trace.emit({
        type: "ContainerStarted",
        lane: "kubelet",
        ...this.eventBase(),
        container: c.name,
        restartCount: c.restartCount,
        podRow: podRow(pod, now),
        ...cause,
      });
    this.sync();
  }

  // ---- status (status-manager.ts) ---------------------------------------------------------------

  /** One pod sync (status-manager.ts): `cause` is what this sync was for, if it changes the pod's Ready. */
  sync(cause?: KubeletReadyCause): void {
    this.host.status.sync(this, cause);
  }

  /** Write the pod's Ready condition again (after the kubelet reconnects). */
  report(): void {
    this.host.status.report(this);
  }

  /** The API's Ready condition is not the kubelet's (status-manager.ts needsReconcile). */
  needsReconcile(): boolean {
    return this.host.status.needsReconcile(this);
  }

  /** The status manager's syncBatch writes the kubelet's Ready condition back over someone else's. */
  reconcile(syncPeriod: number): void {
    this.host.status.report(this, { cause: "status-reconcile", syncPeriod });
  }

  // ---- probe results (the syncLoop's handleProbeSync) -------------------------------------------

  startupPassed(c: ContainerRun): void {
    c.started = true;
    this.writeStatus(c, {});
    for (const x of c.workers.values()) x.containerStarted();
    this.sync({ cause: "startup-passed", container: c.name });
  }

  readinessChanged(c: ContainerRun, w: ProbeWorker, result: Result): void {
    const p = w.spec;
    this.sync(
      result === "Success"
        ? { cause: "readiness-passed", container: c.name, successThreshold: p.successThreshold }
        : {
            cause: "readiness-failed",
            container: c.name,
            failureThreshold: p.failureThreshold,
            periodSeconds: p.periodSeconds,
          },
    );
  }

  // ---- kill, exit, restart ------------------------------------------------------------------------

  /**
   * computePodActions: a running container whose liveness (or startup) result is Failure is killed
   * ("Container X failed liveness probe, will be restarted") and, in the same SyncPod, started again
   * if the restart policy allows (restart.ts).
   */
  killForProbe(c: ContainerRun, w: ProbeWorker): void {
    // The kill goes through the runtime: with it down, the syncLoop handles the failure when it is
    // back, if the result is still Failure then.
    this.host.whenRuntime(() => w.result === "Failure" && this.killNowForProbe(c, w));
  }

  private killNowForProbe(c: ContainerRun, w: ProbeWorker): void {
    if (!c.running || c.killing) return;
    const probe = w.spec.type;
    const previousExit = c.finishedAt;
    startProbeKill(this.killEnv(), this.pod, c, w.spec, w.lastTimedOut, (plan) => {
      this.exited(c, plan.signal === "SIGKILL" ? EXIT_SIGKILL : EXIT_SIGTERM, { cause: "probe-kill", probe });
      // computePodActions put it in ContainersToStart too; doBackOff looks at the instance that
      // exited before this one (the pod status of this SyncPod predates the kill).
      this.restarts.decide(c, previousExit, { kind: "probe", probe });
    });
  }

  restartPolicy(): "Always" | "OnFailure" | "Never" {
    return this.pod.spec.restartPolicy ?? "Always";
  }

  restartContainer(c: ContainerRun, cause: StartCause): void {
    this.host.whenRuntime(() => !this.terminating && !c.running && this.startContainer(c, true, cause));
  }

  containerDone(c: ContainerRun): void {
    c.done = true;
    this.finishPodIfDone();
  }

  crashLoopWaiting(c: ContainerRun): PodRow {
    // ErrCrashLoopBackOff: the container waits, and kubectl shows CrashLoopBackOff.
    this.writeStatus(c, { state: "waiting", reason: "CrashLoopBackOff" });
    if (this.host.connected()) this.host.api.update(this.pod);
    return podRow(this.pod, this.host.engine.now);
  }

  /**
   * The pod is being deleted (pod_workers.go SyncTerminatingPod → killPod): every running container
   * is killed at once, with the deletion's grace period as gracePeriodOverride, each after its
   * preStop hook; `done` once none runs, with the grace period and the kill that ended last.
   */
  terminate(done: (grace: number, last: KillPlan | undefined) => void): void {
    if (this.terminating) return;
    this.beginTermination();
    const grace = deletionGracePeriod(this.pod);
    this.terminated = terminatePod(
      this.killEnv(),
      this.containers,
      grace,
      (c) => c.stop(this.host.engine),
      (last) => {
        this.terminated = undefined;
        done(grace, last);
      },
    );
  }

  /** What a kill (kill.ts) needs: the clock, the trace, the pod's event fields, the timers. */
  private killEnv(): KillEnv {
    this.timers ??= [];
    return { engine: this.host.engine, trace: this.host.trace, event: this.eventBase(), timers: this.timers };
  }

  /**
   * The process exits on its own (the timeline's `crash` step), also while it is being killed: the
   * kill ends at the crash (StopContainer finds it exited; a sleep action still runs out: terminate).
   */
  crash(step: TimelineStepRef): void {
    for (const c of this.containers) if (c.running) this.exitedByItself(c, { cause: "crash", step });
  }

  /** behaviour.exitAfterSeconds: the process exits by itself that long after its start. */
  private exitsByItself(c: ContainerRun, exitAfterSeconds: number): void {
    c.exitTimer = undefined;
    // Also while it is being killed: during its preStop hook or after SIGTERM (terminate).
    this.exitedByItself(c, { cause: "exit-after", exitAfterSeconds });
  }

  private exitedByItself(c: ContainerRun, cause: OwnExit): void {
    const code = c.behaviour.exitCode ?? DEFAULT_CRASH_EXIT_CODE;
    this.exited(c, code, cause);
    // The generic PLEG (relist every 1s) sees the exit and syncs the pod; a stopped kubelet sees it
    // when it starts again (kubeletStarted).
    if (this.kubeletRunning) this.restarts.decide(c, c.finishedAt, { kind: "exit", exitCode: code });
  }

  private exited(
    c: ContainerRun,
    exitCode: number,
    cause: OwnExit | { cause: "probe-kill"; probe: ProbeType },
  ): void {
    const pod = this.pod;
    const now = this.host.engine.now;
    c.running = false;
    c.endKill();
    c.hung = false;
    this.host.engine.cancel(c.exitTimer);
    c.exitTimer = undefined;
    c.finishedAt = now;
    c.exitCode = exitCode;
    for (const w of c.workers.values()) w.containerStopped();
    c.ready = false;
    this.writeStatus(c, { state: "terminated", reason: exitCode === 0 ? "Completed" : "Error", exitCode });
    const trace = this.host.trace;
    if (!trace.muted)
      trace.emit({
        type: "ContainerExited",
        lane: "app",
        ...this.eventBase(),
        container: c.name,
        exitCode,
        podRow: podRow(pod, now),
        ...cause,
      });
    this.sync({ cause: "container-exited", container: c.name, exitCode });
    this.terminated?.(c);
  }

  /** No container will run again: the pod is Succeeded (all exited 0) or Failed. */
  private finishPodIfDone(): void {
    if (!this.containers.every((c) => !c.running && c.done)) return;
    for (const c of this.containers) for (const w of c.workers.values()) w.stop();
    this.host.status.completed(
      this,
      this.containers.every((c) => c.exitCode === 0),
    );
  }

  // ---- faults -----------------------------------------------------------------------------------

  /** The process hangs; a kill under way re-plans: no answer to an httpGet hook, no exit after SIGTERM (kill-course.ts). */
  deadlock(): void {
    for (const c of this.containers) if (c.running) c.setHung(true);
    this.prober?.poke(this.containers);
  }

  recover(): void {
    for (const c of this.containers) c.setHung(false);
    this.prober?.poke(this.containers);
  }

  setDependency(up: boolean): void {
    this.app.dependencyDown = !up;
    this.prober?.poke(this.containers);
  }

  // ---- the kubelet process ----------------------------------------------------------------------

  /** The kubelet process stopped: no probing, no restarts (the containers keep running). */
  kubeletStopped(): void {
    const engine = this.host.engine;
    this.kubeletRunning = false;
    for (const c of this.containers) {
      for (const w of c.workers.values()) w.stop();
      engine.cancel(c.waitingTimer);
      c.waitingTimer = undefined;
    }
    this.host.status.cancelResync(this);
  }

  /** A new kubelet process adopts the running pod: new probe workers (with jitter), restarts resume. */
  kubeletStarted(): void {
    // The back-off lives in the kubelet process's memory: a new kubelet starts with none, so a
    // crashed container restarts at once.
    this.kubeletRunning = true;
    this.restartsModel?.forget();
    this.addProbeWorkers();
    for (const c of this.containers) {
      // The new workers' results start at their initial values; a running, started container keeps
      // its Started (the runtime reports it) and readiness is probed again.
      if (c.running) for (const w of c.workers.values()) w.newContainer();
      if (!c.running && !c.done && c.id > 0 && !this.terminating)
        this.restarts.decide(c, c.finishedAt, { kind: "kubelet-restart" });
    }
    this.sync();
  }

  /** The pod is being deleted: liveness and startup stop (worker.go), nothing restarts. */
  private beginTermination(): void {
    const engine = this.host.engine;
    this.terminating = true;
    for (const c of this.containers) {
      c.workers.get("liveness")?.stop();
      c.workers.get("startup")?.stop();
      engine.cancel(c.waitingTimer);
      c.waitingTimer = undefined;
    }
    this.host.status.cancelResync(this);
  }

  /** Everything stops (power off, the pod's containers exit for its deletion). */
  stop(): void {
    const engine = this.host.engine;
    this.stopped = true;
    for (const c of this.containers) c.stop(engine);
    this.terminated = undefined;
    for (const t of this.timers ?? []) engine.cancel(t);
    this.timers = undefined;
    this.host.status.cancelResync(this);
  }

  addTimer(t: Timer): void {
    this.timers ??= [];
    this.timers.push(t);
  }
}
