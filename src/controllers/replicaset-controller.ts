// The Deployment and ReplicaSet controllers (pkg/controller/deployment, pkg/controller/replicaset):
// a Deployment owns one ReplicaSet named <deployment>-<pod-template-hash>; the ReplicaSet keeps
// spec.replicas *active* pods (manageReplicas in replica_set.go counts FilterActivePods,
// pkg/controller/controller_utils.go), so a pod with a deletionTimestamp is replaced at once.

import { createPod, deletePodGracefully } from "../cluster/api.ts";
import type { Cluster } from "../cluster/context.ts";
import { BySerial, controllerOf } from "../cluster/store.ts";
import { podTemplateHash } from "../kubernetes/names.ts";
import type { Deployment, Pod, PodTemplateSpec, ReplicaSet } from "../kubernetes/objects.ts";
import { generatePodName, isActive, podFromTemplate } from "./pod-template.ts";
import { WorkQueue } from "./work-queue.ts";

export class ReplicaSetController {
  private readonly queue: WorkQueue;
  /** Whether each pod was active at its last watch event (by the store's serial number, not a map by uid). */
  private readonly wasActive: BySerial<boolean>;

  constructor(private readonly cluster: Cluster) {
    this.queue = new WorkQueue(cluster.engine, (key) => this.sync(key));
    this.wasActive = new BySerial(cluster.store);
    cluster.store.watch("Pod", (type, pod) => {
      const owner = controllerOf(pod);
      if (!owner?.startsWith("ReplicaSet/")) return;
      // Only what changes the count of active pods matters to a ReplicaSet.
      const active = type !== "DELETED" && isActive(pod);
      if (type === "DELETED") this.wasActive.set(pod, undefined);
      else if (this.wasActive.get(pod) === active) return;
      else this.wasActive.set(pod, active);
      this.queue.add(owner.slice("ReplicaSet/".length));
    });
    cluster.store.watch("ReplicaSet", (type, rs) => {
      if (type !== "DELETED") this.queue.add(`${rs.metadata.namespace}/${rs.metadata.name}`);
    });
    cluster.store.watch("Deployment", (type, d) => {
      if (type !== "DELETED") this.syncDeployment(d);
    });
  }

  /**
   * The Deployment controller's part: make sure the ReplicaSet for the current template exists. An
   * existing one the Deployment owns with the same template is its new ReplicaSet whatever its name
   * (FindNewReplicaSet, pkg/controller/deployment/util/deployment_util.go: the oldest whose template
   * is EqualIgnoreHash): a cluster dump's, named with the cluster's own pod-template-hash.
   */
  syncDeployment(d: Deployment): ReplicaSet {
    const hash = podTemplateHash(d.spec.template);
    const name = `${d.metadata.name}-${hash}`;
    const existing =
      this.cluster.store.get("ReplicaSet", `${d.metadata.namespace}/${name}`) ?? this.ownedWithTemplate(d);
    if (existing) return existing;
    const labels = { ...(d.spec.template.metadata?.labels ?? {}), "pod-template-hash": hash };
    return this.cluster.store.create<ReplicaSet>({
      kind: "ReplicaSet",
      metadata: {
        name,
        namespace: d.metadata.namespace,
        labels,
        ownerReferences: [{ kind: "Deployment", name: d.metadata.name, controller: true }],
        creationTimestamp: this.cluster.engine.now,
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

  private ownedWithTemplate(d: Deployment): ReplicaSet | undefined {
    const template = templateIgnoringHash(d.spec.template);
    return this.cluster.store
      .list("ReplicaSet")
      .filter(
        (rs) =>
          rs.metadata.namespace === d.metadata.namespace &&
          rs.metadata.ownerReferences?.some(
            (o) => o.kind === "Deployment" && o.name === d.metadata.name && o.controller !== false,
          ) &&
          templateIgnoringHash(rs.spec.template) === template,
      )
      .sort((a, b) => (a.metadata.creationTimestamp ?? 0) - (b.metadata.creationTimestamp ?? 0))[0];
  }

  private sync(key: string): void {
    const rs = this.cluster.store.get("ReplicaSet", key);
    if (!rs) return;
    const pods = this.cluster.store.podSetOwnedBy(`ReplicaSet/${key}`);
    // Counted without a list: the active pods themselves are needed only to scale down.
    let activeCount = 0;
    let failed = 0;
    for (const pod of pods)
      if (isActive(pod)) activeCount++;
      else if (pod.status.phase === "Failed" || pod.status.phase === "Succeeded") failed++;
    const diff = rs.spec.replicas - activeCount;
    for (let i = 0; i < diff; i++) {
      const terminating = pods.size - activeCount - failed;
      createPod(
        this.cluster,
        podFromTemplate(
          this.cluster,
          rs.spec.template,
          rs.metadata.namespace,
          generatePodName(this.cluster, rs.metadata.namespace, rs.metadata.name),
          {
            kind: "ReplicaSet",
            name: rs.metadata.name,
          },
        ),
        {
          by: "replicaset-controller",
          replicaSet: rs.metadata.name,
          replicas: rs.spec.replicas,
          active: activeCount,
          terminating,
          ...(failed > 0 ? { failed } : {}),
        },
      );
    }
    // Scaling down picks the pods least far along (unscheduled, not ready, newest): getPodsToDelete.
    if (diff < 0) {
      const victims = [...pods]
        .filter(isActive)
        .sort(
          (a, b) =>
            rank(a) - rank(b) || (b.metadata.creationTimestamp ?? 0) - (a.metadata.creationTimestamp ?? 0),
        )
        .slice(0, -diff);
      for (const pod of victims)
        deletePodGracefully(this.cluster, pod, {
          reason: "ScaleDown",
          lane: "control-plane",
          by: "replicaset-controller",
          replicaSet: rs.metadata.name,
          replicas: rs.spec.replicas,
          active: activeCount,
        });
    }
  }
}

/** How far along a pod is (getPodsToDelete's ranking, simplified): unscheduled < not running < not ready < ready. */
function rank(pod: Pod): number {
  if (!pod.spec.nodeName) return 0;
  if (pod.status.phase !== "Running") return 1;
  return pod.status.conditions.some((c) => c.type === "Ready" && c.status === "True") ? 3 : 2;
}

/** A pod template without its pod-template-hash label, as canonical JSON (EqualIgnoreHash). */
function templateIgnoringHash(t: PodTemplateSpec): string {
  const { "pod-template-hash": _, ...labels } = t.metadata?.labels ?? {};
  return canonical({ ...t.metadata, labels, spec: t.spec });
}

/** JSON with every mapping's keys sorted: equal values give equal text. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object")
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(v);
}
