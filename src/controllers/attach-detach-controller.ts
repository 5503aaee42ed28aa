// The attach/detach controller (pkg/controller/volume/attachdetach): ReadWriteOnce volumes follow
// their pod, one node at a time. A volume stays attached to a lost node until the node's kubelet
// reports it unmounted (Node.status.volumesInUse), the node gets the out-of-service taint, or the
// detach has been requested for ReconcilerMaxWaitForUnmountDuration (6 min) on an unhealthy node and
// --disable-force-detach-on-timeout is false (reconciler/reconciler.go, reconcile).
//
// When the 6-minute timer starts: the docs (concepts/cluster-administration/node-shutdown.md) say
// "where a pod deletion has not succeeded for 6 minutes", but the code decides. A pod's volumes stay
// in the desired state until the pod is gone from the API or terminated, and IsPodTerminated
// (pkg/volume/util/util.go, used by DetermineVolumeAction) wants a deletionTimestamp *and* every
// container status not running. A lost kubelet never reports its containers stopped, so a
// Terminating pod on a dead node keeps its volume wanted: the detach request, and the 6 minutes,
// start only when the pod object is removed (force delete, PodGC, the out-of-service taint). That is
// the well-known "Multi-Attach error" for six minutes after force-deleting a pod on a dead node.
//
// What wakes it (attach_detach_controller.go): pod events (podAdd/podUpdate/podDelete →
// ProcessPodVolumes), claim events (pvcAdd/pvcUpdate → enqueuePVC → processPVC, for the pods that
// mount the claim) and Node events (nodeAdd/nodeUpdate/nodeDelete → processVolumesInUse, which
// marks each attached volume mounted or not from node.status.volumesInUse). Its reconciler then
// acts at its next pass (reconcilerLoopPeriod, 100ms). The model reconciles at once on the writes
// that change what that pass reads: the pods and claims, a Node's volumesInUse, its Ready condition
// (nodeIsHealthy, for the force detach) and its out-of-service taint; a status post that moves only
// the heartbeats changes none of them, and the 6-minute wait has its own timer (recheckAt).

import type { Cluster } from "../cluster/context.ts";
import type { Timer } from "../engine/engine.ts";
import {
  ATTACH_DETACH_LOOP_PERIOD,
  type ControlPlaneSettings,
  MAX_WAIT_FOR_UNMOUNT,
  minor,
  WAITING_FOR_DETACH_SINCE_MINOR,
} from "../kubernetes/defaults.ts";
import type { Node, Pod, VolumeAttachment } from "../kubernetes/objects.ts";
import { TAINT_OUT_OF_SERVICE } from "../kubernetes/taints.ts";
import { attachmentName, claimsOf, sameVolumesInUse } from "../kubernetes/volumes.ts";
import type { KubernetesVersion } from "../scenario/types.ts";
import type { ControlPlaneEventFields } from "../trace/control-plane-events.ts";

export interface AttachDetachSettings extends Pick<ControlPlaneSettings, "disableForceDetachOnTimeout"> {
  /** The control plane's version: the FailedAttachVolume event's words changed in 1.37. */
  version: KubernetesVersion;
}

export class AttachDetachController {
  private detachRequestedAt = new Map<string, number>();
  private timers = new Map<string, Timer>();
  private waitingReported = new Set<string>();
  private queued = false;
  /** Pods that mount claims: the only ones the desired state of the world is made of. */
  private claimPods = new Set<Pod>();
  /**
   * volumesInUse of nodes whose object is gone, as last seen: the actual state of the world keeps
   * them mounted (nodeDelete → processVolumesInUse with the deleted node's status).
   */
  private lastVolumesInUse = new Map<string, readonly string[]>();
  /** What the reconciler reads of each Node, as last seen: a Node write that changes none of it wakes nothing. */
  private seen = new Map<string, NodeSeen>();

