// `kubectl get job`: printJob in pkg/printers/internalversion/printers.go. COMPLETIONS is
// succeeded/completions (a work-queue Job without completions: `n/1 of <parallelism>`), DURATION
// is completionTime − startTime (now − startTime while it runs), STATUS (kubectl 1.30+) the first of
// Complete, Failed, Terminating, SuccessCriteriaMet, FailureTarget, Suspended, else Running.

import { humanDuration, table } from "./kubectl.ts";
import type { Job } from "./objects.ts";

/** kubectl's STATUS column of jobs appeared in 1.30. */
export const JOB_STATUS_COLUMN_SINCE_MINOR = 30;

export interface JobRow {
  name: string;
  namespace: string;
  /** absent before 1.30 */
  status?: string;
  completions: string;
  duration: string;
  age: string;
}

export function jobRow(job: Job, now: number, minor: number): JobRow {
  const { spec, status } = job;
  const completions =
    spec.completions !== null
      ? `${status.succeeded}/${spec.completions}`
      : spec.parallelism > 1
        ? `${status.succeeded}/1 of ${spec.parallelism}`
        : `${status.succeeded}/1`;
  const start = status.startTime;
  const duration = start === undefined ? "" : humanDuration((status.completionTime ?? now) - start);
  const row: JobRow = {
    name: job.metadata.name,
    namespace: job.metadata.namespace,
    completions,
    duration,
    age: humanDuration(now - (job.metadata.creationTimestamp ?? 0)),
  };
  if (minor >= JOB_STATUS_COLUMN_SINCE_MINOR) row.status = jobStatus(job);
  return row;
}

function jobStatus(job: Job): string {
  const has = (t: string) => job.status.conditions.some((c) => c.type === t);
  if (has("Complete")) return "Complete";
  if (has("Failed")) return "Failed";
  if (job.metadata.deletionTimestamp !== undefined) return "Terminating";
  if (has("SuccessCriteriaMet")) return "SuccessCriteriaMet";
  if (has("FailureTarget")) return "FailureTarget";
  if (job.spec.suspend) return "Suspended";
  return "Running";
}

/** `$ kubectl get job <name> [-n <ns>]` and what it prints. */
export function printJobRow(row: JobRow): string {
  const ns = row.namespace === "default" ? "" : ` -n ${row.namespace}`;
  const header = row.status === undefined ? ["NAME"] : ["NAME", "STATUS"];
  const cells = row.status === undefined ? [row.name] : [row.name, row.status];
  return `$ kubectl get job ${row.name}${ns}\n${table(
    [...header, "COMPLETIONS", "DURATION", "AGE"],
    [...cells, row.completions, row.duration, row.age],
  )}`;
}
