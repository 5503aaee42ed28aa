// The Deployment and ReplicaSet controllers (pkg/controller/deployment, pkg/controller/replicaset):
// a Deployment owns one ReplicaSet named <deployment>-<pod-template-hash>; the ReplicaSet keeps
// spec.replicas *active* pods, so a pod with a deletionTimestamp is replaced at once
// (FilterActivePods, pkg/controller/controller_utils.go; kubernetes.md §10 marks this Uncertain).

import { createPod, deletePodGracefully } from "../cluster/api.ts";
import type { Context } from "../cluster/context.ts";
import { controllerOf } from "../cluster/store.ts";
import { podTemplateHash } from "../kubernetes/names.ts";
import type { Deployment, ReplicaSet } from "../kubernetes/objects.ts";
import { generatePodName, isActive, podFromTemplate } from "./pod-template.ts";
import { WorkQueue } from "./work-queue.ts";

export class ReplicaSetController {
  private readonly queue: WorkQueue;
  private wasActive = new Map<string, boolean>();

  constructor(private readonly ctx: Context) {
    this.queue = new WorkQueue(ctx.engine, (key) => this.sync(key));
    ctx.store.watch("Pod", (type, pod) => {
      const owner = controllerOf(pod);
      if (!owner?.startsWith("ReplicaSet/")) return;
      // Only what changes the count of active pods matters to a ReplicaSet.
      const uid = pod.metadata.uid!;
      const active = type !== "DELETED" && isActive(pod);
      if (type === "DELETED") this.wasActive.delete(uid);
      else if (this.wasActive.get(uid) === active) return;
      else this.wasActive.set(uid, active);
      this.queue.add(owner.slice("ReplicaSet/".length));
    });
    ctx.store.watch("ReplicaSet", (type, rs) => {
      if (type !== "DELETED") this.queue.add(`${rs.metadata.namespace}/${rs.metadata.name}`);
    });
    ctx.store.watch("Deployment", (type, d) => {
      if (type !== "DELETED") this.syncDeployment(d);
    });
  }

  /** The Deployment controller's part: make sure the ReplicaSet for the current template exists. */
  syncDeployment(d: Deployment): ReplicaSet {
    const hash = podTemplateHash(d.spec.template);
    const name = `${d.metadata.name}-${hash}`;
    const existing = this.ctx.store.get("ReplicaSet", `${d.metadata.namespace}/${name}`);
    if (existing) return existing;
    const labels = { ...(d.spec.template.metadata?.labels ?? {}), "pod-template-hash": hash };
    return this.ctx.store.create<ReplicaSet>({
      kind: "ReplicaSet",
      metadata: {
        name,
        namespace: d.metadata.namespace,
        labels,
        ownerReferences: [{ kind: "Deployment", name: d.metadata.name, controller: true }],
        creationTimestamp: this.ctx.engine.now,
      },
      spec: {
        replicas: d.spec.replicas,
        selector: {
          matchLabels: { ...(d.spec.selector.matchLabels ?? {}), "pod-template-hash": hash },
          ...(d.spec.selector.matchExpressions ? { matchExpressions: d.spec.selector.matchExpressions } : {}),
        },
        template: { metadata: { ...d.spec.template.metadata, labels }, spec: d.spec.template.spec },
      },
    });
  }

  private sync(key: string): void {
    const rs = this.ctx.store.get("ReplicaSet", key);
    if (!rs) return;
    const pods = this.ctx.store.podSetOwnedBy(`ReplicaSet/${key}`);
    const active = [...pods].filter(isActive);
    const diff = rs.spec.replicas - active.length;
    for (let i = 0; i < diff; i++) {
      const terminating = pods.size - active.length;
      createPod(
        this.ctx,
        podFromTemplate(
          this.ctx,
          rs.spec.template,
          rs.metadata.namespace,
          generatePodName(this.ctx, rs.metadata.namespace, rs.metadata.name),
          {
            kind: "ReplicaSet",
            name: rs.metadata.name,
          },
        ),
        `ReplicaSet ${rs.metadata.name} wants replicas=${rs.spec.replicas} and counts ${active.length} active pod${active.length === 1 ? "" : "s"}` +
          (terminating > 0
            ? `; a pod with a deletionTimestamp (Terminating) no longer counts, so it is replaced without waiting for it to stop`
            : ""),
      );
    }
    // Scaling down picks the pods least far along (unscheduled, not ready, newest): getPodsToDelete.
    if (diff < 0) {
      const victims = active
        .sort(
          (a, b) =>
            rank(a) - rank(b) || (b.metadata.creationTimestamp ?? 0) - (a.metadata.creationTimestamp ?? 0),
        )
        .slice(0, -diff);
      for (const pod of victims)
        deletePodGracefully(this.ctx, pod, {
          reason: "ScaleDown",
          lane: "control-plane",
          message: `ReplicaSet ${rs.metadata.name} deletes ${pod.metadata.name}`,
          why: `it has ${active.length} active pods and wants ${rs.spec.replicas}`,
        });
    }
  }
}

function rank(pod: import("../kubernetes/objects.ts").Pod): number {
  if (!pod.spec.nodeName) return 0;
  if (pod.status.phase !== "Running") return 1;
  return pod.status.conditions.some((c) => c.type === "Ready" && c.status === "True") ? 3 : 2;
}
