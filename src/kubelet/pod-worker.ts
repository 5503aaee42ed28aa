// One pod's containers on one kubelet: start, probe, kill, restart in place, back off
// (pkg/kubelet/pod_workers.go, pkg/kubelet/kuberuntime/kuberuntime_manager.go computePodActions and
// doBackOff, pkg/kubelet/prober/prober_manager.go UpdatePodStatus). The application inside each
// container follows the scenario's `behaviour` (bootSeconds, readyAfterSeconds, exitCode,
// shutdownSeconds) and the timeline's pod actions (deadlock, crash, dependency-down/up, recover).
//
// Restarts are in place: same pod object, same node, same IP; restartCount climbs and the startup
// probe runs again. The same SyncPod kills a container that failed liveness or startup and starts
// its replacement, unless CrashLoopBackOff holds it back.

import { podReady, setPodCondition, setPodReady } from "../cluster/api.ts";
import type { Context } from "../cluster/context.ts";
import { ref } from "../cluster/store.ts";
import type { Timer } from "../engine/engine.ts";
import type { Rng } from "../engine/rng.ts";
import {
  DEFAULT_TERMINATION_GRACE_PERIOD,
  EXACT_CRASHLOOP_REQUEUE_SINCE_MINOR,
  KUBELET_BACKOFF_PERIOD,
  KUBELET_SYNC_FREQUENCY,
  MANUAL_PROBE_RESETS_TICKER_SINCE_MINOR,
  MINIMUM_GRACE_PERIOD,
  minor,
  POD_WORKER_BACKOFF_JITTER,
  POD_WORKER_RESYNC_JITTER,
} from "../kubernetes/defaults.ts";
import { podRow } from "../kubernetes/kubectl.ts";
import type { Container, ContainerStatus, Pod } from "../kubernetes/objects.ts";
import type { Behaviour } from "../scenario/types.ts";
import type { ExitCause, KubeletReadyCause, StartCause, StepRef } from "../trace/node-events.ts";
import { Backoff } from "./backoff.ts";
import {
  type ContainerView,
  type Outcome,
  PROBE_TYPES,
  type ProberHost,
  type ProbeType,
  ProbeWorker,
  type ResolvedProbe,
  type Result,
  resolveProbe,
} from "./prober.ts";

/** Exit codes of a killed process: 128 + SIGTERM (15) when it exits in the grace period, 128 + SIGKILL (9) after. */
const EXIT_SIGTERM = 143;
const EXIT_SIGKILL = 137;
/** A crash with no behaviour.exitCode: a generic failure. */
const DEFAULT_CRASH_EXIT_CODE = 1;

/** What a pod worker needs from its kubelet. */
export interface PodWorkerHost {
  readonly ctx: Context;
  readonly node: string;
  connected(): boolean;
  /** when the kubelet process started (the prober's initial jitter applies while it is younger than a period) */
  readonly kubeletStartedAt: number;
  /** the prober's random source (initial jitter, resync jitter) */
  rng(): Rng;
  /** an address from the node's pod CIDR */
  nextIp(): string;
}

/** One container of the pod and its current instance. */
export class ContainerRun implements ContainerView {
  id = 0;
  running = false;
  startedAt = Number.NaN;
  started = false;
  /** the status manager's view: running, started, readiness passed (or no readiness probe) */
  ready = false;
  /** the process hangs (deadlock): health checks time out, requests hang */
  hung = false;
  killing = false;
  restartCount = 0;
  /** FinishedAt of the last exited instance (doBackOff's eventTime) */
  finishedAt: number | undefined;
  exitCode: number | undefined;
  waitingTimer: Timer | undefined;
  /** the pod has been given up: restartPolicy says no restart */
  done = false;
  workers = new Map<ProbeType, ProbeWorker>();
  readonly probes: ResolvedProbe[];

  constructor(
    readonly spec: Container,
    readonly behaviour: Behaviour,
  ) {
    this.probes = PROBE_TYPES.flatMap((type) => {
      const p = spec[`${type}Probe`];
      return p ? [resolveProbe(type, p)] : [];
    });
  }

  get name(): string {
    return this.spec.name;
  }
}

