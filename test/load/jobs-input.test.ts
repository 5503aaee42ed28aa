// batch/v1 Job and CronJob input: what the API server's validation refuses
// (pkg/apis/batch/validation/validation.go), refused where it is written; and what a version drops.

import { describe, expect, it } from "vitest";
import { type BadCase, expectLoadError, load } from "./helpers.ts";

const scenario = (extra = "") =>
  `duration: 15m\nnodes: [{name: worker-1, zone: a}]\nmanifests: [job.yaml]\n${extra}`;

function job({ spec = "", restart = "restartPolicy: Never" } = {}): string {
  return `apiVersion: batch/v1
kind: Job
metadata:
  name: batch
spec:
${spec}  template:
    spec:
      ${restart}
      containers: [{name: main, image: busybox}]
`;
}

const cases: BadCase[] = [
  {
    name: "a Job's pods cannot restart Always",
    scenario: scenario(),
    files: { "job.yaml": job({ restart: "restartPolicy: »Always" }) },
    code: "invalid-value",
    path: "spec.template.spec.restartPolicy",
    message: 'Unsupported value: "Always": supported values: "OnFailure", "Never"',
  },
  {
    name: "a podFailurePolicy needs restartPolicy Never",
    scenario: scenario(),
    files: {
      "job.yaml": job({
        spec: "  podFailurePolicy: {rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]}\n",
        restart: "restartPolicy: »OnFailure",
      }),
    },
    code: "invalid-value",
    path: "spec.template.spec.restartPolicy",
    message: 'only "Never" is supported when podFailurePolicy is specified',
  },
  {
    name: "TerminatingOrFailed with a podFailurePolicy",
    scenario: scenario(),
    files: {
      "job.yaml": job({
        spec: "  podFailurePolicy: {rules: [{action: Count, onExitCodes: {operator: In, values: [1]}}]}\n  podReplacementPolicy: »TerminatingOrFailed\n",
      }),
    },
    code: "invalid-value",
    path: "spec.podReplacementPolicy",
    message: 'supported values: "Failed" (when podFailurePolicy is set)',
  },
  {
    name: "FailIndex without backoffLimitPerIndex",
    scenario: scenario(),
    files: {
      "job.yaml": job({
        spec: "  completionMode: Indexed\n  completions: 2\n  podFailurePolicy: {rules: [{action: »FailIndex, onExitCodes: {operator: In, values: [1]}}]}\n",
      }),
    },
    code: "invalid-value",
    path: "spec.podFailurePolicy.rules[0].action",
    message: 'Invalid value: "FailIndex": valid only when backoffLimitPerIndex is set',
  },
  {
    name: "Indexed without completions",
    scenario: scenario(),
    files: { "job.yaml": job({ spec: "  »completionMode: Indexed\n" }) },
    code: "missing-field",
    path: "spec.completions",
    message: "Required value: when completion mode is Indexed",
  },
  {
    name: "a CronJob's schedule that is not cron syntax",
    scenario: scenario(),
    files: {
      "job.yaml": `apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: »"0 3 * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: main}]
`,
    },
    code: "invalid-value",
    path: "spec.schedule",
    message: 'Invalid value: "0 3 * *": expected exactly 5 fields, found 4: 0 3 * *',
  },
];

describe("Job and CronJob input", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_, c) => {
    expectLoadError(c);
  });

  it("on 1.28 podReplacementPolicy is listed as not modelled (the API server drops it)", () => {
    const s = load(scenario('kubernetesVersion: "1.28"\n'), {
      "job.yaml": job({ spec: "  podReplacementPolicy: Failed\n" }),
    });
    expect(s.notModelled).toEqual([{ field: "JobSpec.podReplacementPolicy", where: "job.yaml:6" }]);
    const s29 = load(scenario('kubernetesVersion: "1.29"\n'), {
      "job.yaml": job({ spec: "  podReplacementPolicy: Failed\n" }),
    });
    expect(s29.notModelled).toEqual([]);
  });

  it("FailIndex with backoffLimitPerIndex is accepted, the per-index back-off listed as not modelled", () => {
    const s = load(scenario(), {
      "job.yaml": job({
        spec: "  completionMode: Indexed\n  completions: 2\n  backoffLimitPerIndex: 1\n  podFailurePolicy: {rules: [{action: FailIndex, onExitCodes: {operator: In, values: [1]}}]}\n",
      }),
    });
    expect(s.notModelled.map((f) => f.field)).toEqual(["JobSpec.backoffLimitPerIndex"]);
  });

  it("JobSpec fields no model reads are listed, a CronJob's Job template too", () => {
    const s = load(scenario(), {
      "job.yaml": `apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "0 3 * * *"
  timeZone: Europe/Paris
  jobTemplate:
    spec:
      successPolicy: {rules: [{succeededCount: 1}]}
      template:
        spec:
          restartPolicy: Never
          containers: [{name: main, resources: {limits: {cpu: "1"}}}]
`,
    });
    expect(s.notModelled.map((f) => f.field)).toEqual([
      "CronJobSpec.timeZone",
      "JobSpec.successPolicy",
      "Container.resources.limits",
    ]);
  });
});
