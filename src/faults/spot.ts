// A spot (preemptible) instance reclaimed by its cloud (`spot-interruption`, on a platform profile):
// the platform's notice, what acts on the node during it, then the instance is terminated
// (vm-terminated: the cloud controller deletes the Node once it is NotReady). Per platform
// (src/platforms/<name>.ts `spot`, each with its page):
// - EKS: a two-minute notice; the AWS Node Termination Handler or Karpenter cordons and drains the
//   node through the Eviction API (PodDisruptionBudgets honoured), as `kubectl drain --force
//   --ignore-daemonsets --delete-emptydir-data` would;
// - GKE: a 30s notice, handled by the kubelet's graceful node shutdown (KEP-2000,
//   pkg/kubelet/nodeshutdown): each pod's phase becomes Failed, reason Terminated, message "Pod was
//   terminated in response to imminent node shutdown." (nodeshutdown_manager nodeShutdownReason /
//   nodeShutdownMessage), with the DisruptionTarget condition (reason TerminationByKubelet), so its
//   endpoints leave at once; its containers stop with the machine at the notice's end;
// - AKS: Scheduled Events' Preempt notice (30s at least) with no handler installed by default.
// Not modelled: the ordering by pod priority within shutdownGracePeriod / shutdownGracePeriodCriticalPods,
// and the node's Ready=False "node is shutting down": the node is marked unschedulable instead, so
// that no replacement lands there (the shutdown manager's Admit rejects new pods during shutdown).

import { setPodCondition } from "../cluster/api.ts";
import type { Cluster } from "../cluster/context.ts";

export interface SpotHandling {
  platform: string;
  seconds: number;
  action: "drain" | "graceful-shutdown" | "none";
}

/** nodeshutdown_manager: the reason and message of a pod ended by graceful node shutdown. */
export const NODE_SHUTDOWN_REASON = "Terminated";
export const NODE_SHUTDOWN_MESSAGE = "Pod was terminated in response to imminent node shutdown.";

export function spotInterruption(
  cluster: Cluster,
  node: string,
  machine: { terminate(): void },
  spot: SpotHandling,
  drain: () => void,
): void {
  if (spot.action === "drain") drain();
  else if (spot.action === "graceful-shutdown") shutDownPods(cluster, node);
  cluster.engine.after(spot.seconds, () => machine.terminate());
}

/** The kubelet's graceful node shutdown, as the API sees it: each pod Failed with its reason. */
function shutDownPods(cluster: Cluster, node: string): void {
  const n = cluster.store.get("Node", node);
  if (n && !n.spec.unschedulable) {
    n.spec.unschedulable = true;
    cluster.store.update(n);
  }
  for (const pod of cluster.store.podsOnNode(node)) {
    if (pod.status.phase === "Succeeded" || pod.status.phase === "Failed") continue;
    setPodCondition(cluster, pod, "DisruptionTarget", "True", "TerminationByKubelet", NODE_SHUTDOWN_MESSAGE);
    setPodCondition(cluster, pod, "Ready", "False", "PodFailed", "");
    pod.status.phase = "Failed";
    pod.status.reason = NODE_SHUTDOWN_REASON;
    pod.status.message = NODE_SHUTDOWN_MESSAGE;
    cluster.store.update(pod);
    cluster.trace.emit({
      type: "PodShutDown",
      lane: "kubelet",
      object: `Pod/${pod.metadata.namespace}/${pod.metadata.name}`,
      node,
      reason: NODE_SHUTDOWN_REASON,
      message: NODE_SHUTDOWN_MESSAGE,
    });
  }
}
