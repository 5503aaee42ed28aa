// Events of the Job controller (pkg/controller/job), the TTL-after-finished controller and the
// CronJob controller (pkg/controller/cronjob).
// Fields only; report/messages/jobs.ts writes the prose.

import type { JobRow } from "../kubernetes/kubectl-jobs.ts";
import type { JobCondition, PodFailurePolicyAction } from "../kubernetes/objects.ts";

/** The Job's counts when the controller acted (status.succeeded, status.failed, spec). */
export interface JobCounts {
  /** `<ns>/<name>` */
  job: string;
  succeeded: number;
  failed: number;
  /** null: a work-queue Job (no completions) */
  completions: number | null;
  backoffLimit: number;
}

export interface JobEventFields {
  /** A pod of the Job finished, or (TerminatingOrFailed) is terminating: the controller counts it once. */
  JobPodCounted: {
    by: "job-controller";
    outcome: "succeeded" | "failed" | "ignored";
    /** failed because its phase is Failed, or because it has a deletionTimestamp (isPodFailed) */
    as: "phase" | "terminating";
    exitCode?: number;
    /** the pod's DisruptionTarget condition's reason, when it has one */
    disruption?: string;
    /** the podFailurePolicy rule that matched the pod */
    rule?: { index: number; action: PodFailurePolicyAction; on: string };
    /** the pod's time from its creation to its end */
    ranFor: number;
  } & JobCounts;
  /** A pod is terminating and the Job waits for it to be Failed before replacing it, told once per pod. */
  JobWaitsForPod: {
    by: "job-controller";
    /** what makes it wait: podReplacementPolicy Failed, or (before 1.29) a podFailurePolicy */
    source: "podReplacementPolicy" | "podFailurePolicy";
  } & JobCounts;
  /** The controller added a condition to the Job. */
  JobConditionAdded: {
    by: "job-controller";
    condition: JobCondition["type"];
    reason: string;
    conditionMessage: string;
    /** seconds since status.startTime */
    elapsed: number;
    /** pods still terminating, for whom the terminal condition waits (1.31+) */
    terminating: number;
    /** failed pods that had DisruptionTarget=True: how many counted toward backoffLimit, how many a rule ignored */
    disrupted: { counted: number; ignored: number };
    jobRow: JobRow;
  } & JobCounts;
  /** ttlSecondsAfterFinished: the TTL-after-finished controller deletes the finished Job and its pods. */
  JobDeleted: { by: "ttl-after-finished-controller"; ttlSecondsAfterFinished: number; pods: number };
  /** At t=0: a CronJob's next run inside the run, or none (`next` absent). */
  CronJobScheduled: {
    by: "cronjob-controller";
    schedule: string;
    suspend: boolean;
    /** t=0 as seconds since the Unix epoch */
    epoch: number;
    /** the run's end, seconds from t=0 */
    end: number;
    next?: number;
  };
  /** The CronJob controller creates a Job for a scheduled time, or skips it (Forbid). */
  CronJobFired: {
    by: "cronjob-controller";
    schedule: string;
    /** the scheduled time, seconds from t=0 */
    scheduled: number;
    created?: string;
    skipped?: "Forbid";
    /** Replace: the active Jobs it deleted */
    replaced: string[];
  };
}