export class PodWorker {
  readonly containers: ContainerRun[];
  /** the pod's deletionTimestamp was seen: SIGTERM sent, no more restarts */
  terminating = false;
  /** a dependency the readiness endpoint checks is down (pod-wide, survives restarts) */
  dependencyDown = false;
  private timers: Timer[] = [];
  private resyncTimer: Timer | undefined;
  private readonly backoff: Backoff;
  private readonly ctx: Context;

  constructor(
    private readonly host: PodWorkerHost,
    readonly pod: Pod,
    /** the pod's workload (`Deployment/<ns>/<name>`…), for events; undefined for a bare Pod */
    readonly owner: string | undefined,
    behaviourOf: (container: string) => Behaviour,
  ) {
    this.ctx = host.ctx;
    this.containers = pod.spec.containers.map((c) => new ContainerRun(c, behaviourOf(c.name)));
    this.backoff = new Backoff(
      this.ctx.kubelet.crashLoopBackOffInitial,
      this.ctx.kubelet.crashLoopBackOffMax,
    );
  }

  private get settings() {
    return this.ctx.kubelet;
  }

  get running(): boolean {
    return this.containers.some((c) => c.running);
  }

  // ---- probe workers (prober_manager.go AddPod) -----------------------------------------------

  /**
   * One worker per probe, created when the kubelet adds the pod. The first run happens at creation
   * and finds no container; then a ticker of periodSeconds. The initial sleep of U[0, period) happens
   * only when the kubelet process started less than a period ago (worker.go run).
   */
  private createWorkers(adopted: boolean): void {
    const now = this.ctx.engine.now;
    const kubernetes = this.settings.probeSchedule === "kubernetes";
    for (const c of this.containers) {
      for (const w of c.workers.values()) w.stop();
      c.workers.clear();
      for (const spec of c.probes) {
        const period = spec.periodSeconds;
        let phase = now;
        if (kubernetes && (adopted || this.ctx.engine.since(this.host.kubeletStartedAt) < period)) {
          // Adopted pods: their workers were created some time ago, at an unknown phase.
          phase = now + this.host.rng().uniform(0, period);
        }
        c.workers.set(spec.type, new ProbeWorker(this.proberHost(c), spec, phase));
      }
    }
  }

  private proberHost(c: ContainerRun): ProberHost {
    const ctx = this.ctx;
    return {
      engine: ctx.engine,
      schedule: this.settings.probeSchedule,
      manualResetsTicker: minor(ctx.version) >= MANUAL_PROBE_RESETS_TICKER_SINCE_MINOR,
      container: () => c,
      outcome: (type, handler, timeoutSeconds) => this.outcome(c, type, handler, timeoutSeconds),
      loadDependent: (handler) => this.sharesRequestQueue(c, handler),
      checked: (w, ok, timedOut, changed) => this.checked(c, w, ok, timedOut, changed),
      resultChanged: (w, result) => this.resultChanged(c, w, result),
    };
  }

  // ---- the application ------------------------------------------------------------------------

  /**
   * What a check finds: nothing listens until bootSeconds after the start (refused: a fast
   * failure); a hung process never answers (the check times out), except that the kernel still
   * completes a TCP handshake, so a tcpSocket probe passes; readiness also needs readyAfterSeconds
   * and its dependency.
   */
  private outcome(
    c: ContainerRun,
    type: ProbeType,
    handler: ResolvedProbe["handler"],
    timeoutSeconds: number,
  ): Outcome {
    const up = this.ctx.engine.since(c.startedAt);
    const boot = c.behaviour.bootSeconds ?? 0;
    if (up < boot) return "fail";
    if (c.hung) return handler === "tcpSocket" ? "pass" : "timeout";
    // An HTTP or gRPC health endpoint served by the same request queue answers only after the
    // requests ahead of it (seed 002's pitfall): past timeoutSeconds the check has timed out.
    if (this.sharesRequestQueue(c, handler) && this.ctx.traffic && this.pod.status.podIP) {
      if (this.ctx.traffic.healthCheckLatency(this.pod.status.podIP, this.ctx.engine.now) > timeoutSeconds)
        return "timeout";
    }
    if (type === "readiness") {
      if (this.dependencyDown && handler !== "tcpSocket") return "fail";
      if (up < (c.behaviour.readyAfterSeconds ?? boot)) return "fail";
    }
    return "pass";
  }

