// An audit that would measure nothing is refused, one line and exit 2, never a pass: input with no
// object (nothing on standard input, only `---`, an empty List: a `helm template` that rendered
// nothing), objects of which none is a Service or a workload, and a sweep with no fault run left.

import { describe, expect, it } from "vitest";
import { cli, FAULTLINE, oneLine, shell } from "../cli/helpers.ts";

const NO_OBJECT =
  "<stdin>: no object to audit: the input is empty, only `---` or an empty List (a helm template that rendered nothing?)";

describe("audit refuses input with nothing to audit", () => {
  it.each([
    ["nothing", "printf ''"],
    ["only ---", "printf -- '---\\n---\\n'"],
    ["an empty kind: List", "printf 'apiVersion: v1\\nkind: List\\nitems: []\\n'"],
  ])(
    "standard input with %s: no object to audit",
    async (_name, input) => {
      const r = await shell(`${input} | ${FAULTLINE} audit - --jobs 1`);
      expect(r.code).toBe(2);
      expect(r.out).toBe("");
      expect(oneLine(r.err), r.err).toBe(true);
      expect(r.err.trim()).toBe(NO_OBJECT);
    },
    60_000,
  );

  it("objects without a Service or a workload: nothing to measure", async () => {
    const r = await shell(
      `printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata: {name: settings}\\n' | ${FAULTLINE} audit - --jobs 1`,
    );
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err.trim()).toBe(
      "faultline: <stdin>: nothing to measure: no Service and no workload (Deployment, StatefulSet, DaemonSet, ReplicaSet, Pod) among the objects (ConfigMap)",
    );
  }, 60_000);

  it("a sweep whose faults have no run on this cluster: zone faults on nodes without zones", async () => {
    const r = await cli(["audit", "examples/audit/", "--faults", "zone", "--nodes", "3", "--jobs", "1"]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(oneLine(r.err), r.err).toBe(true);
    expect(r.err).toContain("examples/audit/: nothing to measure: no run of --faults zone applies");
    // With a fault that does run, the same cluster is audited.
    const drain = await cli([
      "audit",
      "examples/audit/",
      "--faults",
      "zone,drain",
      "--nodes",
      "3",
      "--jobs",
      "1",
    ]);
    expect(drain.err).toBe("");
    expect(drain.out).toContain("zone faults: the nodes have no zones");
  }, 120_000);
});
