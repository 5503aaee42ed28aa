// `profile: ./my-cluster.yaml` (issue 27): the profile `faultline compare --fit` writes, read by the
// scenario loader: its settings over stock, the scenario's own over it, and its mistakes located in
// the profile file.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_FIT, type Estimate, profileYaml } from "../../src/compare/fit.ts";
import { formatLoadError, LoadError, loadScenarioFile } from "../../src/load/index.ts";
import { resolveSettings } from "../../src/scenario/settings.ts";

const MANIFESTS = resolve("examples/manifests");

function scenarioWith(profileText: string, extra = ""): string {
  const dir = mkdtempSync(join(tmpdir(), "faultline-profile-"));
  writeFileSync(join(dir, "my-cluster.yaml"), profileText);
  const file = join(dir, "scenario.yaml");
  writeFileSync(
    file,
    [
      "name: profiled",
      'kubernetesVersion: "1.32"',
      "duration: 3m",
      "profile: ./my-cluster.yaml",
      extra,
      "nodes:",
      "  - {name: worker-1, zone: a}",
      "  - {name: worker-2, zone: b}",
      "manifests:",
      `  - ${MANIFESTS}`,
      "",
    ].join("\n"),
  );
  return file;
}

const loadError = (file: string): string => {
  try {
    loadScenarioFile(file);
  } catch (e) {
    if (e instanceof LoadError) return formatLoadError(e);
    throw e;
  }
  throw new Error("loaded");
};

const ESTIMATES: Estimate[] = [
  {
    setting: "node-monitor-grace-period",
    path: "controlPlane.nodeMonitorGracePeriod",
    value: 29.563,
    uncertainty: 3,
    unit: "s",
    how: "NotReady",
  },
  {
    setting: "default-unreachable-toleration-seconds",
    path: "controlPlane.defaultUnreachableTolerationSeconds",
    value: 60,
    uncertainty: 1,
    unit: "s",
    how: "eviction",
  },
  {
    setting: "node-lease-duration-seconds",
    path: "kubelet.nodeLeaseDurationSeconds",
    value: 40,
    uncertainty: 0,
    unit: "s",
    how: "Lease",
  },
  {
    setting: "node-loss endpoint delay",
    path: "network.nodeLossEndpointDelay",
    value: 10.2,
    uncertainty: 1,
    unit: "s",
    how: "endpoints",
  },
];

describe("profile: ./FILE.yaml", () => {
  it("reads what compare --fit writes: its settings over stock's", () => {
    const s = loadScenarioFile(scenarioWith(profileYaml("my-cluster", "kill.jsonl", ESTIMATES, DEFAULT_FIT)));
    expect(s.profileFile).toMatchObject({ file: "./my-cluster.yaml", name: "my-cluster" });
    const run = resolveSettings(s);
    expect(run.profile.name).toBe("my-cluster");
    expect(run.controlPlane.nodeMonitorGracePeriod).toBeCloseTo(29.563, 6);
    expect(run.controlPlane.defaultUnreachableTolerationSeconds).toBe(60);
    expect(run.kubelet.nodeLeaseDurationSeconds).toBe(40);
    expect(run.network.nodeLossEndpointDelay).toBeCloseTo(10.2, 6);
    expect(run.network.endpointPropagationSeconds).toBe(0.5);
  });

  it("lets the scenario's own settings win over the profile's", () => {
    const file = scenarioWith(
      profileYaml("my-cluster", "kill.jsonl", ESTIMATES, DEFAULT_FIT),
      "controlPlane: {nodeMonitorGracePeriod: 20s}",
    );
    expect(resolveSettings(loadScenarioFile(file)).controlPlane.nodeMonitorGracePeriod).toBe(20);
  });

  it("points a mistake in the profile at the profile file's line and column", () => {
    const file = scenarioWith("name: x\ncontrolPlane:\n  nodeMonitorGracePeriodd: 30s\n");
    expect(loadError(file)).toMatch(/my-cluster\.yaml:3:3: .*nodeMonitorGracePeriodd/);
    const bad = scenarioWith("name: x\ncontrolPlane: {nodeMonitorGracePeriod: soon}\n");
    expect(loadError(bad)).toMatch(/my-cluster\.yaml:2:\d+: controlPlane\.nodeMonitorGracePeriod: /);
    const unknown = scenarioWith("name: x\nflavour: measured\n");
    expect(loadError(unknown)).toMatch(/my-cluster\.yaml:2:1: .*flavour/);
  });

  it("says a missing file at the scenario's profile line, and still suggests a built-in name", () => {
    const file = scenarioWith("name: x\n").replace(/scenario\.yaml$/, "missing.yaml");
    writeFileSync(file, "name: m\nduration: 1m\nprofile: ./nowhere.yaml\nnodes: [{name: a}]\n");
    expect(loadError(file)).toMatch(/missing\.yaml:3:10: profile: "\.\/nowhere\.yaml": no such file/);
    writeFileSync(file, "name: m\nduration: 1m\nprofile: doks-measure\nnodes: [{name: a}]\n");
    expect(loadError(file)).toMatch(/did you mean "doks-measured"/);
  });
});