  /** behaviour.healthSharesRequestQueue, with callers in the scenario, for the handlers the app serves itself. */
  private sharesRequestQueue(c: ContainerRun, handler: ResolvedProbe["handler"]): boolean {
    // The scenario's callers, not ctx.traffic: the traffic model joins after the warm-up, and a worker
    // that went to sleep as "steady" before then would never hear of the load.
    return (
      (this.ctx.scenario.traffic?.length ?? 0) > 0 &&
      c.behaviour.healthSharesRequestQueue === true &&
      (handler === "httpGet" || handler === "grpc")
    );
  }

  /** What a caller's connection to the pod IP meets (the first container serves). */
  appState(): "serving" | "hung" | "refusing" {
    const c = this.containers[0];
    if (!c?.running) return "refusing";
    if (this.ctx.engine.since(c.startedAt) < (c.behaviour.bootSeconds ?? 0)) return "refusing";
    return c.hung ? "hung" : "serving";
  }

  // ---- start ----------------------------------------------------------------------------------

  /** The kubelet added the pod: create the probe workers (before its containers exist). */
  added(): void {
    this.createWorkers(false);
  }

  /** The pod was running when the scenario began: containers up, started and ready. */
  adopt(startedAt: number): void {
    this.createWorkers(true);
    for (const c of this.containers) {
      c.id = 1;
      c.running = true;
      c.started = true;
      c.ready = true;
      c.startedAt = startedAt;
      for (const w of c.workers.values()) w.adopt();
    }
  }

  /**
   * The sandbox is up: start every container. `rebooted`: the pod's containers ran here before (the
   * machine came back), so restartCount climbs.
   */
  startAll(cause: Extract<StartCause, { start: "scheduled" | "rebooted" }>): void {
    for (const c of this.containers) this.startContainer(c, cause.start === "rebooted", cause);
  }

  private startContainer(c: ContainerRun, restart: boolean, cause: StartCause): void {
    const pod = this.pod;
    const now = this.ctx.engine.now;
    this.ctx.engine.cancel(c.waitingTimer);
    c.waitingTimer = undefined;
    c.id++;
    c.running = true;
    c.killing = false;
    c.hung = false;
    c.startedAt = now;
    c.started = !c.workers.has("startup");
    c.ready = false;
    const prev = pod.status.containerStatuses.find((s) => s.name === c.name);
    c.restartCount = Math.max(c.restartCount, prev?.restartCount ?? 0) + (restart ? 1 : 0);
    if (!pod.status.podIP) pod.status.podIP = this.host.nextIp();
    pod.status.phase = "Running";
    this.writeContainerStatus(c, { state: "running", startedAt: now });
    for (const w of c.workers.values()) w.newContainer();
    if (this.host.connected()) this.ctx.store.update(pod, pod.spec.nodeName);
    this.ctx.trace.emit({
      type: "ContainerStarted",
      lane: "kubelet",
      object: ref(pod),
      node: this.host.node,
      ...this.ownerField(),
      container: c.name,
      restartCount: c.restartCount,
      podRow: podRow(pod, now),
      ...cause,
    });
    this.sync();
  }

  // ---- status (status_manager, prober_manager.go UpdatePodStatus) -------------------------------

  /**
   * One pod sync: the status the kubelet generates. A running container is ready when it has
   * started and its readiness result is Success (or it has no readiness probe); while it is not, the
   * sync triggers an extra readiness run. The pod is Ready when every container is and every
   * readinessGates condition is True.
   */
  sync(cause?: KubeletReadyCause): void {
    if (this.terminating) return;
    const kubernetes = this.settings.probeSchedule === "kubernetes";
    let waitingForReadiness = false;
    for (const c of this.containers) {
      const readiness = c.workers.get("readiness");
      const ready = c.running && c.started && (!readiness || readiness.result === "Success");
      c.ready = ready;
      if (c.running && c.started && !ready && readiness) {
        waitingForReadiness = true;
        if (kubernetes) readiness.trigger();
      }
    }
    this.report(cause);
    // The pod worker re-queues the pod after every sync; only a not-ready pod's resync can change
    // anything here (it triggers another readiness run).
    this.ctx.engine.cancel(this.resyncTimer);
    this.resyncTimer = undefined;
    if (kubernetes && waitingForReadiness) {
      const delay = KUBELET_SYNC_FREQUENCY * (1 + POD_WORKER_RESYNC_JITTER * this.host.rng().float());
      this.resyncTimer = this.ctx.engine.after(delay, () => {
        this.resyncTimer = undefined;
        this.sync();
      });
    }
  }

