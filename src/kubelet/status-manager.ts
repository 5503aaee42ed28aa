// The kubelet's status manager, for each of its pods (pkg/kubelet/status/status_manager.go, with
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

/** One pod as its status manager sees it: its pod worker (pod-worker.ts). */
export interface PodStatusSource {
  readonly pod: Pod;
  /** the pod's workload (`Deployment/<ns>/<name>`…), for events; undefined for a bare Pod */
  readonly owner: string | undefined;
  readonly containers: readonly ContainerRun[];
  /**
   * the containers whose readiness makes the pod's: the sidecars, then the app containers
   * (status/generate.go GenerateContainersReadyCondition counts restartable init containers, 1.29+)
   */
  readonly serving: readonly ContainerRun[];
  /** the pod is being deleted: its status is no longer the kubelet's to report here */
  readonly terminating: boolean;
  /** the pod worker's next resync (pod_workers.go requeues the pod after each sync) */
  resyncTimer: Timer | undefined;
}

/**
 * The kubelet's status manager (one per kubelet, as status_manager.go's manager is): each method
 * takes the pod's worker, which holds the pod's own state.
 */
export class StatusManager {
  constructor(private readonly host: StatusManagerHost) {}

  /**
   * One pod sync: the status the kubelet generates. A running container is ready when it has
   * started and its readiness result is Success (or it has no readiness probe); while it is not, the
   * sync triggers an extra readiness run. The pod is Ready when every container is and every
   * readinessGates condition is True. `cause`: what this sync was for, if it changes the pod's Ready.
   */
  sync(w: PodStatusSource, cause?: KubeletReadyCause): void {
    if (w.terminating) return;
    const engine = this.host.engine;
    const kubernetes = this.host.settings.probeSchedule === "kubernetes";
    let waitingForReadiness = false;
    for (const c of w.serving) {
      const readiness = c.workers.get("readiness");
      const ready = c.running && c.started && (!readiness || readiness.result === "Success");
      c.ready = ready;
      if (c.running && c.started && !ready && readiness) {
        waitingForReadiness = true;
        if (kubernetes) readiness.trigger();
      }
    }
    this.report(w, cause);
    // The pod worker re-queues the pod after every sync (syncFrequency, 1m, + up to 50% jitter);
    // only a not-ready pod's resync can change anything here (it triggers another readiness run).
    this.cancelResync(w);
    if (kubernetes && waitingForReadiness) {
      const delay = KUBELET_SYNC_FREQUENCY * (1 + POD_WORKER_RESYNC_JITTER * this.host.rng().float());
      w.resyncTimer = engine.after(delay, () => {
        w.resyncTimer = undefined;
        this.sync(w);
      });
    }
  }

  cancelResync(w: PodStatusSource): void {
    this.host.engine.cancel(w.resyncTimer);
    w.resyncTimer = undefined;
  }

  /** Write the Ready condition the status manager would (when the API is reachable). */
  report(w: PodStatusSource, cause?: KubeletReadyCause): void {
    const pod = w.pod;
    const api = this.host.api;
    if (!this.host.connected() || !api.exists(pod) || w.terminating) return;
    for (const c of w.serving) {
      const statuses = c.role === "app" ? pod.status.containerStatuses : pod.status.initContainerStatuses;
      const s = statuses?.find((x) => x.name === c.name);
      if (s) {
        s.ready = c.ready;
        s.started = c.started;
      }
    }
    const containersReady = allReady(w.serving);
    const ready = containersReady && gatesMet(pod);
    api.setCondition(pod, "ContainersReady", containersReady ? "True" : "False");
    if (podReady(pod) === ready) return;
    const unready = w.serving.filter((c) => !c.ready).map((c) => c.name);
    const why: KubeletReadyCause =
      cause ??
      (ready
        ? {
            cause: "containers-ready",
            readinessProbe: w.serving.some((c) => c.workers.has("readiness")),
          }
        : unready.length > 0
          ? { cause: "containers-not-ready", containers: unready }
          : { cause: "readiness-gates", gates: unmetGates(pod) });
    api.setReady(
      pod,
      ready,
      ready ? undefined : unready.length > 0 ? "ContainersNotReady" : "ReadinessGatesNotReady",
      readyFields(w, why),
    );
  }

  /**
   * needsReconcile (status_manager.go): the API's Ready condition is not the one this status manager
   * generated (someone else wrote it: the node lifecycle controller's MarkPodsNotReady). Its next
   * syncBatch writes its own back.
   */
  needsReconcile(w: PodStatusSource): boolean {
    const pod = w.pod;
    if (!this.host.api.exists(pod) || w.terminating || pod.status.phase !== "Running") return false;
    return podReady(pod) !== (allReady(w.serving) && gatesMet(pod));
  }

  /** No container will run again: the pod is Succeeded or Failed, and not Ready (PodCompleted). */
  completed(w: PodStatusSource, exitedZero: boolean): void {
    const pod = w.pod;
    pod.status.phase = exitedZero ? "Succeeded" : "Failed";
    this.cancelResync(w);
    if (!this.host.connected()) return;
    this.host.api.setReady(
      pod,
      false,
      "PodCompleted",
      readyFields(w, {
        cause: "completed",
        phase: pod.status.phase,
        restartPolicy: pod.spec.restartPolicy ?? "Always",
        exitedZero,
      }),
    );
    this.host.api.update(pod);
  }
}

// The readiness the kubelet generates (generateAPIPodStatus): its containers', then the readiness gates.

function allReady(containers: readonly ContainerRun[]): boolean {
  for (const c of containers) if (!c.ready) return false;
  return true;
}

/** Every readinessGates condition is True. */
function gatesMet(pod: Pod): boolean {
  const gates = pod.spec.readinessGates;
  if (gates === undefined) return true;
  for (const g of gates) if (!gateTrue(pod, g.conditionType)) return false;
  return true;
}

/** The readiness gates whose condition is not True. */
function unmetGates(pod: Pod): string[] {
  return (pod.spec.readinessGates ?? [])
    .filter((g) => !gateTrue(pod, g.conditionType))
    .map((g) => g.conditionType);
}

function gateTrue(pod: Pod, type: string): boolean {
  return pod.status.conditions.find((x) => x.type === type)?.status === "True";
}

function readyFields(w: PodStatusSource, cause: KubeletReadyCause): KubeletPodReadyFields {
  return {
    by: "kubelet",
    ...(w.owner === undefined ? {} : { owner: w.owner }),
    ...cause,
  };
}
