// A spot (preemptible) instance reclaimed by its cloud (`spot-interruption`, on a platform profile):
// the platform's notice, what acts on the node during it, then the instance is terminated
// (vm-terminated: the cloud controller deletes the Node once it is NotReady). Per platform
// (src/platforms/<name>.ts `spot`, each with its page):
// - EKS: a two-minute notice; the AWS Node Termination Handler or Karpenter cordons and drains the
//   node through the Eviction API (PodDisruptionBudgets honoured), as `kubectl drain --force
//   --ignore-daemonsets --delete-emptydir-data` would;
// - GKE: a 30s notice, handled by the kubelet's graceful node shutdown (KEP-2000,
//   kubelet/node-shutdown.ts) with GKE's settings for Spot and preemptible nodes: 15s for the
//   non-system pods, then 15s for those of priority system-cluster-critical or system-node-critical
//   (platforms/gke.ts spot.kubelet); the node posts Ready=False "node is shutting down", each pod
//   ends Failed (reason Terminated, DisruptionTarget TerminationByKubelet) once its containers are
//   gone, and the machine stops at the notice's end (Compute Engine's ACPI G3 Mechanical Off);
// - AKS: Scheduled Events' Preempt notice (30s at least) with no handler installed by default.
// The guest may power off before the notice ends, once the kubelet released its inhibit lock:
// faultline keeps the machine until the end (its node is NotReady already; nothing runs on it).

import type { Cluster } from "../cluster/context.ts";
import type { ShutdownConfig } from "../kubelet/node-shutdown.ts";

export interface SpotHandling {
  platform: string;
  seconds: number;
  action: "drain" | "graceful-shutdown" | "none";
  /** graceful-shutdown: the kubelet's shutdown settings on the platform's spot nodes (else the scenario's) */
  kubelet: ShutdownConfig;
}

/** The machine as a spot notice acts on it. */
export interface SpotMachine {
  terminate(): void;
  gracefulShutdown(config: ShutdownConfig, done: () => void): boolean;
}

export function spotInterruption(
  cluster: Cluster,
  machine: SpotMachine,
  spot: SpotHandling,
  drain: () => void,
): void {
  if (spot.action === "drain") drain();
  else if (spot.action === "graceful-shutdown") machine.gracefulShutdown(spot.kubelet, () => undefined);
  cluster.engine.after(spot.seconds, () => machine.terminate());
}
