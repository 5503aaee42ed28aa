// The kubelet's defaults that more than one part of the model reads, each with its flag or field, value
// and source (paths relative to the root of the kubernetes/kubernetes repository). Re-exported by
// defaults.ts; scheduler-defaults.ts reads maxPods from here.

/**
 * KubeletConfiguration maxPods (--max-pods), 110: SetDefaults_KubeletConfiguration,
 * pkg/kubelet/apis/config/v1beta1/defaults.go; the node's status.capacity.pods.
 */
export const KUBELET_MAX_PODS = 110;

/** initialCrashLoopBackOff, 10s: pkg/kubelet/kubelet.go. */
export const CRASH_LOOP_BACKOFF_INITIAL = 10;
/** MaxCrashLoopBackOff (v1beta1.MaxContainerBackOff), 300s: pkg/kubelet/kubelet.go. */
export const CRASH_LOOP_BACKOFF_MAX = 300;
/** reducedInitialCrashLoopBackOff 1s and reducedMaxCrashLoopBackOff 60s (ReduceDefaultCrashLoopBackOffDecay): kubelet.go. */
export const REDUCED_CRASH_LOOP_BACKOFF_INITIAL = 1;
export const REDUCED_CRASH_LOOP_BACKOFF_MAX = 60;
/** An entry older than this (eventTime − lastUpdate) is forgotten (HasExpiredFunc): "10 minutes without any problems". */
export const CRASH_LOOP_BACKOFF_RESET = 600;
