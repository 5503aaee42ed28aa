// Pod priority as the API server takes it: scheduling.k8s.io/v1 PriorityClass objects
// (pkg/apis/scheduling/validation ValidatePriorityClass, and the Priority admission plugin's
// validatePriorityClass), and a pod spec's priorityClassName / priority / preemptionPolicy; the
// admission of the pods they make is checked by load/scenario/priority.ts.

import type { PodSpec, PriorityClass } from "../../kubernetes/objects.ts";
import { HIGHEST_USER_DEFINABLE_PRIORITY, SYSTEM_PRIORITY_CLASSES } from "../../kubernetes/priority.ts";
import { fail, int, knownFields, type Obj, optBool, optInt, optOneOf, optStr, required } from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";
import type { Meta } from "./meta.ts";

/** scheduling.k8s.io/v1 PriorityClass: its fields sit beside metadata. */
export const PRIORITY_CLASS_FIELDS = [
  "apiVersion",
  "description",
  "globalDefault",
  "kind",
  "metadata",
  "preemptionPolicy",
  "value",
] as const;

const POLICIES = ["PreemptLowerPriority", "Never"] as const;

/**
 * A PriorityClass: value required; a name with the `system-` prefix is reserved for the system
 * classes, which keep their values; a user class's value is at most HighestUserDefinablePriority
 * (1000000000); preemptionPolicy defaults to PreemptLowerPriority (SetDefaults_PriorityClass).
 */
export function priorityClass(src: SourceDoc, path: Path, metadata: Meta, o: Obj): PriorityClass {
  knownFields(src, path, o, PRIORITY_CLASS_FIELDS, "PriorityClass");
  const { namespace: _, ...meta } = metadata;
  const name = meta.name;
  const value = int(src, [...path, "value"], required(src, path, o, "value", "PriorityClass"));
  const system = SYSTEM_PRIORITY_CLASSES[name];
  if (system !== undefined && value !== system)
    fail(
      src,
      [...path, "value"],
      "invalid-value",
      `value of ${name} must be ${system}: the name of the priority class is a reserved name for system use only`,
    );
  if (system === undefined && name.startsWith("system-"))
    fail(
      src,
      [...path, "metadata", "name"],
      "invalid-value",
      `Invalid value: "${name}": priority class names with 'system-' prefix are reserved`,
    );
  if (system === undefined && value > HIGHEST_USER_DEFINABLE_PRIORITY)
    fail(
      src,
      [...path, "value"],
      "invalid-value",
      `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`,
    );
  optStr(src, [...path, "description"], o.description);
  return {
    kind: "PriorityClass",
    metadata: meta,
    value,
    globalDefault: optBool(src, [...path, "globalDefault"], o.globalDefault) ?? false,
    preemptionPolicy:
      optOneOf(src, [...path, "preemptionPolicy"], o.preemptionPolicy, POLICIES) ?? POLICIES[0],
  };
}

/** A pod spec's three priority fields (the API server's types; admission resolves them). */
export function podSpecPriority(src: SourceDoc, path: Path, o: Obj, spec: PodSpec): void {
  const name = optStr(src, [...path, "priorityClassName"], o.priorityClassName);
  if (name) spec.priorityClassName = name;
  const priority = optInt(src, [...path, "priority"], o.priority);
  if (priority !== undefined) spec.priority = priority;
  const policy = optOneOf(src, [...path, "preemptionPolicy"], o.preemptionPolicy, POLICIES);
  if (policy) spec.preemptionPolicy = policy;
}
