// Admission defaults applied when a pod is created: DefaultTolerationSeconds, and the tolerations
// the DaemonSet controller gives its pods.

import type { ControlPlaneSettings } from "./defaults.ts";
import type { Pod, Toleration } from "./objects.ts";
import { TAINT_NOT_READY, TAINT_UNREACHABLE } from "./taints.ts";

/** kube-apiserver's flags for the DefaultTolerationSeconds plugin. */
export type AdmissionSettings = Pick<
  ControlPlaneSettings,
  "defaultNotReadyTolerationSeconds" | "defaultUnreachableTolerationSeconds"
>;

/**
 * The tolerations the plugin added. Kubernetes keeps no record of it (an added toleration looks like
 * one written by hand); the model keeps one, so that an explanation can say where a
 * tolerationSeconds came from.
 */
const ADDED_BY_ADMISSION = new WeakSet<Toleration>();

export function addedByAdmission(t: Toleration): boolean {
  return ADDED_BY_ADMISSION.has(t);
}

/**
 * DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds/admission.go): a pod that
 * does not already tolerate not-ready / unreachable (a toleration with that key or an empty key,
 * and effect NoExecute or empty; the operator is not checked) gets
 * {key, operator: Exists, effect: NoExecute, tolerationSeconds: 300} for each.
 */
export function admitPod(pod: Pod, cp: AdmissionSettings): void {
  const tolerations = pod.spec.tolerations ?? [];
  const covers = (key: string) =>
    tolerations.some((t) => (t.key === key || !t.key) && (t.effect === "NoExecute" || !t.effect));
  const added = addedFor(cp);
  const add: Toleration[] = [];
  if (!covers(TAINT_NOT_READY)) add.push(added.notReady);
  if (!covers(TAINT_UNREACHABLE)) add.push(added.unreachable);
  if (add.length > 0) pod.spec.tolerations = [...tolerations, ...add];
}

/** The two tolerations the plugin adds with these settings, made once and shared (no one edits a toleration). */
const ADDED = new WeakMap<AdmissionSettings, { notReady: Toleration; unreachable: Toleration }>();

function addedFor(cp: AdmissionSettings): { notReady: Toleration; unreachable: Toleration } {
  let added = ADDED.get(cp);
  if (!added) {
    const toleration = (key: string, tolerationSeconds: number): Toleration => {
      const t: Toleration = { key, operator: "Exists", effect: "NoExecute", tolerationSeconds };
      ADDED_BY_ADMISSION.add(t);
      return t;
    };
    added = {
      notReady: toleration(TAINT_NOT_READY, cp.defaultNotReadyTolerationSeconds),
      unreachable: toleration(TAINT_UNREACHABLE, cp.defaultUnreachableTolerationSeconds),
    };
    ADDED.set(cp, added);
  }
  return added;
}

/**
 * A pod read from a cluster dump carries the tolerations the plugin gave it, indistinguishable from
 * hand-written ones: those exactly as the plugin writes them with these settings are taken as its.
 */
export function recognizeAdmissionTolerations(pod: Pod, cp: AdmissionSettings): void {
  const seconds: Record<string, number> = {
    [TAINT_NOT_READY]: cp.defaultNotReadyTolerationSeconds,
    [TAINT_UNREACHABLE]: cp.defaultUnreachableTolerationSeconds,
  };
  for (const t of pod.spec.tolerations ?? [])
    if (
      t.key !== undefined &&
      t.operator === "Exists" &&
      t.effect === "NoExecute" &&
      t.tolerationSeconds !== undefined &&
      seconds[t.key] === t.tolerationSeconds
    )
      ADDED_BY_ADMISSION.add(t);
}

/**
 * AddOrUpdateDaemonPodTolerations (pkg/controller/daemon/util/daemonset_util.go): DaemonSet pods
 * tolerate not-ready and unreachable NoExecute with no limit ("DaemonSet pods shouldn't be deleted
 * by NodeController in case of node problems"), and the pressure and unschedulable NoSchedule taints.
 */
export function daemonSetTolerations(hostNetwork: boolean): Toleration[] {
  const t: Toleration[] = [
    { key: TAINT_NOT_READY, operator: "Exists", effect: "NoExecute" },
    { key: TAINT_UNREACHABLE, operator: "Exists", effect: "NoExecute" },
    { key: "node.kubernetes.io/disk-pressure", operator: "Exists", effect: "NoSchedule" },
    { key: "node.kubernetes.io/memory-pressure", operator: "Exists", effect: "NoSchedule" },
    { key: "node.kubernetes.io/pid-pressure", operator: "Exists", effect: "NoSchedule" },
    { key: "node.kubernetes.io/unschedulable", operator: "Exists", effect: "NoSchedule" },
  ];
  if (hostNetwork)
    t.push({ key: "node.kubernetes.io/network-unavailable", operator: "Exists", effect: "NoSchedule" });
  return t;
}
