// The starting state says what the platform's node auto-repair does as the platform ships it: EKS
// off (opt-in on managed node groups, docs.aws.amazon.com/eks/latest/userguide/node-repair.html:
// "enabled by default in EKS Auto Mode"), GKE and AKS on, DigitalOcean none documented; stock and
// the measured DOKS profile say nothing.

import { describe, expect, it } from "vitest";
import { autoRepairLines } from "../../src/report/auto-repair.ts";

describe("starting state: node auto-repair", () => {
  it("EKS: off by default, with its 30 min and the agent's conditions when on", () => {
    const [line] = autoRepairLines({ profile: "eks" });
    expect(line).toContain("node auto-repair (Amazon EKS): off by default (opt-in");
    expect(line).toContain("Ready not True for 30 min (or AcceleratedHardwareReady,");
    expect(line).toContain("replace it with a new node under a new name");
  });

  it("GKE and AKS: on, with their waits and actions", () => {
    expect(autoRepairLines({ profile: "gke" })).toEqual([
      "  node auto-repair (Google Kubernetes Engine): on — Ready not True for 10 min → re-create the VM under the same name",
    ]);
    expect(autoRepairLines({ profile: "aks" })[0]).toContain("on — Ready not True for 5 min → reboot it");
  });

  it("DOKS: none documented; stock and doks-measured: no line", () => {
    expect(autoRepairLines({ profile: "doks" })[0]).toContain(
      "node auto-repair (DigitalOcean Kubernetes): none",
    );
    expect(autoRepairLines({ profile: "stock" })).toEqual([]);
    expect(autoRepairLines({ profile: "doks-measured" })).toEqual([]);
    expect(autoRepairLines({})).toEqual([]);
  });
});
