// One pod on one kubelet, as pkg/kubelet/pod_workers.go drives it: its init containers run one at a
// time, in order, and its sidecars start before the app containers (init-containers.ts); its
// containers are probed (prober-manager.ts), killed for a failed probe, exit, restart in place or
// wait out their back-off (restart.ts), and terminate when the pod is deleted (kill.ts: sidecars
// last, in reverse order); each change reaches the API through the kubelet's status manager
// (status-manager.ts). The application inside follows the scenario's `behaviour` (app.ts) and the
// timeline's pod actions (deadlock, crash, dependency-down/up, recover). What the worker holds and
// answers without changing its containers is pod-worker-base.ts.

import { podReady } from "../cluster/api.ts";
import { DEFAULT_TERMINATION_GRACE_PERIOD } from "../kubernetes/defaults.ts";
import { podRow } from "../kubernetes/kubectl.ts";
import type { OwnExit, ProbeType, StartCause } from "../trace/node-events.ts";
import type { TimelineStepRef } from "../trace/timeline-events.ts";
import { initExit, type StopOrder, sidecarTurns, stopOrderOf } from "./init-containers.ts";
import { deletionGracePeriod, type KillEnv, type KillPlan, startProbeKill, terminatePod } from "./kill.ts";
import { PodWorkerBase } from "./pod-worker-base.ts";
import type { ProbeWorker, Result } from "./prober.ts";
import { type ContainerRun, DEFAULT_CRASH_EXIT_CODE, EXIT_SIGKILL, EXIT_SIGTERM } from "./runtime.ts";

export type { BehaviourOf } from "./pod-worker-base.ts";

export class PodWorker extends PodWorkerBase {
  /** while the pod terminates: a container exited by itself during its kill */
  private terminated: ((c: ContainerRun) => void) | undefined;
  /** the init container the pod waits on (spec.initContainers' index) until it is initialized */
  private initStep = 0;

  // ---- start ----------------------------------------------------------------------------------

  /**
   * The sandbox is up (the kubelet's start, POD_STARTUP_SECONDS after it admitted the pod): the
   * first init container starts, or, with none, every app container, then the kubelet's "runs
   * twice" check. Nothing once the worker is stopped.
   */
  start(): void {
    if (this.stopped) return;
    const cause: Extract<StartCause, { start: "scheduled" | "rebooted" }> = this.rebooted
      ? { start: "rebooted", restartPolicy: this.restartPolicy() }
      : { start: "scheduled" };
    if (this.inits.length === 0) this.startApps(cause);
    else this.beginInit(cause);
  }

  private startApps(cause: StartCause): void {
    for (const c of this.containers) this.startContainer(c, this.rebooted, cause);
    this.host.started(this.pod);
  }

  /**
   * A new sandbox runs every init container again from the first (computePodActions:
   * createPodSandbox, computeInitContainerActions). Until the last has completed, each container
   * not yet run waits in PodInitializing and the pod's Initialized condition is False
   * (generateAPIPodStatus); PodReadyToStartContainers is True once the sandbox is up (KEP-3085).
   */
  private beginInit(cause: StartCause): void {
    const pod = this.pod;
    this.initialized = false;
    this.initStep = 0;
    for (const c of this.inits) {
      c.done = false;
      this.writeStatus(c, { state: "waiting", reason: "PodInitializing" });
    }
    for (const c of this.containers) this.writeStatus(c, { state: "waiting", reason: "PodInitializing" });
    if (this.host.connected()) {
      if (this.host.podReadyToStartContainers)
        this.host.api.setCondition(pod, "PodReadyToStartContainers", "True");
      this.host.api.setCondition(pod, "Initialized", "False");
    }
    this.startContainer(this.inits[0]!, this.rebooted, cause);
  }

