// The Eviction API (pkg/registry/core/pod/storage/eviction.go): a graceful delete that honours
// PodDisruptionBudgets, and a budget's status as the disruption controller computes it
// (pkg/controller/disruption/disruption.go). The controller writes the status asynchronously;
// the model computes it at the moment of each eviction, as a controller that has caught up would.

import { matchesSelector } from "../kubernetes/labels.ts";
import type { Pod, PodDisruptionBudget } from "../kubernetes/objects.ts";
import type { EvictionCause } from "../trace/control-plane-events.ts";
import type { Lane } from "../trace/events.ts";
import { type ApiWriter, deletePodGracefully, podReady, setPodCondition } from "./api.ts";
import { controllerOf, type Store } from "./store.ts";

/** The API server's words for a refused eviction (checkAndDecrement, HTTP 429). */
export const EVICTION_REFUSED = "Cannot evict pod as it would violate the pod's disruption budget.";
/** The API server's words when two budgets select the pod (HTTP 500). */
export const EVICTION_MULTIPLE_PDBS =
  "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.";

/** status of a PodDisruptionBudget (policy/v1 PodDisruptionBudgetStatus). */
export interface PdbStatus {
  expectedPods: number;
  desiredHealthy: number;
  currentHealthy: number;
  disruptionsAllowed: number;
  /** The controller could not compute the status (failSafe: disruptionsAllowed 0): its error. */
  syncError?: string;
}

/** What POST pods/<name>/eviction answered: 201, 429 (a budget refuses) or 500 (two budgets). */
export type EvictionResult =
  | { evicted: true }
  | { evicted: false; code: 429; pdb: PodDisruptionBudget; status: PdbStatus }
  | { evicted: false; code: 500; message: string; pdbs: PodDisruptionBudget[] };

/**
 * Evict a pod, as EvictionREST.Create does. canIgnorePDB: a Pending, Succeeded or Failed pod, or
 * one already being deleted, is deleted without a look at any budget. More than one budget: 500.
 * A pod that is not Ready goes without touching the budget when its policy is AlwaysAllow, or
 * (IfHealthyBudget, the default) while currentHealthy ≥ desiredHealthy > 0; every other pod needs
 * status.disruptionsAllowed > 0 (checkAndDecrement), else 429. An evicted pod gets DisruptionTarget
 * (EvictionByEvictionAPI), then the graceful delete. unhealthyPodEvictionPolicy is gated by
 * PDBUnhealthyPodEvictionPolicy (pkg/features/kube_features.go: beta and on by default since 1.27,
 * GA 1.31), on in every version the model supports (1.28 and later): no version check.
 */
export function evictPod(api: ApiWriter, pod: Pod, event: { lane: Lane } & EvictionCause): EvictionResult {
  if (pod.metadata.deletionTimestamp !== undefined) return { evicted: true };
  const phase = pod.status.phase;
  const canIgnorePdb = phase === "Pending" || phase === "Succeeded" || phase === "Failed";
  if (!canIgnorePdb) {
    const pdbs = api.store.list("PodDisruptionBudget").filter((b) => selects(b, pod));
    if (pdbs.length > 1) return { evicted: false, code: 500, message: EVICTION_MULTIPLE_PDBS, pdbs };
    const pdb = pdbs[0];
    if (pdb) {
      const status = pdbStatus(api.store, pdb);
      const unhealthyGoes =
        !podReady(pod) &&
        (pdb.spec.unhealthyPodEvictionPolicy === "AlwaysAllow" ||
          (status.currentHealthy >= status.desiredHealthy && status.desiredHealthy > 0));
      if (!unhealthyGoes && status.disruptionsAllowed === 0)
        return { evicted: false, code: 429, pdb, status };
    }
  }
  setPodCondition(api, pod, "DisruptionTarget", "True", "EvictionByEvictionAPI", "Eviction API: evicting");
  deletePodGracefully(api, pod, { reason: "EvictionByEvictionAPI", ...event });
  return { evicted: true };
}

/** A budget selects the pods of its namespace its selector matches (a null selector matches none). */
function selects(pdb: PodDisruptionBudget, pod: Pod): boolean {
  return (
    pdb.metadata.namespace === pod.metadata.namespace &&
    matchesSelector(pdb.spec.selector, pod.metadata.labels)
  );
}

