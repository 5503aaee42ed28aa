// Google Kubernetes Engine (Standard), as Google documents it (pages read December 2026).

import { clusterAutoscaler } from "./cluster-autoscaler.ts";
import type { BootToReady, Platform } from "./types.ts";

/**
 * kubernetes/autoscaler cluster-autoscaler/FAQ.md ("How fast is HPA when combined with CA?", read
 * 2 December 2026): "Node provisioning time depends mostly on cloud provider. In our experience, on
 * GCE it usually takes 3 to 4 minutes from CA request to when pods can be scheduled on newly created
 * nodes." The lower end, 180s. GKE's node pools are Compute Engine managed instance groups, and
 * auto-repair's re-creation is a new VM from the same template, so the figure serves both. A
 * measurement agrees: kubernetes/test-infra PR #18607 (2020-08-04), on the GKE cluster
 * k8s-infra-prow-build, "took 2-3min from scale-up to node ready" (from the autoscaler's log lines).
 */
export const GKE_BOOT_TO_READY: BootToReady = {
  seconds: 180,
  basis: "documented",
  source:
    "kubernetes/autoscaler cluster-autoscaler/FAQ.md, 'How fast is HPA when combined with CA?' (read 2026-12-02): 'on GCE it usually takes 3 to 4 minutes from CA request to when pods can be scheduled on newly created nodes' (the lower end)",
};

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
    bootSeconds: GKE_BOOT_TO_READY.seconds,
    skipTaints: [],
    source:
      "cloud.google.com/kubernetes-engine/docs/how-to/node-auto-repair (Repair criteria; Node repair process): NotReady or no status for ~10 minutes → drained and re-created under its original name; on by default for new node pools; the re-created VM's boot to Ready: the cluster autoscaler FAQ's 3 to 4 minutes on GCE (180s)",
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
    // cloud.google.com/kubernetes-engine/docs/how-to/preemptible-vms, "Termination and graceful
    // shutdown of preemptible VMs" (read 2 December 2026): "On a best-effort basis, the kubelet
    // grants 15 seconds to non-system Pods, after which system Pods (with the
    // system-cluster-critical or system-node-critical priorityClasses) have 15 seconds to terminate
    // gracefully" (node pools later than 1.22.8-gke.200; 25s and 5s before, older than any version
    // faultline runs); concepts/spot-vms says the same of Spot VMs, and that the period can be
    // lengthened to 120s from GKE 1.35.0-gke.1171000 (node system configuration, not modelled).
    kubelet: {
      shutdownGracePeriod: 30,
      shutdownGracePeriodCriticalPods: 15,
      shutdownGracePeriodByPodPriority: [],
    },
    source:
      "cloud.google.com/compute/docs/instances/spot (preemption: Compute Engine sends a preemption notice and the VM has 30 seconds to shut down); cloud.google.com/kubernetes-engine/docs/how-to/preemptible-vms and concepts/spot-vms (read 2026-12-02: the kubelet grants 15 seconds to non-system Pods, then 15 seconds to system-cluster-critical and system-node-critical ones)",
  },
  bootToReady: GKE_BOOT_TO_READY,
  autoscaler: clusterAutoscaler(
    "cloud.google.com/kubernetes-engine/docs/concepts/cluster-autoscaler (GKE's cluster autoscaler, per node pool)",
    GKE_BOOT_TO_READY,
  ),
};
