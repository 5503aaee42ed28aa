// The Eviction API (pkg/registry/core/pod/storage/eviction.go): a graceful delete that honours
// PodDisruptionBudgets, and the budget's status.disruptionsAllowed as the disruption controller
// computes it (pkg/controller/disruption/disruption.go).

import { matchesSelector } from "../kubernetes/labels.ts";
import type { Pod, PodDisruptionBudget } from "../kubernetes/objects.ts";
import type { EvictionCause } from "../trace/control-plane-events.ts";
import type { Lane } from "../trace/events.ts";
import { type ApiWriter, deletePodGracefully, podReady, setPodCondition } from "./api.ts";
import type { Store } from "./store.ts";

/** What POST pods/<name>/eviction answered: 201 (the pod is deleted gracefully) or 429 (a budget refuses). */
export type EvictionResult =
  | { evicted: true }
  | { evicted: false; pdb: PodDisruptionBudget; disruptionsAllowed: number };

/**
 * Evict a pod. canIgnorePDB for a Pending or terminal pod; a pod that is not Ready may go while its
 * budget is met (unhealthyPodEvictionPolicy IfHealthyBudget, the default: currentHealthy ≥
 * desiredHealthy); a Ready one needs a disruption left. An evicted pod gets DisruptionTarget
 * (EvictionByEvictionAPI), then the graceful delete.
 */
export function evictPod(api: ApiWriter, pod: Pod, event: { lane: Lane } & EvictionCause): EvictionResult {
  const ignorePdb =
    pod.status.phase === "Pending" || pod.status.phase === "Succeeded" || pod.status.phase === "Failed";
  const needed = podReady(pod) ? 1 : 0;
  if (!ignorePdb) {
    for (const pdb of api.store.list("PodDisruptionBudget")) {
      if (!matchesPdb(pdb, pod)) continue;
      const allowed = disruptionsAllowed(api.store, pdb);
      if (allowed < needed) return { evicted: false, pdb, disruptionsAllowed: allowed };
    }
  }
  setPodCondition(api, pod, "DisruptionTarget", "True", "EvictionByEvictionAPI", "Eviction API: evicting");
  deletePodGracefully(api, pod, { reason: "EvictionByEvictionAPI", ...event });
  return { evicted: true };
}

function matchesPdb(pdb: PodDisruptionBudget, pod: Pod): boolean {
  return (
    pdb.metadata.namespace === pod.metadata.namespace &&
    matchesSelector(pdb.spec.selector, pod.metadata.labels)
  );
}

/** status.disruptionsAllowed = currentHealthy − desiredHealthy (pkg/controller/disruption). */
export function disruptionsAllowed(store: Store, pdb: PodDisruptionBudget): number {
  const pods = store.list("Pod").filter((p) => matchesPdb(pdb, p));
  const healthy = pods.filter((p) => p.metadata.deletionTimestamp === undefined && podReady(p)).length;
  const expected = pods.filter((p) => p.metadata.deletionTimestamp === undefined).length;
  const resolve = (v: number | string, roundUp: boolean) => {
    if (typeof v === "number") return v;
    const pct = Number.parseFloat(v) / 100;
    return roundUp ? Math.ceil(pct * expected) : Math.floor(pct * expected);
  };
  let desired = 0;
  if (pdb.spec.minAvailable !== undefined) desired = resolve(pdb.spec.minAvailable, true);
  else if (pdb.spec.maxUnavailable !== undefined) desired = expected - resolve(pdb.spec.maxUnavailable, true);
  return healthy - desired;
}
