// Every version-dependent default in one place, each with its flag or field, value and source.
// Paths are relative to the root of the kubernetes/kubernetes repository.

// The connection pools of the clients callers use: a sibling file, re-exported here.
export * from "./client-defaults.ts";
// The Job controller's back-off and version gates.
export * from "./job-defaults.ts";
// The kubelet's own defaults (maxPods, the crash-loop back-off): a sibling file, re-exported here and read
// by scheduler-defaults.ts too (which defaults.ts re-exports, so it cannot import defaults.ts).
export * from "./kubelet-defaults.ts";

import type {
  ControlPlaneOverrides,
  KubeletOverrides,
  KubernetesVersion,
  ShutdownGracePeriodByPodPriority,
} from "./configuration.ts";
import {
  CRASH_LOOP_BACKOFF_INITIAL,
  CRASH_LOOP_BACKOFF_MAX,
  KUBELET_MAX_PODS,
  REDUCED_CRASH_LOOP_BACKOFF_INITIAL,
  REDUCED_CRASH_LOOP_BACKOFF_MAX,
} from "./kubelet-defaults.ts";

export function minor(version: KubernetesVersion): number {
  return Number(version.split(".")[1]);
}

export interface ControlPlaneSettings {
  /** --node-monitor-period, 5s: SetDefaults_KubeCloudSharedConfiguration (cloud-provider config defaults). */
  nodeMonitorPeriod: number;
  /**
   * --node-monitor-grace-period: 40s up to 1.31, 50s from 1.32 (PR #126287,
   * pkg/controller/nodelifecycle/config/v1alpha1/defaults.go).
   */
  nodeMonitorGracePeriod: number;
  /** --node-startup-grace-period, 60s: same defaults.go. */
  nodeStartupGracePeriod: number;
  /** --node-eviction-rate, 0.1 nodes/s per zone: cmd/kube-controller-manager/app/options/nodelifecyclecontroller.go. */
  nodeEvictionRate: number;
  /** --secondary-node-eviction-rate, 0.01: same file. */
  secondaryNodeEvictionRate: number;
  /** --large-cluster-size-threshold, 50: same file; the code compares it with the zone's size. */
  largeClusterSizeThreshold: number;
  /** --unhealthy-zone-threshold, 0.55: same file. */
  unhealthyZoneThreshold: number;
  /** kube-apiserver --default-not-ready-toleration-seconds, 300: plugin/pkg/admission/defaulttolerationseconds. */
  defaultNotReadyTolerationSeconds: number;
  /** kube-apiserver --default-unreachable-toleration-seconds, 300: same plugin. */
  defaultUnreachableTolerationSeconds: number;
  /** --disable-force-detach-on-timeout, false: cmd/kube-controller-manager/app/options/attachdetachcontroller.go. */
  disableForceDetachOnTimeout: boolean;
  /**
   * --terminated-pod-gc-threshold, 12500: KubeControllerManagerConfiguration
   * PodGCController.TerminatedPodGCThreshold (pkg/controller/podgc/config/v1alpha1/defaults.go;
   * gcTerminated, not modelled).
   */
  terminatedPodGCThreshold: number;
  /**
   * kube-controller-manager's taint-eviction-controller runs (--controllers, on by default): the
   * taint-based eviction as its own controller, separate from the node lifecycle controller's
   * tainting (KEP-3902, feature gate SeparateTaintEvictionController: beta and on by default in
   * 1.29, GA and locked on in 1.34). `--controllers=*,-taint-eviction-controller` turns the
   * evictions off while the NoExecute taints stay. 1.28 has no controller of that name.
   */
  taintEvictionController: boolean;
}

/** The first minor with a taint-eviction-controller to disable (KEP-3902 beta, SeparateTaintEvictionController). */
export const SEPARATE_TAINT_EVICTION_CONTROLLER_SINCE_MINOR = 29;

export function resolveControlPlane(
  version: KubernetesVersion,
  overrides: ControlPlaneOverrides,
): ControlPlaneSettings {
  return {
    nodeMonitorPeriod: 5,
    nodeMonitorGracePeriod: minor(version) >= 32 ? 50 : 40,
    nodeStartupGracePeriod: 60,
    nodeEvictionRate: 0.1,
    secondaryNodeEvictionRate: 0.01,
    largeClusterSizeThreshold: 50,
    unhealthyZoneThreshold: 0.55,
    defaultNotReadyTolerationSeconds: 300,
    defaultUnreachableTolerationSeconds: 300,
    disableForceDetachOnTimeout: false,
    terminatedPodGCThreshold: 12500,
    taintEvictionController: true,
    ...definedOnly(overrides),
  };
}

