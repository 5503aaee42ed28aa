// How a pod's worker ends on its kubelet (kubelet.ts syncPod): a pod with a deletionTimestamp is
// terminated (preStop hooks, SIGTERM, SIGKILL, then the kubelet's final delete), and a process
// whose pod object is gone is killed as an orphan.

import { type ApiWriter, removePod } from "../cluster/api.ts";
import { ref } from "../cluster/store.ts";
import type { Pod } from "../kubernetes/objects.ts";
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
