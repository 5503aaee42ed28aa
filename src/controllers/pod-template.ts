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
  extraLabels: Record<string, string> = {},
): Pod {
  const spec = copyData(template.spec);
  return {
    kind: "Pod",
    metadata: {
      name,
      namespace,
      labels: { ...(template.metadata?.labels ?? {}), ...extraLabels },
      ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      ownerReferences: [{ ...owner, controller: true }],
      creationTimestamp: ctx.engine.now,
    },
    spec,
    status: { phase: "Pending", conditions: [], containerStatuses: [] },
  };
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
    const name = `${prefix}-${randomSuffix(ctx.names)}`;
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

/**
 * A deep copy of plain data (objects, arrays, primitives: what the loader builds a template from),
 * as structuredClone makes it, without its serialization (a pod per replica made it a hot spot).
 */
function copyData<T>(v: T): T {
  if (Array.isArray(v)) return v.map(copyData) as T;
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = copyData((v as Record<string, unknown>)[k]);
  return out as T;
}
