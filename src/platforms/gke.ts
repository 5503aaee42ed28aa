// Google Kubernetes Engine (Standard), as Google documents it (pages read December 2026).

import { clusterAutoscaler } from "./cluster-autoscaler.ts";
import type { Platform } from "./types.ts";

export const GKE: Platform = {
  name: "gke",
  title: "Google Kubernetes Engine",
  providerIdScheme: "gce://",
  nodeGroupLabel: "cloud.google.com/gke-nodepool",
  controlPlaneNote:
    "GKE does not publish kube-controller-manager's node-monitor-grace-period or eviction timings: upstream defaults are assumed",
  autoRepair: {
    enabledByDefault: true,
    // "A node reports a NotReady status on consecutive checks over the given time threshold
    // (approximately 10 minutes)"; "A node does not report any status at all over the given time
    // threshold (approximately 10 minutes)".
    afterSeconds: 600,
    // "the node is drained and re-created. This process preserves the original name of the node."
    action: "recreate",
    sameName: true,
    bootSeconds: 90,
    skipTaints: [],
    source:
      "cloud.google.com/kubernetes-engine/docs/how-to/node-auto-repair (Repair criteria; Node repair process): NotReady or no status for ~10 minutes → drained and re-created under its original name; on by default for new node pools; the re-created VM's boot (90s) is faultline's estimate",
  },
  storageClass: {
    name: "standard-rwo",
    provisioner: "pd.csi.storage.gke.io",
    volumeBindingMode: "WaitForFirstConsumer",
    zonal: true,
    source:
      "cloud.google.com/kubernetes-engine/docs/concepts/persistent-volumes (the default StorageClass standard-rwo, Compute Engine persistent disk CSI driver, balanced PD, WaitForFirstConsumer)",
  },
  loadBalancer: {
    kind: "GCP passthrough Network Load Balancer (externalTrafficPolicy: Cluster, shared node health check)",
    healthCheckInterval: 8,
    healthCheckTimeout: 1,
    unhealthyThreshold: 3,
    healthyThreshold: 1,
    source:
      "kubernetes/ingress-gce pkg/healthchecksl4/healthchecksl4.go: gceSharedHcCheckIntervalSeconds 8, gceHcTimeoutSeconds 1, gceHcHealthyThreshold 1, gceSharedHcUnhealthyThreshold 3 ('3 * 8 = 24 seconds before the LB will steer traffic away')",
  },
  spot: {
    seconds: 30,
    action: "graceful-shutdown",
    handledBy:
      "the kubelet's graceful node shutdown (GKE sets shutdownGracePeriod 30s, 15s of it for critical pods, on Spot and preemptible nodes)",
    source:
      "cloud.google.com/compute/docs/instances/spot (preemption: Compute Engine sends a preemption notice and the VM has 30 seconds to shut down); cloud.google.com/kubernetes-engine/docs/concepts/spot-vms (graceful node shutdown)",
  },
  autoscaler: clusterAutoscaler(
    "cloud.google.com/kubernetes-engine/docs/concepts/cluster-autoscaler (GKE's cluster autoscaler, per node pool)",
  ),
};
