// batch/v1 Job and CronJob (k8s.io/api batch/v1 types.go), with the fields the Job controller and
// the CronJob controller read. objects.ts re-exports them and names them with its PodTemplateSpec
// (Job = JobOf<PodTemplateSpec>), so that this file does not import objects.ts.

import type { LabelSelector, ObjectMeta } from "./objects-meta.ts";

/** podFailurePolicy.rules[].action (FailIndex needs backoffLimitPerIndex, not modelled). */
export type PodFailurePolicyAction = "FailJob" | "Ignore" | "Count" | "FailIndex";

export interface PodFailurePolicyRule {
  action: PodFailurePolicyAction;
  onExitCodes?: { containerName?: string; operator: "In" | "NotIn"; values: number[] };
  /** each pattern's status defaults to True (batch/v1 defaults) */
  onPodConditions?: { type: string; status: "True" | "False" | "Unknown" }[];
}

export interface JobSpecOf<PodTemplateSpec> {
  /** spec.parallelism, default 1 */
  parallelism: number;
  /** spec.completions: null is a work-queue Job (done at the first success); default parallelism's 1 */
  completions: number | null;
  completionMode: "NonIndexed" | "Indexed";
  /** default 6 */
  backoffLimit: number;
  activeDeadlineSeconds?: number;
  podFailurePolicy?: { rules: PodFailurePolicyRule[] };
  /** KEP-3939; undefined where the API server drops it (1.28) */
  podReplacementPolicy?: "TerminatingOrFailed" | "Failed";
  ttlSecondsAfterFinished?: number;
  suspend: boolean;
  selector?: LabelSelector;
  template: PodTemplateSpec;
}

export interface JobCondition {
  type: "Complete" | "Failed" | "SuccessCriteriaMet" | "FailureTarget" | "Suspended";
  status: "True";
  reason: string;
  message: string;
  lastTransitionTime: number;
}

export interface JobOf<PodTemplateSpec> {
  kind: "Job";
  metadata: ObjectMeta & { namespace: string };
  spec: JobSpecOf<PodTemplateSpec>;
  status: {
    active: number;
    succeeded: number;
    failed: number;
    /** pods terminating (deletionTimestamp set, not yet terminal): status.terminating */
    terminating: number;
    startTime?: number;
    completionTime?: number;
    conditions: JobCondition[];
  };
}

export interface CronJobOf<PodTemplateSpec> {
  kind: "CronJob";
  metadata: ObjectMeta & { namespace: string };
  spec: {
    schedule: string;
    /** only UTC is modelled (another zone is listed as not modelled) */
    timeZone?: string;
    concurrencyPolicy: "Allow" | "Forbid" | "Replace";
    startingDeadlineSeconds?: number;
    suspend: boolean;
    successfulJobsHistoryLimit?: number;
    failedJobsHistoryLimit?: number;
    jobTemplate: { metadata?: { labels?: Record<string, string> }; spec: JobSpecOf<PodTemplateSpec> };
  };
}