  /**
   * computeInitContainerActions: the init container the pod waits on is done (it completed, or a
   * sidecar started: its startup probe passed, or it has none): the next one starts; after the last,
   * the pod is Initialized and its app containers start.
   */
  private initStepDone(c: ContainerRun): void {
    if (this.initialized || this.terminating || this.stopped || this.inits[this.initStep] !== c) return;
    this.initStep++;
    const next = this.inits[this.initStep];
    if (next) {
      this.startContainer(next, this.rebooted, {
        start: "init-next",
        after: c.name,
        sidecar: c.role === "sidecar",
      });
      return;
    }
    this.initialized = true;
    if (this.host.connected()) this.host.api.setCondition(this.pod, "Initialized", "True");
    this.startApps({
      start: "initialized",
      initContainers: this.inits.length,
      sidecars: this.sidecars.length,
    });
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
    const statuses = c.role === "app" ? pod.status.containerStatuses : pod.status.initContainerStatuses;
    const prev = statuses?.find((s) => s.name === c.name);
    c.restartCount = Math.max(c.restartCount, prev?.restartCount ?? 0) + (restart ? 1 : 0);
    if (!pod.status.podIP) pod.status.podIP = this.host.nextIp();
    // getPhase: Pending until the init containers have completed.
    if (c.role === "app") pod.status.phase = "Running";
    this.writeStatus(c, { state: "running", startedAt: now });
    for (const w of c.workers.values()) w.newContainer();
    // An init container runs for its behaviour's exitAfterSeconds, at once without one (init-containers.ts).
    const exitAfter = c.behaviour.exitAfterSeconds ?? (c.role === "init" ? 0 : undefined);
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
        ...(c.role === "app" ? {} : { role: c.role }),
        container: c.name,
        restartCount: c.restartCount,
        podRow: podRow(pod, now),
        ...cause,
      });
    this.sync();
    if (c.role === "sidecar" && c.started) this.initStepDone(c);
  }

  // ---- probe results (the syncLoop's handleProbeSync) -------------------------------------------

  startupPassed(c: ContainerRun): void {
    c.started = true;
    this.writeStatus(c, {});
    for (const x of c.workers.values()) x.containerStarted();
    this.sync({ cause: "startup-passed", container: c.name });
    // A sidecar's startup probe passed: the next init container may start (KEP-753).
    if (c.role === "sidecar") this.initStepDone(c);
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

  restartContainer(c: ContainerRun, cause: StartCause): void {
    this.host.whenRuntime(() => !this.terminating && !c.running && this.startContainer(c, true, cause));
  }

  /**
   * restartPolicy says no restart: an init container that completed lets the next one start; one
   * that failed under restartPolicy Never fails the pod (computeInitContainerActions: KillPod,
   * "init container failed"); an app container is done, and the pod with the last of them.
   */
  containerDone(c: ContainerRun): void {
    c.done = true;
    if (c.role !== "init") this.finishPodIfDone();
    else if (c.exitCode === 0) this.initStepDone(c);
    else this.host.status.completed(this, false);
  }

  /**
   * The pod is being deleted (pod_workers.go SyncTerminatingPod → killPod): every running container
   * is killed at once, with the deletion's grace period as gracePeriodOverride, each after its
   * preStop hook; a sidecar's SIGTERM waits for the app containers and the later sidecars to exit
   * (kuberuntime_termination_order.go, init-containers.ts sidecarTurns); `done` once none runs,
   * with the grace period and the kill that ended last.
   */
  terminate(
    done: (grace: number, last: KillPlan | undefined, stopOrder?: StopOrder) => void,
    /** the grace a kill without a deletion gets (the node shutdown manager's gracePeriodOverride) */
    gracePeriodOverride?: number,
  ): void {
    if (this.terminating) return;
    this.beginTermination();
    const grace = gracePeriodOverride ?? deletionGracePeriod(this.pod);
    this.terminated = terminatePod(
      this.killEnv(),
      this.all,
      grace,
      (c) => c.stop(this.host.engine),
      (last, ended) => {
        this.terminated = undefined;
        done(grace, last, this.sidecars.length > 0 ? stopOrderOf(ended) : undefined);
      },
      this.sidecars.length > 0 ? sidecarTurns(this.inits, this.containers) : undefined,
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
    this.exitedByItself(
      c,
      c.role === "init" ? initExit(c, exitAfterSeconds) : { cause: "exit-after", exitAfterSeconds },
    );
  }

  private exitedByItself(c: ContainerRun, cause: OwnExit): void {
    // An init container that runs to its end completes (exit 0) unless its behaviour says otherwise.
    const code = c.behaviour.exitCode ?? (c.role === "init" ? 0 : DEFAULT_CRASH_EXIT_CODE);
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
        ...(c.role === "app" ? {} : { role: c.role }),
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
    const exitedZero = this.containers.every((c) => c.exitCode === 0);
    if (this.terminating || !this.sidecars.some((c) => c.running)) {
      this.host.status.completed(this, exitedZero);
      return;
    }
    // computePodActions: no app container left to keep or start, so KillPod, the sidecars with it
    // (not restarted: InitContainersToStart = nil), in the termination order and with the pod's
    // terminationGracePeriodSeconds; the pod is Succeeded or Failed once they are gone (KEP-753).
    this.beginTermination();
    const grace = this.pod.spec.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD;
    this.terminated = terminatePod(
      this.killEnv(),
      this.all,
      grace,
      (c) => c.stop(this.host.engine),
      () => {
        this.terminated = undefined;
        this.host.status.completed(this, exitedZero);
      },
      sidecarTurns(this.inits, this.containers),
    );
  }

  // ---- the kubelet process ----------------------------------------------------------------------

  /** The kubelet process stopped: no probing, no restarts (the containers keep running). */
  kubeletStopped(): void {
    const engine = this.host.engine;
    this.kubeletRunning = false;
    for (const c of this.all) {
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
    // Before 1.35 the new workers' results start at their initial values (a running, started
    // container keeps its Started: the runtime reports it) and readiness is probed again; from 1.35
    // (KEP-4781) they carry on from the kubelet's last report while the pod's Ready is True.
    const keep = this.host.keepStatusOnKubeletRestart;
    const wasReady = keep && podReady(this.pod);
    for (const c of this.all) {
      if (c.running)
        for (const w of c.workers.values()) {
          if (keep) w.adopt(c.started, wasReady && c.ready);
          else w.newContainer();
        }
      if (!c.running && !c.done && c.id > 0 && !this.terminating)
        this.restarts.decide(c, c.finishedAt, { kind: "kubelet-restart" });
    }
    this.sync();
  }

  /** The pod is being deleted: liveness and startup stop (worker.go), nothing restarts. */
  private beginTermination(): void {
    const engine = this.host.engine;
    this.terminating = true;
    for (const c of this.all) {
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
    for (const c of this.all) c.stop(engine);
    this.terminated = undefined;
    for (const t of this.timers ?? []) engine.cancel(t);
    this.timers = undefined;
    this.host.status.cancelResync(this);
  }
}
