// The Job controller in whole runs, each case from its rule in pkg/controller/job (job_controller.go,
// pod_failure_policy.go, backoff_utils.go) and KEP-3939: a pod on a lost node replaced once it is
// terminating (TerminatingOrFailed) or only once it is Failed (podReplacementPolicy Failed, on from
// 1.29, dropped by the 1.28 API server), counted or ignored by a podFailurePolicy, backoffLimit
// with the pod-failure back-off, activeDeadlineSeconds.

import { describe, expect, it } from "vitest";
import { readManifestEntry } from "../../src/load/files.ts";
import { parseScenario } from "../../src/load/scenario/parse.ts";
import { simulate } from "../../src/run/simulate.ts";
import type { EventOf, TraceEvent } from "../../src/trace/events.ts";

const ROOT = "test/fixtures";

interface JobYaml {
  spec?: string;
  template?: string;
  behaviour?: string;
  timeline?: string;
  version?: string;
  duration?: string;
}

/** One Job `batch` on three nodes (its first pod lands on worker-3), created at t=0. */
function run(o: JobYaml): TraceEvent[] {
  const job = [
    "apiVersion: batch/v1",
    "kind: Job",
    "metadata: {name: batch}",
    "spec:",
    ...(o.spec ? o.spec.split("\n").map((l) => `  ${l}`) : []),
    "  template:",
    "    spec:",
    `      restartPolicy: ${o.template ?? "Never"}`,
    "      containers: [{name: main, image: busybox}]",
  ].join("\n");
  const yaml = [
    "name: job",
    `duration: ${o.duration ?? "15m"}`,
    "start: created",
    ...(o.version ? [`kubernetesVersion: "${o.version}"`] : []),
    "nodes: {count: 3, zones: [a, b, c]}",
    "manifests: [job.yaml]",
    `behaviour: {batch: ${o.behaviour ?? "{exitAfterSeconds: 1200}"}}`,
    `timeline: ${o.timeline ?? "[{at: 60s, do: power-off, node: worker-3}]"}`,
  ].join("\n");
  const s = parseScenario(yaml, `${ROOT}/scenario.yaml`, (entry) =>
    entry === "job.yaml" ? [{ file: `${ROOT}/job.yaml`, text: job }] : readManifestEntry(ROOT, entry),
  );
  return simulate(s).events;
}

const LOST_AND_DELETED =
  "[{at: 60s, do: power-off, node: worker-3}, {at: 120s, do: delete-node, node: worker-3}]";

const of = <K extends TraceEvent["type"]>(events: TraceEvent[], type: K) =>
  events.filter((e): e is EventOf<K> => e.type === type);

