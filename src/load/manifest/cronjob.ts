// batch/v1 CronJob: its schedule (standard cron syntax, kubernetes/cron.ts, refused where it is
// written as the API server's validation does), concurrencyPolicy (default Allow),
// startingDeadlineSeconds, suspend, the history limits (3 succeeded, 1 failed: batch/v1
// defaults.go SetDefaults_CronJob) and its jobTemplate (jobs.ts).

import { parseCron } from "../../kubernetes/cron.ts";
import type { CronJob } from "../../kubernetes/objects.ts";
import { bool, fail, knownFields, type Obj, obj, optInt, optOneOf, required, str } from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";
import { jobSpec } from "./jobs.ts";
import { type Meta, optLabelMap } from "./meta.ts";

export const CRON_JOB_SPEC_FIELDS = [
  "concurrencyPolicy",
  "failedJobsHistoryLimit",
  "jobTemplate",
  "schedule",
  "startingDeadlineSeconds",
  "successfulJobsHistoryLimit",
  "suspend",
  "timeZone",
] as const;

export function cronJob(src: SourceDoc, path: Path, metadata: Meta, o: Obj): CronJob {
  const sp = [...path, "spec"];
  const s = obj(src, sp, required(src, path, o, "spec", "CronJob"));
  knownFields(src, sp, s, CRON_JOB_SPEC_FIELDS, "CronJobSpec");
  const schedule = str(src, [...sp, "schedule"], required(src, sp, s, "schedule", "CronJobSpec"));
  const parsed = parseCron(schedule);
  if ("error" in parsed)
    fail(
      src,
      [...sp, "schedule"],
      "invalid-value",
      `Invalid value: ${JSON.stringify(schedule)}: ${parsed.error}`,
    );
  const tp = [...sp, "jobTemplate"];
  const t = obj(src, tp, required(src, sp, s, "jobTemplate", "CronJobSpec"));
  knownFields(src, tp, t, ["metadata", "spec"], "JobTemplateSpec");
  const labels =
    t.metadata != null
      ? optLabelMap(src, [...tp, "metadata", "labels"], obj(src, [...tp, "metadata"], t.metadata).labels)
      : undefined;
  const spec: CronJob["spec"] = {
    schedule,
    concurrencyPolicy:
      optOneOf(src, [...sp, "concurrencyPolicy"], s.concurrencyPolicy, [
        "Allow",
        "Forbid",
        "Replace",
      ] as const) ?? "Allow",
    suspend: s.suspend == null ? false : bool(src, [...sp, "suspend"], s.suspend),
    jobTemplate: {
      ...(labels ? { metadata: { labels } } : {}),
      spec: jobSpec(src, [...tp, "spec"], required(src, tp, t, "spec", "JobTemplateSpec")),
    },
  };
  const deadline = optInt(src, [...sp, "startingDeadlineSeconds"], s.startingDeadlineSeconds, { min: 0 });
  if (deadline !== undefined) spec.startingDeadlineSeconds = deadline;
  if (s.timeZone != null) spec.timeZone = str(src, [...sp, "timeZone"], s.timeZone);
  const limit = (f: "successfulJobsHistoryLimit" | "failedJobsHistoryLimit", d: number) =>
    optInt(src, [...sp, f], s[f], { min: 0 }) ?? d;
  spec.successfulJobsHistoryLimit = limit("successfulJobsHistoryLimit", 3);
  spec.failedJobsHistoryLimit = limit("failedJobsHistoryLimit", 1);
  return { kind: "CronJob", metadata, spec };
}