export interface KubeletSettings {
  /** nodeLeaseDurationSeconds, 40: pkg/kubelet/apis/config/v1beta1/defaults.go. */
  nodeLeaseDurationSeconds: number;
  /** nodeStatusUpdateFrequency, 10s: same defaults.go. */
  nodeStatusUpdateFrequency: number;
  /** nodeStatusReportFrequency, 5m (1m in older docs): same defaults.go. */
  nodeStatusReportFrequency: number;
  probeSchedule: "kubernetes" | "period-end";
  crashLoopBackOff: boolean;
  /** newCrashLoopBackOff (pkg/kubelet/kubelet.go): the first back-off and its cap, in seconds. */
  crashLoopBackOffInitial: number;
  crashLoopBackOffMax: number;
  /**
   * Graceful node shutdown (KEP-2000): shutdownGracePeriod and shutdownGracePeriodCriticalPods, both
   * 0s by default (pkg/kubelet/apis/config/v1beta1/defaults.go sets neither, so the shutdown is
   * immediate), and shutdownGracePeriodByPodPriority, empty by default.
   */
  shutdownGracePeriod: number;
  shutdownGracePeriodCriticalPods: number;
  shutdownGracePeriodByPodPriority: ShutdownGracePeriodByPodPriority[];
}

/** The kubelet's graceful node shutdown settings (kubelet/node-shutdown.ts reads them). */
export type ShutdownConfig = Pick<
  KubeletSettings,
  "shutdownGracePeriod" | "shutdownGracePeriodCriticalPods" | "shutdownGracePeriodByPodPriority"
>;

/**
 * A scenario node's capacity when it gives none: 4 cpu, 16Gi of memory and the kubelet's default
 * maxPods. faultline's own choice (a common cloud worker size), not a Kubernetes default.
 */
export const DEFAULT_NODE_CAPACITY = { cpu: 4, memory: 16 * 2 ** 30, pods: KUBELET_MAX_PODS } as const;

/** The kubelet feature gates the models read: the minor version each appeared in, and each state's default. */
export const KUBELET_FEATURE_GATES = {
  // KEP-4603 (pkg/features/kube_features.go): alpha in 1.33, off by default.
  ReduceDefaultCrashLoopBackOffDecay: { since: 33, defaultOn: (_minor: number) => false },
  // PR #128374: alpha in 1.32; beta (on by default) in 1.35 per the feature-gate docs, not yet checked
  // against pkg/features/kube_features.go.
  KubeletCrashLoopBackOffMax: { since: 32, defaultOn: (m: number) => m >= 35 },
} as const;

export function resolveKubelet(version: KubernetesVersion, overrides: KubeletOverrides): KubeletSettings {
  const m = minor(version);
  const { crashLoopBackOff, featureGates, ...rest } = overrides;
  const gate = (name: keyof typeof KUBELET_FEATURE_GATES) =>
    featureGates?.[name] ?? KUBELET_FEATURE_GATES[name].defaultOn(m);
  // newCrashLoopBackOff: (300s, 10s); (60s, 1s) with ReduceDefaultCrashLoopBackOffDecay; then with
  // KubeletCrashLoopBackOffMax the cap is crashLoopBackOff.maxContainerRestartPeriod (1s–300s,
  // defaulted to 300s), and the first back-off never exceeds it.
  let initial = CRASH_LOOP_BACKOFF_INITIAL;
  let max = CRASH_LOOP_BACKOFF_MAX;
  if (gate("ReduceDefaultCrashLoopBackOffDecay")) {
    initial = REDUCED_CRASH_LOOP_BACKOFF_INITIAL;
    max = REDUCED_CRASH_LOOP_BACKOFF_MAX;
  }
  if (gate("KubeletCrashLoopBackOffMax")) {
    max =
      (typeof crashLoopBackOff === "object" ? crashLoopBackOff.maxContainerRestartPeriod : undefined) ?? max;
    if (max < initial) initial = max;
  }
  const settings: KubeletSettings = {
    nodeLeaseDurationSeconds: 40,
    nodeStatusUpdateFrequency: 10,
    // "for backward compatibility" it equals nodeStatusUpdateFrequency when that was set explicitly
    // (pkg/kubelet/apis/config/v1beta1/defaults.go).
    nodeStatusReportFrequency: rest.nodeStatusUpdateFrequency ?? 300,
    probeSchedule: "kubernetes",
    crashLoopBackOff: crashLoopBackOff !== false,
    crashLoopBackOffInitial: initial,
    crashLoopBackOffMax: max,
    shutdownGracePeriod: 0,
    shutdownGracePeriodCriticalPods: 0,
    shutdownGracePeriodByPodPriority: [],
    ...definedOnly(rest),
  };
  return settings;
}

