// ingress-nginx's cloud install runs its two admission Jobs (kube-webhook-certgen create and patch,
// restartPolicy OnFailure, ttlSecondsAfterFinished: 0) instead of listing them as ignored: each
// creates its pod, completes, and the TTL-after-finished controller deletes it at once.

import { describe, expect, it } from "vitest";
import { readManifestEntry } from "../../src/load/files.ts";
import { parseScenario } from "../../src/load/scenario/parse.ts";
import { simulate } from "../../src/run/simulate.ts";

const ROOT = "test/fixtures/real";

function load(start: "created" | "running") {
  const yaml = `name: real\nduration: 2m\nstart: ${start}\nnodes: {count: 3, zones: [a, b, c]}\nmanifests: [ingress-nginx/]\n`;
  return parseScenario(yaml, `${ROOT}/scenario.yaml`, (entry) => readManifestEntry(ROOT, entry));
}

const JOBS = ["ingress-nginx/ingress-nginx-admission-create", "ingress-nginx/ingress-nginx-admission-patch"];

describe("ingress-nginx's admission Jobs", () => {
  it("are loaded as Jobs, not ignored", () => {
    const s = load("running");
    expect(s.ignored.filter((i) => i.kind === "Job")).toEqual([]);
    expect(s.manifests.filter((m) => m.kind === "Job").map((m) => m.object.metadata.name)).toEqual([
      "ingress-nginx-admission-create",
      "ingress-nginx-admission-patch",
    ]);
  });

  it("run to completion and are deleted by ttlSecondsAfterFinished: 0", () => {
    const events = simulate(load("created")).events;
    for (const job of JOBS) {
      expect(
        events.filter((e) => e.type === "PodCreated" && e.by === "job-controller" && e.job === job),
      ).toHaveLength(1);
      const complete = events.find(
        (e) => e.type === "JobConditionAdded" && e.job === job && e.condition === "Complete",
      );
      expect(complete, job).toMatchObject({ reason: "CompletionsReached", succeeded: 1, failed: 0 });
      const deleted = events.find((e) => e.type === "JobDeleted" && e.object === `Job/${job}`);
      expect(deleted, job).toMatchObject({ ttlSecondsAfterFinished: 0, pods: 1 });
      expect(deleted!.t).toBe(complete!.t);
    }
  });
});
