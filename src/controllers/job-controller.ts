// The Job controller (pkg/controller/job/job_controller.go syncJob, manageJob): it keeps
// min(parallelism, completions − succeeded) pods of a Job running, counts each pod once when it
// ends (succeeded; failed or, under a podFailurePolicy, ignored), waits out the pod-failure
// back-off before a replacement, and ends the Job with its conditions: Complete
// (CompletionsReached), Failed (BackoffLimitExceeded, DeadlineExceeded, PodFailurePolicy), from
// 1.31 preceded by SuccessCriteriaMet / FailureTarget while pods still terminate. A pod on a lost
// node counts as failed once it is terminating (podReplacementPolicy TerminatingOrFailed, KEP-3939)
// or once it is Failed (podReplacementPolicy Failed, or any podFailurePolicy). Indexed Jobs get one
// pod per completion index. The TTL-after-finished controller's deletion is here too.

import { createPod, deletePodGracefully, removePod } from "../cluster/api.ts";
import type { Cluster } from "../cluster/context.ts";
import { controllerOf, ref } from "../cluster/store.ts";
import type { KubernetesVersion } from "../kubernetes/configuration.ts";
import {
  JOB_DELAYED_TERMINAL_CONDITION_SINCE_MINOR,
  JOB_POD_FAILURE_BACKOFF,
  JOB_POD_FAILURE_BACKOFF_MAX,
  JOB_POD_REPLACEMENT_POLICY_SINCE_MINOR,
  minor,
} from "../kubernetes/defaults.ts";
import { jobRow } from "../kubernetes/kubectl-jobs.ts";
import type { Job, JobCondition, Pod } from "../kubernetes/objects.ts";
import {
  counts,
  finished,
  hasCondition,
  indexOf,
  isPodFailed,
  jobPod,
  matchPodFailurePolicy,
  onlyReplaceFailedPods,
  pastBackoffLimitOnFailure,
  remainingBackoff,
} from "./job-pods.ts";
import { WorkQueue } from "./work-queue.ts";

/** The controller's memory of one Job: its pods in creation order, which were counted, the back-off record. */
interface JobState {
  pods: Pod[];
  counted: Set<Pod>;
  told: Set<Pod>;
  /** backoffRecord: failures since the last success and when the last was seen */
  failures: number;
  lastFailure: number;
  /** the decided end (FailureTarget / SuccessCriteriaMet), waiting for terminating pods */
  decided?: { type: "Complete" | "Failed"; reason: string; message: string };
  backoffTimer: boolean;
  /** failed pods that had DisruptionTarget=True (a lost node, an eviction): counted, ignored */
  disrupted: { counted: number; ignored: number };
}

const MESSAGES = {
  BackoffLimitExceeded: "Job has reached the specified backoff limit",
  DeadlineExceeded: "Job was active longer than specified deadline",
  CompletionsReached: "Reached expected number of succeeded pods",
} as const;

export class JobController {
  private readonly queue: WorkQueue;
  private readonly states = new Map<string, JobState>();
  private readonly minor: number;

  constructor(
    private readonly cluster: Cluster,
    version: KubernetesVersion,
  ) {
    this.minor = minor(version);
    this.queue = new WorkQueue(cluster.engine, (key) => this.sync(key));
    cluster.store.watch("Pod", (_type, pod) => {
      const owner = controllerOf(pod);
      if (owner?.startsWith("Job/")) this.queue.add(owner.slice("Job/".length));
    });
    cluster.store.watch("Job", (type, job) => {
      if (type === "ADDED") this.start(job);
    });
  }

  private get replacementGate(): boolean {
    return this.minor >= JOB_POD_REPLACEMENT_POLICY_SINCE_MINOR;
  }