  /** Write the Ready condition the status manager would (when the API is reachable). */
  report(cause?: KubeletReadyCause): void {
    const pod = this.pod;
    if (!this.host.connected() || !this.ctx.store.exists(pod) || this.terminating) return;
    for (const c of this.containers) {
      const s = pod.status.containerStatuses.find((x) => x.name === c.name);
      if (s) {
        s.ready = c.ready;
        s.started = c.started;
      }
    }
    const containersReady = this.containers.every((c) => c.ready);
    const gates = (pod.spec.readinessGates ?? []).filter(
      (g) => pod.status.conditions.find((x) => x.type === g.conditionType)?.status !== "True",
    );
    setPodCondition(this.ctx, pod, "ContainersReady", containersReady ? "True" : "False");
    const ready = containersReady && gates.length === 0;
    if (podReady(pod) === ready) return;
    const unready = this.containers.filter((c) => !c.ready).map((c) => c.name);
    setPodReady(this.ctx, pod, ready, {
      lane: "kubelet",
      ...(ready ? {} : { reason: unready.length > 0 ? "ContainersNotReady" : "ReadinessGatesNotReady" }),
      fields: {
        by: "kubelet",
        ...this.ownerField(),
        podRow: podRow(pod, this.ctx.engine.now),
        ...(cause ??
          (ready
            ? {
                cause: "containers-ready",
                readinessProbe: this.containers.some((c) => c.workers.has("readiness")),
              }
            : unready.length > 0
              ? { cause: "containers-not-ready", containers: unready }
              : { cause: "readiness-gates", gates: gates.map((g) => g.conditionType) })),
      },
    });
  }

  private writeContainerStatus(c: ContainerRun, patch: Partial<ContainerStatus>): void {
    const statuses = this.pod.status.containerStatuses;
    let s = statuses.find((x) => x.name === c.name);
    if (!s) {
      s = { name: c.name, ready: false, started: false, restartCount: 0, state: "waiting" };
      // Keep the spec's order.
      statuses.push(s);
      statuses.sort(
        (a, b) =>
          this.containers.findIndex((x) => x.name === a.name) -
          this.containers.findIndex((x) => x.name === b.name),
      );
    }
    s.restartCount = c.restartCount;
    s.ready = c.ready;
    s.started = c.started;
    delete s.reason;
    delete s.exitCode;
    Object.assign(s, patch);
  }

  // ---- probe results ----------------------------------------------------------------------------

  private checked(c: ContainerRun, w: ProbeWorker, ok: boolean, timedOut: boolean, changed: boolean): void {
    const pod = this.pod;
    const p = w.spec;
    const run = {
      container: c.name,
      probe: p.type,
      periodSeconds: p.periodSeconds,
      schedule: this.settings.probeSchedule,
    };
    const up = this.ctx.engine.since(c.startedAt);
    if (ok) {
      if (!changed) return;
      this.ctx.trace.emit({
        type: "ProbeSucceeded",
        lane: "kubelet",
        object: ref(pod),
        node: this.host.node,
        ...this.ownerField(),
        ...run,
        handler: p.describe,
        upSeconds: up,
        consecutive: w.resultRun,
        successThreshold: p.successThreshold,
      });
      return;
    }
    const boot = c.behaviour.bootSeconds ?? 0;
    this.ctx.trace.emit({
      type: "ProbeFailed",
      lane: "kubelet",
      object: ref(pod),
      node: this.host.node,
      ...this.ownerField(),
      ...run,
      consecutive: w.resultRun,
      failureThreshold: p.failureThreshold,
      ...(timedOut
        ? { finding: "timeout", timeoutSeconds: p.timeoutSeconds }
        : up < boot
          ? { finding: "booting", bootSeconds: boot, upSeconds: up }
          : this.dependencyDown
            ? { finding: "dependency-down" }
            : { finding: "not-ready-yet", readyAfterSeconds: c.behaviour.readyAfterSeconds }),
    });
  }

