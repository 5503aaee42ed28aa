// Restarting a container that stopped, as pkg/kubelet/kuberuntime/kuberuntime_manager.go decides
// it: computePodActions (restartPolicy: Always; OnFailure when the exit code is not 0; Never) and
// doBackOff (CrashLoopBackOff over client-go's flowcontrol.Backoff, backoff.ts: the first restart
// immediate, then the back-off doubling to its cap, forgotten after 10 minutes of running; a
// container held by it gets the BackOff event and kubectl's CrashLoopBackOff); and
// how the pod worker retries a sync the back-off held (pkg/kubelet/pod_workers.go: at the
// back-off's expiry from ≈1.35, PR #133066; before, every backOffPeriod (10s) + up to 50% jitter).
//
// Restarts are in place: same pod object, same node, same IP; restartCount climbs.

import type { Engine } from "../engine/engine.ts";
import type { Rng } from "../engine/rng.ts";
import { KUBELET_BACKOFF_PERIOD, POD_WORKER_BACKOFF_JITTER } from "../kubernetes/defaults.ts";
import type { PodRow } from "../kubernetes/kubectl.ts";
import type { Trace } from "../trace/events.ts";
import type { ExitCause, StartCause } from "../trace/node-events.ts";
import { Backoff } from "./backoff.ts";
import type { ContainerRun } from "./runtime.ts";

/** The CrashLoopBackOff settings of one kubelet (KubeletSettings, newCrashLoopBackOff). */
export interface CrashLoopSettings {
  /** faultline's own `crashLoopBackOff: false` (a toy kubelet, no Kubernetes setting): restart at once, every time */
  enabled: boolean;
  initialSeconds: number;
  maxSeconds: number;
  /** the pod worker retries when the back-off expires (≈1.35+), not every backOffPeriod + jitter */
  exactRequeue: boolean;
}

/** What the restart decisions need from the kubelet, one for all its pods (pod-host.ts). */
export interface RestartEnv {
  readonly engine: Engine;
  readonly trace: Trace;
  /** the kubelet's random source (the requeue jitter) */
  rng(): Rng;
  readonly crashLoop: CrashLoopSettings;
}

/** What the restart decisions need from their pod worker (pod-worker.ts, its own methods). */
export interface RestartHost {
  /** the pod is being deleted: nothing restarts */
  readonly terminating: boolean;
  /** the policy this container restarts by (a sidecar's Always, an init container's OnFailure, its own or the pod's) */
  restartPolicyOf(c: ContainerRun): "Always" | "OnFailure" | "Never";
  /** whether the container restarts after its exit, and the policy as the reason words it (KEP-5307 rules first) */
  restartDecision(c: ContainerRun): { restart: boolean; policy: string };
  /** start the container again, in place */
  restartContainer(c: ContainerRun, cause: StartCause): void;
  /** restartPolicy says no: the container is done */
  containerDone(c: ContainerRun): void;
  /** the fields every event of the pod starts with */
  eventBase(): { object: string; node: string; owner?: string };
  /** ErrCrashLoopBackOff: the container's status says CrashLoopBackOff; the pod's row as kubectl shows it */
  crashLoopWaiting(c: ContainerRun): PodRow;
}

/** Does restartPolicy restart a container that exited with this code (ShouldContainerBeRestarted)? */
export function shouldRestart(
  policy: "Always" | "OnFailure" | "Never",
  exitCode: number | undefined,
): boolean {
  return policy === "Always" || (policy === "OnFailure" && exitCode !== 0);
}

/** The restarts of one pod's containers, and their back-off (kept in the kubelet process's memory). */
export class Restarts {
  /** made at the first restart decision: most pods never restart, and a large cluster has many */
  private backoffs: Backoff | undefined;

  constructor(
    private readonly env: RestartEnv,
    private readonly host: RestartHost,
  ) {}

  private get backoff(): Backoff {
    this.backoffs ??= new Backoff(this.env.crashLoop.initialSeconds, this.env.crashLoop.maxSeconds);
    return this.backoffs;
  }

  /**
   * The container stopped: restart it, or not, or wait out the back-off. `eventTime` is the
   * FinishedAt doBackOff reads (for a probe kill, the exit before this one, undefined for the first:
   * the SyncPod that kills reads the pod status from before the kill).
   */
  decide(c: ContainerRun, eventTime: number | undefined, exit: ExitCause): void {
    const host = this.host;
    if (host.terminating || c.running) return;
    const { restart, policy } = host.restartDecision(c);
    if (!restart) {
      host.containerDone(c);
      return;
    }
    if (!this.env.crashLoop.enabled) {
      host.restartContainer(c, { start: "restart", exit, restartPolicy: policy, backOff: "disabled" });
      return;
    }
    if (eventTime === undefined) {
      // doBackOff finds no exited instance of the container in the pod status it was given (the
      // first probe kill: that status predates the kill) and returns without touching the back-off.
      host.restartContainer(c, { start: "restart", exit, restartPolicy: policy, backOff: "no-exit" });
      return;
    }
    const now = this.env.engine.now;
    const key = c.name;
    if (this.backoff.isInBackOffSince(key, eventTime, now)) {
      this.wait(c, exit);
      return;
    }
    const reset = this.backoff.expired(key, eventTime);
    const first = this.backoff.get(key) === 0;
    this.backoff.next(key, eventTime, now);
    host.restartContainer(c, {
      start: "restart",
      exit,
      restartPolicy: policy,
      backOff: first ? "first" : reset ? "reset" : "passed",
    });
  }

  /** ErrCrashLoopBackOff: the container waits; the pod worker retries the sync later. */
  private wait(c: ContainerRun, exit: ExitCause): void {
    const host = this.host;
    const engine = this.env.engine;
    const key = c.name;
    const exitAt = c.finishedAt ?? engine.now;
    const delay = this.backoff.get(key);
    const until = this.backoff.backOffUntil(key, exitAt) ?? engine.now;
    const s = this.env.crashLoop;
    this.env.trace.emit({
      type: "BackOff",
      lane: "kubelet",
      ...host.eventBase(),
      container: c.name,
      delaySeconds: delay,
      exit,
      initialSeconds: s.initialSeconds,
      maxSeconds: s.maxSeconds,
      requeue: s.exactRequeue ? "exact" : "period",
      backOffPeriod: KUBELET_BACKOFF_PERIOD,
      podRow: host.crashLoopWaiting(c),
    });
    const nextRetry = (t: number) =>
      s.exactRequeue
        ? Math.max(until, t)
        : t + KUBELET_BACKOFF_PERIOD * (1 + POD_WORKER_BACKOFF_JITTER * this.env.rng().float());
    const retry = () => {
      c.waitingTimer = undefined;
      if (host.terminating || c.running) return;
      const t = engine.now;
      if (this.backoff.isInBackOffSince(key, exitAt, t)) {
        c.waitingTimer = engine.at(nextRetry(t), retry);
        return;
      }
      this.backoff.next(key, exitAt, t);
      host.restartContainer(c, { start: "back-off-expired", exit, delaySeconds: delay });
    };
    c.waitingTimer = engine.at(nextRetry(engine.now), retry);
  }

  /** A new kubelet process: the back-off lived in the old one's memory (kubelet.go klet.crashloopBackOff). */
  forget(): void {
    this.backoffs?.clear();
  }
}
