// The pod garbage collector (pkg/controller/podgc/gc_controller.go): every gcCheckPeriod (20s) it
// force-deletes terminating pods on NotReady nodes with the out-of-service taint (gcTerminating),
// and pods bound to nodes that no longer exist once the node has been gone the 40s quarantine
// (gcOrphaned). kubernetes.md §9.

import { removePod, setPodCondition } from "../cluster/api.ts";
import type { Context } from "../cluster/context.ts";
import { PODGC_CHECK_PERIOD, PODGC_QUARANTINE } from "../kubernetes/defaults.ts";
import { TAINT_OUT_OF_SERVICE } from "../kubernetes/taints.ts";

export class PodGCController {
  /** Nodes seen missing, and when: the quarantine's nodeQueue.AddAfter(nodeName, 40s). */
  private missingSince = new Map<string, number>();

  constructor(private readonly ctx: Context) {
    const phase = ctx.engine.rng.fork("podgc").uniform(0, PODGC_CHECK_PERIOD);
    ctx.engine.at(phase, () => this.gc());
  }

  private gc(): void {
    this.gcTerminating();
    this.gcOrphaned();
    this.ctx.engine.after(PODGC_CHECK_PERIOD, () => this.gc());
  }

  private gcTerminating(): void {
    for (const node of this.ctx.store.list("Node")) {
      if (!(node.spec.taints ?? []).some((t) => t.key === TAINT_OUT_OF_SERVICE)) continue;
      if (node.status.conditions.find((c) => c.type === "Ready")?.status === "True") continue;
      for (const pod of this.ctx.store.podsOnNode(node.metadata.name)) {
        if (pod.metadata.deletionTimestamp === undefined) continue;
        this.forceDelete(
          pod,
          `PodGC force-deletes ${pod.metadata.name}: it is terminating on ${node.metadata.name}, which is not Ready and has the ${TAINT_OUT_OF_SERVICE} taint`,
          `gcTerminating, in PodGC's pass every gcCheckPeriod=${PODGC_CHECK_PERIOD}s (non-graceful node shutdown)`,
        );
      }
    }
  }

  private gcOrphaned(): void {
    const now = this.ctx.engine.now;
    // The pod index by node, not a scan of every pod: cost follows the nodes, not the pods.
    for (const name of this.ctx.store.nodesWithPods()) {
      if (this.ctx.store.get("Node", name)) {
        this.missingSince.delete(name);
        continue;
      }
      const since = this.missingSince.get(name);
      if (since === undefined) {
        this.missingSince.set(name, now);
        continue;
      }
      if (now - since < PODGC_QUARANTINE) continue;
      for (const pod of this.ctx.store.podsOnNode(name)) {
        setPodCondition(
          this.ctx,
          pod,
          "DisruptionTarget",
          "True",
          "DeletionByPodGC",
          "PodGC: node no longer exists",
        );
        this.forceDelete(
          pod,
          `PodGC deletes ${pod.metadata.name}: "PodGC: node no longer exists" (${name})`,
          `gcOrphaned: node ${name} has been gone for the quarantine of ${PODGC_QUARANTINE}s, checked every gcCheckPeriod=${PODGC_CHECK_PERIOD}s`,
        );
      }
      this.missingSince.delete(name);
    }
  }

  /** markFailedAndDeletePod: phase Failed if not terminal, then delete with grace period 0. */
  private forceDelete(pod: import("../kubernetes/objects.ts").Pod, message: string, why: string): void {
    if (pod.status.phase !== "Succeeded" && pod.status.phase !== "Failed") pod.status.phase = "Failed";
    removePod(this.ctx, pod, { force: true, lane: "control-plane", message, why });
  }
}
