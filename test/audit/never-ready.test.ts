// FL013 as a CI gate reads it: a workload kube-scheduler cannot place at t=0 makes `--fail-on error`
// exit 1 (the default gate), and the advice follows the scheduler's reasons (FitError's message).
import { describe, expect, it } from "vitest";
import { adviceFor } from "../../src/audit/rules/fl013-never-ready.ts";
import { cli } from "../cli/helpers.ts";

describe("FL013 never-ready", () => {
  it("a StatefulSet whose claim names a missing StorageClass fails the gate", async () => {
    const r = await cli([
      "audit",
      "test/audit/fixtures/trigger/fl013.yaml",
      "--nodes",
      "3",
      "--faults",
      "drain",
      "--fail-on",
      "error",
      "--jobs",
      "1",
    ]);
    expect(r.err).toBe("");
    expect(r.out).toMatch(/^error {3}FL013 never-ready .*fl013\.yaml:20:5 \(spec\.volumeClaimTemplates\)$/m);
    expect(r.out).toMatch(/^ {8}not simulated: /m);
    expect(r.code).toBe(1);
  }, 60_000);

  it.each([
    ["0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims.", /StorageClass/],
    ["0/3 nodes are available: 3 Insufficient cpu, 3 Insufficient memory.", /more allocatable cpu, memory/],
    ["0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.", /label a node/],
    ["0/3 nodes are available: 3 node(s) had untolerated taint {gpu: true}.", /toleration/],
    ["0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.", /anti-\)affinity/],
  ])("%s → %s", (message, advice) => {
    expect(adviceFor(message)).toMatch(advice);
  });
});