/**
 * The renew interval: leaseDuration × nodeLeaseRenewIntervalFraction (0.25), pkg/kubelet/kubelet.go;
 * 10s at the default 40s duration.
 */
export const NODE_LEASE_RENEW_INTERVAL_FRACTION = 0.25;
/** wait.JitterUntil(sync, renewInterval, 0.04, sliding=true): lease/controller.go. */
export const LEASE_RENEW_JITTER = 0.04;
/** backoffEnsureLease: 200ms doubling to maxBackoff 7s, forever: lease/controller.go. */
export const LEASE_BACKOFF_INITIAL = 0.2;
export const LEASE_BACKOFF_MAX = 7;

/** NodeEvictionPeriod, 100ms: pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go. */
export const NODE_EVICTION_PERIOD = 0.1;
/**
 * The monitor pass runs through wait.UntilWithContext (staging/src/k8s.io/apimachinery/pkg/util/wait,
 * started in node_lifecycle_controller.go Run), a *sliding* period: the next pass starts
 * nodeMonitorPeriod after the previous one finished. A pass's own processing time (ε) is what makes
 * the pass at probeTimestamp + grace + 10ε the first that is strictly after the grace period
 * (tryUpdateNodeHealth compares with Go's time.After). faultline takes ε = 0.1ms.
 */
export const MONITOR_PASS_PROCESSING = 0.0001;
/** Retry when the Ready condition is missing at tainting time: 50ms, node_lifecycle_controller.go. */
export const TAINT_RETRY_MISSING_READY = 0.05;

/** PodGC: gcCheckPeriod 20s, quarantineTime 40s: pkg/controller/podgc/gc_controller.go. */
export const PODGC_CHECK_PERIOD = 20;
export const PODGC_QUARANTINE = 40;

/** ReconcilerMaxWaitForUnmountDuration, 6 min: attach_detach_controller.go DefaultTimerConfig. */
export const MAX_WAIT_FOR_UNMOUNT = 360;
/** ReconcilerLoopPeriod, 100ms: same DefaultTimerConfig. */
export const ATTACH_DETACH_LOOP_PERIOD = 0.1;
/**
 * The attach/detach controller's FailedAttachVolume event for a ReadWriteOnce volume still attached
 * elsewhere (reconciler.go reportMultiAttachError): "Multi-Attach error … can't be attached to
 * another" up to 1.36, "Waiting for detach … waiting on detach before it can be attached to another
 * node" from 1.37 (kubernetes/kubernetes issue #138836, "Multi-attach events unnecessarily scary").
 */
export const WAITING_FOR_DETACH_SINCE_MINOR = 37;

/**
 * The kubelet's status loop, wait.JitterUntil(syncNodeStatus, nodeStatusUpdateFrequency, 0.04,
 * sliding=true) (pkg/kubelet/kubelet.go Run): every 10s (the KubeletConfiguration default) plus up
 * to 4%. Each run compares the status it computes with the Node the API has (tryUpdateNodeStatus,
 * nodeStatusHasChanged, heartbeat times ignored) and patches at once when they differ.
 */
export const NODE_STATUS_UPDATE_JITTER = 0.04;
/**
 * The status manager's ticker, syncPeriod 10s (pkg/kubelet/status/status_manager.go Start,
 * time.NewTicker): each tick, syncBatch(true) compares every pod's status in the API with its own
 * (needsReconcile, isPodStatusByKubeletEqual over the kubelet-owned conditions) and writes its own
 * back where they differ: "kubelet should be the source of truth of pod status".
 */
