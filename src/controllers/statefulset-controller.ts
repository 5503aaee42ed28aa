// The StatefulSet controller (pkg/controller/statefulset/stateful_set_control.go): one pod per
// ordinal, named <set>-<ordinal>, each with its own PersistentVolumeClaims from the
// volumeClaimTemplates (newStatefulSetPod, updateStorage in stateful_set_utils.go). At most one pod
// per identity: a replacement is created only once the old pod object is gone (the docs' "at most
// one Pod with a given identity", tasks/run-application/force-delete-stateful-set-pod.md).

import { createPod, podReady } from "../cluster/api.ts";
import type { Cluster } from "../cluster/context.ts";
import { controllerOf } from "../cluster/store.ts";
import type { PersistentVolumeClaim, StatefulSet, Volume } from "../kubernetes/objects.ts";
import { podFromTemplate } from "./pod-template.ts";
import { WorkQueue } from "./work-queue.ts";

export class StatefulSetController {
  private readonly queue: WorkQueue;
  /** The identities (`<ns>/<pod>`) this controller has created a pod for. */
  private created = new Set<string>();

  constructor(private readonly cluster: Cluster) {
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
