// Pods from a workload's template, named the way the workload controllers name them.

import type { Context } from "../cluster/context.ts";
import type { OwnerReference, Pod, PodTemplateSpec } from "../kubernetes/objects.ts";

export function podFromTemplate(
  ctx: Context,
  template: PodTemplateSpec,
  namespace: string,
  name: string,
  owner: OwnerReference,
  extraLabels: Record<string, string> = {},
): Pod {
  const spec = structuredClone(template.spec);
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

export function isActive(pod: Pod): boolean {
  return (
    pod.metadata.deletionTimestamp === undefined &&
    pod.status.phase !== "Succeeded" &&
    pod.status.phase !== "Failed"
  );
}
