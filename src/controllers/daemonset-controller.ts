// The DaemonSet controller (pkg/controller/daemon/daemon_controller.go): one pod on every node the
// pod can run on (NodeShouldRunDaemonPod). Its pods carry AddOrUpdateDaemonPodTolerations
// (pkg/controller/daemon/util/daemonset_util.go), so the not-ready and unreachable taints never
// evict them.

import { createPod } from "../cluster/api.ts";
import type { Cluster } from "../cluster/context.ts";
import { controllerOf } from "../cluster/store.ts";
import { daemonSetTolerations } from "../kubernetes/admission.ts";
import type { DaemonSet, Node } from "../kubernetes/objects.ts";
import { toleratesAll } from "../kubernetes/taints.ts";
import { bindPod } from "../scheduler/scheduler.ts";
import { generatePodName, isActive, podFromTemplate } from "./pod-template.ts";
import { WorkQueue } from "./work-queue.ts";

export class DaemonSetController {
  private readonly queue: WorkQueue;

  constructor(private readonly cluster: Cluster) {
    this.queue = new WorkQueue(cluster.engine, (key) => this.sync(key));
    cluster.store.watch("Pod", (_type, pod) => {
      const owner = controllerOf(pod);
      if (owner?.startsWith("DaemonSet/")) this.queue.add(owner.slice("DaemonSet/".length));
    });
    cluster.store.watch("DaemonSet", (type, ds) => {
      if (type !== "DELETED") this.queue.add(`${ds.metadata.namespace}/${ds.metadata.name}`);
    });
    cluster.store.watch("Node", (type) => {
      if (type === "ADDED")
        for (const ds of cluster.store.list("DaemonSet"))
          this.queue.add(`${ds.metadata.namespace}/${ds.metadata.name}`);
    });
  }

  private sync(key: string): void {
    const ds = this.cluster.store.get("DaemonSet", key);
    if (!ds) return;
    // The nodes with an active pod of the DaemonSet, a set: a search per node was quadratic.
    const covered = new Set<string | undefined>();
    for (const p of this.cluster.store.podSetOwnedBy(`DaemonSet/${key}`))
      if (isActive(p)) covered.add(p.spec.nodeName);
    // One template for the pods of this pass: podFromTemplate shares its frozen parts among them
    // (a template per pod made each pod's labels, ownerReferences and tolerations anew).
    const template = withTolerations(ds);
    const spec = template.spec;
    for (const node of this.cluster.store.list("Node")) {
      if (covered.has(node.metadata.name) || !shouldRunOn(spec, node)) continue;
      const pod = podFromTemplate(
        this.cluster,
        template,
        ds.metadata.namespace,
        generatePodName(this.cluster, ds.metadata.namespace, ds.metadata.name),
        {
          kind: "DaemonSet",
          name: ds.metadata.name,
        },
      );
      createPod(this.cluster, pod, {
        by: "daemonset-controller",
        daemonSet: ds.metadata.name,
        forNode: node.metadata.name,
      });
      // Before ScheduleDaemonSetPods (1.12) the controller bound its pods itself; since, it pins them
      // with node affinity (metadata.name) and the scheduler binds them. The model binds at once; the
      // reason is still prose until the scheduler's events are data.
      bindPod(
        this.cluster,
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
function shouldRunOn(spec: ReturnType<typeof withTolerations>["spec"], node: Node): boolean {
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {}))
    if (node.metadata.labels?.[k] !== v) return false;
  return toleratesAll(node.spec.taints, spec.tolerations, ["NoSchedule", "NoExecute"]);
}