  /** A new Job: status.startTime, the activeDeadlineSeconds timer, a first sync. */
  private start(job: Job): void {
    const key = `${job.metadata.namespace}/${job.metadata.name}`;
    this.states.set(key, {
      pods: [],
      counted: new Set(),
      told: new Set(),
      failures: 0,
      lastFailure: 0,
      backoffTimer: false,
      disrupted: { counted: 0, ignored: 0 },
    });
    // The API server drops a field whose gate is off (1.28: JobPodReplacementPolicy alpha); from 1.29
    // it defaults it: Failed with a podFailurePolicy, else TerminatingOrFailed (batch/v1 defaults.go).
    if (!this.replacementGate) delete job.spec.podReplacementPolicy;
    else job.spec.podReplacementPolicy ??= job.spec.podFailurePolicy ? "Failed" : "TerminatingOrFailed";
    if (job.spec.suspend) return;
    job.status.startTime = this.cluster.engine.now;
    const deadline = job.spec.activeDeadlineSeconds;
    if (deadline !== undefined) this.cluster.engine.after(deadline, () => this.queue.add(key));
    this.queue.add(key);
  }

  private sync(key: string): void {
    const job = this.cluster.store.get("Job", key);
    const st = this.states.get(key);
    if (!job || !st || job.spec.suspend || finished(job)) return;
    const active = this.countFinished(job, st);
    const terminating = this.terminatingPods(st);
    job.status.active = active.length;
    job.status.terminating = terminating;
    if (!st.decided) st.decided = this.decide(job, active);
    if (st.decided) {
      this.finish(job, st, active, terminating);
      return;
    }
    this.manage(job, st, active, terminating);
    this.cluster.store.update(job);
  }

  /** Count each pod that ended since the last sync, once; the pods still active, in creation order. */
  private countFinished(job: Job, st: JobState): Pod[] {
    const onlyFailed = onlyReplaceFailedPods(job, this.replacementGate);
    const active: Pod[] = [];
    for (const pod of st.pods) {
      if (st.counted.has(pod)) continue;
      const gone = !this.cluster.store.exists(pod);
      if (pod.status.phase === "Succeeded") {
        this.count(job, st, pod, "succeeded", "phase");
        continue;
      }
      const failed = isPodFailed(pod, onlyFailed) ?? (gone ? "phase" : undefined);
      if (failed) {
        this.countFailed(job, st, pod, failed);
        continue;
      }
      if (pod.metadata.deletionTimestamp !== undefined) {
        this.tellWaiting(job, st, pod);
        continue;
      }
      active.push(pod);
    }
    return active;
  }

  /** A failed pod: counted (Count, FailJob; FailIndex as Count: per-index back-off not modelled) or not (Ignore). */
  private countFailed(job: Job, st: JobState, pod: Pod, as: "phase" | "terminating"): void {
    const match = matchPodFailurePolicy(job, pod);
    if (match?.rule.action === "Ignore") {
      this.count(job, st, pod, "ignored", as, match);
      return;
    }
    this.count(job, st, pod, "failed", as, match);
    if (match?.rule.action === "FailJob" && !st.decided)
      st.decided = { type: "Failed", reason: "PodFailurePolicy", message: match.message };
  }

  private count(
    job: Job,
    st: JobState,
    pod: Pod,
    outcome: "succeeded" | "failed" | "ignored",
    as: "phase" | "terminating",
    match?: ReturnType<typeof matchPodFailurePolicy>,
  ): void {
    st.counted.add(pod);
    const now = this.cluster.engine.now;
    if (outcome === "succeeded") {
      job.status.succeeded++;
      st.failures = 0;
    } else {
      // The back-off record takes every new failed pod (newBackoffRecord's newFailedPods), ignored
      // ones too; an Ignore rule only keeps it out of status.failed.
      if (outcome === "failed") job.status.failed++;
      st.failures++;
      st.lastFailure = now;
    }
    const disruption = pod.status.conditions.find(
      (c) => c.type === "DisruptionTarget" && c.status === "True",
    );
    if (disruption && outcome !== "succeeded") st.disrupted[outcome === "failed" ? "counted" : "ignored"]++;
    const trace = this.cluster.trace;
    if (trace.muted) return;
    const exit = pod.status.containerStatuses.find((c) => c.state === "terminated" && c.exitCode !== 0);
    trace.emit({
      type: "JobPodCounted",
      lane: "control-plane",
      object: ref(pod),
      ...(pod.spec.nodeName ? { node: pod.spec.nodeName } : {}),
      by: "job-controller",
      outcome,
      as,
      ...(exit?.exitCode !== undefined ? { exitCode: exit.exitCode } : {}),
      ...(disruption?.reason ? { disruption: disruption.reason } : {}),
      ...(match ? { rule: { index: match.index, action: match.rule.action, on: match.on } } : {}),
      ranFor: now - (pod.metadata.creationTimestamp ?? now),
      ...counts(job),
    });
  }

