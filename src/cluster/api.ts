// The API server's side of pod lifecycle: create (with admission), graceful and forced deletion,
// status conditions. Every controller goes through these so each change is traced once.

import { admitPod } from "../kubernetes/admission.ts";
import { DEFAULT_TERMINATION_GRACE_PERIOD } from "../kubernetes/defaults.ts";
import { getPod } from "../kubernetes/kubectl.ts";
import type { ConditionStatus, Pod } from "../kubernetes/objects.ts";
import type { Lane } from "../trace/events.ts";
import type { KubeletPodDeletedFields, KubeletPodReadyFields } from "../trace/node-events.ts";
import type { Context } from "./context.ts";
import { controllerOf, ref } from "./store.ts";

export function createPod(ctx: Context, pod: Pod, why: string): Pod {
  admitPod(pod, ctx.controlPlane);
  ctx.store.create(pod);
  const owner = workloadOf(ctx, pod) ?? "none";
  ctx.trace.emit({
    type: "PodCreated",
    lane: "control-plane",
    object: ref(pod),
    owner,
    message: `${
      owner === "none"
        ? "the API server"
        : owner
            .split("/")
            .filter((_, i) => i !== 1)
            .join(" ")
    } creates pod ${pod.metadata.name}`,
    why,
  });
  return pod;
}

/**
 * The workload a pod belongs to, as the JSON contract names owners: `Deployment/<ns>/<name>` for a
 * pod of one of its ReplicaSets (following the ReplicaSet's own ownerReference), else the pod's
 * controller (`StatefulSet/…`, `DaemonSet/…`, `ReplicaSet/…`).
 */
export function workloadOf(ctx: Context, pod: Pod): string | undefined {
  const owner = controllerOf(pod);
  if (!owner?.startsWith("ReplicaSet/")) return owner;
  const rs = ctx.store.get("ReplicaSet", owner.slice("ReplicaSet/".length));
  const deployment = rs?.metadata.ownerReferences?.find((o) => o.kind === "Deployment");
  return deployment ? `Deployment/${pod.metadata.namespace}/${deployment.name}` : owner;
}

export function graceOf(pod: Pod): number {
  return pod.spec.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD;
}

/**
 * A graceful DELETE: the API server sets deletionTimestamp = now + grace period and
 * deletionGracePeriodSeconds; the kubelet stops the containers and confirms with a final delete.
 * A pod never bound to a node is removed at once (nothing runs it).
 */
export function deletePodGracefully(
  ctx: Context,
  pod: Pod,
  event: { reason: string; lane: Lane; why: string; message: string },
): void {
  if (pod.metadata.deletionTimestamp !== undefined || !ctx.store.exists(pod)) return;
  const grace = graceOf(pod);
  if (!pod.spec.nodeName) {
    removePod(ctx, pod, { force: false, lane: event.lane, why: event.why, message: event.message });
    return;
  }
  pod.metadata.deletionTimestamp = ctx.engine.now + grace;
  pod.metadata.deletionGracePeriodSeconds = grace;
  ctx.store.update(pod, pod.spec.nodeName);
  ctx.trace.emit({
    type: "PodEvicted",
    lane: event.lane,
    object: ref(pod),
    node: pod.spec.nodeName,
    reason: event.reason,
    message: event.message,
    why: event.why,
    see: getPod(pod, ctx.engine.now),
  });
}

/**
 * The pod object leaves the API (the kubelet's final delete, PodGC, or `kubectl delete --force`).
 * The kubelet passes its `fields` (no prose: report/messages/node.ts writes it).
 */
export function removePod(
  ctx: Context,
  pod: Pod,
  event:
    | { force: boolean; lane: Lane; why: string; message: string }
    | { force: false; lane: Lane; fields: KubeletPodDeletedFields },
): void {
  if (!ctx.store.exists(pod)) return;
  ctx.store.delete(pod);
  const node = pod.spec.nodeName ? { node: pod.spec.nodeName } : {};
  if ("fields" in event) {
    ctx.trace.emit({
      type: "PodDeleted",
      lane: event.lane,
      object: ref(pod),
      force: false,
      ...node,
      ...event.fields,
    });
    return;
  }
  ctx.trace.emit({
    type: "PodDeleted",
    lane: event.lane,
    object: ref(pod),
    force: event.force,
    message: event.message,
    why: event.why,
    ...node,
  });
}

export function podReady(pod: Pod): boolean {
  return pod.status.conditions.find((c) => c.type === "Ready")?.status === "True";
}

/** Set a pod condition; returns whether it changed. */
export function setPodCondition(
  ctx: Context,
  pod: Pod,
  type: string,
  status: ConditionStatus,
  reason?: string,
  message?: string,
): boolean {
  const existing = pod.status.conditions.find((c) => c.type === type);
  if (existing && existing.status === status) return false;
  const cond = {
    type,
    status,
    lastTransitionTime: ctx.engine.now,
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
  if (existing) Object.assign(existing, cond);
  else pod.status.conditions.push(cond);
  return true;
}

/**
 * The pod's Ready condition, with its PodReady / PodNotReady event. The kubelet passes its `fields`
 * (no prose: report/messages/node.ts writes it).
 */
export function setPodReady(
  ctx: Context,
  pod: Pod,
  ready: boolean,
  event:
    | { lane: Lane; why: string; message: string; reason?: string }
    | { lane: Lane; reason?: string; fields: KubeletPodReadyFields },
): void {
  if (!ctx.store.exists(pod)) return;
  if (!setPodCondition(ctx, pod, "Ready", ready ? "True" : "False", event.reason)) return;
  ctx.store.update(pod, pod.spec.nodeName);
  const type = (ready ? "PodReady" : "PodNotReady") as "PodReady";
  const node = pod.spec.nodeName ? { node: pod.spec.nodeName } : {};
  if ("fields" in event) {
    ctx.trace.emit({ type, lane: event.lane, object: ref(pod), ...node, ...event.fields });
    return;
  }
  ctx.trace.emit({
    type,
    lane: event.lane,
    object: ref(pod),
    message: event.message,
    why: event.why,
    see: getPod(pod, ctx.engine.now),
    ...node,
  });
}
