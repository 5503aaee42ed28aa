// A dump shaped like each platform's `kubectl get nodes,pods -o json` (test/fixtures/dumps/<platform>.json:
// the labels, spec.providerID and node-group labels those platforms' Nodes carry) is recognised: the
// run takes the platform's profile and the "assumed:" line names it; --profile (or the scenario's
// profile) overrides it. The recognition itself is table-driven over providerID schemes and labels.

import { describe, expect, it } from "vitest";
import { loadScenarioFile } from "../../src/load/index.ts";
import { recognisePlatform } from "../../src/platforms/index.ts";
import { formatTimeline } from "../../src/report/text.ts";
import { simulate } from "../../src/run/simulate.ts";
import { scenario } from "../helpers/sim.ts";

const CASES = [
  { platform: "eks", title: "Amazon EKS", scheme: "aws://", groups: ["app", "spot"] },
  {
    platform: "gke",
    title: "Google Kubernetes Engine",
    scheme: "gce://",
    groups: ["default-pool", "spot-pool"],
  },
  {
    platform: "aks",
    title: "Azure Kubernetes Service",
    scheme: "azure://",
    groups: ["nodepool1", "spotpool"],
  },
  { platform: "doks", title: "DigitalOcean Kubernetes", scheme: "digitalocean://", groups: ["pool-web"] },
] as const;

describe.each(CASES)("test/fixtures/dumps/$platform.json", ({ platform, title, scheme, groups }) => {
  const file = `test/fixtures/dumps/${platform}.json`;

  it(`is recognised from spec.providerID ${scheme}, its node groups from their label, and runs under profile ${platform}`, () => {
    const s = loadScenarioFile(undefined, { cluster: file });
    expect(s.profile).toBe(platform);
    expect(s.cluster?.platform).toMatchObject({ name: platform, nodeGroups: groups, profileFromDump: true });
    expect(s.cluster?.platform?.evidence).toContain(`spec.providerID ${scheme}`);
    const text = formatTimeline(simulate({ ...s, duration: 1 }), s);
    const assumed = text.split("\n").find((l) => l.trimStart().startsWith("assumed:"))!;
    expect(assumed).toContain(`${title} from spec.providerID ${scheme}`);
    expect(assumed).toContain(`profile ${platform}, its documented behaviour`);
  });

  it("--profile overrides the recognised platform, and the line says the profile was given", () => {
    const s = loadScenarioFile(undefined, { cluster: file, profile: "stock" });
    expect(s.profile).toBe("stock");
    expect(s.cluster?.platform).toMatchObject({ name: platform, profileFromDump: false });
    const text = formatTimeline(simulate({ ...s, duration: 1 }), s);
    expect(text).toContain("profile stock as given");
  });
});

describe("a dump's node groups for the autoscaler", () => {
  it("come from the platform's node-group label when the autoscaler: section lists none", () => {
    const s = scenario(
      "name: eks-autoscaled\nduration: 1m\ncluster: ../test/fixtures/dumps/eks.json\nautoscaler: {kind: cluster-autoscaler}\n",
    );
    expect(s.autoscaler?.nodeGroups.map((g) => [g.name, g.template.name, g.size])).toEqual([
      ["app", "ip-192-168-12-34.eu-west-1.compute.internal", 1],
      ["spot", "ip-192-168-45-67.eu-west-1.compute.internal", 1],
    ]);
    // The eks profile's boot to Ready: 30s, a Karpenter maintainer's typical figure (src/platforms/eks.ts);
    // it was faultline's 90s estimate before a source was found.
    expect(s.autoscaler?.bootSeconds).toBe(30);
  });
});

describe("recognisePlatform", () => {
  it.each([
    [{ providerID: "aws:///us-east-1a/i-0123", labels: {} }, "eks"],
    [{ providerID: "gce://p/z/n", labels: {} }, "gke"],
    [{ providerID: "azure:///subscriptions/x", labels: {} }, "aks"],
    [{ providerID: "digitalocean://1", labels: {} }, "doks"],
    [{ labels: { "eks.amazonaws.com/nodegroup": "a" } }, "eks"],
    [{ labels: { "cloud.google.com/gke-nodepool": "a" } }, "gke"],
    [{ labels: { "kubernetes.azure.com/agentpool": "a" } }, "aks"],
    [{ labels: { "doks.digitalocean.com/node-pool": "a" } }, "doks"],
    [{ providerID: "kind://docker/kind/kind-worker", labels: {} }, undefined],
    [{ labels: {} }, undefined],
  ] as const)("%o → %s", (facts, want) => {
    expect(recognisePlatform([{ name: "n1", ...facts }])?.platform).toBe(want);
  });

  it("a providerID wins over another platform's label; Karpenter's NodePool label names a group", () => {
    const r = recognisePlatform([
      { name: "a", labels: { "cloud.google.com/gke-nodepool": "x" } },
      { name: "b", providerID: "aws:///eu-west-1a/i-1", labels: { "karpenter.sh/nodepool": "default" } },
    ]);
    expect(r).toMatchObject({ platform: "eks", nodeGroups: ["default"] });
  });

  it("a scenario's unknown --profile is one located error, not a stack trace", () => {
    expect(() =>
      loadScenarioFile(undefined, { cluster: "test/fixtures/dumps/eks.json", profile: "openshift" }),
    ).toThrow(/profile/);
  });
});