describe("Job controller: a pod on a lost node", () => {
  it("TerminatingOrFailed (the default): counted failed when evicted, replaced 10s later while it still terminates", () => {
    const events = run({ version: "1.34" });
    const evicted = of(events, "PodEvicted")[0]!;
    // default-unreachable-toleration-seconds=300 after the NoExecute taint.
    expect(evicted).toMatchObject({ by: "taint-eviction-controller", reason: "DeletionByTaintManager" });
    const [counted] = of(events, "JobPodCounted");
    expect(counted).toMatchObject({
      outcome: "failed",
      as: "terminating",
      disruption: "DeletionByTaintManager",
      failed: 1,
    });
    expect(counted!.t).toBe(evicted.t);
    const created = of(events, "PodCreated");
    expect(created).toHaveLength(2);
    // backoff_utils.go: one failure since the last success waits DefaultJobPodFailureBackOff = 10s.
    expect(created[1]!.t - evicted.t).toBeCloseTo(10, 3);
    expect(created[1]).toMatchObject({ by: "job-controller", terminating: 1, backoff: 10 });
    expect(of(events, "JobWaitsForPod")).toEqual([]);
  });

  it("podReplacementPolicy Failed (1.34): no replacement while the pod terminates on the dead node", () => {
    const events = run({ version: "1.34", spec: "podReplacementPolicy: Failed" });
    expect(of(events, "PodEvicted")).toHaveLength(1);
    expect(of(events, "JobWaitsForPod")).toMatchObject([{ source: "podReplacementPolicy", failed: 0 }]);
    expect(of(events, "PodCreated")).toHaveLength(1);
    expect(of(events, "JobPodCounted")).toEqual([]);
  });

  it("on 1.28 the API server drops podReplacementPolicy (alpha, off): replaced as TerminatingOrFailed", () => {
    const events = run({ version: "1.28", spec: "podReplacementPolicy: Failed" });
    expect(of(events, "JobWaitsForPod")).toEqual([]);
    expect(of(events, "PodCreated")).toHaveLength(2);
    expect(of(events, "JobPodCounted")[0]).toMatchObject({ as: "terminating", outcome: "failed" });
  });

  it("podFailurePolicy Ignore on DisruptionTarget: the pod PodGC fails is not counted toward backoffLimit", () => {
    const events = run({
      spec: "podFailurePolicy: {rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]}",
      // The Node object is deleted: PodGC fails the orphaned pod after its 40s quarantine (DeletionByPodGC).
      timeline: LOST_AND_DELETED,
    });
    const [counted] = of(events, "JobPodCounted");
    expect(counted).toMatchObject({
      outcome: "ignored",
      as: "phase",
      failed: 0,
      rule: { index: 0, action: "Ignore" },
    });
    expect(of(events, "PodCreated")).toHaveLength(2);
  });

  it("the cost of the lost node is told at the end: the ignored retry, the time to completion", () => {
    const events = run({
      spec: "podFailurePolicy: {rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]}",
      behaviour: "{exitAfterSeconds: 300}",
      timeline: LOST_AND_DELETED,
      duration: "20m",
    });
    const complete = of(events, "JobConditionAdded").find((e) => e.condition === "Complete")!;
    expect(complete).toMatchObject({ disrupted: { counted: 0, ignored: 1 }, failed: 0, succeeded: 1 });
    // The replacement starts when PodGC has failed the first pod and runs its 300s (+2s start).
    const replaced = of(events, "PodCreated")[1]!;
    expect(complete.t - replaced.t).toBeCloseTo(302, 0);
  });

  it("podFailurePolicy Count: the same failure counts (1 of backoffLimit)", () => {
    const events = run({
      spec: "podFailurePolicy: {rules: [{action: Count, onPodConditions: [{type: DisruptionTarget}]}]}",
      timeline: LOST_AND_DELETED,
    });
    expect(of(events, "JobPodCounted")[0]).toMatchObject({
      outcome: "failed",
      failed: 1,
      rule: { action: "Count" },
    });
  });
});

