// Scenario settings: names as Kubernetes spells them, and the old spellings refused with a suggestion.

import { describe, expect, it } from "vitest";
import { type ExactCase, expectExact } from "./exact.ts";
import { load } from "./helpers.ts";

const NODES = "nodes: [{name: worker-1, zone: a}]\n";

describe("controlPlane.terminatedPodGCThreshold", () => {
  it("is KubeControllerManagerConfiguration's spelling", () => {
    const s = load(`duration: 1m\n${NODES}controlPlane: {terminatedPodGCThreshold: 100}\n`);
    expect(s.controlPlane.terminatedPodGCThreshold).toBe(100);
  });

  const cases: ExactCase[] = [
    {
      name: "the old spelling is an error naming the new one",
      scenario: `duration: 1m\n${NODES}controlPlane:\n  terminatedPodGcThreshold: 100\n`,
      message:
        'scenario.yaml:4:3: controlPlane.terminatedPodGcThreshold: unknown field "terminatedPodGcThreshold" (did you mean "terminatedPodGCThreshold"?)',
    },
  ];
  it.each(cases)("$name", expectExact);
});

describe("fields the node and pod models read, loaded and typed", () => {
  const WEB = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web}]
      volumes: [{name: cache, emptyDir: {}}, {name: scratch}, {name: data, persistentVolumeClaim: {claimName: data}}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec: {minAvailable: 1, unhealthyPodEvictionPolicy: AlwaysAllow, selector: {matchLabels: {app: web}}}
`;
  const scenario = (extra: string) =>
    load(`duration: 1m\n${NODES}manifests: [web.yaml]\n${extra}`, { "web.yaml": WEB });

  it("drain's --force, --delete-emptydir-data and --ignore-daemonsets", () => {
    const s = scenario(
      "timeline:\n  - {at: 10s, do: drain, node: worker-1, force: true, deleteEmptyDirData: true, ignoreDaemonSets: false}\n",
    );
    expect(s.timeline[0]).toMatchObject({
      do: "drain",
      force: true,
      deleteEmptyDirData: true,
      ignoreDaemonSets: false,
    });
  });

  it("emptyDir volumes, a volume without a source being one (SetDefaults_Volume)", () => {
    const s = scenario("");
    const spec =
      s.manifests[0]!.object.kind === "Deployment" ? s.manifests[0]!.object.spec.template.spec : undefined;
    expect(spec?.volumes).toEqual([
      { name: "cache", emptyDir: {} },
      { name: "scratch", emptyDir: {} },
      { name: "data", persistentVolumeClaim: { claimName: "data" } },
    ]);
  });

  it("a budget's unhealthyPodEvictionPolicy, read by the Eviction API's model (not listed as not modelled)", () => {
    const s = scenario("");
    expect(s.manifests[1]!.object).toMatchObject({ spec: { unhealthyPodEvictionPolicy: "AlwaysAllow" } });
    expect(s.notModelled).toEqual([]);
  });

  it("behaviour.exitAfterSeconds, read by the kubelet: not listed as not modelled", () => {
    const s = scenario("behaviour:\n  web: {exitAfterSeconds: 30s, exitCode: 1}\n");
    expect(s.behaviour.web).toEqual({ exitAfterSeconds: 30, exitCode: 1 });
    expect(s.notModelled.map((f) => f.field)).not.toContain("behaviour.exitAfterSeconds");
  });

  const cases: ExactCase[] = [
    {
      name: "force on a step that is not a drain",
      scenario: `duration: 1m\n${NODES}timeline:\n  - {at: 10s, do: cordon, node: worker-1, force: true}\n`,
      message: "scenario.yaml:4:43: timeline[0].force: force is an option of drain (kubectl drain --force)",
    },
    {
      name: "deleteEmptyDirData that is not a boolean",
      scenario: `duration: 1m\n${NODES}timeline:\n  - {at: 10s, do: drain, node: worker-1, deleteEmptyDirData: yes}\n`,
      message: 'scenario.yaml:4:62: timeline[0].deleteEmptyDirData: "yes" is not a boolean (true or false)',
    },
  ];
  it.each(cases)("$name", expectExact);
});
