// Pods from a workload's template (GetPodFromTemplate, pkg/controller/controller_utils.go), named
// the way the workload controllers name them, and which of a controller's pods count as active.

import type { Cluster } from "../cluster/context.ts";
import { randomSuffix } from "../kubernetes/names.ts";
import type { OwnerReference, Pod, PodTemplateSpec } from "../kubernetes/objects.ts";

export function podFromTemplate(
  ctx: Pick<Cluster, "engine">,
  template: PodTemplateSpec,
  namespace: string,
  name: string,
  owner: OwnerReference,
  extraLabels?: Record<string, string>,
): Pod {
  const shared = sharedParts(template, namespace, owner);
  return {
    kind: "Pod",
    metadata: {
      name,
      namespace,
      labels: extraLabels ? { ...shared.labels, ...extraLabels } : shared.labels,
      ...(shared.annotations ? { annotations: shared.annotations } : {}),
      ownerReferences: shared.ownerReferences,
      creationTimestamp: ctx.engine.now,
    },
    // A pod's own spec object (the scheduler sets nodeName, admission replaces tolerations, the
    // StatefulSet controller sets hostname, subdomain and volumes: each a field of the spec); what
    // the fields hold is the template's, frozen, which no one writes in place.
    spec: { ...template.spec },
    status: { phase: "Pending", conditions: [], containerStatuses: [] },
  };
}

/** What the pods of one template (and one owner, in one namespace) share, frozen: nobody writes them. */
interface Shared {
  namespace: string;
  owner: OwnerReference;
  labels: Record<string, string>;
  annotations: Record<string, string> | undefined;
  ownerReferences: OwnerReference[];
}

const SHARED = new WeakMap<PodTemplateSpec, Shared>();

/**
 * The parts each pod of a template copied before (labels, annotations, ownerReferences, the spec's
 * containers, volumes, tolerations...), made once per template and frozen, so that an accidental
 * write throws instead of changing every pod of the template.
 */
function sharedParts(template: PodTemplateSpec, namespace: string, owner: OwnerReference): Shared {
  const cached = SHARED.get(template);
  if (
    cached &&
    cached.namespace === namespace &&
    cached.owner.kind === owner.kind &&
    cached.owner.name === owner.name
  )
    return cached;
  for (const v of Object.values(template.spec)) deepFreeze(v);
  const annotations = template.metadata?.annotations;
  const shared: Shared = {
    namespace,
    owner,
    labels: Object.freeze({ ...(template.metadata?.labels ?? {}) }),
    annotations: annotations ? Object.freeze({ ...annotations }) : undefined,
    ownerReferences: Object.freeze([Object.freeze({ ...owner, controller: true })]) as OwnerReference[],
  };
  SHARED.set(template, shared);
  return shared;
}

/**
 * metadata.generateName: `<prefix>-<5 random characters>`. When the name is taken the API server
 * answers AlreadyExists and the controller tries again with a new suffix; here, at once.
 */
export function generatePodName(
  ctx: Pick<Cluster, "store" | "names">,
  namespace: string,
  prefix: string,
): string {
  for (;;) {
    // Joined, not a template literal: one flat string kept as the pod's name, not a chain of three.
    const name = [prefix, randomSuffix(ctx.names)].join("-");
    if (!ctx.store.get("Pod", `${namespace}/${name}`)) return name;
  }
}

/** FilterActivePods (pkg/controller/controller_utils.go): not terminating, not terminal. */
export function isActive(pod: Pod): boolean {
  return (
    pod.metadata.deletionTimestamp === undefined &&
    pod.status.phase !== "Succeeded" &&
    pod.status.phase !== "Failed"
  );
}

/** Freeze plain data (objects, arrays: what the loader builds a template from) and all it holds. */
function deepFreeze(v: unknown): void {
  if (v === null || typeof v !== "object" || Object.isFrozen(v)) return;
  Object.freeze(v);
  for (const x of Object.values(v)) deepFreeze(x);
}
