// A fix to a workload on a cluster that runs it (a dump, `--cluster`): the dump also holds the
// workload's ReplicaSets and pods, made from the workload as it was. Patched alone, a Deployment's
// template would differ from its ReplicaSet's, and the controllers would start over with a second
// ReplicaSet next to the first (the run would measure that, not the fix); its replicas would not
// reach the ReplicaSet that exists (the simulated Deployment controller creates a ReplicaSet with
// them, it does not scale one). So the same change is made to what the workload owns, as if the fix
// had been rolled out before the dump: a template change to its ReplicaSets' templates and its pods'
// specs (the pods stay on their nodes), a Deployment's replicas to its ReplicaSet that has pods.
// Patches on anything else pass as they are.

import { controllerOf } from "../cluster/store.ts";
import type { KubeObject } from "../kubernetes/objects.ts";
import type { Patch, Scenario } from "../scenario/types.ts";

const TEMPLATE = "spec.template.";
const REPLICAS = "spec.replicas";

/** `patches`, each change to a workload followed by the same change to what it owns. */
export function withOwned(scenario: Scenario, patches: readonly Patch[]): Patch[] {
  if (!patches.some((p) => p.object !== undefined && follows(p))) return [...patches];
  const owned = new Map<string, KubeObject[]>();
  for (const { object } of scenario.manifests) {
    const owner = controllerOf(object);
    if (owner !== undefined) owned.set(owner, [...(owned.get(owner) ?? []), object]);
  }
  const out: Patch[] = [];
  for (const patch of patches) {
    out.push(patch);
    if (patch.object === undefined || !follows(patch)) continue;
    if (patch.path === REPLICAS) {
      if (!patch.object.startsWith("Deployment/")) continue;
      for (const o of owned.get(idOf(patch.object)) ?? [])
        if (o.kind === "ReplicaSet" && o.spec.replicas > 0) out.push({ ...patch, object: idOf(o) });
      continue;
    }
    const follow = (owner: string): void => {
      for (const o of owned.get(owner) ?? []) {
        // A Pod is its template made real: spec.template.spec.x is its spec.x, spec.template.metadata its metadata.
        const path = o.kind === "Pod" ? patch.path.slice(TEMPLATE.length) : patch.path;
        out.push({ ...patch, object: idOf(o), path });
        follow(idOf(o));
      }
    };
    follow(idOf(patch.object));
  }
  return out;
}

function follows(p: Patch): boolean {
  return p.path === REPLICAS || p.path.startsWith(TEMPLATE);
}

/** `Kind/namespace/name` of an object, or of a patch's object (`Kind/name` is in namespace default). */
function idOf(o: KubeObject | string): string {
  if (typeof o !== "string") return `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`;
  const parts = o.split("/");
  return parts.length === 2 ? `${parts[0]}/default/${parts[1]}` : o;
}
