// The taint eviction controller (pkg/controller/tainteviction/taint_eviction.go, timed_workers.go;
// "taint-eviction-controller" since KEP-3902, inside the node lifecycle controller before): evicts
// pods from nodes with NoExecute taints they do not tolerate, or tolerate only for a while
// (processPodOnNode, getMinTolerationTime; toleration matching in kubernetes/taints.ts).

import { deletePodGracefully, setPodCondition } from "../cluster/api.ts";
import type { Cluster } from "../cluster/context.ts";
import { BySerial } from "../cluster/store.ts";
import type { Timer } from "../engine/engine.ts";
import { addedByAdmission } from "../kubernetes/admission.ts";
import type { Node, Pod, Taint, Toleration } from "../kubernetes/objects.ts";
import { matchingTolerations, minTolerationSeconds, taintString } from "../kubernetes/taints.ts";
import type { TaintEvictionCause } from "../trace/control-plane-events.ts";

/** A TimedWorker: the eviction of one pod, due at fireAt. */
interface ScheduledEviction {
  pod: Pod;
  createdAt: number;
  fireAt: number;
  timer: Timer;
  cause: TaintEvictionCause;
}

export class TaintEvictionController {
  /** Last NoExecute taint set seen per node: node updates matter only when it changes. */
  private seenTaints = new Map<string, string>();
  /**
   * Each pod's nodeName (null: none) and tolerations at its last watch event, by the store's serial
   * number: pod updates matter only when they change. No node seen: the pod's first event.
   */
  private readonly seenNode: BySerial<string | null>;
  private readonly seenTolerations: BySerial<Toleration[]>;
  private evictions = new Map<string, ScheduledEviction>();

  constructor(private readonly cluster: Cluster) {
    this.seenNode = new BySerial(cluster.store);
    this.seenTolerations = new BySerial(cluster.store);
    cluster.store.watch("Node", (type, node) => {
      if (type === "DELETED") {
        this.seenTaints.delete(node.metadata.name);
        return;
      }
      const taints = noExecute(node);
      const key = taints.map(taintString).sort().join(",");
      if (this.seenTaints.get(node.metadata.name) === key) return;
      this.seenTaints.set(node.metadata.name, key);
      this.handleNodeUpdate(node, taints);
    });
    cluster.store.watch("Pod", (type, pod) => {
      if (type === "DELETED") {
        this.cancel(pod.metadata.uid!);
        this.seenNode.set(pod, undefined);
        this.seenTolerations.set(pod, undefined);
        return;
      }
      // Only a change of nodeName or tolerations matters (the tolerations array is replaced, never edited in place).
      const node = pod.spec.nodeName ?? null;
      const seen = this.seenNode.get(pod);
      if (seen === node && this.seenTolerations.get(pod) === pod.spec.tolerations) return;
      this.seenNode.set(pod, node);
      this.seenTolerations.set(pod, pod.spec.tolerations);
      const bound = node ? cluster.store.get("Node", node) : undefined;
      if (!bound?.spec.taints?.length) return;
      const taints = noExecute(bound);
      if (taints.length > 0) this.processPodOnNode(pod, bound, taints);
    });
  }

  private handleNodeUpdate(node: Node, taints: Taint[]): void {
    // No taint left and no eviction scheduled: nothing to cancel (a node's first sight, mostly).
    if (taints.length === 0 && this.evictions.size === 0) return;
    const pods = this.cluster.store.podsOnNode(node.metadata.name);
    if (taints.length === 0) {
      for (const pod of pods) this.cancel(pod.metadata.uid!, true);
      return;
    }
    for (const pod of pods) this.processPodOnNode(pod, node, taints);
  }

