// Pod priority: the PriorityClasses, the built-in system classes, and what the Priority admission
// plugin writes on a pod at its creation (plugin/pkg/admission/priority/admission.go admitPod,
// establishPriority, getDefaultPriority; the fields are scheduling.k8s.io/v1 PriorityClass).

import type { PreemptionPolicy, PriorityClass } from "./objects.ts";

/** pkg/apis/scheduling/types.go HighestUserDefinablePriority: a user class's value is at most this. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
/** SystemCriticalPriority = 2 × HighestUserDefinablePriority (pkg/apis/scheduling/types.go). */
export const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;
/** DefaultPriorityWhenNoDefaultClassExists (pkg/apis/scheduling/types.go): no class, no default class. */
export const DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS = 0;

/**
 * The classes the API server creates at start (SystemPriorityClasses, pkg/apis/scheduling/types.go,
 * made by pkg/registry/scheduling/rest/storage_scheduling.go AddSystemPriorityClasses):
 * system-node-critical = SystemCriticalPriority + 1000, system-cluster-critical = SystemCriticalPriority.
 */
export const SYSTEM_PRIORITY_CLASSES: Readonly<Record<string, number>> = {
  "system-node-critical": SYSTEM_CRITICAL_PRIORITY + 1000,
  "system-cluster-critical": SYSTEM_CRITICAL_PRIORITY,
};

/** The system classes as the API server has them: not global defaults, PreemptLowerPriority. */
export function systemPriorityClasses(): PriorityClass[] {
  return Object.entries(SYSTEM_PRIORITY_CLASSES).map(([name, value]) => ({
    kind: "PriorityClass",
    metadata: { name },
    value,
    globalDefault: false,
    preemptionPolicy: "PreemptLowerPriority",
  }));
}

/** What admission writes on the pod, or why it refuses it (Forbidden, in the plugin's words). */
export type PriorityResolution =
  | { priorityClassName?: string; priority: number; preemptionPolicy: PreemptionPolicy }
  | { error: string };

/**
 * getDefaultPriorityClass: among the classes with globalDefault, the one with the lowest value (more
 * than one can exist after a race; validatePriorityClass refuses a second one otherwise).
 */
export function defaultPriorityClass(classes: Iterable<PriorityClass>): PriorityClass | undefined {
  let found: PriorityClass | undefined;
  for (const pc of classes) if (pc.globalDefault && (!found || pc.value < found.value)) found = pc;
  return found;
}

/**
 * admitPod's resolution: no class name → the global default class (its name written on the pod),
 * or priority 0 and PreemptLowerPriority; a name → that class, or Forbidden "no PriorityClass with
 * name … was found". A priority or preemptionPolicy the pod already gives that differs from the
 * class's is Forbidden too (the plugin's two messages).
 */
export function resolvePriority(
  spec: { priorityClassName?: string; priority?: number; preemptionPolicy?: PreemptionPolicy },
  lookup: (name: string) => PriorityClass | undefined,
  all: () => Iterable<PriorityClass>,
): PriorityResolution {
  let name = spec.priorityClassName;
  let priority = DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS;
  let policy: PreemptionPolicy = "PreemptLowerPriority";
  if (!name) {
    const dpc = defaultPriorityClass(all());
    if (dpc) {
      name = dpc.metadata.name;
      priority = dpc.value;
      policy = dpc.preemptionPolicy;
    }
  } else {
    const pc = lookup(name);
    if (!pc) return { error: `no PriorityClass with name ${name} was found` };
    priority = pc.value;
    policy = pc.preemptionPolicy;
  }
  if (spec.priority !== undefined && spec.priority !== priority)
    return {
      error: `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
    };
  if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== policy)
    return {
      error: `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
    };
  return { ...(name ? { priorityClassName: name } : {}), priority, preemptionPolicy: policy };
}

/** corev1helpers.PodPriority: the pod's priority, 0 when it has none. */
export function podPriority(pod: { spec: { priority?: number } }): number {
  return pod.spec.priority ?? 0;
}

/** The classes admission can read: the API server's PriorityClass lister. */
export interface PriorityClassLister {
  get(kind: "PriorityClass", name: string): PriorityClass | undefined;
  list(kind: "PriorityClass"): readonly PriorityClass[];
}

/**
 * The Priority admission plugin on a pod being created: priorityClassName (from the default class
 * when it has none), priority and preemptionPolicy written on its spec. A pod the loader let through
 * resolves (load/manifest/priority.ts checks every pod and template first); the error is returned
 * for a caller that has one to report.
 */
export function admitPodPriority(
  pod: { spec: { priorityClassName?: string; priority?: number; preemptionPolicy?: PreemptionPolicy } },
  classes: PriorityClassLister,
): string | undefined {
  const r = resolvePriority(
    pod.spec,
    (name) => classes.get("PriorityClass", name),
    () => classes.list("PriorityClass"),
  );
  if ("error" in r) return r.error;
  if (r.priorityClassName !== undefined) pod.spec.priorityClassName = r.priorityClassName;
  pod.spec.priority = r.priority;
  pod.spec.preemptionPolicy = r.preemptionPolicy;
  return undefined;
}
