// The prose for the events of trace/job-events.ts: the Job controller (pkg/controller/job) and the
// TTL-after-finished and CronJob controllers, in their own words (condition reasons and messages, kubectl's columns).

import { printJobRow } from "../../kubernetes/kubectl-jobs.ts";
import type { EventOf } from "../../trace/events.ts";
import { fmt, round3 } from "../../trace/format.ts";
import type { JobCounts, JobEventFields } from "../../trace/job-events.ts";
import type { Printers } from "./prose.ts";

const name = (object: string) => object.slice(object.lastIndexOf("/") + 1);
const short = (nsSlashName: string) => nsSlashName.slice(nsSlashName.indexOf("/") + 1);

function counts(e: JobCounts): string {
  const target =
    e.completions === null
      ? "a first success (no completions: a work queue)"
      : `completions=${e.completions}`;
  return `succeeded ${e.succeeded} of ${target}, failed ${e.failed} of backoffLimit=${e.backoffLimit}`;
}

/** Why the Job controller created a pod (manageJob). */
export function jobCreateWhy(e: EventOf<"PodCreated"> & { by: "job-controller" }): string {
  return (
    `Job ${short(e.job)} keeps ${e.wanted} pod${e.wanted === 1 ? "" : "s"} running (min(parallelism, completions − succeeded)) and has ${e.active} active; succeeded ${e.succeeded}, failed ${e.failed}` +
    (e.index !== undefined ? `; completion index ${e.index}` : "") +
    (e.terminating > 0
      ? `; ${e.terminating} terminating pod${e.terminating === 1 ? " no longer counts" : "s no longer count"} (podReplacementPolicy TerminatingOrFailed): replaced without waiting for ${e.terminating === 1 ? "it" : "them"} to stop`
      : "") +
    (e.backoff !== undefined
      ? `; it waited out the pod-failure back-off of ${fmt(e.backoff)}s after the last failure (10s doubling per failure since the last success, at most 10m: job_controller.go DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff)`
      : "")
  );
}

function countedProse(e: EventOf<"JobPodCounted">) {
  const pod = name(e.object);
  const job = short(e.job);
  const ran = `after ${fmt(round3(e.ranFor))}s`;
  if (e.outcome === "succeeded")
    return {
      message: `Job ${job} counts ${pod} as succeeded ${ran}`,
      why: `the pod is Succeeded: ${counts(e)}`,
    };
  const how =
    e.as === "terminating"
      ? `${pod} has a deletionTimestamp and is not Succeeded: isPodFailed counts a terminating pod as failed at once (podReplacementPolicy TerminatingOrFailed), without waiting for it to stop`
      : `${pod} is Failed${e.exitCode !== undefined && e.exitCode !== 0 ? ` (exit code ${e.exitCode})` : ""}`;
  const disruption = e.disruption ? `; it has DisruptionTarget=True (${e.disruption})` : "";
  const rule = e.rule
    ? `; podFailurePolicy rule ${e.rule.index} (${e.rule.on}) matches: ${e.rule.action}`
    : e.outcome === "failed"
      ? "; no podFailurePolicy rule matches, so it counts toward backoffLimit"
      : "";
  return {
    message:
      e.outcome === "ignored"
        ? `Job ${job} ignores the failure of ${pod} ${ran}: not counted toward backoffLimit`
        : `Job ${job} counts ${pod} as failed ${ran} (${e.failed} of backoffLimit=${e.backoffLimit})`,
    why: `${how}${disruption}${rule}; ${counts(e)}`,
  };
}

export const JOB_PRINTERS: Printers<keyof JobEventFields> = {
  JobPodCounted: countedProse,
  JobWaitsForPod: (e) => ({
    message: `Job ${short(e.job)} does not replace ${name(e.object)} while it is terminating: it waits for the pod to be Failed`,
    why:
      e.source === "podReplacementPolicy"
        ? "podReplacementPolicy: Failed (KEP-3939): a replacement is created only once the old pod is fully terminated, so two never run at once; on a lost node that is when PodGC or the node's return ends it"
        : "the Job has a podFailurePolicy, which needs each failed pod's final status, so only Failed pods are replaced (onlyReplaceFailedPods)",
  }),
  JobConditionAdded: (e) => ({
    message: `Job ${short(e.job)} is ${e.condition}: ${e.reason}${e.conditionMessage ? ` "${e.conditionMessage}"` : ""}`,
    why:
      `${counts(e)}; ${fmt(round3(e.elapsed))}s after the Job started` +
      disruptedText(e.disrupted) +
      (e.condition === "FailureTarget" || e.condition === "SuccessCriteriaMet"
        ? e.terminating > 0
          ? `; the terminal condition waits until its ${e.terminating} terminating pod${e.terminating === 1 ? " is" : "s are"} gone (1.31+)`
          : "; the terminal condition follows once no pod is terminating (1.31+)"
        : ""),
    see: printJobRow(e.jobRow),
  }),
  JobDeleted: (e) => ({
    message: `the TTL-after-finished controller deletes Job ${name(e.object)} and its ${e.pods} pod${e.pods === 1 ? "" : "s"}`,
    why: `ttlSecondsAfterFinished=${e.ttlSecondsAfterFinished} after the Job finished (pkg/controller/ttlafterfinished); the garbage collector deletes the pods it owns`,
  }),
  CronJobScheduled: (e) => ({
    message:
      e.next !== undefined
        ? `CronJob ${name(e.object)} next runs at t+${clock(e.next)} (schedule "${e.schedule}")`
        : `CronJob ${name(e.object)} does not run in this ${clock(e.end)} run${e.suspend ? ": it is suspended" : ""} (schedule "${e.schedule}")`,
    why: `the run has no calendar: t=0 is taken as ${new Date(e.epoch * 1000).toISOString().replace(".000Z", "Z")}, and schedules are read in UTC; the CronJob controller creates each Job 100ms after its time (nextScheduleDelta)`,
  }),
  CronJobFired: (e) => ({
    message:
      e.created !== undefined
        ? `CronJob ${name(e.object)} creates Job ${e.created}${e.replaced.length > 0 ? `, deleting ${e.replaced.join(", ")} (concurrencyPolicy: Replace)` : ""}`
        : `CronJob ${name(e.object)} skips its run: "Not starting job because prior execution is running and concurrency policy is Forbid" (JobAlreadyActive)`,
    why: `schedule "${e.schedule}" names t+${clock(e.scheduled)}`,
  }),
};

/** What disruptions (a lost node, an eviction) cost the Job: retries counted or ignored. */
function disruptedText(d: { counted: number; ignored: number }): string {
  const n = d.counted + d.ignored;
  if (n === 0) return "";
  const pods = `${n} pod${n === 1 ? "" : "s"}`;
  const parts = [
    d.counted > 0 ? `${d.counted} counted toward backoffLimit` : "",
    d.ignored > 0 ? `${d.ignored} ignored by its podFailurePolicy` : "",
  ].filter((p) => p !== "");
  return `; ${pods} lost to a disruption (DisruptionTarget) and retried: ${parts.join(", ")}`;
}

/** Seconds as the timeline's clock: 5:00, 1:02:03. */
function clock(t: number): string {
  const s = Math.round(t);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}