  constructor(
    private readonly cluster: Cluster,
    private readonly settings: AttachDetachSettings,
  ) {
    cluster.store.watch("Pod", (type, pod) => {
      if (claimsOf(pod).length === 0) return;
      if (type === "DELETED") this.claimPods.delete(pod);
      else this.claimPods.add(pod);
      this.enqueue();
    });
    // The informer's initial list: the Nodes already stored, as seen at the start.
    for (const node of cluster.store.list("Node"))
      this.seen.set(node.metadata.name, nodeSeen(node, undefined));
    cluster.store.watch("Node", (type, node) => {
      const name = node.metadata.name;
      if (type === "DELETED") {
        this.lastVolumesInUse.set(name, node.status.volumesInUse ?? []);
        this.seen.delete(name);
        this.enqueue();
        return;
      }
      this.lastVolumesInUse.delete(name);
      const was = this.seen.get(name);
      const now = nodeSeen(node, was);
      this.seen.set(name, now);
      if (type === "ADDED" || !was || !sameSeen(was, now)) this.enqueue();
    });
    // pvcAdd/pvcUpdate → processPVC: the pods that mount the claim are processed again.
    cluster.store.watch("PersistentVolumeClaim", (type, pvc) => {
      if (type === "DELETED") return;
      const key = `${pvc.metadata.namespace}/${pvc.metadata.name}`;
      for (const pod of this.claimPods)
        if (claimsOf(pod).includes(key)) {
          this.enqueue();
          return;
        }
    });
  }

  private enqueue(): void {
    if (this.queued) return;
    this.queued = true;
    this.cluster.engine.after(0, () => {
      this.queued = false;
      this.reconcile();
    });
  }

  /** MountedByNode: the node's kubelet lists the claim's volume in node.status.volumesInUse. */
  private mountedByNode(node: string, claim: string): boolean {
    const obj = this.cluster.store.get("Node", node);
    const inUse = obj ? (obj.status.volumesInUse ?? []) : (this.lastVolumesInUse.get(node) ?? []);
    return inUse.includes(claim);
  }

  private reconcile(): void {
    const now = this.cluster.engine.now;
    // Desired state: claim → node, for pods bound to a node and not terminated, whose claim exists
    // (CreateVolumeSpec fails for a missing claim and ProcessPodVolumes skips the volume).
    const desired = new Map<string, { node: string; pod: Pod }[]>();
    const pods = [...this.claimPods].filter((p) => this.cluster.store.exists(p));
    pods.sort((a, b) => (a.metadata.uid! < b.metadata.uid! ? -1 : 1));
    for (const pod of pods) {
      if (!pod.spec.nodeName || isPodTerminated(pod)) continue;
      for (const claim of claimsOf(pod)) {
        if (!this.cluster.store.get("PersistentVolumeClaim", claim)) continue;
        const list = desired.get(claim) ?? [];
        list.push({ node: pod.spec.nodeName, pod });
        desired.set(claim, list);
      }
    }
    // Detach what is attached but no longer wanted there.
    for (const va of this.cluster.store.list("VolumeAttachment")) {
      const claim = va.spec.claim;
      const node = va.spec.nodeName;
      const key = attachmentName(claim);
      if ((desired.get(claim) ?? []).some((d) => d.node === node)) {
        this.detachRequestedAt.delete(key); // ResetDetachRequestTime
        continue;
      }
      const requested = this.detachRequestedAt.get(key) ?? now;
      this.detachRequestedAt.set(key, requested);
      const nodeObj = this.cluster.store.get("Node", node);
      const healthy = nodeObj?.status.conditions.find((c) => c.type === "Ready")?.status === "True";
      const outOfService = (nodeObj?.spec.taints ?? []).some((t) => t.key === TAINT_OUT_OF_SERVICE);
      const waited = this.cluster.engine.since(requested);
      const maxWaitExpired = waited > MAX_WAIT_FOR_UNMOUNT;
      const forceDetach = !healthy && maxWaitExpired && !this.settings.disableForceDetachOnTimeout;
      const mounted = this.mountedByNode(node, claim);
      if (mounted && !forceDetach && !outOfService) {
        if (!healthy && !maxWaitExpired && !this.settings.disableForceDetachOnTimeout)
          this.recheckAt(key, requested + MAX_WAIT_FOR_UNMOUNT + ATTACH_DETACH_LOOP_PERIOD);
        continue;
      }
      this.detach(va, {
        claim,
        forced: mounted,
        cause: !mounted ? "unmounted" : outOfService ? "out-of-service" : "max-wait-for-unmount",
        waited,
        maxWaitForUnmount: MAX_WAIT_FOR_UNMOUNT,
      });
    }
    // Attach what is wanted and free.
    for (const claim of [...desired.keys()].sort()) {
      for (const { node, pod } of desired.get(claim)!) {
        const va = this.cluster.store.get("VolumeAttachment", attachmentName(claim));
        if (!va) {
          this.attach(claim, node, pod);
          continue;
        }
        if (va.spec.nodeName === node) continue;
        const key = `${pod.metadata.uid}|${va.spec.nodeName}`;
        if (this.waitingReported.has(key)) continue;
        this.waitingReported.add(key);
        // reportMultiAttachError: a Warning event on each pod that waits.
        this.cluster.trace.emit({
          type: "FailedAttachVolume",
          lane: "control-plane",
          object: `Pod/${pod.metadata.namespace}/${pod.metadata.name}`,
          node,
          claim,
          attachedTo: va.spec.nodeName,
          prefix:
            minor(this.settings.version) >= WAITING_FOR_DETACH_SINCE_MINOR
              ? "Waiting for detach"
              : "Multi-Attach error",
        });
      }
    }
  }