/**
 * The disruption controller's trySync: expectedPods and desiredHealthy from getExpectedPodCount,
 * currentHealthy from countHealthyPods (Ready and not being deleted), disruptionsAllowed =
 * currentHealthy − desiredHealthy, at least 0, and 0 while expectedPods is 0 (updatePdbStatus).
 * maxUnavailable and a minAvailable percentage resolve against the scale of the pods' controllers
 * (getExpectedScale), rounding up (GetScaledValueFromIntOrPercent(…, true)); an integer
 * minAvailable counts the selected pods. A budget with neither field expects 0 pods: it allows
 * nothing. A sync that fails (a pod of a controller without a scale, a DaemonSet) leaves
 * disruptionsAllowed 0 (failSafe).
 */
export function pdbStatus(store: Store, pdb: PodDisruptionBudget): PdbStatus {
  const pods = store.list("Pod").filter((p) => selects(pdb, p));
  const currentHealthy = pods.filter((p) => p.metadata.deletionTimestamp === undefined && podReady(p)).length;
  const { minAvailable, maxUnavailable } = pdb.spec;
  let expectedPods = 0;
  let desiredHealthy = 0;
  if (maxUnavailable !== undefined || typeof minAvailable === "string") {
    const scale = expectedScale(store, pods);
    if (typeof scale === "string")
      return {
        expectedPods: 0,
        desiredHealthy: 0,
        currentHealthy: 0,
        disruptionsAllowed: 0,
        syncError: scale,
      };
    expectedPods = scale;
    if (maxUnavailable !== undefined)
      desiredHealthy = Math.max(0, expectedPods - scaled(maxUnavailable, expectedPods));
    else desiredHealthy = scaled(minAvailable!, expectedPods);
  } else if (minAvailable !== undefined) {
    desiredHealthy = minAvailable;
    expectedPods = pods.length;
  }
  const allowed = currentHealthy - desiredHealthy;
  const disruptionsAllowed = expectedPods <= 0 || allowed <= 0 ? 0 : allowed;
  return { expectedPods, desiredHealthy, currentHealthy, disruptionsAllowed };
}

/** intstr.GetScaledValueFromIntOrPercent(v, total, roundUp=true). */
function scaled(v: number | string, total: number): number {
  return typeof v === "number" ? v : Math.ceil((Number.parseInt(v, 10) * total) / 100);
}

/**
 * getExpectedScale: the sum of the scale of each controller of the selected pods, each counted
 * once; a pod without a controller is left out (the controller's UnmanagedPods warning). The
 * finders: a ReplicaSet's Deployment (spec.replicas), else the ReplicaSet, a StatefulSet; any
 * other controller through its scale subresource, which a DaemonSet does not have. Returns the
 * error that fails the sync instead of a count.
 */
function expectedScale(store: Store, pods: Pod[]): number | string {
  const scales = new Map<string, number>();
  for (const pod of pods) {
    const owner = controllerOf(pod);
    if (owner === undefined) continue;
    const [kind, ns, name] = owner.split("/") as [string, string, string];
    const key = `${ns}/${name}`;
    if (kind === "ReplicaSet") {
      const rs = store.get("ReplicaSet", key);
      if (!rs) return `found no controllers for pod "${pod.metadata.name}"`;
      const dep = controllerOf(rs);
      const d = dep?.startsWith("Deployment/")
        ? store.get("Deployment", dep.slice("Deployment/".length))
        : undefined;
      if (d) scales.set(dep!, d.spec.replicas);
      else scales.set(owner, rs.spec.replicas);
    } else if (kind === "StatefulSet") {
      const ss = store.get("StatefulSet", key);
      if (!ss) return `found no controllers for pod "${pod.metadata.name}"`;
      scales.set(owner, ss.spec.replicas);
    } else if (kind === "DaemonSet") {
      return "daemonsets.apps does not implement the scale subresource";
    } else return `found no controllers for pod "${pod.metadata.name}"`;
  }
  let sum = 0;
  for (const n of scales.values()) sum += n;
  return sum;
}
