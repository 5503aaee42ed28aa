// Why each step of a node's failure comes when it does, in Kubernetes' own terms: the flag or field
// that times it and the component that acts, with the model's value and, where the incident shows
// it, the interval observed. Each names its source.

import type { CompareRow } from "./compare.ts";
import type { StepKey } from "./steps.ts";

/** The settings of the model's run that time the steps (kube-controller-manager and kubelet). */
export interface ModelTimers {
  nodeMonitorGracePeriod: number;
  nodeMonitorPeriod: number;
  nodeEvictionRate: number;
  /** the kubelet's Lease renewal interval: nodeLeaseDurationSeconds × 0.25 */
  leaseRenewInterval: number;
  /** the failed node's pods' tolerationSeconds for node.kubernetes.io/unreachable (the smallest) */
  unreachableToleration?: number;
  kubernetesVersion: string;
}

const s1 = (x: number) => `${Number(x.toFixed(1))}s`;
const seen = (row: CompareRow, what: string) =>
  row.interval?.observed !== undefined ? `; here ${s1(row.interval.observed)} after ${what}` : "";

/** One sentence for a step, or undefined for a step with none to give. */
export function timingOf(step: StepKey, t: ModelTimers, row: CompareRow): string | undefined {
  switch (step) {
    case "lease-stops":
      // pkg/kubelet/nodelease: renewInterval = nodeLeaseDurationSeconds × 0.25 (NodeLeaseRenewIntervalFraction), jittered 4%.
      return `the kubelet renews its Lease every nodeLeaseDurationSeconds × 0.25 = ${s1(t.leaseRenewInterval)} (pkg/kubelet/nodelease); the power went in the interval after the last renewal`;
    case "not-ready":
      // monitorNodeHealth → tryUpdateNodeHealth (pkg/controller/nodelifecycle/node_lifecycle_controller.go).
      return `the node controller marks Ready=Unknown at its first pass (--node-monitor-period=${s1(t.nodeMonitorPeriod)}) more than --node-monitor-grace-period=${s1(t.nodeMonitorGracePeriod)} after the last renewal it saw (tryUpdateNodeHealth)${seen(row, "the last renewal")}`;
    case "pods-not-ready":
      return `on the same pass: MarkPodsNotReady sets each pod's Ready=False when the node's Ready leaves True (pkg/controller/util/node/controller_utils.go)${seen(row, "NotReady")}`;
    case "tainted":
      // doNoExecuteTaintingPass, rate-limited per zone by --node-eviction-rate (RateLimitedTimedQueue).
      return `the next NoExecute tainting pass (doNoExecuteTaintingPass, every node-monitor-period) adds node.kubernetes.io/unreachable:NoExecute, at most --node-eviction-rate=${t.nodeEvictionRate} nodes a second per zone${seen(row, "NotReady")}`;
    case "endpoints-out":
      return "the EndpointSlice controller sets the pods' endpoints ready: false once their Ready is False (pkg/controller/endpointslice); no Event records it";
    case "evicted":
      // The taint-eviction-controller's timed queue (pkg/controller/tainteviction/taint_eviction.go).
      return `the taint-eviction-controller deletes each pod when its tolerationSeconds for node.kubernetes.io/unreachable:NoExecute run out${t.unreachableToleration !== undefined ? ` (the dump's pods: ${t.unreachableToleration}s, which DefaultTolerationSeconds admission writes from --default-unreachable-toleration-seconds, 300 by default)` : ""}, counted from the taint${row.interval?.observed !== undefined ? seen(row, "the taint") : ""}`;
    case "replacement-created":
      // FilterActivePods skips a pod with a deletionTimestamp (pkg/controller/controller_utils.go).
      return "the ReplicaSet controller counts a pod with a deletionTimestamp as gone and creates a replacement at once; a StatefulSet waits until the old pod object is gone (pkg/controller/statefulset), which a lost node's kubelet never confirms";
    case "replacement-scheduled":
      return "kube-scheduler binds the new pod in its next cycle (Scheduled, from kube-scheduler through events.k8s.io with a microsecond eventTime)";
    case "replacement-ready":
      return "the new pod is Ready when its readiness probe first passes (initialDelaySeconds, periodSeconds); no Event records it";
    case "volume-detached":
      return "the attach-detach controller force-detaches a volume 6 min after its pod is gone from a node that is not Ready (maxWaitForUnmountDuration, pkg/controller/volume/attachdetach/reconciler), or at once under node.kubernetes.io/out-of-service; no Event records it";
    case "volume-attached":
      return "the attach-detach controller attaches the volume to the new node only after the detach (SuccessfulAttachVolume); until then FailedAttachVolume says Multi-Attach error";
    default:
      return undefined;
  }
}