describe("Job controller: ending a Job", () => {
  it("backoffLimit 2: three failures (10s then 20s of back-off between pods), then Failed BackoffLimitExceeded", () => {
    const events = run({
      spec: "backoffLimit: 2",
      behaviour: "{exitAfterSeconds: 5, exitCode: 1}",
      timeline: "[]",
    });
    const created = of(events, "PodCreated").map((e) => e.t);
    const failed = of(events, "JobPodCounted").map((e) => e.t);
    expect(failed).toHaveLength(3);
    expect(created[1]! - failed[0]!).toBeCloseTo(10, 3);
    expect(created[2]! - failed[1]!).toBeCloseTo(20, 3);
    const conditions = of(events, "JobConditionAdded").map((e) => [
      e.condition,
      e.reason,
      e.conditionMessage,
    ]);
    expect(conditions).toEqual([
      ["FailureTarget", "BackoffLimitExceeded", "Job has reached the specified backoff limit"],
      ["Failed", "BackoffLimitExceeded", "Job has reached the specified backoff limit"],
    ]);
  });

  it("before 1.31 Failed comes alone (no FailureTarget)", () => {
    const events = run({
      version: "1.30",
      spec: "backoffLimit: 0",
      behaviour: "{exitAfterSeconds: 5, exitCode: 1}",
      timeline: "[]",
    });
    expect(of(events, "JobConditionAdded").map((e) => e.condition)).toEqual(["Failed"]);
  });

  it("activeDeadlineSeconds 30: DeadlineExceeded at 30s, the running pod deleted", () => {
    const events = run({ spec: "activeDeadlineSeconds: 30", timeline: "[]" });
    const [target, failed] = of(events, "JobConditionAdded");
    expect(target).toMatchObject({
      condition: "FailureTarget",
      reason: "DeadlineExceeded",
      conditionMessage: "Job was active longer than specified deadline",
    });
    expect(target!.t).toBeCloseTo(30, 3);
    expect(of(events, "PodEvicted")[0]).toMatchObject({
      by: "job-controller",
      reason: "DeadlineExceeded",
      jobReason: "the Job is failed (DeadlineExceeded)",
    });
    // Failed once the deleted pod has terminated (1.31+).
    expect(failed).toMatchObject({ condition: "Failed", terminating: 0 });
    const gone = events.findIndex((e) => e.type === "PodDeleted");
    expect(gone).toBeGreaterThan(-1);
    expect(events.indexOf(failed!)).toBeGreaterThan(gone);
  });

  it("a FailJob rule on an exit code fails the Job with reason PodFailurePolicy and the controller's message", () => {
    const events = run({
      spec: "podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: In, values: [42]}}]}",
      behaviour: "{exitAfterSeconds: 5, exitCode: 42}",
      timeline: "[]",
    });
    const [target] = of(events, "JobConditionAdded");
    expect(target).toMatchObject({ condition: "FailureTarget", reason: "PodFailurePolicy" });
    expect(target!.conditionMessage).toMatch(
      /^Container main for pod default\/batch-\w+ failed with exit code 42 matching FailJob rule at index 0$/,
    );
    expect(of(events, "PodCreated")).toHaveLength(1);
  });

  it("completions 2, parallelism 2: two pods at once, Complete with COMPLETIONS 2/2", () => {
    const events = run({
      spec: "completions: 2\nparallelism: 2",
      behaviour: "{exitAfterSeconds: 60}",
      timeline: "[]",
    });
    expect(of(events, "PodCreated").map((e) => e.t)).toEqual([0, 0]);
    const complete = of(events, "JobConditionAdded").find((e) => e.condition === "Complete")!;
    expect(complete.reason).toBe("CompletionsReached");
    expect(complete.jobRow).toMatchObject({ status: "Complete", completions: "2/2" });
  });

  it("Indexed: one pod per completion index, named <job>-<index>-<suffix> with the index annotation and hostname", () => {
    const events = run({
      spec: "completionMode: Indexed\ncompletions: 3\nparallelism: 2",
      behaviour: "{exitAfterSeconds: 60}",
      timeline: "[]",
    });
    const created = of(events, "PodCreated");
    expect(created.map((e) => [e.t, e.by === "job-controller" ? e.index : undefined])).toEqual([
      [0, 0],
      [0, 1],
      [62, 2],
    ]);
    expect(created.map((e) => e.object)).toEqual([
      expect.stringMatching(/^Pod\/default\/batch-0-\w{5}$/),
      expect.stringMatching(/^Pod\/default\/batch-1-\w{5}$/),
      expect.stringMatching(/^Pod\/default\/batch-2-\w{5}$/),
    ]);
    expect(of(events, "JobConditionAdded").find((e) => e.condition === "Complete")?.jobRow.completions).toBe(
      "3/3",
    );
  });

  it("restartPolicy OnFailure: the kubelet restarts in place and the restarts count (pastBackoffLimitOnFailure)", () => {
    const events = run({
      template: "OnFailure",
      spec: "backoffLimit: 2",
      behaviour: "{exitAfterSeconds: 5, exitCode: 1}",
      timeline: "[]",
    });
    // One pod: its container restarts in place, and at 2 restarts the Job fails.
    expect(of(events, "PodCreated")).toHaveLength(1);
    const failed = of(events, "JobConditionAdded").find((e) => e.condition === "FailureTarget");
    expect(failed).toMatchObject({ reason: "BackoffLimitExceeded", failed: 0 });
    // Then the controller deletes the pod, and counts it failed as it terminates (deleteActivePods).
    const counted = of(events, "JobPodCounted");
    expect(counted).toMatchObject([{ outcome: "failed", as: "terminating", failed: 1 }]);
    expect(counted[0]!.t).toBe(failed!.t);
    const restarts = of(events, "ContainerStarted").filter((e) => e.restartCount === 2);
    expect(restarts).toHaveLength(1);
    expect(failed!.t).toBe(restarts[0]!.t);
  });
});
