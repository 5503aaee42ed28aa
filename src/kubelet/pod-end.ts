// How a pod's worker ends on its kubelet (kubelet.ts syncPod): a pod with a deletionTimestamp is
// terminated (preStop hooks, SIGTERM, SIGKILL, then the kubelet's final delete), a process
// whose pod object is gone is killed as an orphan, and the node's graceful shutdown ends a pod
// Failed (node-shutdown.ts).

import { type ApiWriter, removePod, setPodCondition, setPodReady } from "../cluster/api.ts";
import { ref } from "../cluster/store.ts";
import type { Pod } from "../kubernetes/objects.ts";
import { NODE_SHUTDOWN_MESSAGE, NODE_SHUTDOWN_REASON, type ShutdownGroup } from "./node-shutdown.ts";
import type { PodWorker } from "./pod-worker.ts";

/** What ending a pod needs from its kubelet. */
export interface PodEndHost {
  /** the clock, the API and the event recorder (a kubelet's KubeletEnv has them) */
  readonly ctx: ApiWriter;
  /** the node's name */
  readonly name: string;
  /** the kubelet reaches the API server */
  connected(): boolean;
  /** stop the worker and forget it (its volumes leave status.volumesInUse) */
  removeWorker(worker: PodWorker): void;
}

/**
 * The pod has a deletionTimestamp: each container's preStop hook, SIGTERM, its exit (or SIGKILL
 * when the grace period runs out: pod-worker.ts terminate, kill.ts), then the kubelet's final
 * delete removes the object (pod_workers.go, status_manager.go).
 */
export function terminatePod(host: PodEndHost, pod: Pod, worker: PodWorker | undefined): void {
  const ctx = host.ctx;
  if (!worker?.running) {
    if (worker) host.removeWorker(worker);
    removePod(ctx, pod, {
      force: false,
      lane: "kubelet",
      by: "kubelet",
      cause: "not-running",
    });
    return;
  }
  const start = ctx.engine.now;
  worker.terminate((grace, last, stopOrder) => {
    host.removeWorker(worker);
    if (!host.connected()) return;
    for (const c of [...pod.status.containerStatuses, ...(pod.status.initContainerStatuses ?? [])]) {
      c.state = "terminated";
      c.ready = false;
    }
    ctx.trace.emit({
      type: "PodTerminated",
      lane: "kubelet",
      object: ref(pod),
      node: host.name,
      ...(worker.owner === undefined ? {} : { owner: worker.owner }),
      signal: last?.signal ?? "SIGTERM",
      ...(last?.ownExit ? { ownExit: true as const } : {}),
      exitAfterSeconds: ctx.engine.since(start),
      terminationGracePeriodSeconds: grace,
      ...(last?.preStop ? { preStop: last.preStop } : {}),
      ...(stopOrder ? { stopOrder } : {}),
    });
    removePod(ctx, pod, {
      force: false,
      lane: "kubelet",
      by: "kubelet",
      cause: "containers-exited",
    });
  });
}

/** A process whose pod object is gone (force-deleted or garbage-collected while we were cut off). */
export function killOrphan(host: PodEndHost, worker: PodWorker): void {
  const running = worker.running;
  host.removeWorker(worker);
  if (!running) return;
  host.ctx.trace.emit({
    type: "ContainerKilled",
    lane: "kubelet",
    object: ref(worker.pod),
    node: host.name,
    ...(worker.owner === undefined ? {} : { owner: worker.owner }),
    container: worker.pod.spec.containers[0]?.name ?? "",
    cause: "orphan",
  });
}

/**
 * The node shutdown manager kills the pod (TerminatePodAbnormallyAndWait, with the group's grace as
 * gracePeriodOverride): preStop hooks, SIGTERM, SIGKILL as for a deletion, but the pod object stays.
 * The status manager holds the terminal phase back while a container could still run
 * (status_manager.go mergePodStatus: "Delay transitioning a pod to a terminal status"), so the pod
 * stays Running, and Ready, until its containers are gone; then phase Failed, reason Terminated, the
 * message, and the DisruptionTarget condition (reason TerminationByKubelet; the PodDisruptionConditions
 * gate, on by default since 1.26, GA in 1.31) are written together, and Ready turns False with
 * reason PodFailed (status/generate.go generateContainersReadyConditionForTerminalPhase).
 */
export function shutDownPod(
  host: PodEndHost,
  worker: PodWorker,
  grace: number,
  group: ShutdownGroup<PodWorker>,
  ended: () => void,
): void {
  const ctx = host.ctx;
  const pod = worker.pod;
  const start = ctx.engine.now;
  const finish = (signal: "SIGTERM" | "SIGKILL") => {
    host.removeWorker(worker);
    if (!host.connected() || !ctx.store.exists(pod)) {
      ended();
      return;
    }
    for (const c of [...pod.status.containerStatuses, ...(pod.status.initContainerStatuses ?? [])]) {
      if (c.state === "running") c.state = "terminated";
      c.ready = false;
    }
    setPodCondition(ctx, pod, "DisruptionTarget", "True", "TerminationByKubelet", NODE_SHUTDOWN_MESSAGE);
    pod.status.phase = "Failed";
    pod.status.reason = NODE_SHUTDOWN_REASON;
    pod.status.message = NODE_SHUTDOWN_MESSAGE;
    ctx.trace.emit({
      type: "PodShutDown",
      lane: "kubelet",
      object: ref(pod),
      node: host.name,
      ...(worker.owner === undefined ? {} : { owner: worker.owner }),
      reason: NODE_SHUTDOWN_REASON,
      message: NODE_SHUTDOWN_MESSAGE,
      gracePeriodSeconds: grace,
      groupPriority: group.priority,
      groupSeconds: group.shutdownGracePeriodSeconds,
      signal,
      exitAfterSeconds: ctx.engine.since(start),
    });
    ctx.store.update(pod, pod.spec.nodeName);
    setPodReady(ctx, pod, false, {
      lane: "kubelet",
      reason: "PodFailed",
      by: "kubelet",
      ...(worker.owner === undefined ? {} : { owner: worker.owner }),
      cause: "node-shutdown",
    });
    ended();
  };
  if (!worker.running) {
    finish("SIGTERM");
    return;
  }
  worker.terminate((_grace, last) => finish(last?.signal ?? "SIGTERM"), grace);
}
