// Amazon Elastic Kubernetes Service with managed node groups, as AWS documents it (pages read December 2026).

import { clusterAutoscaler } from "./cluster-autoscaler.ts";
import type { BootToReady, Platform } from "./types.ts";

/**
 * AWS publishes no boot-to-Ready time for an EKS node, nor do Karpenter's maintainers ("We don't
 * publish public benchmarks on this specifically for this reason -- there's a lot of variation among
 * images and instance types"). The figure is a maintainer's, aws/karpenter-provider-aws issue #6165
 * (jonathan-innis, 9 May 2024, read 2 December 2026): "We typically see new nodes come up in about
 * 30-40s in a ready state." The lower end, 30s. A practitioner's measurement agrees: hackernoon.com, "How I Reduced EKS
 * Windows Node Start Time From 5 Min to ~90s" (Omorr Faruk, 8 June 2024): "Linux nodes ... only
 * taking 30s to become available to schedule your pods". Both are Karpenter launches; a managed
 * node group's Auto Scaling group launches the same EKS-optimized AMI, but one user measured about
 * 70s to Ready through it (aws/karpenter-provider-aws issue #3102, December 2022): set
 * `autoscaler.bootSeconds` to your cluster's. Windows nodes ("5 or so minutes") are not modelled.
 */
export const EKS_BOOT_TO_READY: BootToReady = {
  seconds: 30,
  basis: "reported",
  source:
    "aws/karpenter-provider-aws issue #6165 (a Karpenter maintainer, 2024-05-09, read 2026-12-02): 'We typically see new nodes come up in about 30-40s in a ready state' (the lower end; AWS publishes no benchmark); hackernoon.com (Omorr Faruk, 2024-06-08) measured 'only taking 30s' for Linux nodes",
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
    // The same page's table, the node monitoring agent's conditions (docs.aws.amazon.com/eks/latest/
    // userguide/node-repair.md, read 2 December 2026): ContainerRuntimeReady, KernelReady,
    // NetworkingReady, StorageReady "30m", "Replace"; AcceleratedHardwareReady "10m", "Replace or
    // Reboot, depending on the condition reason" (Reboot only on managed node groups; the reason
    // codes are not modelled: Replace). DiskPressure and MemoryPressure: "N/A", no repair.
    conditions: [
      { type: "AcceleratedHardwareReady", afterSeconds: 600, action: "replace" },
      { type: "ContainerRuntimeReady", afterSeconds: 1800, action: "replace" },
      { type: "KernelReady", afterSeconds: 1800, action: "replace" },
      { type: "NetworkingReady", afterSeconds: 1800, action: "replace" },
      { type: "StorageReady", afterSeconds: 1800, action: "replace" },
    ],
    // The same page: "By default, EKS automatic node repair actions are disabled in the following
    // scenarios. In each scenario, in-progress node repairs continue": on a managed node group,
    // "more than five nodes" and "more than 20% of the nodes in the node group are unhealthy"
    // (read in its docs.amazonaws.cn translation, 2 December 2026). nodeRepairConfig's
    // maxUnhealthyNodeThreshold* override it: not modelled (the default is what a user gets).
    pause: {
      moreThanNodes: 5,
      unhealthyFraction: 0.2,
      groupLabel: "eks.amazonaws.com/nodegroup",
      source:
        "docs.aws.amazon.com/eks/latest/userguide/node-repair.html (managed node groups: more than five nodes, more than 20% unhealthy)",
    },
    source:
      "docs.aws.amazon.com/eks/latest/userguide/node-repair.html (Ready false or unknown: repair after 30m, Replace; the node monitoring agent's conditions 30m Replace, AcceleratedHardwareReady 10m; on by default in EKS Auto Mode only); the replacement's boot to Ready (30s) is a Karpenter maintainer's typical figure: AWS documents none",
  },
  storageClass: {
    name: "gp2",
    provisioner: "kubernetes.io/aws-ebs",
    volumeBindingMode: "WaitForFirstConsumer",
    zonal: true,
    // docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions-extended.html, Kubernetes 1.30
    // (read 2 December 2026): "Starting with 1.30, Amazon EKS no longer includes the default
    // annotation on the gp2 StorageClass resource applied to newly created clusters".
    notDefaultFromMinor: 30,
    source:
      "docs.aws.amazon.com/eks/latest/userguide/create-storage-class.html (gp2, EBS, WaitForFirstConsumer); clusters created on 1.30 or later get no default annotation on gp2 (docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions-extended.html, Kubernetes 1.30, read 2026-12-02)",
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
