// The pod garbage collector (pkg/controller/podgc/gc_controller.go): every gcCheckPeriod (20s) it
// force-deletes terminating pods on NotReady nodes with the out-of-service taint (gcTerminating),
// and pods bound to nodes that no longer exist once the node has been gone the 40s quarantine
// (gcOrphaned). gcTerminated (--terminated-pod-gc-threshold) and gcUnscheduledTerminating are not
// modelled: no scenario here makes thousands of terminal pods or unscheduled terminating ones.

import { removePod, setPodCondition } from "../cluster/api.ts";
import type { Cluster } from "../cluster/context.ts";
import { PODGC_CHECK_PERIOD, PODGC_QUARANTINE } from "../kubernetes/defaults.ts";
import type { Pod } from "../kubernetes/objects.ts";
import { TAINT_OUT_OF_SERVICE } from "../kubernetes/taints.ts";
import type { PodRemovalCause } from "../trace/control-plane-events.ts";

/** Off: every pass looks up every node that has pods (the plain path the tests compare the shortcut with). */
export const orphanShortcut = { enabled: true };

export class PodGCController {
  /** Nodes seen missing, and when: the quarantine's nodeQueue.AddAfter(nodeName, 40s). */
  private missingSince = new Map<string, number>();
  /**
   * The store's nodesWithPods() when a pass last found every one of those nodes stored, and the
   * store's Node deletions then: while both are the same and no node is in quarantine, every node
   * with pods is still stored and the pass would only find so again.
   */
  private allStored: { nodes: readonly string[]; deletions: number } | undefined;

  constructor(private readonly cluster: Cluster) {
    const phase = cluster.engine.rng.fork("podgc").uniform(0, PODGC_CHECK_PERIOD);
    cluster.engine.at(phase, () => this.gc());
  }

  private gc(): void {
    this.gcTerminating();
    this.gcOrphaned();
    this.cluster.engine.after(PODGC_CHECK_PERIOD, () => this.gc());
  }

  private gcTerminating(): void {
    for (const node of this.cluster.store.list("Node")) {
      if (!(node.spec.taints ?? []).some((t) => t.key === TAINT_OUT_OF_SERVICE)) continue;
      if (node.status.conditions.find((c) => c.type === "Ready")?.status === "True") continue;
      for (const pod of this.cluster.store.podsOnNode(node.metadata.name)) {
        if (pod.metadata.deletionTimestamp === undefined) continue;
        this.markFailedAndDeletePod(pod, {
          by: "pod-garbage-collector-controller",
          gc: "terminating",
          gcCheckPeriod: PODGC_CHECK_PERIOD,
          taint: TAINT_OUT_OF_SERVICE,
        });
      }
    }
  }

  private gcOrphaned(): void {
    // The pod index by node, not a scan of every pod: cost follows the nodes, not the pods.
    const store = this.cluster.store;
    const nodes = store.nodesWithPods();
    const all = this.allStored;
    if (
      orphanShortcut.enabled &&
      all &&
      all.nodes === nodes &&
      all.deletions === store.nodeDeletions() &&
      this.missingSince.size === 0
    )
      return;
    for (const name of nodes) {
      if (this.cluster.store.get("Node", name)) {
        this.missingSince.delete(name);
        continue;
      }
      const since = this.missingSince.get(name);
      if (since === undefined) {
        this.missingSince.set(name, this.cluster.engine.now);
        continue;
      }
      if (this.cluster.engine.since(since) < PODGC_QUARANTINE) continue;
      for (const pod of this.cluster.store.podsOnNode(name)) {
        setPodCondition(
          this.cluster,
          pod,
          "DisruptionTarget",
          "True",
          "DeletionByPodGC",
          "PodGC: node no longer exists",
        );
        this.markFailedAndDeletePod(pod, {
          by: "pod-garbage-collector-controller",
          gc: "orphaned",
          gcCheckPeriod: PODGC_CHECK_PERIOD,
          quarantine: PODGC_QUARANTINE,
        });
      }
      this.missingSince.delete(name);
    }
    this.allStored = this.missingSince.size === 0 ? { nodes, deletions: store.nodeDeletions() } : undefined;
  }

  /** markFailedAndDeletePod: phase Failed if not terminal, then delete with grace period 0. */
  private markFailedAndDeletePod(pod: Pod, cause: PodRemovalCause): void {
    if (pod.status.phase !== "Succeeded" && pod.status.phase !== "Failed") pod.status.phase = "Failed";
    removePod(this.cluster, pod, { force: true, lane: "control-plane", ...cause });
  }
}
