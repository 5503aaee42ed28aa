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
  const added = addedFor(cp);
  const tolerations = pod.spec.tolerations ?? NONE;
  // The pods of one template come with the same list (pod-template.ts shares the template's,
  // frozen), so they get the same admitted list too: one frozen array per list, not one per pod
  // (a spread's store of 17 slots, 184 bytes kept by each of 30,000 pods). No one writes a pod's
  // tolerations in place; admission, the loader and a patch each set a new list.
  const cached = added.admitted.get(tolerations);
  if (cached !== undefined) {
    if (cached !== tolerations) pod.spec.tolerations = cached as Toleration[];
    return;
  }
  const covers = (key: string) =>
    tolerations.some((t) => (t.key === key || !t.key) && (t.effect === "NoExecute" || !t.effect));
  const add: Toleration[] = [];
  if (!covers(TAINT_NOT_READY)) add.push(added.notReady);
  if (!covers(TAINT_UNREACHABLE)) add.push(added.unreachable);
  if (add.length === 0) {
    if (Object.isFrozen(tolerations)) added.admitted.set(tolerations, tolerations);
    return;
  }
  const admitted = tolerations.concat(add);
  pod.spec.tolerations = admitted;
  // Only a frozen list is a key (an unfrozen one, a dump's pod's or a test's, could change after),
  // and its admitted list is frozen to be shared.
  if (Object.isFrozen(tolerations)) added.admitted.set(tolerations, Object.freeze(admitted));
}

/** A pod without tolerations: one frozen empty list. */
const NONE: readonly Toleration[] = Object.freeze([]);

interface Added {
  notReady: Toleration;
  unreachable: Toleration;
  /** each frozen list of tolerations admitted: the list the pod gets (itself when nothing is added) */
  admitted: WeakMap<readonly Toleration[], readonly Toleration[]>;
}

/** The two tolerations the plugin adds with these settings, made once and shared (no one edits a toleration). */
const ADDED = new WeakMap<AdmissionSettings, Added>();

function addedFor(cp: AdmissionSettings): Added {
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
      admitted: new WeakMap(),
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
