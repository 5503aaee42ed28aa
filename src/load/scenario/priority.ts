// The Priority admission plugin (plugin/pkg/admission/priority/admission.go) over every pod the
// manifests make: a pod whose class does not exist is refused at its creation, which the loader
// reports where the class is named, once, instead of a controller failing to create it at run time.

import { type PriorityClass, podSpecOf } from "../../kubernetes/objects.ts";
import { resolvePriority, systemPriorityClasses } from "../../kubernetes/priority.ts";
import { fail } from "../check.ts";
import type { Collected } from "../manifest/collect.ts";

/**
 * Every PriorityClass and every pod the manifests make, through the Priority plugin: a second
 * globalDefault class is refused ("PriorityClass … is already marked as default. Only one default
 * can exist"); a pod or template whose class is unknown, or whose priority or preemptionPolicy
 * differs from its class's, is refused in the plugin's words. A dump's pods were admitted when they
 * were made: a pod with its priority recorded is taken as it is, and a class the dump does not hold
 * but its pods name with a priority is known by that value.
 */
export function checkPriorityClasses(c: Collected, dump: boolean): void {
  const classes = new Map<string, PriorityClass>();
  for (const pc of systemPriorityClasses()) classes.set(pc.metadata.name, pc);
  let defaultClass: string | undefined;
  c.manifests.forEach(({ object }, i) => {
    if (object.kind !== "PriorityClass") return;
    if (object.globalDefault && defaultClass !== undefined) {
      const { src, path } = c.where[i]!;
      fail(
        src,
        [...path, "globalDefault"],
        "invalid-value",
        `PriorityClass ${defaultClass} is already marked as default. Only one default can exist`,
      );
    }
    if (object.globalDefault) defaultClass = object.metadata.name;
    classes.set(object.metadata.name, object);
  });
  const recorded = dump ? recordedClasses(c, classes) : new Map<string, PriorityClass>();
  // The API server of the dumped cluster has them: so does the model's (admission reads the store).
  for (const pc of recorded.values()) {
    const at = c.manifests.findIndex(
      (m) => m.kind === "Pod" && podSpecOf(m.object)?.priorityClassName === pc.metadata.name,
    );
    c.manifests.push({ object: pc, kind: "PriorityClass", pos: c.manifests[at]!.pos });
    c.where.push(c.where[at]!);
  }
  c.manifests.forEach(({ object }, i) => {
    const spec = podSpecOf(object);
    if (!spec || (dump && object.kind === "Pod" && spec.priority !== undefined)) return;
    const r = resolvePriority(
      object.kind === "Pod" ? spec : { ...spec, priority: undefined },
      (name) => classes.get(name) ?? recorded.get(name),
      () => classes.values(),
    );
    if (!("error" in r)) return;
    const { src, path } = c.where[i]!;
    const specPath = object.kind === "Pod" ? [...path, "spec"] : [...path, "spec", "template", "spec"];
    const field = r.error.startsWith("no PriorityClass")
      ? "priorityClassName"
      : r.error.includes("PreemptionPolicy")
        ? "preemptionPolicy"
        : "priority";
    const pod =
      object.kind === "Pod"
        ? `pods "${object.metadata.name}" is`
        : `every pod of ${object.kind} "${object.metadata.name}" is`;
    fail(src, [...specPath, field], "invalid-value", `${pod} forbidden: ${r.error}`);
  });
}

/** The classes a dump's pods name, with the priority admission gave them, where the dump lacks the class. */
function recordedClasses(c: Collected, known: Map<string, PriorityClass>): Map<string, PriorityClass> {
  const out = new Map<string, PriorityClass>();
  for (const { object } of c.manifests) {
    if (object.kind !== "Pod") continue;
    const { priorityClassName: name, priority, preemptionPolicy } = object.spec;
    if (!name || priority === undefined || known.has(name) || out.has(name)) continue;
    out.set(name, {
      kind: "PriorityClass",
      metadata: { name },
      value: priority,
      globalDefault: false,
      preemptionPolicy: preemptionPolicy ?? "PreemptLowerPriority",
    });
  }
  return out;
}