export const STATUS_MANAGER_SYNC_PERIOD = 10;
/**
 * The container runtime as the kubelet watches it (pkg/kubelet/kubelet.go, runtime.go):
 * updateRuntimeUp runs every 5s (wait.Until) and records the last successful runtime Status call;
 * runtimeErrors reports "container runtime is down" once that is maxWaitForContainerRuntime (30s)
 * old. The PLEG relists every plegRelistPeriod (1s; pkg/kubelet/pleg/generic.go), only a successful
 * relist moves its relist time, and its health check fails once that is older than
 * relistThreshold (3m): "PLEG is not healthy: pleg was last seen active … ago; threshold is 3m0s".
 */
export const RUNTIME_UP_PERIOD = 5;
export const MAX_WAIT_FOR_CONTAINER_RUNTIME = 30;
export const PLEG_RELIST_PERIOD = 1;
export const PLEG_RELIST_THRESHOLD = 180;
/**
 * syncLoop skips pod synchronization while runtimeErrors is not empty ("Skipping pod
 * synchronization"), sleeping 100ms doubling to 5s between checks (pkg/kubelet/kubelet.go syncLoop):
 * after a long outage it checks again every 5s.
 */
export const SYNC_LOOP_BACKOFF_MAX = 5;

/** delayAfterNodeStatusChange: ±50% of nodeStatusReportFrequency after a change, PR #130919 (≈1.33). */
export const NODE_STATUS_REPORT_JITTER_SINCE_MINOR = 33;

/**
 * minimumGracePeriodInSeconds, 2: killContainer (pkg/kubelet/kuberuntime/kuberuntime_container.go)
 * raises a shorter grace period to it after the preStop hook, an override's included (the override
 * replaces the grace period before the hook runs).
 */
export const MINIMUM_GRACE_PERIOD = 2;

/**
 * PodLifecycleSleepAction (pkg/features/kube_features.go): the preStop/postStart `sleep` action,
 * alpha (off) in 1.29, beta and on by default from 1.30, GA in 1.34.
 */
export const POD_LIFECYCLE_SLEEP_ACTION_SINCE_MINOR = 30;

/** PodLifecycleSleepActionAllowZero: a sleep action of 0 seconds, alpha in 1.32, on by default from 1.33. */
export const SLEEP_ACTION_ALLOW_ZERO_SINCE_MINOR = 33;

/** Pod spec.terminationGracePeriodSeconds default, 30: pkg/apis/core/v1/defaults.go. */
export const DEFAULT_TERMINATION_GRACE_PERIOD = 30;

/**
 * Probe fields left out of a manifest: SetDefaults_Probe in pkg/apis/core/v1/defaults.go
 * (timeoutSeconds 1, periodSeconds 10, successThreshold 1, failureThreshold 3); initialDelaySeconds
 * is 0 when unset (an int32 field with no default).
 */
export const PROBE_DEFAULTS = {
  initialDelaySeconds: 0,
  periodSeconds: 10,
  timeoutSeconds: 1,
  successThreshold: 1,
  failureThreshold: 3,
} as const;

/**
 * KubeletConfiguration syncFrequency, 1m (pkg/kubelet/apis/config/v1beta1/defaults.go): after a
 * successful sync the pod worker re-queues the pod after wait.Jitter(syncFrequency, 0.5), i.e.
 * 60–90s (workerResyncIntervalJitterFactor, pkg/kubelet/pod_workers.go). Each sync while a container
 * is not ready triggers an extra readiness run (prober_manager.go UpdatePodStatus).
 */
export const KUBELET_SYNC_FREQUENCY = 60;
export const POD_WORKER_RESYNC_JITTER = 0.5;
/**
 * backOffPeriod, 10s (pkg/kubelet/kubelet.go): a sync that fails (a container in CrashLoopBackOff)
 * is retried after wait.Jitter(10s, 0.5) = 10–15s (workerBackOffPeriodJitterFactor, pod_workers.go).
 * From ≈1.35 (PR #133066, "Propagate backoff duration for crashloop backoff") the pod is re-queued at
 * the back-off's exact expiry instead (merged after 2025-09-30, so likely 1.35: not yet checked
 * against a release branch).
 */
export const KUBELET_BACKOFF_PERIOD = 10;
export const POD_WORKER_BACKOFF_JITTER = 0.5;
export const EXACT_CRASHLOOP_REQUEUE_SINCE_MINOR = 35;
/**
 * PR #119089 (≈1.29): a manual readiness run resets the probe worker's ticker, so the next periodic
 * run is a full period after it (pkg/kubelet/prober/worker.go, run).
 */
