// The taint eviction controller (pkg/controller/tainteviction/taint_eviction.go, timed_workers.go;
// "taint-eviction-controller" since KEP-3902, inside the node lifecycle controller before): evicts
// pods from nodes with NoExecute taints they do not tolerate, or tolerate only for a while.
// Rules: ../shared/reference/kubernetes.md §3.

import { deletePodGracefully, setPodCondition } from "../cluster/api.ts";
import type { Context } from "../cluster/context.ts";
import type { Timer } from "../engine/engine.ts";
import type { Node, Pod, Taint, Toleration } from "../kubernetes/objects.ts";
import { matchingTolerations, minTolerationSeconds, taintString } from "../kubernetes/taints.ts";
import { fmt, round3 } from "../trace/format.ts";

interface ScheduledEviction {
  pod: Pod;
  createdAt: number;
  fireAt: number;
  timer: Timer;
  why: string;
}

export class TaintEvictionController {
  /** Last NoExecute taint set seen per node: node updates matter only when it changes. */
  private seenTaints = new Map<string, string>();
  /** Last tolerations/nodeName seen per pod uid: pod updates matter only when they change. */
  private seenPods = new Map<string, { node: string | undefined; tolerations: Toleration[] | undefined }>();
  private evictions = new Map<string, ScheduledEviction>();

  constructor(private readonly ctx: Context) {
    ctx.store.watch("Node", (type, node) => {
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
    ctx.store.watch("Pod", (type, pod) => {
      const uid = pod.metadata.uid!;
      if (type === "DELETED") {
        this.cancel(uid);
        this.seenPods.delete(uid);
        return;
      }
      // Only a change of nodeName or tolerations matters (the tolerations array is replaced, never edited in place).
      const seen = this.seenPods.get(uid);
      if (seen && seen.node === pod.spec.nodeName && seen.tolerations === pod.spec.tolerations) return;
      this.seenPods.set(uid, { node: pod.spec.nodeName, tolerations: pod.spec.tolerations });
      const node = pod.spec.nodeName ? ctx.store.get("Node", pod.spec.nodeName) : undefined;
      if (!node) return;
      const taints = noExecute(node);
      if (taints.length > 0) this.processPodOnNode(pod, node, taints);
    });
  }

  private handleNodeUpdate(node: Node, taints: Taint[]): void {
    const pods = this.ctx.store.podsOnNode(node.metadata.name);
    if (taints.length === 0) {
      for (const pod of pods)
        this.cancel(pod.metadata.uid!, `no NoExecute taint is left on ${node.metadata.name}`);
      return;
    }
    for (const pod of pods) this.processPodOnNode(pod, node, taints);
  }

  /** processPodOnNode: the smallest matching tolerationSeconds, counted from now; timers never extended. */
  private processPodOnNode(pod: Pod, node: Node, taints: Taint[]): void {
    if (pod.metadata.deletionTimestamp !== undefined) return;
    const uid = pod.metadata.uid!;
    const now = this.ctx.engine.now;
    const used = matchingTolerations(taints, pod.spec.tolerations ?? []);
    const taintList = taints.map(taintString).join(", ");
    if (!used) {
      this.cancel(uid);
      const untolerated = taints
        .filter((t) => !matchingTolerations([t], pod.spec.tolerations ?? []))
        .map(taintString);
      this.schedule(
        pod,
        now,
        now,
        `${node.metadata.name} has ${untolerated.join(", ")}, which ${pod.metadata.name} does not tolerate: evicted at once`,
      );
      return;
    }
    const min = minTolerationSeconds(used);
    if (min < 0) {
      this.cancel(uid);
      return;
    }
    const existing = this.evictions.get(uid);
    if (existing) {
      // "if C + min < triggerTime" (any earlier creation): the running timer stays as it is.
      if (existing.createdAt < now) return;
      this.cancel(uid);
      this.schedule(pod, existing.createdAt, now + min, this.whyTolerated(pod, node, taintList, min));
      return;
    }
    this.schedule(pod, now, now + min, this.whyTolerated(pod, node, taintList, min));
  }

  private whyTolerated(pod: Pod, node: Node, taints: string, min: number): string {
    const defaulted = (pod.spec.tolerations ?? []).some(
      (t) =>
        t.tolerationSeconds === min && t.operator === "Exists" && t.key?.startsWith("node.kubernetes.io/"),
    );
    return (
      `${pod.metadata.name} tolerates ${taints} on ${node.metadata.name} for tolerationSeconds=${fmt(min)}` +
      (defaulted && min === this.ctx.controlPlane.defaultUnreachableTolerationSeconds
        ? ` (added by the DefaultTolerationSeconds admission plugin: default-unreachable-toleration-seconds / default-not-ready-toleration-seconds = ${fmt(min)})`
        : "") +
      `, counted from when the taint eviction controller saw the taint at t=${fmt(round3(this.ctx.engine.now))}s`
    );
  }

  private schedule(pod: Pod, createdAt: number, fireAt: number, why: string): void {
    const uid = pod.metadata.uid!;
    const timer = this.ctx.engine.at(fireAt, () => this.evict(pod, why));
    this.evictions.set(uid, { pod, createdAt, fireAt, timer, why });
  }

  private cancel(uid: string, why?: string): void {
    const e = this.evictions.get(uid);
    if (!e) return;
    this.ctx.engine.cancel(e.timer);
    this.evictions.delete(uid);
    if (!why) return;
    const pod = e.pod;
    if (!this.ctx.store.exists(pod)) return;
    this.ctx.trace.emit({
      type: "EvictionCancelled",
      lane: "control-plane",
      object: `Pod/${pod.metadata.namespace}/${pod.metadata.name}`,
      ...(pod.spec.nodeName ? { node: pod.spec.nodeName } : {}),
      message: `Cancelling deletion of Pod ${pod.metadata.namespace}/${pod.metadata.name}`,
      why,
    });
  }

  /** Firing: DisruptionTarget condition, then a graceful delete (event TaintManagerEviction). */
  private evict(pod: Pod, why: string): void {
    this.evictions.delete(pod.metadata.uid!);
    if (!this.ctx.store.exists(pod)) return;
    setPodCondition(
      this.ctx,
      pod,
      "DisruptionTarget",
      "True",
      "DeletionByTaintManager",
      "Taint manager: deleting due to NoExecute taint",
    );
    deletePodGracefully(this.ctx, pod, {
      reason: "DeletionByTaintManager",
      lane: "control-plane",
      message: `taint eviction controller evicts ${pod.metadata.name}: "Marking for deletion Pod ${pod.metadata.namespace}/${pod.metadata.name}" (TaintManagerEviction)`,
      why,
    });
  }
}

function noExecute(node: Node): Taint[] {
  return (node.spec.taints ?? []).filter((t) => t.effect === "NoExecute");
}