  /** A terminating pod not counted yet: the replacement waits for it to be Failed. Told once per pod. */
  private tellWaiting(job: Job, st: JobState, pod: Pod): void {
    if (st.told.has(pod) || st.decided) return;
    st.told.add(pod);
    if (this.cluster.trace.muted) return;
    this.cluster.trace.emit({
      type: "JobWaitsForPod",
      lane: "control-plane",
      object: ref(pod),
      ...(pod.spec.nodeName ? { node: pod.spec.nodeName } : {}),
      by: "job-controller",
      source:
        this.replacementGate && job.spec.podReplacementPolicy === "Failed"
          ? "podReplacementPolicy"
          : "podFailurePolicy",
      ...counts(job),
    });
  }

  /** Pods of the Job with a deletionTimestamp that are not terminal yet (status.terminating). */
  private terminatingPods(st: JobState): number {
    let n = 0;
    for (const pod of st.pods)
      if (
        this.cluster.store.exists(pod) &&
        pod.metadata.deletionTimestamp !== undefined &&
        pod.status.phase !== "Succeeded" &&
        pod.status.phase !== "Failed"
      )
        n++;
    return n;
  }

  /** syncJob's order: a FailJob rule (already decided), the backoff limit, the deadline, then completion. */
  private decide(job: Job, active: readonly Pod[]): JobState["decided"] {
    const { spec, status } = job;
    if (status.failed > spec.backoffLimit || pastBackoffLimitOnFailure(job, active))
      return { type: "Failed", reason: "BackoffLimitExceeded", message: MESSAGES.BackoffLimitExceeded };
    const deadline = spec.activeDeadlineSeconds;
    if (deadline !== undefined && this.cluster.engine.since(status.startTime ?? 0) >= deadline)
      return { type: "Failed", reason: "DeadlineExceeded", message: MESSAGES.DeadlineExceeded };
    const done =
      spec.completions === null
        ? status.succeeded > 0 && active.length === 0
        : status.succeeded >= spec.completions;
    if (done) return { type: "Complete", reason: "CompletionsReached", message: MESSAGES.CompletionsReached };
    return undefined;
  }

  /**
   * The Job is decided: its active pods are deleted; from 1.31 FailureTarget / SuccessCriteriaMet at
   * once and the terminal condition when no pod is terminating, before 1.31 the terminal condition at
   * once (FailureTarget first only for a FailJob rule).
   */
  private finish(job: Job, st: JobState, active: readonly Pod[], terminating: number): void {
    const decided = st.decided!;
    for (const pod of active)
      deletePodGracefully(this.cluster, pod, {
        reason: decided.reason,
        lane: "control-plane",
        by: "job-controller",
        job: `${job.metadata.namespace}/${job.metadata.name}`,
        jobReason: `the Job is ${decided.type === "Complete" ? "complete" : "failed"} (${decided.reason})`,
      });
    const left = terminating + active.filter((p) => p.spec.nodeName).length;
    const delayed = this.minor >= JOB_DELAYED_TERMINAL_CONDITION_SINCE_MINOR;
    const interim = decided.type === "Complete" ? "SuccessCriteriaMet" : "FailureTarget";
    if ((delayed || decided.reason === "PodFailurePolicy") && !hasCondition(job, interim))
      this.addCondition(job, st, interim, left);
    if (delayed && left > 0) {
      this.cluster.store.update(job);
      return;
    }
    if (decided.type === "Complete") job.status.completionTime = this.cluster.engine.now;
    this.addCondition(job, st, decided.type, 0);
    this.cluster.store.update(job);
    const ttl = job.spec.ttlSecondsAfterFinished;
    if (ttl !== undefined) this.cluster.engine.after(ttl, () => this.ttlDelete(job, st, ttl));
  }