export const MANUAL_PROBE_RESETS_TICKER_SINCE_MINOR = 29;

/**
 * kubectl drain retries an eviction refused by a PodDisruptionBudget (429) every 5s: Helper.evictPods
 * (staging/src/k8s.io/kubectl/pkg/drain/drain.go), `apierrors.IsTooManyRequests(err)` → "error when
 * evicting pods/… (will retry after 5s)", `time.Sleep(5 * time.Second)`; a constant, no flag sets it.
 */
export const DRAIN_EVICTION_RETRY = 5;

/** The version string `kubectl get nodes` shows in its VERSION column. */
export function kubeletVersionString(version: KubernetesVersion, patch = 0): string {
  return `v${version}.${patch}`;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

export * from "./scheduler-defaults.ts";
/**
 * KEP-3085 PodReadyToStartContainersCondition: beta and on by default from 1.29
 * (kubernetes/kubernetes#119659): the kubelet writes the pod's PodReadyToStartContainers condition
 * (True once the sandbox is up, networking configured).
 */
export const POD_READY_TO_START_CONTAINERS_SINCE_MINOR = 29;
/**
 * KEP-753 SidecarContainers: alpha (off) in 1.28, beta and on by default from 1.29, GA 1.33
 * (kubernetes/enhancements keps/sig-node/753-sidecar-containers/kep.yaml). With the gate off the
 * API server drops an init container's `restartPolicy: Always` (dropDisabledPodFields).
 */
export const SIDECAR_CONTAINERS_SINCE_MINOR = 29;
/**
 * KEP-4781 "Restarting kubelet does not change pod status" (kubernetes/kubernetes#133676, v1.35):
 * with the deprecated gate ChangeContainerStatusOnKubeletRestart off (its default from 1.35), a
 * restarted kubelet keeps its running containers' Started and Ready (prober worker.go isRestart,
 * prober_manager.go setReadyStateOnKubeletRestart); before 1.35 every readiness result restarts at
 * Failure and the pod is NotReady until its readiness probe passes again.
 */
export const KUBELET_RESTART_KEEPS_POD_STATUS_SINCE_MINOR = 35;
/**
 * KEP-5307 ContainerRestartRules: alpha (off) 1.34, beta and on by default 1.35 (kubernetes/
 * enhancements keps/sig-node/5307-container-restart-policy/kep.yaml): an app container's own
 * `restartPolicy` and `restartPolicyRules` decide its restarts (pkg/api/v1/pod ContainerShouldRestart);
 * with the gate off the API server drops both fields (dropDisabledPodFields).
 */
export const CONTAINER_RESTART_RULES_SINCE_MINOR = 35;
/**
 * KEP-4444 ServiceTrafficDistribution: alpha (off) 1.30, beta and on by default 1.31, GA 1.33
 * (kubernetes/enhancements keps/sig-network/4444-service-traffic-distribution; the feature-gate
 * page). Before, the API server drops `spec.trafficDistribution` (1.30: dropDisabledServiceFields;
 * 1.28–1.29: the field does not exist) and the EndpointSlice controller writes no hints.
 */
export const SERVICE_TRAFFIC_DISTRIBUTION_SINCE_MINOR = 31;
/**
 * KEP-3015 PreferSameTrafficDistribution (kube-apiserver, kube-controller-manager, kube-proxy):
 * alpha (off) 1.33, beta and on by default 1.34, GA 1.35 (keps/sig-network/3015-prefer-same-node/
 * kep.yaml). With it off the API server accepts only "PreferClose" and kube-proxy reads no node
 * hints (pkg/proxy/topology.go topologyModeFromHints).
 */
export const PREFER_SAME_TRAFFIC_DISTRIBUTION_SINCE_MINOR = 34;
/**
 * KEP-961 MaxUnavailableStatefulSet (kube-apiserver, kube-controller-manager): alpha (off) 1.24–1.34;
 * beta and on in 1.35.0–1.35.3; off again from 1.35.4 (kubernetes/kubernetes#137926, the cherry-pick
 * of #137904: it broke Parallel pod management, #137409) and in 1.36 (#137904); on in 1.37 (#139466,
 * after the fix #137666). The feature-gate page (kubernetes/website#55757, #56128) has the same stages.
 */
export function maxUnavailableStatefulSet(version: KubernetesVersion, patch = 0): boolean {
  const m = minor(version);
  return m === 35 ? patch < 4 : m >= 37;
}