  private ownerField(): { owner?: string } {
    return this.owner === undefined ? {} : { owner: this.owner };
  }

  /** The kubelet's syncLoop saw a probe result change (handleProbeSync) and syncs the pod. */
  private resultChanged(c: ContainerRun, w: ProbeWorker, result: Result): void {
    const p = w.spec;
    if (p.type === "startup" && result === "Success") {
      c.started = true;
      this.writeContainerStatus(c, {});
      for (const x of c.workers.values()) x.containerStarted();
      this.sync({ cause: "startup-passed", container: c.name });
      return;
    }
    if (p.type === "readiness") {
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
      return;
    }
    if (result === "Failure") this.killForProbe(c, w);
  }

  // ---- kill, exit, restart ------------------------------------------------------------------------

  /**
   * computePodActions: a running container whose liveness (or startup) result is Failure is killed
   * ("Container X failed liveness probe, will be restarted") and, in the same SyncPod, started again
   * if the restart policy allows. The kill's grace period: the probe's terminationGracePeriodSeconds,
   * else the pod's (kuberuntime_container.go setTerminationGracePeriod).
   */
  private killForProbe(c: ContainerRun, w: ProbeWorker): void {
    if (!c.running || c.killing) return;
    const p = w.spec;
    const pod = this.pod;
    const now = this.ctx.engine.now;
    const grace = Math.max(
      MINIMUM_GRACE_PERIOD,
      p.terminationGracePeriodSeconds ??
        pod.spec.terminationGracePeriodSeconds ??
        DEFAULT_TERMINATION_GRACE_PERIOD,
    );
    const shutdown = c.hung ? grace : Math.min(c.behaviour.shutdownSeconds ?? 0, grace);
    c.killing = true;
    this.ctx.trace.emit({
      type: "ContainerKilled",
      lane: "kubelet",
      object: ref(pod),
      node: this.host.node,
      ...this.ownerField(),
      container: c.name,
      cause: "probe",
      probe: p.type,
      periodSeconds: p.periodSeconds,
      failureThreshold: p.failureThreshold,
      initialDelaySeconds: p.initialDelaySeconds,
      terminationGracePeriodSeconds: grace,
      gracePeriodFrom: p.terminationGracePeriodSeconds !== undefined ? "probe" : "pod",
      hung: c.hung,
    });
    const previousExit = c.finishedAt;
    const exit = () => {
      if (!c.running) return;
      const code = c.hung || (c.behaviour.shutdownSeconds ?? 0) >= grace ? EXIT_SIGKILL : EXIT_SIGTERM;
      this.exited(c, code, { cause: "probe-kill", probe: p.type });
      // computePodActions put it in ContainersToStart too; doBackOff looks at the instance that
      // exited before this one (the pod status of this SyncPod predates the kill).
      this.decideRestart(c, previousExit, { kind: "probe", probe: p.type });
    };
    if (shutdown <= 0) exit();
    else this.timers.push(this.ctx.engine.at(now + shutdown, exit));
  }

  /** The process exits on its own (the timeline's `crash` step). */
  crash(step: StepRef): void {
    for (const c of this.containers) {
      if (!c.running || c.killing) continue;
      const code = c.behaviour.exitCode ?? DEFAULT_CRASH_EXIT_CODE;
      this.exited(c, code, { cause: "crash", step: { at: step.at, do: step.do, ...stepTarget(step) } });
      // The generic PLEG (relist every 1s) sees the exit and syncs the pod.
      this.decideRestart(c, c.finishedAt, { kind: "exit", exitCode: code });
    }
  }

