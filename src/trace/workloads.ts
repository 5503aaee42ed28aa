// The workloads a scenario's manifests declare, read once for every reader (the timeline's pod
// targets, the page, the audit, `faultline probes`): a workload is a Deployment, ReplicaSet,
// StatefulSet or DaemonSet (its pods share the pod template), or a bare Pod (its own workload).
// Which workload a pod of a run belongs to is not guessed from here: the result carries it (the
// state at t=0's `owner`, PodCreated's `owner`; workloadOf in cluster/api.ts).

import type { LabelSelector, PodSpec } from "../kubernetes/objects.ts";
import type { ManifestObject } from "../scenario/types.ts";

export type WorkloadKind = "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet" | "Pod";

export interface DeclaredWorkload {
  /** `Kind/namespace/name`, as the result names owners */
  id: string;
  kind: WorkloadKind;
  namespace: string;
  name: string;
  /** spec.replicas; 1 for a Pod; null for a DaemonSet (one pod per eligible node) */
  replicas: number | null;
  /** the labels its pods carry: the pod template's, or a Pod's own */
  labels: Record<string, string>;
  selector: LabelSelector | undefined;
  spec: PodSpec;
  /** path of the pod spec inside the object (`spec.template.spec`, or `spec` for a Pod) */
  specPath: "spec.template.spec" | "spec";
  /** StatefulSet volumeClaimTemplates names */
  claimTemplates: string[];
  /**
   * The object names a controller in metadata.ownerReferences (a cluster dump's ReplicaSet or pod):
   * its pods are that controller's workload's (the first reference with `controller` not false, as
   * cluster/store.ts controllerOf reads it).
   */
  controlled: boolean;
  manifest: ManifestObject;
}

/** Every workload in the manifests, in their order. */
export function workloadsOf(manifests: readonly ManifestObject[]): DeclaredWorkload[] {
  const out: DeclaredWorkload[] = [];
  for (const manifest of manifests) {
    const o = manifest.object;
    const namespace = o.metadata.namespace ?? "default";
    const name = o.metadata.name;
    const controlled = (o.metadata.ownerReferences ?? []).some((r) => r.controller !== false);
    const base = { namespace, name, controlled, manifest };
    switch (o.kind) {
      case "Deployment":
      case "ReplicaSet":
      case "StatefulSet":
      case "DaemonSet":
        out.push({
          ...base,
          id: `${o.kind}/${namespace}/${name}`,
          kind: o.kind,
          replicas: o.kind === "DaemonSet" ? null : o.spec.replicas,
          labels: o.spec.template.metadata?.labels ?? {},
          selector: o.spec.selector,
          spec: o.spec.template.spec,
          specPath: "spec.template.spec",
          claimTemplates:
            o.kind === "StatefulSet" ? (o.spec.volumeClaimTemplates ?? []).map((t) => t.metadata.name) : [],
        });
        break;
      case "Pod":
        out.push({
          ...base,
          id: `Pod/${namespace}/${name}`,
          kind: "Pod",
          replicas: 1,
          labels: o.metadata.labels ?? {},
          selector: undefined,
          spec: o.spec,
          specPath: "spec",
          claimTemplates: [],
        });
        break;
      default:
        break;
    }
  }
  return out;
}
