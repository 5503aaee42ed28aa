// Well-known taint keys, the taints the node lifecycle controller derives from node conditions, and
// toleration matching.

import type { Taint, TaintEffect, Toleration } from "./objects.ts";

// Taint keys the node lifecycle controller manages (k8s.io/api/core/v1 well_known_taints.go).
export const TAINT_NOT_READY = "node.kubernetes.io/not-ready";
export const TAINT_UNREACHABLE = "node.kubernetes.io/unreachable";
export const TAINT_UNSCHEDULABLE = "node.kubernetes.io/unschedulable";
export const TAINT_MEMORY_PRESSURE = "node.kubernetes.io/memory-pressure";
export const TAINT_DISK_PRESSURE = "node.kubernetes.io/disk-pressure";
export const TAINT_PID_PRESSURE = "node.kubernetes.io/pid-pressure";
export const TAINT_NETWORK_UNAVAILABLE = "node.kubernetes.io/network-unavailable";
/** Non-graceful node shutdown (GA 1.28): docs concepts/cluster-administration/node-shutdown.md. */
export const TAINT_OUT_OF_SERVICE = "node.kubernetes.io/out-of-service";
/** The cloud node lifecycle controller's taint for a shut-down instance (k8s.io/cloud-provider api/well_known_taints.go TaintNodeShutdown). */
export const TAINT_NODE_SHUTDOWN = "node.cloudprovider.kubernetes.io/shutdown";

/**
 * nodeConditionToTaintKeyStatusMap (node_lifecycle_controller.go): the NoSchedule taint each node
 * condition status calls for, in the order doNoScheduleTaintingPass adds them. Cordoning adds
 * TAINT_UNSCHEDULABLE beside these.
 */
export const NO_SCHEDULE_CONDITION_TAINTS: readonly (readonly [
  string,
  "True" | "False" | "Unknown",
  string,
])[] = [
  ["Ready", "False", TAINT_NOT_READY],
  ["Ready", "Unknown", TAINT_UNREACHABLE],
  ["MemoryPressure", "True", TAINT_MEMORY_PRESSURE],
  ["DiskPressure", "True", TAINT_DISK_PRESSURE],
  ["NetworkUnavailable", "True", TAINT_NETWORK_UNAVAILABLE],
  ["PIDPressure", "True", TAINT_PID_PRESSURE],
];

export function taintString(t: Pick<Taint, "key" | "effect" | "value">): string {
  return `${t.key}${t.value ? `=${t.value}` : ""}:${t.effect}`;
}

export function hasTaint(taints: readonly Taint[] | undefined, key: string, effect: TaintEffect): boolean {
  return (taints ?? []).some((t) => t.key === key && t.effect === effect);
}

/** Toleration.ToleratesTaint (k8s.io/api/core/v1/toleration.go). */
export function tolerates(tol: Toleration, taint: Taint): boolean {
  if (tol.effect && tol.effect !== taint.effect) return false;
  if (tol.key && tol.key !== taint.key) return false;
  // An empty key with operator Exists matches every key.
  const op = tol.operator ?? "Equal";
  if (op === "Exists") return true;
  return (tol.value ?? "") === (taint.value ?? "");
}

/**
 * GetMatchingTolerations (pkg/apis/core/v1/helper/helpers.go): for each taint, the *first*
 * toleration that tolerates it is "used". Returns undefined when some taint is not tolerated.
 */
export function matchingTolerations(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
): Toleration[] | undefined {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const tol = tolerations.find((t) => tolerates(t, taint));
    if (!tol) return undefined;
    used.push(tol);
  }
  return used;
}

/**
 * getMinTolerationTime (pkg/controller/tainteviction/taint_eviction.go): 0 for none used, 0 if any
 * used toleration has tolerationSeconds ≤ 0, −1 (forever) if none sets it, else the minimum set.
 */
export function minTolerationSeconds(used: readonly Toleration[]): number {
  if (used.length === 0) return 0;
  let min = -1;
  for (const t of used) {
    if (t.tolerationSeconds === undefined) continue;
    if (t.tolerationSeconds <= 0) return 0;
    if (min < 0 || t.tolerationSeconds < min) min = t.tolerationSeconds;
  }
  return min;
}

/** Does the pod tolerate every taint with one of these effects? (scheduler TaintToleration filter) */
export function toleratesAll(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
  effects: readonly TaintEffect[],
): boolean {
  for (const taint of taints ?? []) {
    if (!effects.includes(taint.effect)) continue;
    if (!(tolerations ?? []).some((t) => tolerates(t, taint))) return false;
  }
  return true;
}