  private exited(
    c: ContainerRun,
    exitCode: number,
    cause: { cause: "crash"; step: StepRef } | { cause: "probe-kill"; probe: ProbeType },
  ): void {
    const pod = this.pod;
    const now = this.ctx.engine.now;
    c.running = false;
    c.killing = false;
    c.hung = false;
    c.finishedAt = now;
    c.exitCode = exitCode;
    for (const w of c.workers.values()) w.containerStopped();
    c.ready = false;
    const reason = exitCode === 0 ? "Completed" : "Error";
    this.writeContainerStatus(c, { state: "terminated", reason, exitCode });
    this.ctx.trace.emit({
      type: "ContainerExited",
      lane: "app",
      object: ref(pod),
      node: this.host.node,
      ...this.ownerField(),
      container: c.name,
      exitCode,
      podRow: podRow(pod, now),
      ...cause,
    });
    this.sync({ cause: "container-exited", container: c.name, exitCode });
  }

  /**
   * Restart per restartPolicy (Always; OnFailure when the exit code is not 0; Never), through
   * doBackOff: the first restart is immediate, then 10s doubling to 300s, reset when the container
   * ran 10 minutes (kubernetes.md §8). `eventTime` is the FinishedAt doBackOff reads.
   */
  private decideRestart(c: ContainerRun, eventTime: number | undefined, exit: ExitCause): void {
    if (this.terminating || c.running) return;
    const pod = this.pod;
    const policy = pod.spec.restartPolicy ?? "Always";
    const restart = policy === "Always" || (policy === "OnFailure" && c.exitCode !== 0);
    if (!restart) {
      c.done = true;
      this.finishPodIfDone();
      return;
    }
    if (!this.settings.crashLoopBackOff) {
      this.startContainer(c, true, { start: "restart", exit, restartPolicy: policy, backOff: "disabled" });
      return;
    }
    const now = this.ctx.engine.now;
    const key = c.name;
    if (eventTime !== undefined && this.backoff.isInBackOffSince(key, eventTime, now)) {
      this.waitBackOff(c, exit);
      return;
    }
    const reset = eventTime !== undefined && this.backoff.expired(key, eventTime);
    const first = this.backoff.get(key) === 0;
    this.backoff.next(key, eventTime ?? now, now);
    this.startContainer(c, true, {
      start: "restart",
      exit,
      restartPolicy: policy,
      backOff: first ? "first" : reset ? "reset" : "passed",
    });
  }

  /** ErrCrashLoopBackOff: the container waits; the pod worker retries the sync later. */
  private waitBackOff(c: ContainerRun, exit: ExitCause): void {
    const pod = this.pod;
    const now = this.ctx.engine.now;
    const key = c.name;
    const exitAt = c.finishedAt ?? now;
    const delay = this.backoff.get(key);
    const until = this.backoff.backOffUntil(key, exitAt) ?? now;
    this.writeContainerStatus(c, { state: "waiting", reason: "CrashLoopBackOff" });
    if (this.host.connected()) this.ctx.store.update(pod, pod.spec.nodeName);
    const exact = minor(this.ctx.version) >= EXACT_CRASHLOOP_REQUEUE_SINCE_MINOR;
    this.ctx.trace.emit({
      type: "BackOff",
      lane: "kubelet",
      object: ref(pod),
      node: this.host.node,
      ...this.ownerField(),
      container: c.name,
      delaySeconds: delay,
      exit,
      initialSeconds: this.backoff.initial,
      maxSeconds: this.backoff.max,
      requeue: exact ? "exact" : "period",
      backOffPeriod: KUBELET_BACKOFF_PERIOD,
      podRow: podRow(pod, now),
    });
    const retry = () => {
      c.waitingTimer = undefined;
      if (this.terminating || c.running) return;
      const t = this.ctx.engine.now;
      if (this.backoff.isInBackOffSince(key, exitAt, t)) {
        c.waitingTimer = this.ctx.engine.at(nextRetry(t), retry);
        return;
      }
      this.backoff.next(key, exitAt, t);
      this.startContainer(c, true, { start: "back-off-expired", exit, delaySeconds: delay });
    };
    const nextRetry = (t: number) =>
      exact
        ? Math.max(until, t)
        : t + KUBELET_BACKOFF_PERIOD * (1 + POD_WORKER_BACKOFF_JITTER * this.host.rng().float());
    c.waitingTimer = this.ctx.engine.at(nextRetry(now), retry);
  }

