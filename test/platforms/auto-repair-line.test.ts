// The starting state says what the platform's node auto-repair does as the platform ships it: EKS
// off (opt-in on managed node groups, docs.aws.amazon.com/eks/latest/userguide/node-repair.html:
// "enabled by default in EKS Auto Mode"), GKE and AKS on, DigitalOcean none documented; stock and
// the measured DOKS profile say nothing.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LoadError, parseScenario, readManifestEntry } from "../../src/load/index.ts";
import { autoRepairLines } from "../../src/report/auto-repair.ts";

describe("starting state: node auto-repair", () => {
  it("EKS: off by default, with its 30 min and the agent's conditions when on", () => {
    const [line] = autoRepairLines({ profile: "eks" });
    expect(line).toContain(
      "node auto-repair (Amazon EKS): off by default (opt-in: autoRepair: true turns it on)",
    );
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

describe("autoRepair: the scenario turns the platform's repair on or off", () => {
  const file = "examples/platforms/eks-auto-repair.yaml";
  const text = readFileSync(file, "utf8");
  const load = (t: string) =>
    parseScenario(t, file, (entry) => readManifestEntry("examples/platforms", entry));

  it("EKS with autoRepair: true is on; GKE with autoRepair: false is off", () => {
    expect(autoRepairLines(load(text))[0]).toContain(
      "node auto-repair (Amazon EKS): on (autoRepair: true) — Ready not True for 30 min",
    );
    expect(autoRepairLines({ profile: "gke", autoRepair: false })[0]).toContain(
      "node auto-repair (Google Kubernetes Engine): off (autoRepair: false) — when on:",
    );
  });

  it("a profile without a platform's repair (stock, doks) refuses it, located at the field", () => {
    for (const profile of ["stock", "doks"]) {
      let err: unknown;
      try {
        load(text.replace("profile: eks", `profile: ${profile}`));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(LoadError);
      expect((err as LoadError).message).toMatch(
        /autoRepair needs a platform profile whose platform repairs nodes/,
      );
      expect((err as LoadError).message).toContain(`${file}:13:`);
    }
  });

  it("not a boolean: one located error", () => {
    expect(() => load(text.replace(/^autoRepair: true$/m, "autoRepair: yes please"))).toThrow(
      /is not a boolean/,
    );
  });
});
