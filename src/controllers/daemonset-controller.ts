// The DaemonSet controller (pkg/controller/daemon/daemon_controller.go): one pod on every node the
// pod can run on. Its pods carry AddOrUpdateDaemonPodTolerations, so the not-ready and unreachable
// taints never evict them (kubernetes.md §4.2).

import { createPod } from "../cluster/api.ts";
import type { Context } from "../cluster/context.ts";
import { controllerOf } from "../cluster/store.ts";
import { daemonSetTolerations } from "../kubernetes/admission.ts";
import type { DaemonSet, Node } from "../kubernetes/objects.ts";
import { toleratesAll } from "../kubernetes/taints.ts";
import { generatePodName, isActive, podFromTemplate } from "./pod-template.ts";
import { bindPod } from "./scheduler.ts";
import { WorkQueue } from "./work-queue.ts";

export class DaemonSetController {
  private readonly queue: WorkQueue;

  constructor(private readonly ctx: Context) {
    this.queue = new WorkQueue(ctx.engine, (key) => this.sync(key));
    ctx.store.watch("Pod", (_type, pod) => {
      const owner = controllerOf(pod);
      if (owner?.startsWith("DaemonSet/")) this.queue.add(owner.slice("DaemonSet/".length));
    });
    ctx.store.watch("DaemonSet", (type, ds) => {
      if (type !== "DELETED") this.queue.add(`${ds.metadata.namespace}/${ds.metadata.name}`);
    });
    ctx.store.watch("Node", (type) => {
      if (type === "ADDED")
        for (const ds of ctx.store.list("DaemonSet"))
          this.queue.add(`${ds.metadata.namespace}/${ds.metadata.name}`);
    });
  }

  private sync(key: string): void {
    const ds = this.ctx.store.get("DaemonSet", key);
    if (!ds) return;
    const pods = this.ctx.store.podsOwnedBy(`DaemonSet/${key}`).filter(isActive);
    for (const node of this.ctx.store.list("Node")) {
      if (!shouldRunOn(ds, node)) continue;
      if (pods.some((p) => p.spec.nodeName === node.metadata.name)) continue;
      const pod = podFromTemplate(
        this.ctx,
        withTolerations(ds),
        ds.metadata.namespace,
        generatePodName(this.ctx, ds.metadata.namespace, ds.metadata.name),
        {
          kind: "DaemonSet",
          name: ds.metadata.name,
        },
      );
      createPod(
        this.ctx,
        pod,
        `DaemonSet ${ds.metadata.name} runs one pod on every eligible node and ${node.metadata.name} has none`,
      );
      bindPod(
        this.ctx,
        pod,
        node.metadata.name,
        `DaemonSet pods are placed on their node through node affinity (metadata.name=${node.metadata.name})`,
      );
    }
  }
}

export function withTolerations(ds: DaemonSet) {
  const spec = ds.spec.template.spec;
  return {
    ...ds.spec.template,
    spec: {
      ...spec,
      tolerations: [...(spec.tolerations ?? []), ...daemonSetTolerations(spec.hostNetwork ?? false)],
    },
  };
}

/** NodeShouldRunDaemonPod: node selector and taints (NoSchedule and NoExecute) against the pod's tolerations. */
export function shouldRunOn(ds: DaemonSet, node: Node): boolean {
  const spec = withTolerations(ds).spec;
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {}))
    if (node.metadata.labels?.[k] !== v) return false;
  return toleratesAll(node.spec.taints, spec.tolerations, ["NoSchedule", "NoExecute"]);
}