  /** No container will run again: the pod is Succeeded (all exited 0) or Failed. */
  private finishPodIfDone(): void {
    if (!this.containers.every((c) => !c.running && c.done)) return;
    const pod = this.pod;
    pod.status.phase = this.containers.every((c) => c.exitCode === 0) ? "Succeeded" : "Failed";
    for (const c of this.containers) for (const w of c.workers.values()) w.stop();
    this.ctx.engine.cancel(this.resyncTimer);
    if (this.host.connected()) {
      setPodReady(this.ctx, pod, false, {
        lane: "kubelet",
        reason: "PodCompleted",
        fields: {
          by: "kubelet",
          ...this.ownerField(),
          podRow: podRow(pod, this.ctx.engine.now),
          cause: "completed",
          phase: pod.status.phase,
          restartPolicy: pod.spec.restartPolicy ?? "Always",
          exitedZero: this.containers.every((c) => c.exitCode === 0),
        },
      });
      this.ctx.store.update(pod, pod.spec.nodeName);
    }
  }

  // ---- faults -----------------------------------------------------------------------------------

  deadlock(): void {
    for (const c of this.containers) if (c.running) c.hung = true;
    this.pokeAll();
  }

  recover(): void {
    for (const c of this.containers) c.hung = false;
    this.pokeAll();
  }

  setDependency(up: boolean): void {
    this.dependencyDown = !up;
    this.pokeAll();
  }

  private pokeAll(): void {
    for (const c of this.containers) for (const w of c.workers.values()) w.poke();
  }

  // ---- the kubelet process ----------------------------------------------------------------------

  /** The kubelet process stopped: no probing, no restarts (the containers keep running). */
  kubeletStopped(): void {
    for (const c of this.containers) {
      for (const w of c.workers.values()) w.stop();
      this.ctx.engine.cancel(c.waitingTimer);
      c.waitingTimer = undefined;
    }
    this.ctx.engine.cancel(this.resyncTimer);
    this.resyncTimer = undefined;
  }

  /** A new kubelet process adopts the running pod: new probe workers (with jitter), restarts resume. */
  kubeletStarted(): void {
    // The back-off lives in the kubelet process's memory (kubelet.go: klet.crashloopBackOff): a new
    // kubelet starts with none, so a crashed container restarts at once.
    this.backoff.clear();
    this.createWorkers(false);
    for (const c of this.containers) {
      for (const w of c.workers.values()) {
        if (c.running) {
          w.newContainer();
          // The new worker's results start at their initial values; a running, started container
          // keeps its Started (the runtime reports it) and readiness is probed again.
        }
      }
      if (!c.running && !c.done && c.id > 0 && !this.terminating)
        this.decideRestart(c, c.finishedAt, { kind: "kubelet-restart" });
    }
    this.sync();
  }

  /** The pod is being deleted: liveness and startup stop (worker.go), nothing restarts. */
  beginTermination(): void {
    this.terminating = true;
    for (const c of this.containers) {
      c.workers.get("liveness")?.stop();
      c.workers.get("startup")?.stop();
      this.ctx.engine.cancel(c.waitingTimer);
      c.waitingTimer = undefined;
    }
    this.ctx.engine.cancel(this.resyncTimer);
  }

  /** Everything stops (power off, the pod's containers exit for its deletion). */
  stop(): void {
    for (const c of this.containers) {
      for (const w of c.workers.values()) w.stop();
      this.ctx.engine.cancel(c.waitingTimer);
      c.waitingTimer = undefined;
      c.running = false;
      c.ready = false;
    }
    for (const t of this.timers) this.ctx.engine.cancel(t);
    this.timers = [];
    this.ctx.engine.cancel(this.resyncTimer);
    this.resyncTimer = undefined;
  }

  addTimer(t: Timer): void {
    this.timers.push(t);
  }
}

/** The node and pod a timeline step names, as it wrote them. */
function stepTarget(step: StepRef): { node?: string; pod?: string } {
  return { ...(step.node ? { node: step.node } : {}), ...(step.pod ? { pod: step.pod } : {}) };
}
