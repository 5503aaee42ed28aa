// The StatefulSet controller (pkg/controller/statefulset/stateful_set_control.go): one pod per
// ordinal, named <set>-<ordinal>, each with its own PersistentVolumeClaims from the
// volumeClaimTemplates (newStatefulSetPod, updateStorage in stateful_set_utils.go). At most one pod
// per identity: a replacement is created only once the old pod object is gone (the docs' "at most
// one Pod with a given identity", tasks/run-application/force-delete-stateful-set-pod.md).
//
// Rolling updates (updateStatefulSet, after every replica is processed: in OrderedReady mode only
// once all are Running and Ready): a pod whose revision is not the set's newest is deleted, from
// the highest ordinal down to `partition`, and re-created at the new revision once it is gone.
// - MaxUnavailableStatefulSet off: one at a time; the walk stops at the first pod not Running and
//   Ready ("StatefulSet is waiting for Pod to update").
// - on (updateStatefulSetAfterInvariantEstablished): every unavailable pod of the set counts against
//   maxUnavailable (getStatefulSetMaxUnavailable: the value or percentage of replicas rounded down,
//   at least 1); more unavailable than that, nothing is deleted; else up to maxUnavailable − unavailable.
//   That unavailable old pods count is the 1.35 regression of Parallel sets (#137409); 1.37's fix
//   (#137666) is not modelled.
// A revision is the template as written, changed only by kubectl rollout restart (the timeline's
// rollout-restart: its kubectl.kubernetes.io/restartedAt annotation names the revision). A node loss alone changes no revision: maxUnavailable changes nothing there.

import { createPod, deletePodGracefully, podReady } from "../cluster/api.ts";
import type { Cluster } from "../cluster/context.ts";
import { controllerOf } from "../cluster/store.ts";
import type { PersistentVolumeClaim, Pod, StatefulSet, Volume } from "../kubernetes/objects.ts";
import { podFromTemplate } from "./pod-template.ts";
import { WorkQueue } from "./work-queue.ts";

export class StatefulSetController {
  private readonly queue: WorkQueue;
  /** The identities (`<ns>/<pod>`) this controller has created a pod for. */
  private created = new Set<string>();
  /** Each set's template (its restartedAt annotation) as last seen and its revision (0: the start's). */
  private revisions = new Map<string, { template: string; revision: number }>();
  /** The revision each pod was created at (a pod the run did not create: 0). */
  private podRevision = new Map<string, number>();
  /** The last StatefulSetUpdateWaiting told per set, so that each state is told once. */
  private waiting = new Map<string, string>();

  constructor(
    private readonly cluster: Cluster,
    private readonly options: { maxUnavailableStatefulSet: boolean } = { maxUnavailableStatefulSet: false },
  ) {
    this.queue = new WorkQueue(cluster.engine, (key) => this.sync(key));
    cluster.store.watch("Pod", (_type, pod) => {
      const owner = controllerOf(pod);
      if (owner?.startsWith("StatefulSet/")) this.queue.add(owner.slice("StatefulSet/".length));
    });
    cluster.store.watch("StatefulSet", (type, sts) => {
      if (type !== "DELETED") this.queue.add(`${sts.metadata.namespace}/${sts.metadata.name}`);
    });
  }

  private sync(key: string): void {
    const sts = this.cluster.store.get("StatefulSet", key);
    if (!sts) return;
    const ns = sts.metadata.namespace;
    const revision = this.revisionOf(key, sts);
    // podManagementPolicy OrderedReady (the default) is "monotonic": it waits on each ordinal.
    const monotonic = (sts.spec.podManagementPolicy ?? "OrderedReady") === "OrderedReady";
    for (let i = 0; i < sts.spec.replicas; i++) {
      const name = `${sts.metadata.name}-${i}`;
      const pod = this.cluster.store.get("Pod", `${ns}/${name}`);
      if (!pod) {
        this.ensureClaims(sts, i);
        const created = podFromTemplate(
          this.cluster,
          sts.spec.template,
          ns,
          name,
          { kind: "StatefulSet", name: sts.metadata.name },
          {
            "statefulset.kubernetes.io/pod-name": name,
            "apps.kubernetes.io/pod-index": String(i),
          },
        );
        created.spec.hostname = name;
        if (sts.spec.serviceName) created.spec.subdomain = sts.spec.serviceName;
        created.spec.volumes = withClaims(sts, created.spec.volumes, i);
        this.podRevision.set(`${ns}/${name}`, revision);
        createPod(this.cluster, created, {
          by: "statefulset-controller",
          statefulSet: sts.metadata.name,
          ordinal: i,
          recreated: this.created.has(`${ns}/${name}`),
        });
        this.created.add(`${ns}/${name}`);
        if (monotonic) return;
        continue;
      }
      if (!monotonic) continue;
      if (pod.metadata.deletionTimestamp !== undefined) return;
      if (pod.status.phase !== "Running" || !podReady(pod)) return;
    }
    if (sts.spec.updateStrategy?.type !== "OnDelete") this.rollingUpdate(key, sts, revision);
  }

  private revisionOf(key: string, sts: StatefulSet): number {
    // The only template change a run makes is rollout-restart's annotation: it names the revision.
    const template = sts.spec.template.metadata?.annotations?.["kubectl.kubernetes.io/restartedAt"] ?? "";
    const seen = this.revisions.get(key);
    const revision = seen === undefined ? 0 : seen.template === template ? seen.revision : seen.revision + 1;
    this.revisions.set(key, { template, revision });
    return revision;
  }

