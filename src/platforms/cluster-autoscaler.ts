// Cluster Autoscaler's defaults, as its FAQ lists them (kubernetes/autoscaler
// cluster-autoscaler/FAQ.md, "What are the parameters to CA?"): --scan-interval 10s ("How often
// cluster is reevaluated for scale up or down"), --max-node-provision-time 15m ("The default
// maximum time CA waits for node to be provisioned").

import type { AutoscalerDefaults, BootToReady } from "./types.ts";

export const CA_SCAN_INTERVAL = 10;
export const CA_MAX_NODE_PROVISION_TIME = 15 * 60;

/**
 * Seconds from a scale-up to the new node Ready where no platform gives a figure (the `stock`
 * profile, and the platforms whose `bootToReady` is an estimate): faultline's estimate (a VM's boot,
 * the kubelet's registration, the CNI's readiness), not a documented figure; a scenario's
 * `autoscaler.bootSeconds` sets the one measured on its cluster.
 */
export const ESTIMATED_BOOT_TO_READY = 90;

/** The estimate as a platform's `bootToReady`, saying that no source was found for it. */
export function estimatedBoot(noSource: string): BootToReady {
  return {
    seconds: ESTIMATED_BOOT_TO_READY,
    basis: "estimate",
    source: `faultline's estimate (${ESTIMATED_BOOT_TO_READY}s): ${noSource}`,
  };
}

export function clusterAutoscaler(platformSource: string, boot: BootToReady): AutoscalerDefaults {
  return {
    kind: "cluster-autoscaler",
    scanInterval: CA_SCAN_INTERVAL,
    maxNodeProvisionTime: CA_MAX_NODE_PROVISION_TIME,
    bootToReadySeconds: boot.seconds,
    source: `kubernetes/autoscaler cluster-autoscaler/FAQ.md (scan-interval 10s, max-node-provision-time 15m); ${platformSource}; boot to Ready ${boot.seconds}s (${boot.basis}): ${boot.source}`,
  };
}
