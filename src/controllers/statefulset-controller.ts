// The StatefulSet controller (pkg/controller/statefulset/stateful_set_control.go): one pod per
// ordinal, named <set>-<ordinal>, each with its own PersistentVolumeClaims from the
// volumeClaimTemplates. At most one pod per identity: a replacement is created only once the old
// pod object is gone (docs tasks/run-application/force-delete-stateful-set-pod.md).

import { createPod, podReady } from "../cluster/api.ts";
import type { Context } from "../cluster/context.ts";
import { controllerOf } from "../cluster/store.ts";
import type { PersistentVolumeClaim, StatefulSet } from "../kubernetes/objects.ts";
import { podFromTemplate } from "./pod-template.ts";
import { WorkQueue } from "./work-queue.ts";

export class StatefulSetController {
  private readonly queue: WorkQueue;

  constructor(private readonly ctx: Context) {
    this.queue = new WorkQueue(ctx.engine, (key) => this.sync(key));
    ctx.store.watch("Pod", (_type, pod) => {
      const owner = controllerOf(pod);
      if (owner?.startsWith("StatefulSet/")) this.queue.add(owner.slice("StatefulSet/".length));
    });
    ctx.store.watch("StatefulSet", (type, sts) => {
      if (type !== "DELETED") this.queue.add(`${sts.metadata.namespace}/${sts.metadata.name}`);
    });
  }

  private sync(key: string): void {
    const sts = this.ctx.store.get("StatefulSet", key);
    if (!sts) return;
    const ns = sts.metadata.namespace;
    // podManagementPolicy OrderedReady (the default) is "monotonic": it waits on each ordinal.
    const monotonic = (sts.spec.podManagementPolicy ?? "OrderedReady") === "OrderedReady";
    for (let i = 0; i < sts.spec.replicas; i++) {
      const name = `${sts.metadata.name}-${i}`;
      const pod = this.ctx.store.get("Pod", `${ns}/${name}`);
      if (!pod) {
        this.ensureClaims(sts, i);
        const created = podFromTemplate(
          this.ctx,
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
        created.spec.volumes = [
          ...(created.spec.volumes ?? []),
          ...(sts.spec.volumeClaimTemplates ?? []).map((t) => ({
            name: t.metadata.name,
            persistentVolumeClaim: { claimName: claimName(t.metadata.name, sts.metadata.name, i) },
          })),
        ];
        createPod(
          this.ctx,
          created,
          `StatefulSet ${sts.metadata.name} has no pod object named ${name}: the identity is free, so it creates one` +
            (this.ctx.engine.now > 0
              ? " (it waited while the old pod object existed: at most one pod per identity)"
              : ""),
        );
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
      if (this.ctx.store.get("PersistentVolumeClaim", `${sts.metadata.namespace}/${name}`)) continue;
      this.ctx.store.create<PersistentVolumeClaim>({
        kind: "PersistentVolumeClaim",
        metadata: { name, namespace: sts.metadata.namespace, creationTimestamp: this.ctx.engine.now },
        spec: { accessModes: t.spec.accessModes ?? ["ReadWriteOnce"] },
      });
    }
  }
}

/** <template>-<statefulset>-<ordinal> (getPersistentVolumeClaimName, stateful_set_utils.go). */
export function claimName(template: string, set: string, ordinal: number): string {
  return `${template}-${set}-${ordinal}`;
}
