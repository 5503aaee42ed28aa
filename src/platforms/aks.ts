// Azure Kubernetes Service, as Microsoft documents it (pages read December 2026).

import { TAINT_NODE_SHUTDOWN } from "../kubernetes/taints.ts";
import { clusterAutoscaler, estimatedBoot } from "./cluster-autoscaler.ts";
import type { BootToReady, Platform } from "./types.ts";

/**
 * learn.microsoft.com's cluster autoscaler and node auto-repair pages give no boot time. The figure
 * is the one stated in the live Q&A of New Breakpoint S4 E2, "Simplify cloud-native app deployment
 * and scaling with AKS" (github.com/ANZAzureDevs/New-Breakpoint qanda/S04E02LiveQandA.md, commit
 * f510f72 of 15 August 2024, read 2 December 2026): "Node autoscaling, if required, typically adds 3
 * to 7 minutes to the process." The lower end, 180s. (Also read: Azure/AKS issue #1898, October
 * 2020, a user's "around 5 minutes" for a second node; a Microsoft Q&A thread's "~10–11 minutes"
 * for A100 GPU nodes with their drivers, not a general node's.)
 */
export const AKS_BOOT_TO_READY: BootToReady = {
  seconds: 180,
  basis: "reported",
  source:
    "github.com/ANZAzureDevs/New-Breakpoint qanda/S04E02LiveQandA.md (New Breakpoint S4 E2 live Q&A on AKS, 2024-08-15, read 2026-12-02): 'Node autoscaling, if required, typically adds 3 to 7 minutes to the process' (the lower end; AKS's own pages give none)",
};

/**
 * A reboot by auto-repair restarts the same VM (no new VM is allocated), so the scale-up figure does
 * not apply, and no source found gives a reboot's time: faultline's estimate, labelled as one.
 */
export const AKS_REBOOT_TO_READY: BootToReady = estimatedBoot(
  "no published time from an AKS auto-repair reboot to the node Ready was found (MicrosoftDocs/azure-aks-docs articles/aks/node-auto-repair.md gives none, read 2026-12-02)",
);

export const AKS: Platform = {
  name: "aks",
  title: "Azure Kubernetes Service",
  providerIdScheme: "azure://",
  nodeGroupLabel: "kubernetes.azure.com/agentpool",
  controlPlaneNote:
    "AKS does not publish kube-controller-manager's node-monitor-grace-period or eviction timings: upstream defaults are assumed",
  autoRepair: {
    enabledByDefault: true,
    // "If AKS identifies an unhealthy node that remains unhealthy for at least five minutes, AKS
    // performs the following actions: 1. AKS reboots the node. 2. … reimages … 3. … redeploys".
    afterSeconds: 300,
    action: "reboot",
    sameName: true,
    bootSeconds: AKS_REBOOT_TO_READY.seconds,
    // "Examples of when auto-repair isn't performed include: … If either of the following taints are
    // present on the node: node.cloudprovider.kubernetes.io/shutdown, ToBeDeletedByClusterAutoscaler."
    skipTaints: [TAINT_NODE_SHUTDOWN, "ToBeDeletedByClusterAutoscaler"],
    event: {
      reason: "NodeRebootStart",
      message:
        "Node auto-repair is initiating a reboot action due to NotReady status persisting for more than 5 minutes.",
      source: "aks-auto-repair",
    },
    source:
      "MicrosoftDocs/azure-aks-docs articles/aks/node-auto-repair.md (ms.date 01/03/2025): unhealthy for at least five minutes → reboot, then reimage, then (Linux) redeploy; not with the shutdown or ToBeDeletedByClusterAutoscaler taint; the reboot's 90s is faultline's estimate (no source gives one)",
  },
  storageClass: {
    name: "managed-csi",
    provisioner: "disk.csi.azure.com",
    volumeBindingMode: "WaitForFirstConsumer",
    zonal: true,
    source:
      "learn.microsoft.com/azure/aks/concepts-storage (managed-csi, the default StorageClass: Azure Standard SSD LRS managed disks through the Azure Disk CSI driver); an LRS disk is zonal",
  },
  loadBalancer: {
    kind: "Azure Standard Load Balancer",
    healthCheckInterval: 5,
    // An Azure probe has no timeout of its own: a probe not answered by the next one counts as failed.
    healthCheckTimeout: 5,
    unhealthyThreshold: 2,
    // faultline's assumption: one successful probe marks the endpoint up again.
    healthyThreshold: 1,
    source:
      "kubernetes-sigs/cloud-provider-azure pkg/consts/consts.go: HealthProbeDefaultProbeInterval 5, HealthProbeDefaultNumOfProbe 2 ('The minimum number of probe is 2')",
  },
  spot: {
    seconds: 30,
    action: "none",
    handledBy: "Scheduled Events' Preempt event, acted on by a handler on the node (none ships by default)",
    source:
      "learn.microsoft.com/azure/virtual-machines/linux/scheduled-events (Preempt: minimum notice 30 seconds)",
  },
  bootToReady: AKS_BOOT_TO_READY,
  autoscaler: clusterAutoscaler(
    "learn.microsoft.com/azure/aks/cluster-autoscaler (the cluster autoscaler on node pools)",
    AKS_BOOT_TO_READY,
  ),
};