  /** processPodOnNode: the smallest matching tolerationSeconds, counted from now; timers never extended. */
  private processPodOnNode(pod: Pod, _node: Node, taints: Taint[]): void {
    if (pod.metadata.deletionTimestamp !== undefined) return;
    const uid = pod.metadata.uid!;
    const now = this.cluster.engine.now;
    const tolerations = pod.spec.tolerations ?? [];
    const used = matchingTolerations(taints, tolerations);
    const on = { by: "taint-eviction-controller", taints: taints.map(taintString) } as const;
    if (!used) {
      this.cancel(uid);
      const untolerated = taints.filter((t) => !matchingTolerations([t], tolerations)).map(taintString);
      this.schedule(pod, now, now, { ...on, tolerated: false, untolerated });
      return;
    }
    const min = minTolerationSeconds(used);
    if (min < 0) {
      this.cancel(uid);
      return;
    }
    const cause: TaintEvictionCause = {
      ...on,
      tolerated: true,
      tolerationSeconds: min,
      admissionDefault: used.some((t) => t.tolerationSeconds === min && addedByAdmission(t)),
      createdAt: now,
    };
    const existing = this.evictions.get(uid);
    if (existing) {
      // "if C + min < triggerTime" (any earlier creation): the running timer stays as it is.
      if (existing.createdAt < now) return;
      this.cancel(uid);
      this.schedule(pod, existing.createdAt, now + min, cause);
      return;
    }
    this.schedule(pod, now, now + min, cause);
  }

  /**
   * The timers just set on `node`'s pods by NoExecute taints added before now (a cluster dump's, set
   * at t=0): a controller that was running when they were added started them then (processPodOnNode's
   * startTime is the time it saw the taint), so they count from the earliest timeAdded.
   */
  countFromTimeAdded(node: Node): void {
    const now = this.cluster.engine.now;
    const added = noExecute(node).flatMap((t) => (t.timeAdded === undefined ? [] : [t.timeAdded]));
    if (added.length === 0) return;
    const since = Math.min(...added);
    if (since >= now) return;
    for (const pod of this.cluster.store.podsOnNode(node.metadata.name)) {
      const e = this.evictions.get(pod.metadata.uid!);
      if (!e || e.createdAt !== now) continue;
      this.cancel(pod.metadata.uid!);
      const cause = e.cause.tolerated ? { ...e.cause, createdAt: since } : e.cause;
      this.schedule(pod, since, Math.max(now, since + (e.fireAt - e.createdAt)), cause);
    }
  }

  private schedule(pod: Pod, createdAt: number, fireAt: number, cause: TaintEvictionCause): void {
    const uid = pod.metadata.uid!;
    const timer = this.cluster.engine.at(fireAt, () => this.evict(pod, cause));
    this.evictions.set(uid, { pod, createdAt, fireAt, timer, cause });
  }

  /** Cancel a pod's scheduled eviction; `record`: with the "Cancelling deletion" event (no NoExecute taint left). */
  private cancel(uid: string, record = false): void {
    const e = this.evictions.get(uid);
    if (!e) return;
    this.cluster.engine.cancel(e.timer);
    this.evictions.delete(uid);
    if (!record) return;
    const pod = e.pod;
    if (!this.cluster.store.exists(pod)) return;
    this.cluster.trace.emit({
      type: "EvictionCancelled",
      lane: "control-plane",
      object: `Pod/${pod.metadata.namespace}/${pod.metadata.name}`,
      ...(pod.spec.nodeName ? { node: pod.spec.nodeName } : {}),
      by: "taint-eviction-controller",
    });
  }

  /** Firing: DisruptionTarget condition, then a graceful delete (event TaintManagerEviction). */
  private evict(pod: Pod, cause: TaintEvictionCause): void {
    this.evictions.delete(pod.metadata.uid!);
    if (!this.cluster.store.exists(pod)) return;
    setPodCondition(
      this.cluster,
      pod,
      "DisruptionTarget",
      "True",
      "DeletionByTaintManager",
      "Taint manager: deleting due to NoExecute taint",
    );
    deletePodGracefully(this.cluster, pod, {
      reason: "DeletionByTaintManager",
      lane: "control-plane",
      ...cause,
    });
  }
}

function noExecute(node: Node): Taint[] {
  return (node.spec.taints ?? []).filter((t) => t.effect === "NoExecute");
}
