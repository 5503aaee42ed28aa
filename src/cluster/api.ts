// The API server's side of pod lifecycle: create (admission, generateName), graceful and forced
// deletion, status conditions. Every component goes through these, so each change is recorded
// once, as an event with the fields that explain it (trace/control-plane-events.ts).

import type { Engine } from "../engine/engine.ts";
import { admitPod } from "../kubernetes/admission.ts";
import { DEFAULT_TERMINATION_GRACE_PERIOD } from "../kubernetes/defaults.ts";
import { podRow } from "../kubernetes/kubectl.ts";
import type { ConditionStatus, Pod, PodCondition, ReplicaSet } from "../kubernetes/objects.ts";
import { admitPodPriority } from "../kubernetes/priority.ts";
import type {
  EvictionCause,
  PodCreatedCause,
  PodReadyBy,
  PodRemovalCause,
} from "../trace/control-plane-events.ts";
import type { Emitted, Lane, Trace } from "../trace/events.ts";
import type { KubeletPodDeletedFields } from "../trace/node-events.ts";
import type { Cluster } from "./context.ts";
import { controllerOf, ref, type Store } from "./store.ts";

/** What a write needs: the clock, the store, the trace. */
export type ApiWriter = { engine: Engine; store: Store; trace: Trace };

/** A pod created by a controller: admission (DefaultTolerationSeconds, Priority), then the store. */
export function createPod(cluster: Cluster, pod: Pod, cause: PodCreatedCause): Pod {
  admitPod(pod, cluster.admission);
  admitPodPriority(pod, cluster.store);
  cluster.store.create(pod);
  if (cluster.trace.muted) return pod;
  cluster.trace.emit({
    type: "PodCreated",
    lane: "control-plane",
    object: ref(pod),
    owner: workloadOf(cluster, pod) ?? "none",
    ...cause,
  });
  return pod;
}

/**
 * The workload a pod belongs to, as the JSON contract names owners: `Deployment/<ns>/<name>` for a
 * pod of one of its ReplicaSets (following the ReplicaSet's own ownerReference), `CronJob/<ns>/<name>`
 * for a pod of one of its Jobs, else the pod's controller (`StatefulSet/…`, `DaemonSet/…`, `Job/…`).
 */
export function workloadOf(ctx: { store: Store }, pod: Pod): string | undefined {
  const owner = controllerOf(pod);
  // A CronJob's Job's pod belongs to the CronJob (the Job's own ownerReference).
  if (owner?.startsWith("Job/")) {
    const job = ctx.store.get("Job", owner.slice("Job/".length));
    const cron = job?.metadata.ownerReferences?.find((o) => o.kind === "CronJob");
    return cron && job ? `CronJob/${job.metadata.namespace}/${cron.name}` : owner;
  }
  if (!owner?.startsWith("ReplicaSet/")) return owner;
  const rs = ctx.store.get("ReplicaSet", owner.slice("ReplicaSet/".length));
  if (!rs) return owner;
  // Built once per ReplicaSet (its ownerReferences never change; its namespace is the pod's).
  let workload = WORKLOADS.get(rs);
  if (workload === undefined) {
    const deployment = rs.metadata.ownerReferences?.find((o) => o.kind === "Deployment");
    workload = deployment ? `Deployment/${rs.metadata.namespace}/${deployment.name}` : owner;
    WORKLOADS.set(rs, workload);
  }
  return workload;
}

const WORKLOADS = new WeakMap<ReplicaSet, string>();

export function graceOf(pod: Pod): number {
  return pod.spec.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD;
}

/**
 * A graceful DELETE: the API server sets deletionTimestamp = now + grace period and
 * deletionGracePeriodSeconds; the kubelet stops the containers and confirms with a final delete.
 * A pod never bound to a node is removed at once (nothing runs it).
 */
export function deletePodGracefully(
  api: ApiWriter,
  pod: Pod,
  event: { reason: string; lane: Lane } & EvictionCause,
): void {
  if (pod.metadata.deletionTimestamp !== undefined || !api.store.exists(pod)) return;
  const { reason, lane, ...cause } = event;
  if (!pod.spec.nodeName) {
    removePod(api, pod, { force: false, lane, ...cause });
    return;
  }
  const grace = graceOf(pod);
  pod.metadata.deletionTimestamp = api.engine.now + grace;
  pod.metadata.deletionGracePeriodSeconds = grace;
  api.store.update(pod, pod.spec.nodeName);
  if (api.trace.muted) return;
  api.trace.emit({
    type: "PodEvicted",
    lane,
    object: ref(pod),
    node: pod.spec.nodeName,
    reason,
    podRow: podRow(pod, api.engine.now),
    ...cause,
  });
}

