// A cluster dump's NotReady nodes, as the run starts them at t=0. The controllers of the
// run have been running, as the dumped cluster's had: what they had done is in the dump and is put
// back as it was, not done again. The node's Ready condition (and, when Unknown, the other
// conditions the node lifecycle controller sets Unknown with it: tryUpdateNodeHealth), its
// controller taints with their timeAdded, its Lease's renewTime, and, when its kubelet is silent,
// its pods marked not ready (MarkPodsNotReady). Its kubelet then stays as the dump shows it: Ready=Unknown means it stopped
// posting, so its machine is off (from t=0); Ready=False means it posts NotReady, so its container
// runtime is down, from early enough in the warm-up that the kubelet reports it by the condition's
// lastTransitionTime (maxWaitForContainerRuntime after its last good status check), as it would
// have: its own view and the dump's agree at t=0. The taint eviction controller's timers count from the taints' timeAdded (processPodOnNode
// starts them when it sees the taint). What the node lifecycle controller itself does with such a
// node on its next pass (node_lifecycle_controller.go monitorNodeHealth): the condition is already
// Unknown, so tryUpdateNodeHealth leaves it; processTaintBaseEviction queues it for the taint it
// already has, and the swap finds nothing to do; MarkPodsNotReady runs only on a transition from
// True. (A controller *restarted* on such a node would first remove its NoExecute taints,
// markNodeAsReachable for every node it has not seen, and taint it again: that is not the dumped
// cluster's controller.)

import { setPodReady } from "../cluster/api.ts";
import type { Context } from "../cluster/context.ts";
import { CONDITIONS_SET_UNKNOWN } from "../controllers/node-lifecycle-writes.ts";
import type { TaintEvictionController } from "../controllers/taint-eviction-controller.ts";
import type { Kubelet } from "../kubelet/kubelet.ts";
import { MAX_WAIT_FOR_CONTAINER_RUNTIME, RUNTIME_UP_PERIOD } from "../kubernetes/defaults.ts";
import type { NodeSpec } from "../scenario/types.ts";

/**
 * The earliest the warm-up takes a runtime down: the node's pods, created at its start (-600 s),
 * have had 120 s to be scheduled and started (a start takes seconds) before their runtime stops.
 */
const EARLIEST_RUNTIME_DOWN = -480;

/** During the warm-up: each Ready=False node's container runtime goes down in time to be reported by t=0. */
export function scheduleNotReady(
  ctx: Context,
  specs: readonly NodeSpec[],
  kubelets: ReadonlyMap<string, Kubelet>,
): void {
  for (const spec of specs) {
    const d = spec.notReady;
    const kubelet = kubelets.get(spec.name);
    if (d?.machine !== "runtime-down" || !kubelet) continue;
    // The kubelet's status check runs every RUNTIME_UP_PERIOD: down one check period before it can tell.
    const lead = MAX_WAIT_FOR_CONTAINER_RUNTIME + RUNTIME_UP_PERIOD;
    const at = (d.ready.lastTransitionTime ?? 0) - lead;
    ctx.engine.at(Math.min(-lead, Math.max(EARLIEST_RUNTIME_DOWN, at)), () => kubelet.runtimeDown());
  }
}

export function startNotReady(
  ctx: Context,
  specs: readonly NodeSpec[],
  kubelets: ReadonlyMap<string, Kubelet>,
  taintEviction: TaintEvictionController | undefined,
): void {
  for (const spec of specs) {
    const d = spec.notReady;
    const kubelet = kubelets.get(spec.name);
    const node = ctx.store.get("Node", spec.name);
    if (!d || !kubelet || !node) continue;
    if (d.machine === "powered-off") kubelet.powerOff();
    const { status, reason, message, lastHeartbeatTime, lastTransitionTime } = d.ready;
    for (const c of node.status.conditions) {
      if (c.type !== "Ready" && !(status === "Unknown" && CONDITIONS_SET_UNKNOWN.includes(c.type))) continue;
      c.status = status;
      if (c.type === "Ready") {
        if (reason !== undefined) c.reason = reason;
        if (message !== undefined) c.message = message;
      } else {
        c.reason = "NodeStatusUnknown";
        c.message = "Kubelet stopped posting node status.";
      }
      if (lastHeartbeatTime !== undefined) c.lastHeartbeatTime = lastHeartbeatTime;
      if (lastTransitionTime !== undefined) c.lastTransitionTime = lastTransitionTime;
    }
    // The dump's controller taints, in place of any the run's node controller set in the warm-up.
    const dumped = new Set(d.taints.map((t) => `${t.key}:${t.effect}`));
    node.spec.taints = [
      ...(node.spec.taints ?? []).filter((t) => !dumped.has(`${t.key}:${t.effect}`)),
      ...d.taints,
    ];
    ctx.store.update(node);
    const lease = ctx.store.get("Lease", `kube-node-lease/${spec.name}`);
    const renewed = d.leaseRenewTime ?? lastHeartbeatTime;
    if (lease && renewed !== undefined && d.machine === "powered-off") {
      lease.spec.renewTime = renewed;
      ctx.store.update(lease);
    }
    // A kubelet still posting writes its pods' status back itself (its status manager).
    if (d.machine === "powered-off")
      for (const pod of ctx.store.podsOnNode(spec.name))
        setPodReady(ctx, pod, false, {
          lane: "control-plane",
          reason: "NodeNotReady",
          by: "node-lifecycle-controller",
          nodeReady: status,
        });
  }
  // The watches deliver at this instant; then the taint eviction controller's timers are set.
  ctx.engine.run(ctx.engine.now);
  for (const spec of specs) {
    const node = spec.notReady ? ctx.store.get("Node", spec.name) : undefined;
    if (node) taintEviction?.countFromTimeAdded(node);
  }
}
