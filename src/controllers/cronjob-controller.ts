// The CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go syncCronJob): at each time
// its schedule names it creates a Job `<cronjob>-<scheduled time in minutes since the epoch>`
// (getJobName) from the jobTemplate, owned by the CronJob, 100ms after the time (nextScheduleDelta);
// concurrencyPolicy Forbid skips a run while an earlier Job is active, Replace deletes the active
// Jobs first; finished Jobs beyond successfulJobsHistoryLimit / failedJobsHistoryLimit are deleted,
// oldest first (cleanupFinishedJobs). kube-controller-manager never falls behind here, so a run is
// never later than startingDeadlineSeconds. The run has no calendar: t=0 is taken as
// 2024-03-06T09:17:00Z (a Wednesday morning, on no round hour, so that hourly and daily schedules
// do not all fire at t=0), in UTC, and the timeline says so.

import { deletePodGracefully } from "../cluster/api.ts";
import type { Cluster } from "../cluster/context.ts";
import { controllerOf, ref } from "../cluster/store.ts";
import { type CronSchedule, nextCronTime, parseCron } from "../kubernetes/cron.ts";
import type { CronJob, Job } from "../kubernetes/objects.ts";
import { finished } from "./job-pods.ts";

/** The run's t=0 as seconds since the Unix epoch: 2024-03-06T09:17:00Z. */
export const CRON_EPOCH = 1_709_716_620;
/** nextScheduleDelta (cronjob_controllerv2.go): the controller requeues 100ms after the scheduled time. */
export const NEXT_SCHEDULE_DELTA = 0.1;

export class CronJobController {
  constructor(
    private readonly cluster: Cluster,
    /** the run's end, seconds from t=0: the last time worth scheduling */
    private readonly end: number,
  ) {
    cluster.store.watch("CronJob", (type, cj) => {
      if (type === "ADDED") this.scheduleNext(cj, cluster.engine.now);
    });
  }

  /** At t=0: each CronJob's next run inside the window, or that it has none (told once). */
  announce(): void {
    for (const cj of this.cluster.store.list("CronJob")) {
      // A run due at t=0 itself is created at t=0.1: it counts.
      const next = nextRun(cj, -NEXT_SCHEDULE_DELTA, this.end);
      this.cluster.trace.emit({
        type: "CronJobScheduled",
        lane: "control-plane",
        object: ref(cj),
        by: "cronjob-controller",
        schedule: cj.spec.schedule,
        suspend: cj.spec.suspend,
        epoch: CRON_EPOCH,
        end: this.end,
        ...(next !== undefined && !cj.spec.suspend ? { next } : {}),
      });
    }
  }

  private scheduleNext(cj: CronJob, after: number): void {
    const next = nextRun(cj, after, this.end);
    if (next === undefined || cj.spec.suspend) return;
    this.cluster.engine.at(next + NEXT_SCHEDULE_DELTA, () => this.fire(cj, next));
  }

  private fire(cj: CronJob, scheduled: number): void {
    if (!this.cluster.store.exists(cj)) return;
    const owned = this.jobsOf(cj);
    const active = owned.filter((j) => !finished(j));
    const base = {
      lane: "control-plane" as const,
      object: ref(cj),
      by: "cronjob-controller" as const,
      schedule: cj.spec.schedule,
      scheduled,
    };
    if (cj.spec.concurrencyPolicy === "Forbid" && active.length > 0) {
      // Event JobAlreadyActive: "Not starting job because prior execution is running and concurrency policy is Forbid".
      if (!this.cluster.trace.muted)
        this.cluster.trace.emit({ type: "CronJobFired", ...base, skipped: "Forbid", replaced: [] });
      this.scheduleNext(cj, scheduled);
      return;
    }
    const replaced = cj.spec.concurrencyPolicy === "Replace" ? active : [];
    for (const job of replaced) this.deleteJob(job, "concurrencyPolicy: Replace");
    const job = this.createJob(cj, scheduled);
    if (!this.cluster.trace.muted)
      this.cluster.trace.emit({
        type: "CronJobFired",
        ...base,
        created: job.metadata.name,
        replaced: replaced.map((j) => j.metadata.name),
      });
    this.cleanup(cj);
    this.scheduleNext(cj, scheduled);
  }

  private createJob(cj: CronJob, scheduled: number): Job {
    const { namespace, name } = cj.metadata;
    const labels = cj.spec.jobTemplate.metadata?.labels;
    return this.cluster.store.create<Job>({
      kind: "Job",
      metadata: {
        name: `${name}-${Math.floor((CRON_EPOCH + scheduled) / 60)}`,
        namespace,
        ...(labels ? { labels: { ...labels } } : {}),
        ownerReferences: [{ kind: "CronJob", name, controller: true }],
        creationTimestamp: this.cluster.engine.now,
      },
      spec: structuredClone(cj.spec.jobTemplate.spec),
      status: { active: 0, succeeded: 0, failed: 0, terminating: 0, conditions: [] },
    });
  }

  /** cleanupFinishedJobs: the oldest finished Jobs beyond each history limit go. */
  private cleanup(cj: CronJob): void {
    const done = this.jobsOf(cj).filter(finished);
    const byOutcome = (failed: boolean) =>
      done.filter((j) => j.status.conditions.some((c) => c.type === "Failed") === failed);
    const trim = (jobs: Job[], keep: number) => {
      for (const job of jobs.slice(0, Math.max(0, jobs.length - keep))) this.deleteJob(job, "history limit");
    };
    trim(byOutcome(false), cj.spec.successfulJobsHistoryLimit ?? 3);
    trim(byOutcome(true), cj.spec.failedJobsHistoryLimit ?? 1);
  }

  /** The Job deleted with propagationPolicy Background: the garbage collector deletes its pods gracefully. */
  private deleteJob(job: Job, why: string): void {
    const key = `${job.metadata.namespace}/${job.metadata.name}`;
    const pods = this.cluster.store.podsOwnedBy(`Job/${key}`);
    this.cluster.store.delete(job);
    for (const pod of pods)
      deletePodGracefully(this.cluster, pod, {
        reason: "JobDeleted",
        lane: "control-plane",
        by: "job-controller",
        job: key,
        jobReason: `its CronJob deleted the Job (${why})`,
      });
  }

  /** The Jobs the CronJob controls, oldest first. */
  private jobsOf(cj: CronJob): Job[] {
    const owner = `CronJob/${cj.metadata.namespace}/${cj.metadata.name}`;
    return this.cluster.store
      .list("Job")
      .filter((j) => controllerOf(j) === owner)
      .sort((a, b) => (a.metadata.creationTimestamp ?? 0) - (b.metadata.creationTimestamp ?? 0));
  }
}

const SCHEDULES = new WeakMap<CronJob, CronSchedule>();

/** The CronJob's first scheduled time after `after` and at most `end` (seconds from t=0). */
function nextRun(cj: CronJob, after: number, end: number): number | undefined {
  let s = SCHEDULES.get(cj);
  if (!s) {
    const parsed = parseCron(cj.spec.schedule);
    if ("error" in parsed) return undefined;
    s = parsed;
    SCHEDULES.set(cj, s);
  }
  const t = nextCronTime(s, CRON_EPOCH + after, CRON_EPOCH + end);
  return t === undefined ? undefined : t - CRON_EPOCH;
}
