// The attach/detach controller (pkg/controller/volume/attachdetach): ReadWriteOnce volumes follow
// their pod, one node at a time. A volume stays attached to a lost node until the node's kubelet
// reports it unmounted, the node gets the out-of-service taint, or the detach has been requested for
// ReconcilerMaxWaitForUnmountDuration (6 min) on an unhealthy node and
// --disable-force-detach-on-timeout is false (reconciler/reconciler.go; kubernetes.md §11).
//
// When the 6-minute timer starts: the docs (concepts/cluster-administration/node-shutdown.md) say
// "where a pod deletion has not succeeded for 6 minutes", but the code decides. A pod's volumes stay
// in the desired state until the pod is gone from the API or terminated, and IsPodTerminated
// (pkg/volume/util/util.go, used by DetermineVolumeAction) wants a deletionTimestamp *and* every
// container status not running. A lost kubelet never reports its containers stopped, so a
// Terminating pod on a dead node keeps its volume wanted: the detach request, and the 6 minutes,
// start only when the pod object is removed (force delete, PodGC, the out-of-service taint). That is
// the well-known "Multi-Attach error" for six minutes after force-deleting a pod on a dead node.

import type { Context } from "../cluster/context.ts";
import type { Timer } from "../engine/engine.ts";
import { ATTACH_DETACH_LOOP_PERIOD, MAX_WAIT_FOR_UNMOUNT } from "../kubernetes/defaults.ts";
import type { Pod, VolumeAttachment } from "../kubernetes/objects.ts";
import { TAINT_OUT_OF_SERVICE } from "../kubernetes/taints.ts";
import { attachmentName, claimsOf } from "../kubernetes/volumes.ts";
import { fmt } from "../trace/format.ts";

export class AttachDetachController {
  private detachRequestedAt = new Map<string, number>();
  private timers = new Map<string, Timer>();
  private waitingReported = new Set<string>();
  private queued = false;
  /** Pods that mount claims: the only ones the desired state of the world is made of. */
  private claimPods = new Set<Pod>();

  constructor(private readonly ctx: Context) {
    ctx.store.watch("Pod", (type, pod) => {
      if (claimsOf(pod).length === 0) return;
      if (type === "DELETED") this.claimPods.delete(pod);
      else this.claimPods.add(pod);
      this.enqueue();
    });
    ctx.store.watch("Node", () => this.enqueue());
  }

  /** A pod's claims that are ReadWriteOnce (the ones that can be attached to one node only). */
  enqueue(): void {
    if (this.queued) return;
    this.queued = true;
    this.ctx.engine.after(0, () => {
      this.queued = false;
      this.reconcile();
    });
  }