  private addCondition(job: Job, st: JobState, type: JobCondition["type"], terminating: number): void {
    const d = st.decided!;
    const now = this.cluster.engine.now;
    job.status.conditions.push({
      type,
      status: "True",
      reason: d.reason,
      message: d.message,
      lastTransitionTime: now,
    });
    if (this.cluster.trace.muted) return;
    this.cluster.trace.emit({
      type: "JobConditionAdded",
      lane: "control-plane",
      object: ref(job),
      by: "job-controller",
      condition: type,
      reason: d.reason,
      conditionMessage: d.message,
      elapsed: now - (job.status.startTime ?? now),
      terminating,
      disrupted: { ...st.disrupted },
      jobRow: jobRow(job, now, this.minor),
      ...counts(job),
    });
  }

  /** manageJob: create the missing pods, once the pod-failure back-off since the last failure is over. */
  private manage(job: Job, st: JobState, active: readonly Pod[], terminating: number): void {
    const { spec, status } = job;
    const wanted =
      spec.completions === null
        ? status.succeeded > 0
          ? 0
          : spec.parallelism
        : Math.min(spec.parallelism, spec.completions - status.succeeded);
    let diff = wanted - active.length;
    if (onlyReplaceFailedPods(job, this.replacementGate)) diff -= terminating;
    if (diff <= 0) return;
    const now = this.cluster.engine.now;
    const since = now - st.lastFailure;
    const wait = remainingBackoff(st.failures, since, JOB_POD_FAILURE_BACKOFF, JOB_POD_FAILURE_BACKOFF_MAX);
    const key = `${job.metadata.namespace}/${job.metadata.name}`;
    if (wait > 0) {
      if (!st.backoffTimer) {
        st.backoffTimer = true;
        this.cluster.engine.after(wait, () => {
          st.backoffTimer = false;
          this.queue.add(key);
        });
      }
      return;
    }
    const indexes = spec.completionMode === "Indexed" ? this.freeIndexes(job, st, active) : [];
    for (let i = 0; i < diff; i++) {
      const index = spec.completionMode === "Indexed" ? indexes[i] : undefined;
      if (spec.completionMode === "Indexed" && index === undefined) break;
      this.createPod(job, st, {
        wanted,
        active: active.length + i,
        terminating: onlyReplaceFailedPods(job, this.replacementGate) ? 0 : terminating,
        ...(st.failures > 0 ? { backoff: since } : {}),
        ...(index !== undefined ? { index } : {}),
      });
    }
  }

  /** Indexed: the completion indexes with neither a succeeded pod nor an active one, lowest first. */
  private freeIndexes(job: Job, st: JobState, active: readonly Pod[]): number[] {
    const taken = new Set<number>();
    for (const pod of st.pods)
      if (pod.status.phase === "Succeeded" || active.includes(pod)) taken.add(indexOf(pod));
    const out: number[] = [];
    for (let i = 0; i < (job.spec.completions ?? 0); i++) if (!taken.has(i)) out.push(i);
    return out;
  }

  private createPod(
    job: Job,
    st: JobState,
    c: { wanted: number; active: number; terminating: number; backoff?: number; index?: number },
  ): void {
    const { namespace, name } = job.metadata;
    const pod = jobPod(this.cluster, job, c.index);
    st.pods.push(pod);
    createPod(this.cluster, pod, {
      by: "job-controller",
      job: `${namespace}/${name}`,
      succeeded: job.status.succeeded,
      failed: job.status.failed,
      ...c,
    });
  }

  /** The TTL-after-finished controller: the Job deleted, its pods with it (background cascading deletion). */
  private ttlDelete(job: Job, st: JobState, ttl: number): void {
    if (!this.cluster.store.exists(job)) return;
    const pods = st.pods.filter((p) => this.cluster.store.exists(p));
    this.cluster.store.delete(job);
    for (const pod of pods)
      removePod(this.cluster, pod, {
        force: false,
        lane: "control-plane",
        by: "job-controller",
        job: `${job.metadata.namespace}/${job.metadata.name}`,
        jobReason: "ttlSecondsAfterFinished: the TTL-after-finished controller deleted the Job",
      });
    if (this.cluster.trace.muted) return;
    this.cluster.trace.emit({
      type: "JobDeleted",
      lane: "control-plane",
      object: ref(job),
      by: "ttl-after-finished-controller",
      ttlSecondsAfterFinished: ttl,
      pods: pods.length,
    });
  }
}
