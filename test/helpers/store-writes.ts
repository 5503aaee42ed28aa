// Objects and writes the scheduler cache tests make to a store, as the API server would.

import type { Store } from "../../src/cluster/store.ts";
import type { Engine } from "../../src/engine/engine.ts";
import type { Pod } from "../../src/kubernetes/objects.ts";

/** A graceful delete (30 s): the pod, still stored, turns Terminating (deletionTimestamp set). */
export function markTerminating(engine: Engine, store: Store, pod: Pod | undefined): void {
  if (!pod || !store.exists(pod) || pod.metadata.deletionTimestamp !== undefined) return;
  pod.metadata.deletionTimestamp = engine.now + 30;
  store.update(pod, pod.spec.nodeName);
}

/** Pod `p-<i>` of ReplicaSet `rs-<owner>` in namespace default. */
export function replicaSetPod(
  i: number,
  owner: number,
  spec: Pod["spec"],
  phase: Pod["status"]["phase"],
): Pod {
  return {
    kind: "Pod",
    metadata: {
      name: `p-${i}`,
      namespace: "default",
      ownerReferences: [{ kind: "ReplicaSet", name: `rs-${owner}`, controller: true }],
    },
    spec,
    status: { phase, conditions: [], containerStatuses: [] },
  };
}