  private reconcile(): void {
    const now = this.ctx.engine.now;
    // Desired state: claim → node, for pods bound to a node and not being deleted.
    const desired = new Map<string, { node: string; pod: Pod }[]>();
    const pods = [...this.claimPods].filter((p) => this.ctx.store.exists(p));
    pods.sort((a, b) => (a.metadata.uid! < b.metadata.uid! ? -1 : 1));
    for (const pod of pods) {
      if (!pod.spec.nodeName || isPodTerminated(pod)) continue;
      for (const claim of claimsOf(pod)) {
        const list = desired.get(claim) ?? [];
        list.push({ node: pod.spec.nodeName, pod });
        desired.set(claim, list);
      }
    }
    // Detach what is attached but no longer wanted there.
    for (const va of this.ctx.store.list("VolumeAttachment")) {
      const claim = va.spec.claim;
      const node = va.spec.nodeName;
      const key = attachmentName(claim);
      if ((desired.get(claim) ?? []).some((d) => d.node === node)) {
        this.detachRequestedAt.delete(key); // ResetDetachRequestTime
        continue;
      }
      const requested = this.detachRequestedAt.get(key) ?? now;
      this.detachRequestedAt.set(key, requested);
      const nodeObj = this.ctx.store.get("Node", node);
      const healthy = nodeObj?.status.conditions.find((c) => c.type === "Ready")?.status === "True";
      const outOfService = (nodeObj?.spec.taints ?? []).some((t) => t.key === TAINT_OUT_OF_SERVICE);
      const elapsed = now - requested;
      const maxWaitExpired = elapsed > MAX_WAIT_FOR_UNMOUNT;
      const forceDetach = !healthy && maxWaitExpired && !this.ctx.controlPlane.disableForceDetachOnTimeout;
      const mounted = this.ctx.machines.volumeInUse(node, claim);
      if (mounted && !forceDetach && !outOfService) {
        if (!healthy && !maxWaitExpired && !this.ctx.controlPlane.disableForceDetachOnTimeout)
          this.recheckAt(key, requested + MAX_WAIT_FOR_UNMOUNT + ATTACH_DETACH_LOOP_PERIOD);
        continue;
      }
      const why = !mounted
        ? `the kubelet on ${node} reported the volume unmounted`
        : outOfService
          ? `${node} has the ${TAINT_OUT_OF_SERVICE} taint: detach at once, even though the volume may still be mounted`
          : `the detach has waited ${fmt(Math.round(elapsed * 10) / 10)}s since the pod was gone from the API > ReconcilerMaxWaitForUnmountDuration=6m, ${node} is not healthy and never reported the volume unmounted (--disable-force-detach-on-timeout=false)`;
      this.detach(va, mounted, why);
    }
    // Attach what is wanted and free.
    for (const claim of [...desired.keys()].sort()) {
      for (const { node, pod } of desired.get(claim)!) {
        const va = this.ctx.store.get("VolumeAttachment", attachmentName(claim));
        if (!va) {
          this.create(claim, node, true);
          continue;
        }
        if (va.spec.nodeName === node) continue;
        const key = `${pod.metadata.uid}|${va.spec.nodeName}`;
        if (this.waitingReported.has(key)) continue;
        this.waitingReported.add(key);
        const volume = claim.split("/")[1];
        const text =
          Number(this.ctx.version.split(".")[1]) >= 37
            ? `Waiting for detach for volume "${volume}" Volume is already exclusively attached to one node, waiting on detach before it can be attached to another node`
            : `Multi-Attach error for volume "${volume}" Volume is already exclusively attached to one node and can't be attached to another`;
        this.ctx.trace.emit({
          type: "FailedAttachVolume",
          lane: "control-plane",
          object: `Pod/${pod.metadata.namespace}/${pod.metadata.name}`,
          node,
          message: `${pod.metadata.name} waits for its volume: ${text}`,
          why: `PersistentVolumeClaim ${claim} is ReadWriteOnce and still attached to ${va.spec.nodeName}`,
          see: `$ kubectl describe pod ${pod.metadata.name}\n  Warning  FailedAttachVolume  attachdetach-controller  ${text}`,
        });
      }
    }
  }

  private recheckAt(key: string, at: number): void {
    if (this.timers.has(key)) return;
    this.timers.set(
      key,
      this.ctx.engine.at(at, () => {
        this.timers.delete(key);
        this.reconcile();
      }),
    );
  }

  private create(claim: string, node: string, trace: boolean): void {
    this.ctx.store.create<VolumeAttachment>({
      kind: "VolumeAttachment",
      metadata: { name: attachmentName(claim) },
      spec: { nodeName: node, claim },
      status: { attached: true },
    });
    if (!trace) return;
    this.ctx.trace.emit({
      type: "VolumeAttached",
      lane: "control-plane",
      object: `PersistentVolumeClaim/${claim}`,
      node,
      message: `attach/detach controller attaches ${claim}'s volume to ${node}`,
      why: `a pod on ${node} uses the claim and the volume is attached nowhere else`,
    });
  }

  private detach(va: VolumeAttachment, forced: boolean, why: string): void {
    const key = attachmentName(va.spec.claim);
    this.detachRequestedAt.delete(key);
    this.ctx.engine.cancel(this.timers.get(key));
    this.timers.delete(key);
    this.ctx.store.delete(va);
    this.ctx.trace.emit({
      type: "VolumeDetached",
      lane: "control-plane",
      object: `PersistentVolumeClaim/${va.spec.claim}`,
      node: va.spec.nodeName,
      forced,
      message: `attach/detach controller ${forced ? "force-detaches" : "detaches"} ${va.spec.claim}'s volume from ${va.spec.nodeName}`,
      why,
    });
    this.enqueue();
  }
}

/**
 * IsPodTerminated (pkg/volume/util/util.go): phase Failed or Succeeded, or a deletionTimestamp with
 * no container reported running.
 */
function isPodTerminated(pod: Pod): boolean {
  if (pod.status.phase === "Failed" || pod.status.phase === "Succeeded") return true;
  return (
    pod.metadata.deletionTimestamp !== undefined &&
    pod.status.containerStatuses.every((c) => c.state !== "running")
  );
}