  /** One rolling update pass (updateStatefulSet's tail); the rules are in the header. */
  private rollingUpdate(key: string, sts: StatefulSet, revision: number): void {
    const ns = sts.metadata.namespace;
    const n = sts.spec.replicas;
    const pods = Array.from({ length: n }, (_, i) =>
      this.cluster.store.get("Pod", `${ns}/${sts.metadata.name}-${i}`),
    );
    const partition = sts.spec.updateStrategy?.rollingUpdate?.partition ?? 0;
    const old = (p: Pod | undefined): p is Pod =>
      p !== undefined &&
      (this.podRevision.get(`${ns}/${p.metadata.name}`) ?? 0) !== revision &&
      p.metadata.deletionTimestamp === undefined;
    if (!pods.some((p, i) => i >= partition && old(p))) {
      this.waiting.delete(key);
      return;
    }
    const unavailableOf = (p: Pod | undefined) =>
      p === undefined || p.status.phase !== "Running" || !podReady(p);
    const unavailable = pods.filter(unavailableOf).length;
    const gate = this.options.maxUnavailableStatefulSet;
    const maxUnavailable = gate
      ? maxUnavailableOf(sts.spec.updateStrategy?.rollingUpdate?.maxUnavailable, n)
      : 1;
    const budget = { maxUnavailableGate: gate, maxUnavailable, unavailable };
    const remove = (pod: Pod) => {
      this.waiting.delete(key);
      deletePodGracefully(this.cluster, pod, {
        reason: "SuccessfulDelete",
        lane: "control-plane",
        by: "statefulset-controller",
        statefulSet: sts.metadata.name,
        revision,
        ...budget,
      });
    };
    if (gate) {
      let room = maxUnavailable - unavailable;
      if (room <= 0) {
        this.wait(key, sts, revision, budget);
        return;
      }
      for (let i = n - 1; i >= partition && room > 0; i--) {
        const pod = pods[i];
        if (!old(pod)) continue;
        remove(pod);
        room--;
      }
      return;
    }
    for (let i = n - 1; i >= partition; i--) {
      const pod = pods[i];
      if (old(pod)) {
        remove(pod);
        return;
      }
      if (unavailableOf(pod)) {
        this.wait(key, sts, revision, budget, `${ns}/${sts.metadata.name}-${i}`);
        return;
      }
    }
  }

  /** StatefulSetUpdateWaiting, once per state of the set's update. */
  private wait(
    key: string,
    sts: StatefulSet,
    revision: number,
    budget: { maxUnavailableGate: boolean; maxUnavailable: number; unavailable: number },
    waitingFor?: string,
  ): void {
    const state = `${revision} ${budget.unavailable} ${waitingFor ?? ""}`;
    if (this.waiting.get(key) === state || this.cluster.trace.muted) return;
    this.waiting.set(key, state);
    this.cluster.trace.emit({
      type: "StatefulSetUpdateWaiting",
      lane: "control-plane",
      object: `StatefulSet/${key}`,
      statefulSet: sts.metadata.name,
      revision,
      ...budget,
      ...(waitingFor ? { waitingFor } : {}),
    });
  }

  private ensureClaims(sts: StatefulSet, ordinal: number): void {
    for (const t of sts.spec.volumeClaimTemplates ?? []) {
      const name = claimName(t.metadata.name, sts.metadata.name, ordinal);
      if (this.cluster.store.get("PersistentVolumeClaim", `${sts.metadata.namespace}/${name}`)) continue;
      this.cluster.store.create<PersistentVolumeClaim>({
        kind: "PersistentVolumeClaim",
        metadata: {
          name,
          namespace: sts.metadata.namespace,
          creationTimestamp: this.cluster.engine.now,
          ...(t.metadata.annotations ? { annotations: { ...t.metadata.annotations } } : {}),
        },
        // getPersistentVolumeClaims (stateful_set_utils.go): the template's metadata (annotations, such
        // as the beta storage-class one) and spec, class and request included.
        spec: { ...t.spec, accessModes: t.spec.accessModes ?? ["ReadWriteOnce"] },
      });
    }
  }
}

/**
 * updateStorage (stateful_set_utils.go): the pod's volumes with one claim per volumeClaimTemplate,
 * `<template>-<set>-<ordinal>`; a template volume named like a claim template is replaced by the claim.
 */
function withClaims(sts: StatefulSet, volumes: Volume[] | undefined, ordinal: number): Volume[] {
  const templates = (sts.spec.volumeClaimTemplates ?? []).map((t) => t.metadata.name);
  return [
    ...(volumes ?? []).filter((v) => !templates.includes(v.name)),
    ...templates.map((t) => ({
      name: t,
      persistentVolumeClaim: { claimName: claimName(t, sts.metadata.name, ordinal) },
    })),
  ];
}

/** <template>-<statefulset>-<ordinal> (getPersistentVolumeClaimName, stateful_set_utils.go). */
export function claimName(template: string, set: string, ordinal: number): string {
  return `${template}-${set}-${ordinal}`;
}

/**
 * getStatefulSetMaxUnavailable (stateful_set_utils.go): maxUnavailable (default 1) scaled against
 * the replicas, a percentage rounded down, and at least 1.
 */
function maxUnavailableOf(v: number | string | undefined, replicas: number): number {
  const n = typeof v === "string" ? Math.floor((Number.parseInt(v, 10) * replicas) / 100) : (v ?? 1);
  return Math.max(1, n);
}
