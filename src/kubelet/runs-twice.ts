// A pod that runs twice: its replacement starts while the old copy still runs on a machine whose
// kubelet cannot reach the API server, so nothing stops it. For a StatefulSet that is two members
// with one identity (the split brain its ordering guarantees are meant to prevent); for a
// Deployment, more replicas than wanted. Kubernetes has no such check: faultline watches for it
// because the API cannot see it.

import { workloadOf } from "../cluster/api.ts";
import type { Machines, RunningCopy } from "../cluster/context.ts";
import type { Store } from "../cluster/store.ts";
import type { Trace } from "../trace/events.ts";

/** What the check reads: the API, and which copies run on which machine. */
type Env = { store: Store; trace: Trace; machines: Pick<Machines, "runningCopies" | "reachable"> };

import type { Pod } from "../kubernetes/objects.ts";

/** A replacement `pod` just started on `node`: report every old copy the API gave up on that still runs. */
export function checkRunsTwice(ctx: Env, pod: Pod, node: string): void {
  const owner = workloadOf(ctx, pod);
  if (!owner || owner.startsWith("DaemonSet/")) return;
  const sameIdentity = owner.startsWith("StatefulSet/");
  const copies = ctx.machines.runningCopies((name, ns, procOwner) =>
    sameIdentity ? name === pod.metadata.name && ns === pod.metadata.namespace : procOwner === owner,
  );
  // Only pods the API already gave up on (evicted or deleted) have been replaced.
  const stale = copies.filter((c) => c.unreachable && c.replaced && c.uid !== pod.metadata.uid);
  for (const old of stale) {
    ctx.trace.emit({
      type: "PodRunsTwice",
      lane: "app",
      object: `Pod/${old.namespace}/${old.podName}`,
      node: old.node,
      copies: sameIdentity ? 2 : copies.length + liveCopies(ctx, owner),
      owner,
      sameIdentity,
      replacement: pod.metadata.name,
      replacementNode: node,
    });
  }
}

/** Running pods of a workload that the API still counts (on reachable nodes). */
function liveCopies(ctx: Env, owner: string): number {
  let n = 0;
  for (const pod of ctx.store.list("Pod")) {
    if (pod.status.phase !== "Running" || pod.metadata.deletionTimestamp !== undefined) continue;
    if (!pod.spec.nodeName || !ctx.machines.reachable(pod.spec.nodeName)) continue;
    if (workloadOf(ctx, pod) === owner) n++;
  }
  return n;
}

/** The copies of pods whose containers run on `node`, for the check (Kubelet.runningCopies). */
export function runningCopiesOf(
  workers: Iterable<{ readonly running: boolean; readonly pod: Pod }>,
  node: string,
  unreachable: boolean,
  store: Pick<Store, "exists">,
): RunningCopy[] {
  const out: RunningCopy[] = [];
  for (const w of workers) {
    if (!w.running) continue;
    out.push({
      node,
      podName: w.pod.metadata.name,
      namespace: w.pod.metadata.namespace,
      uid: w.pod.metadata.uid!,
      unreachable,
      replaced: !store.exists(w.pod) || w.pod.metadata.deletionTimestamp !== undefined,
    });
  }
  return out;
}
