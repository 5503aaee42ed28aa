// The Job controller's timers and the versions its rules changed in (pkg/controller/job/
// job_controller.go, KEPs). defaults.ts re-exports them.

/**
 * DefaultJobPodFailureBackOff = 10s and MaxJobPodFailureBackOff = 10m (job_controller.go; the Job
 * documentation's "capped at six minutes" is older than the code): after n failures since the last
 * success the next pod waits 10s × 2^(n−1), at most 10 minutes, counted from the last failure
 * (backoff_utils.go getRemainingTimeForFailuresCount).
 */
export const JOB_POD_FAILURE_BACKOFF = 10;
export const JOB_POD_FAILURE_BACKOFF_MAX = 600;

/**
 * KEP-3939 JobPodReplacementPolicy: alpha (off) in 1.28, so the API server drops
 * spec.podReplacementPolicy; beta and on by default in 1.29 (default TerminatingOrFailed, or Failed
 * with a podFailurePolicy); GA in 1.34. Without it a terminating pod is replaced at once unless the
 * Job has a podFailurePolicy (onlyReplaceFailedPods).
 */
export const JOB_POD_REPLACEMENT_POLICY_SINCE_MINOR = 29;

/**
 * From 1.31 the Job controller adds SuccessCriteriaMet / FailureTarget when it decides and the
 * terminal Complete / Failed only once no pod of the Job is still terminating (delayTerminalCondition,
 * with JobManagedBy or JobPodReplacementPolicy on; kubernetes.io/docs/concepts/workloads/controllers/job/
 * "Terminal Job conditions": "In Kubernetes v1.31 and later the Job controller delays the addition of
 * the terminal conditions"). Before, FailureTarget is added only for a podFailurePolicy FailJob rule.
 */
export const JOB_DELAYED_TERMINAL_CONDITION_SINCE_MINOR = 31;