/** The pod object leaves the API (the kubelet's final delete, PodGC, or `kubectl delete --force`). */
export function removePod(
  api: ApiWriter,
  pod: Pod,
  event: { force: boolean; lane: Lane } & (PodRemovalCause | KubeletPodDeletedFields),
): void {
  if (!api.store.exists(pod)) return;
  api.store.delete(pod);
  if (api.trace.muted) return;
  const node = pod.spec.nodeName ? { node: pod.spec.nodeName } : {};
  const { lane, ...fields } = event;
  api.trace.emit({ type: "PodDeleted", lane, object: ref(pod), ...node, ...fields } as Emitted);
}

export function podReady(pod: Pod): boolean {
  return pod.status.conditions.find((c) => c.type === "Ready")?.status === "True";
}

/**
 * Set a pod condition as UpdatePodCondition does (pkg/api/v1/pod/util.go): the condition is replaced
 * whole (reason and message follow the writer), keeping its lastTransitionTime while the status is
 * unchanged. Returns whether the status changed: the transitions the events follow.
 */
export function setPodCondition(
  ctx: { engine: Engine },
  pod: Pod,
  type: string,
  status: ConditionStatus,
  reason?: string,
  message?: string,
): boolean {
  const i = pod.status.conditions.findIndex((c) => c.type === type);
  const existing = pod.status.conditions[i];
  const at = existing?.status === status ? (existing.lastTransitionTime ?? ctx.engine.now) : ctx.engine.now;
  const cond = podCondition(type, status, at, reason, message);
  if (existing) pod.status.conditions[i] = cond;
  // A new array of exactly its length, not a push: V8 grows a pushed array's store to 16 slots or
  // more, and every pod keeps its conditions for the whole run. Not a spread either (`[...a, c]`
  // is built by pushes: 20 slots for three conditions); concat allocates the exact length. No
  // reader keeps the array itself across a write (each reads pod.status.conditions anew).
  else pod.status.conditions = pod.status.conditions.concat([cond]);
  return existing?.status !== status;
}

/**
 * A pod condition with these values: the last one made, when it has them. Pods that reach a
 * condition at one instant (the warm-up's bulk start sets Initialized, ContainersReady and Ready of
 * every pod at once) share one frozen object instead of one each (48 bytes and a 16-byte
 * lastTransitionTime apiece). A pod's conditions are replaced whole (setPodCondition), never
 * written in place; the cluster-dump loader builds its own.
 */
function podCondition(
  type: string,
  status: ConditionStatus,
  at: number,
  reason: string | undefined,
  message: string | undefined,
): PodCondition {
  const last = LAST_CONDITION.get(type);
  if (
    last !== undefined &&
    last.status === status &&
    last.lastTransitionTime === at &&
    last.reason === (reason || undefined) &&
    last.message === (message || undefined)
  )
    return last;
  // Built field by field in the order of the output (type, status, lastTransitionTime, reason,
  // message), without a spread per optional field.
  const cond: PodCondition = { type, status, lastTransitionTime: at };
  if (reason) cond.reason = reason;
  if (message) cond.message = message;
  Object.freeze(cond);
  LAST_CONDITION.set(type, cond);
  return cond;
}

/** The last pod condition made of each type (a handful of types: PodScheduled, Ready, ...). */
const LAST_CONDITION = new Map<string, PodCondition>();

/**
 * The pod's Ready condition, with its PodReady / PodNotReady event (`reason`: the condition's).
 * The event carries who set it (`by`, with its fields) and the pod as kubectl would show it.
 */
export function setPodReady(
  api: ApiWriter,
  pod: Pod,
  ready: boolean,
  event: { lane: Lane; reason?: string } & PodReadyBy,
): void {
  if (!api.store.exists(pod)) return;
  if (!setPodCondition(api, pod, "Ready", ready ? "True" : "False", event.reason)) return;
  api.store.update(pod, pod.spec.nodeName);
  if (api.trace.muted) return;
  const type = ready ? "PodReady" : "PodNotReady";
  const node = pod.spec.nodeName ? { node: pod.spec.nodeName } : {};
  const row = podRow(pod, api.engine.now);
  const { lane, ...fields } = event;
  api.trace.emit({ type, lane, object: ref(pod), ...node, ...fields, podRow: row } as Emitted);
}
