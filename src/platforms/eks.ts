// Amazon Elastic Kubernetes Service with managed node groups, as AWS documents it (pages read December 2026).

import { clusterAutoscaler } from "./cluster-autoscaler.ts";
import type { BootToReady, Platform } from "./types.ts";

/**
 * AWS publishes no boot-to-Ready time for an EKS node. The figure is a practitioner's published
 * measurement: Omorr Faruk, "How I Reduced EKS Windows Node Start Time From 5 Min to ~90s",
 * hackernoon.com (8 June 2024, read 2 December 2026): "Linux nodes however are much faster to start
 * with nodes only taking 30s to become available to schedule your pods" (Linux EKS nodes launched by
 * Karpenter; a managed node group's Auto Scaling group launches the same EKS-optimized AMI). Windows
 * nodes are not modelled (the same page: "the 5 or so minutes it takes to start a Windows node").
 */
export const EKS_BOOT_TO_READY: BootToReady = {
  seconds: 30,
  basis: "measured",
  source:
    "hackernoon.com/how-i-reduced-eks-windows-node-start-time-from-5-min-to-90s (Omorr Faruk, 2024-06-08, read 2026-12-02): 'Linux nodes however are much faster to start with nodes only taking 30s to become available to schedule your pods' (one practitioner's measurement; AWS documents none)",
};

export const EKS: Platform = {
  name: "eks",
  title: "Amazon EKS",
  providerIdScheme: "aws://",
  nodeGroupLabel: "eks.amazonaws.com/nodegroup",
  controlPlaneNote:
    "EKS does not publish kube-controller-manager's node-monitor-grace-period or eviction timings: upstream defaults are assumed",
  autoRepair: {
    // "EKS automatic node repair is enabled by default in EKS Auto Mode, and can be used with EKS
    // managed node groups and Karpenter": a managed node group turns it on (nodeRepairConfig).
    enabledByDefault: false,
    // Node condition Ready: "Repair after 30m", "Replace".
    afterSeconds: 1800,
    action: "replace",
    sameName: false,
    bootSeconds: EKS_BOOT_TO_READY.seconds,
    skipTaints: [],
    source:
      "docs.aws.amazon.com/eks/latest/userguide/node-repair.html (Ready false or unknown: repair after 30m, Replace; on by default in EKS Auto Mode only); the replacement's boot to Ready (30s) is a practitioner's measurement: AWS documents none",
  },
  storageClass: {
    name: "gp2",
    provisioner: "kubernetes.io/aws-ebs",
    volumeBindingMode: "WaitForFirstConsumer",
    zonal: true,
    source:
      "docs.aws.amazon.com/eks/latest/userguide/create-storage-class.html (gp2, EBS, WaitForFirstConsumer); clusters created on 1.30 or later get no default annotation on gp2 (EKS Kubernetes 1.30 release notes)",
  },
  loadBalancer: {
    kind: "Classic Load Balancer (a type: LoadBalancer Service without the AWS Load Balancer Controller)",
    healthCheckInterval: 10,
    healthCheckTimeout: 5,
    unhealthyThreshold: 6,
    healthyThreshold: 2,
    source:
      "kubernetes/cloud-provider-aws pkg/providers/v1/aws_loadbalancer.go: defaultHCInterval 10, defaultHCTimeout 5, defaultHCUnhealthyThreshold 6, defaultHCHealthyThreshold 2; an NLB through kubernetes-sigs/aws-load-balancer-controller (pkg/service/model_builder.go) checks every 10s, timeout 10s, 3 unhealthy, 3 healthy",
  },
  spot: {
    seconds: 120,
    action: "drain",
    handledBy:
      "the AWS Node Termination Handler or Karpenter's interruption handling, which cordon and drain the node on the notice",
    source:
      "docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instance-termination-notices.html (a two-minute warning before Amazon EC2 stops or terminates a Spot Instance); karpenter.sh/docs/concepts/disruption (Interruption)",
  },
  bootToReady: EKS_BOOT_TO_READY,
  autoscaler: clusterAutoscaler(
    "docs.aws.amazon.com/eks/latest/best-practices/cas.html (Cluster Autoscaler on managed node groups)",
    EKS_BOOT_TO_READY,
  ),
};
