// A cluster dump's NotReady nodes, as the run starts them at t=0 (issue 12). The controllers of the
// run have been running, as the dumped cluster's had: what they had done is in the dump and is put
// back as it was, not done again. The node's Ready condition (and, when Unknown, the other
// conditions the node lifecycle controller sets Unknown with it: tryUpdateNodeHealth), its
// controller taints with their timeAdded, its Lease's renewTime, and its pods marked not ready
// (MarkPodsNotReady). Its kubelet then stays as the dump shows it: Ready=Unknown means it stopped
// posting, so its machine is off; Ready=False means it posts NotReady, so its container runtime is
// down. The taint eviction controller's timers count from the taints' timeAdded (processPodOnNode
// starts them when it sees the taint). What the node lifecycle controller itself does with such a
// node on its next pass (node_lifecycle_controller.go monitorNodeHealth): the condition is already
// Unknown, so tryUpdateNodeHealth leaves it; processTaintBaseEviction queues it for the taint it
// already has, and the swap finds nothing to do; MarkPodsNotReady runs only on a transition from
// True. (A controller *restarted* on such a node would first remove its NoExecute taints,
// markNodeAsReachable for every node it has not seen, and taint it again: that is not the dumped
// cluster's controller.)

import { setPodReady } from "../cluster/api.ts";
import type { Context } from "../cluster/context.ts";
import type { TaintEvictionController } from "../controllers/taint-eviction-controller.ts";
import type { Kubelet } from "../kubelet/kubelet.ts";
import type { NodeSpec } from "../scenario/types.ts";

/** The conditions the node lifecycle controller sets Unknown with Ready (NetworkUnavailable is left alone). */
const SET_UNKNOWN_WITH_READY = ["MemoryPressure", "DiskPressure", "PIDPressure"];

export function startNotReady(
  ctx: Context,
  specs: readonly NodeSpec[],
  kubelets: ReadonlyMap<string, Kubelet>,
  taintEviction: TaintEvictionController,
): void {
  for (const spec of specs) {
    const d = spec.notReady;
    const kubelet = kubelets.get(spec.name);
    const node = ctx.store.get("Node", spec.name);
    if (!d || !kubelet || !node) continue;
    if (d.machine === "powered-off") kubelet.powerOff();
    else kubelet.runtimeDown();
    const { status, reason, message, lastHeartbeatTime, lastTransitionTime } = d.ready;
    for (const c of node.status.conditions) {
      if (c.type !== "Ready" && !(status === "Unknown" && SET_UNKNOWN_WITH_READY.includes(c.type))) continue;
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
    node.spec.taints = [...(node.spec.taints ?? []), ...d.taints];
    ctx.store.update(node);
    const lease = ctx.store.get("Lease", `kube-node-lease/${spec.name}`);
    const renewed = d.leaseRenewTime ?? lastHeartbeatTime;
    if (lease && renewed !== undefined && d.machine === "powered-off") {
      lease.spec.renewTime = renewed;
      ctx.store.update(lease);
    }
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
    if (node) taintEviction.countFromTimeAdded(node);
  }
}
