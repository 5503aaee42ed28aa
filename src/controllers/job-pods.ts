// What the Job controller reads of one pod (pkg/controller/job): whether it failed (isPodFailed),
// which podFailurePolicy rule it matches (pod_failure_policy.go matchPodFailurePolicy), and the
// pods' restarts under restartPolicy OnFailure (pastBackoffLimitOnFailure).

import type { Cluster } from "../cluster/context.ts";
import type { Job, JobCondition, Pod, PodFailurePolicyRule } from "../kubernetes/objects.ts";
import type { JobCounts } from "../trace/job-events.ts";
import { generatePodName, podFromTemplate } from "./pod-template.ts";

/**
 * onlyReplaceFailedPods (job_controller.go): with the JobPodReplacementPolicy gate on (1.29+),
 * podReplacementPolicy Failed; in every version, a Job with a podFailurePolicy.
 */
export function onlyReplaceFailedPods(job: Job, gate: boolean): boolean {
  return (gate && job.spec.podReplacementPolicy === "Failed") || job.spec.podFailurePolicy !== undefined;
}

/**
 * isPodFailed: phase Failed; else, unless only failed pods are replaced, a pod with a
 * deletionTimestamp that is not Succeeded ("Count deleted Pods as failures to account for orphan
 * Pods that never have a chance to reach the Failed phase").
 */
export function isPodFailed(pod: Pod, onlyFailed: boolean): "phase" | "terminating" | undefined {
  if (pod.status.phase === "Failed") return "phase";
  if (onlyFailed) return undefined;
  return pod.metadata.deletionTimestamp !== undefined && pod.status.phase !== "Succeeded"
    ? "terminating"
    : undefined;
}

export interface RuleMatch {
  index: number;
  rule: PodFailurePolicyRule;
  /** what matched, for the timeline: `exit code 3 of container main` or `DisruptionTarget=True` */
  on: string;
  /** the FailJob message, in the controller's words */
  message: string;
}

/** The first rule that matches the failed pod (matchPodFailurePolicy); onExitCodes looks at non-zero exits only. */
export function matchPodFailurePolicy(job: Job, pod: Pod): RuleMatch | undefined {
  const rules = job.spec.podFailurePolicy?.rules ?? [];
  const ns = pod.metadata.namespace;
  for (const [index, rule] of rules.entries()) {
    if (rule.onExitCodes) {
      const req = rule.onExitCodes;
      const statuses = [...pod.status.containerStatuses, ...(pod.status.initContainerStatuses ?? [])];
      const c = statuses.find(
        (s) =>
          s.state === "terminated" &&
          s.exitCode !== undefined &&
          s.exitCode !== 0 &&
          (req.containerName === undefined || req.containerName === s.name) &&
          req.values.includes(s.exitCode) === (req.operator === "In"),
      );
      if (c)
        return {
          index,
          rule,
          on: `exit code ${c.exitCode} of container ${c.name}`,
          message: `Container ${c.name} for pod ${ns}/${pod.metadata.name} failed with exit code ${c.exitCode} matching ${rule.action} rule at index ${index}`,
        };
    } else if (rule.onPodConditions) {
      const cond = pod.status.conditions.find((c) =>
        rule.onPodConditions!.some((p) => p.type === c.type && p.status === c.status),
      );
      if (cond)
        return {
          index,
          rule,
          on: `${cond.type}=${cond.status}${cond.reason ? ` (${cond.reason})` : ""}`,
          message: `Pod ${ns}/${pod.metadata.name} has condition ${cond.type} matching ${rule.action} rule at index ${index}`,
        };
    }
  }
  return undefined;
}

/**
 * pastBackoffLimitOnFailure: under restartPolicy OnFailure the kubelet restarts failed containers
 * in place, so the controller sums the active pods' restart counts (init containers too): at least
 * backoffLimit (more than 0 when it is 0) fails the Job.
 */
export function pastBackoffLimitOnFailure(job: Job, active: readonly Pod[]): boolean {
  if (job.spec.template.spec.restartPolicy !== "OnFailure") return false;
  let restarts = 0;
  for (const pod of active)
    for (const s of [...pod.status.containerStatuses, ...(pod.status.initContainerStatuses ?? [])])
      restarts += s.restartCount;
  return job.spec.backoffLimit === 0 ? restarts > 0 : restarts >= job.spec.backoffLimit;
}

/** getRemainingTimeForFailuresCount (backoff_utils.go): 10s × 2^(n−1), capped, less the time since the last failure. */
export function remainingBackoff(failures: number, since: number, initial: number, max: number): number {
  if (failures === 0) return 0;
  let d = initial;
  for (let i = 1; i < failures; i++) {
    d *= 2;
    if (d >= max) {
      d = max;
      break;
    }
  }
  return d <= since ? 0 : d - since;
}

/** A pod of the Job from its template, with the Job's labels (and, Indexed, its completion index). */
export function jobPod(cluster: Cluster, job: Job, index: number | undefined): Pod {
  const { namespace, name, uid = "" } = job.metadata;
  // The API server's generated selector labels the template (pkg/registry/batch/job/strategy.go
  // generateSelector): batch.kubernetes.io/controller-uid and job-name, and their legacy names.
  const labels: Record<string, string> = {
    "batch.kubernetes.io/controller-uid": uid,
    "batch.kubernetes.io/job-name": name,
    "controller-uid": uid,
    "job-name": name,
  };
  if (index !== undefined) labels["batch.kubernetes.io/job-completion-index"] = String(index);
  const prefix = index === undefined ? name : `${name}-${index}`;
  const pod = podFromTemplate(
    cluster,
    job.spec.template,
    namespace,
    generatePodName(cluster, namespace, prefix),
    { kind: "Job", name },
    labels,
  );
  if (index !== undefined) {
    // The index annotation and hostname `<job>-<index>` (indexed_job_utils.go addCompletionIndexAnnotation; manageJob sets spec.hostname).
    pod.metadata.annotations = {
      ...pod.metadata.annotations,
      "batch.kubernetes.io/job-completion-index": String(index),
    };
    pod.spec.hostname = prefix;
  }
  return pod;
}

export function finished(job: Job): boolean {
  return hasCondition(job, "Complete") || hasCondition(job, "Failed");
}

export function hasCondition(job: Job, type: JobCondition["type"]): boolean {
  return job.status.conditions.some((c) => c.type === type);
}

export function indexOf(pod: Pod): number {
  return Number(pod.metadata.annotations?.["batch.kubernetes.io/job-completion-index"] ?? -1);
}

export function counts(job: Job): JobCounts {
  return {
    job: `${job.metadata.namespace}/${job.metadata.name}`,
    succeeded: job.status.succeeded,
    failed: job.status.failed,
    completions: job.spec.completions,
    backoffLimit: job.spec.backoffLimit,
  };
}
