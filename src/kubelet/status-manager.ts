// The kubelet's status manager for one pod (pkg/kubelet/status/status_manager.go, with
// kubelet_pods.go generateAPIPodStatus and prober_manager.go UpdatePodStatus): which containers are
// ready, the pod's ContainersReady and Ready conditions and the events that say why Ready changed,
// and the pod worker's periodic resync that keeps a not-ready pod's readiness probed.

import { podReady } from "../cluster/api.ts";
import type { Engine, Timer } from "../engine/engine.ts";
import type { Rng } from "../engine/rng.ts";
import { KUBELET_SYNC_FREQUENCY, POD_WORKER_RESYNC_JITTER } from "../kubernetes/defaults.ts";
import type { ConditionStatus, Pod } from "../kubernetes/objects.ts";
import type { KubeletPodReadyFields, KubeletReadyCause } from "../trace/node-events.ts";
import type { ContainerRun } from "./runtime.ts";

/** The API server as the status manager writes a pod's status (cluster/api.ts, the store). */
export interface PodStatusApi {
  exists(pod: Pod): boolean;
  /** the pod's status changed: write it */
  update(pod: Pod): void;
  setCondition(pod: Pod, type: string, status: ConditionStatus): void;
  /** the Ready condition, with its PodReady / PodNotReady event */
  setReady(pod: Pod, ready: boolean, reason: string | undefined, fields: KubeletPodReadyFields): void;
}

/** What the status manager needs from its kubelet (the pod worker's host has it all). */
export interface StatusManagerHost {
  readonly engine: Engine;
  readonly api: PodStatusApi;
  /** probeSchedule: the seed's toy kubelet has no extra readiness runs and no resync */
  readonly settings: { readonly probeSchedule: "kubernetes" | "period-end" };
  /** the pod worker's random source (the resync jitter) */
  rng(): Rng;
  /** the kubelet reaches the API server */
  connected(): boolean;
}

export class PodStatusManager {
  private resyncTimer: Timer | undefined;

  constructor(
    private readonly host: StatusManagerHost,
    private readonly pod: Pod,
    private readonly owner: string | undefined,
    private readonly containers: readonly ContainerRun[],
    /** its pod worker: `terminating`, the pod is being deleted, its status no longer the kubelet's to report here */
    private readonly worker: { readonly terminating: boolean },
  ) {}

  /**
   * One pod sync: the status the kubelet generates. A running container is ready when it has
   * started and its readiness result is Success (or it has no readiness probe); while it is not, the
   * sync triggers an extra readiness run. The pod is Ready when every container is and every
   * readinessGates condition is True. `cause`: what this sync was for, if it changes the pod's Ready.
   */
  sync(cause?: KubeletReadyCause): void {
    if (this.worker.terminating) return;
    const engine = this.host.engine;
    const kubernetes = this.host.settings.probeSchedule === "kubernetes";
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
    // The pod worker re-queues the pod after every sync (syncFrequency, 1m, + up to 50% jitter);
    // only a not-ready pod's resync can change anything here (it triggers another readiness run).
    this.cancelResync();
    if (kubernetes && waitingForReadiness) {
      const delay = KUBELET_SYNC_FREQUENCY * (1 + POD_WORKER_RESYNC_JITTER * this.host.rng().float());
      this.resyncTimer = engine.after(delay, () => {
        this.resyncTimer = undefined;
        this.sync();
      });
    }
  }

  cancelResync(): void {
    this.host.engine.cancel(this.resyncTimer);
    this.resyncTimer = undefined;
  }

  /** Write the Ready condition the status manager would (when the API is reachable). */
  report(cause?: KubeletReadyCause): void {
    const pod = this.pod;
    const api = this.host.api;
    if (!this.host.connected() || !api.exists(pod) || this.worker.terminating) return;
    for (const c of this.containers) {
      const s = pod.status.containerStatuses.find((x) => x.name === c.name);
      if (s) {
        s.ready = c.ready;
        s.started = c.started;
      }
    }
    const { containersReady, gates, ready } = this.generated();
    api.setCondition(pod, "ContainersReady", containersReady ? "True" : "False");
    if (podReady(pod) === ready) return;
    const unready = this.containers.filter((c) => !c.ready).map((c) => c.name);
    const why: KubeletReadyCause =
      cause ??
      (ready
        ? {
            cause: "containers-ready",
            readinessProbe: this.containers.some((c) => c.workers.has("readiness")),
          }
        : unready.length > 0
          ? { cause: "containers-not-ready", containers: unready }
          : { cause: "readiness-gates", gates: gates.map((g) => g.conditionType) });
    api.setReady(
      pod,
      ready,
      ready ? undefined : unready.length > 0 ? "ContainersNotReady" : "ReadinessGatesNotReady",
      this.readyFields(why),
    );
  }

  /** The readiness the kubelet generates (generateAPIPodStatus): its containers', then the readiness gates. */
  private generated(): { containersReady: boolean; gates: { conditionType: string }[]; ready: boolean } {
    const pod = this.pod;
    const containersReady = this.containers.every((c) => c.ready);
    const gates = (pod.spec.readinessGates ?? []).filter(
      (g) => pod.status.conditions.find((x) => x.type === g.conditionType)?.status !== "True",
    );
    return { containersReady, gates, ready: containersReady && gates.length === 0 };
  }

  /**
   * needsReconcile (status_manager.go): the API's Ready condition is not the one this status manager
   * generated (someone else wrote it: the node lifecycle controller's MarkPodsNotReady). Its next
   * syncBatch writes its own back.
   */
  needsReconcile(): boolean {
    if (!this.host.api.exists(this.pod) || this.worker.terminating || this.pod.status.phase !== "Running")
      return false;
    return podReady(this.pod) !== this.generated().ready;
  }

  /** No container will run again: the pod is Succeeded or Failed, and not Ready (PodCompleted). */
  completed(exitedZero: boolean): void {
    const pod = this.pod;
    pod.status.phase = exitedZero ? "Succeeded" : "Failed";
    this.cancelResync();
    if (!this.host.connected()) return;
    this.host.api.setReady(
      pod,
      false,
      "PodCompleted",
      this.readyFields({
        cause: "completed",
        phase: pod.status.phase,
        restartPolicy: pod.spec.restartPolicy ?? "Always",
        exitedZero,
      }),
    );
    this.host.api.update(pod);
  }

  private readyFields(cause: KubeletReadyCause): KubeletPodReadyFields {
    return {
      by: "kubelet",
      ...(this.owner === undefined ? {} : { owner: this.owner }),
      ...cause,
    };
  }
}
