// The Kubernetes versions faultline models and the settings a scenario may give (kube-controller-manager,
// kube-apiserver and kubelet fields, camelCase as in their configuration files); defaults.ts resolves them
// against each version's defaults. Here, below scenario/, so that the defaults need nothing above them.

export const SUPPORTED_VERSIONS = [
  "1.28",
  "1.29",
  "1.30",
  "1.31",
  "1.32",
  "1.33",
  "1.34",
  "1.35",
  "1.36",
  "1.37",
] as const;
export type KubernetesVersion = (typeof SUPPORTED_VERSIONS)[number];
export const NEWEST_VERSION: KubernetesVersion = "1.37";

/**
 * kube-controller-manager and kube-apiserver settings, named after their flags in camelCase.
 * Every field is optional in the file; `resolveControlPlane` (kubernetes/defaults.ts) fills the
 * version's defaults.
 */
export interface ControlPlaneOverrides {
  nodeMonitorGracePeriod?: number;
  nodeMonitorPeriod?: number;
  nodeStartupGracePeriod?: number;
  nodeEvictionRate?: number;
  secondaryNodeEvictionRate?: number;
  largeClusterSizeThreshold?: number;
  unhealthyZoneThreshold?: number;
  defaultNotReadyTolerationSeconds?: number;
  defaultUnreachableTolerationSeconds?: number;
  disableForceDetachOnTimeout?: boolean;
  terminatedPodGCThreshold?: number;
  /** false: kube-controller-manager --controllers=*,-taint-eviction-controller (KEP-3902, 1.29+) */
  taintEvictionController?: boolean;
}

/** kubelet configuration fields (KubeletConfiguration, camelCase as in the file). */
export interface KubeletOverrides {
  nodeLeaseDurationSeconds?: number;
  nodeStatusUpdateFrequency?: number;
  nodeStatusReportFrequency?: number;
  /** faultline's own: the toy kubelet of the article "Liveness vs Readiness vs Startup Probe" ("period-end") or the real one ("kubernetes"). */
  probeSchedule?: "kubernetes" | "period-end";
  /**
   * false (faultline's own) restarts crashed containers without CrashLoopBackOff (the probe article's toy kubelet);
   * a mapping is KubeletConfiguration's `crashLoopBackOff: {maxContainerRestartPeriod}` (KEP-4603).
   */
  crashLoopBackOff?: boolean | { maxContainerRestartPeriod?: number };
  /** KubeletConfiguration featureGates, those the models read. */
  featureGates?: KubeletFeatureGates;
  /** KubeletConfiguration shutdownGracePeriod (KEP-2000), seconds; 0 (the default): shutdown is immediate */
  shutdownGracePeriod?: number;
  /** KubeletConfiguration shutdownGracePeriodCriticalPods, seconds: the part of shutdownGracePeriod kept for critical pods */
  shutdownGracePeriodCriticalPods?: number;
  /** KubeletConfiguration shutdownGracePeriodByPodPriority (KEP-2712): a grace period per priority group */
  shutdownGracePeriodByPodPriority?: ShutdownGracePeriodByPodPriority[];
}

/** One entry of KubeletConfiguration shutdownGracePeriodByPodPriority (pkg/kubelet/apis/config/types.go). */
export interface ShutdownGracePeriodByPodPriority {
  /** the lower bound of the group's pod priorities */
  priority: number;
  shutdownGracePeriodSeconds: number;
}

export interface KubeletFeatureGates {
  /** KEP-4603, alpha in 1.33 (off): CrashLoopBackOff from 1s to 60s instead of 10s to 300s. */
  ReduceDefaultCrashLoopBackOffDecay?: boolean;
  /** alpha in 1.32 (off), beta in 1.35 (on): crashLoopBackOff.maxContainerRestartPeriod caps the back-off. */
  KubeletCrashLoopBackOffMax?: boolean;
}