  private recheckAt(key: string, at: number): void {
    if (this.timers.has(key)) return;
    this.timers.set(
      key,
      this.cluster.engine.at(at, () => {
        this.timers.delete(key);
        this.reconcile();
      }),
    );
  }

  private attach(claim: string, node: string, pod: Pod): void {
    this.cluster.store.create<VolumeAttachment>({
      kind: "VolumeAttachment",
      metadata: { name: attachmentName(claim) },
      spec: { nodeName: node, claim },
      status: { attached: true },
    });
    this.cluster.trace.emit({
      type: "VolumeAttached",
      lane: "control-plane",
      object: `PersistentVolumeClaim/${claim}`,
      node,
      claim,
      pod: `${pod.metadata.namespace}/${pod.metadata.name}`,
    });
  }

  private detach(va: VolumeAttachment, fields: ControlPlaneEventFields["VolumeDetached"]): void {
    const key = attachmentName(va.spec.claim);
    this.detachRequestedAt.delete(key);
    this.cluster.engine.cancel(this.timers.get(key));
    this.timers.delete(key);
    this.cluster.store.delete(va);
    this.cluster.trace.emit({
      type: "VolumeDetached",
      lane: "control-plane",
      object: `PersistentVolumeClaim/${va.spec.claim}`,
      node: va.spec.nodeName,
      ...fields,
    });
    this.enqueue();
  }
}

/** What the reconciler reads of a Node: the volumes it reports in use, its Ready status, the out-of-service taint. */
interface NodeSeen {
  /** the Node's list, and a copy of it as it was then (an informer's cache holds a copy) */
  list: readonly string[] | undefined;
  volumesInUse: readonly string[];
  ready: string | undefined;
  outOfService: boolean;
}

/** The kubelet patches a new list when it changes: the same list is copied once, not at every post. */
function nodeSeen(node: Node, was: NodeSeen | undefined): NodeSeen {
  const list = node.status.volumesInUse;
  return {
    list,
    volumesInUse: was && was.list === list ? was.volumesInUse : [...(list ?? [])],
    ready: node.status.conditions.find((c) => c.type === "Ready")?.status,
    outOfService: (node.spec.taints ?? []).some((t) => t.key === TAINT_OUT_OF_SERVICE),
  };
}

function sameSeen(a: NodeSeen, b: NodeSeen): boolean {
  return (
    a.ready === b.ready &&
    a.outOfService === b.outOfService &&
    sameVolumesInUse(a.volumesInUse, b.volumesInUse)
  );
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
