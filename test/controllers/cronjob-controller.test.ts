// The CronJob controller in whole runs (pkg/controller/cronjob/cronjob_controllerv2.go): a Job per
// scheduled time, named `<cronjob>-<minutes since the epoch>`, 100ms after the time;
// concurrencyPolicy Allow, Forbid and Replace; a schedule with no run inside the window said so at t=0.

import { describe, expect, it } from "vitest";
import { CRON_EPOCH } from "../../src/controllers/cronjob-controller.ts";
import { readManifestEntry } from "../../src/load/files.ts";
import { parseScenario } from "../../src/load/scenario/parse.ts";
import { simulate } from "../../src/run/simulate.ts";
import type { EventOf, TraceEvent } from "../../src/trace/events.ts";

const ROOT = "test/fixtures";

/** A CronJob `report` every 5 minutes (t=0 is 09:17, so at t+3:00, t+8:00…), each run `runSeconds` long. */
function run(policy: string, runSeconds: number, schedule = "*/5 * * * *"): TraceEvent[] {
  const cron = [
    "apiVersion: batch/v1",
    "kind: CronJob",
    "metadata: {name: report}",
    "spec:",
    `  schedule: "${schedule}"`,
    `  concurrencyPolicy: ${policy}`,
    "  jobTemplate:",
    "    spec:",
    "      template:",
    "        spec:",
    "          restartPolicy: Never",
    "          containers: [{name: main, image: busybox}]",
  ].join("\n");
  const yaml = [
    "name: cron",
    "duration: 15m",
    "start: created",
    "nodes: {count: 2}",
    "manifests: [cron.yaml]",
    `behaviour: {report: {exitAfterSeconds: ${runSeconds}}}`,
  ].join("\n");
  const s = parseScenario(yaml, `${ROOT}/scenario.yaml`, (entry) =>
    entry === "cron.yaml" ? [{ file: `${ROOT}/cron.yaml`, text: cron }] : readManifestEntry(ROOT, entry),
  );
  return simulate(s).events;
}

const of = <K extends TraceEvent["type"]>(events: TraceEvent[], type: K) =>
  events.filter((e): e is EventOf<K> => e.type === type);

describe("CronJob controller", () => {
  it("Allow: a Job at t+3:00, t+8:00, t+13:00, 100ms after each time, named by its minute", () => {
    const events = run("Allow", 60);
    expect(of(events, "CronJobScheduled")[0]).toMatchObject({ next: 180 });
    const fired = of(events, "CronJobFired");
    expect(fired.map((e) => e.t)).toEqual([180.1, 480.1, 780.1]);
    expect(fired[0]!.created).toBe(`report-${(CRON_EPOCH + 180) / 60}`);
    // Each Job's pod runs and the Job completes.
    expect(of(events, "JobConditionAdded").filter((e) => e.condition === "Complete")).toHaveLength(3);
  });

  it("Forbid: a run while the previous Job is active is skipped (JobAlreadyActive)", () => {
    const events = run("Forbid", 400);
    const fired = of(events, "CronJobFired").map((e) => [e.t, e.created ?? e.skipped]);
    expect(fired).toEqual([
      [180.1, `report-${(CRON_EPOCH + 180) / 60}`],
      [480.1, "Forbid"],
      [780.1, `report-${(CRON_EPOCH + 780) / 60}`],
    ]);
  });

  it("Replace: the active Job is deleted and its pod with it", () => {
    const events = run("Replace", 400);
    const second = of(events, "CronJobFired")[1]!;
    expect(second.replaced).toEqual([`report-${(CRON_EPOCH + 180) / 60}`]);
    expect(of(events, "PodEvicted").map((e) => e.t)).toContain(480.1);
  });

  it("a schedule with no time inside the run is said so at t=0, and creates nothing", () => {
    const events = run("Allow", 60, "0 0 1 1 *");
    const [scheduled] = of(events, "CronJobScheduled");
    expect(scheduled).toMatchObject({ t: 0, schedule: "0 0 1 1 *", end: 900 });
    expect(scheduled!.next).toBeUndefined();
    expect(of(events, "CronJobFired")).toEqual([]);
  });
});
