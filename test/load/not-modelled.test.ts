// Valid Kubernetes fields no model reads are reported once, where they first appear, never dropped
// in silence ("never silent").

import { describe, expect, it } from "vitest";
import type { Deployment } from "../../src/kubernetes/objects.ts";
import { formatJson } from "../../src/report/json.ts";
import { formatTimeline } from "../../src/report/text.ts";
import { simulate } from "../../src/run/simulate.ts";
import { load } from "./helpers.ts";

const NODES = "nodes: [{name: worker-1, zone: a}]\n";
const scenarioWith = (file: string) =>
  load(`duration: 1m\n${NODES}manifests: [m.yaml]\n`, { "m.yaml": file });

const deployment = (spec: string, pod = "", container = "") => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
${spec}  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
${pod}      containers:
        - name: web
${container}`;

describe("not modelled", () => {
  it.each([
    ["DeploymentSpec.minReadySeconds", deployment("  minReadySeconds: 10\n"), "m.yaml:5"],
    ["DeploymentSpec.strategy", deployment("  strategy: {type: Recreate}\n"), "m.yaml:5"],
    ["PodSpec.schedulerName", deployment("", "      schedulerName: my-scheduler\n"), "m.yaml:9"],
    // Init containers and sidecars run (test/kubelet/init-containers.test.ts), and an app container's
    // own restart rules from 1.35 (container-restart-rules.test.ts); an init container's do not.
    [
      "Container.restartPolicy",
      deployment("", "      initContainers: [{name: init, restartPolicy: OnFailure}]\n"),
      "m.yaml:9",
    ],
    ["PodSpec.activeDeadlineSeconds", deployment("", "      activeDeadlineSeconds: 60\n"), "m.yaml:9"],
    [
      "Container.resources.limits",
      deployment("", "", "          resources: {limits: {memory: 1Gi}}\n"),
      "m.yaml:11",
    ],
    [
      "Container.lifecycle.postStart",
      deployment("", "", "          lifecycle: {postStart: {exec: {command: [touch, /tmp/up]}}}\n"),
      "m.yaml:11",
    ],
    [
      "PodAffinityTerm.matchLabelKeys",
      deployment(
        "",
        "      affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [pod-template-hash]}]}}\n",
      ),
      "m.yaml:9",
    ],
    [
      "ServiceSpec.sessionAffinity",
      "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {selector: {app: web}, sessionAffinity: ClientIP}\n",
      "m.yaml:4",
    ],
    // External provisioners refuse a claim with a selector ("claim Selector is not supported",
    // kubernetes-csi/external-provisioner controller.go): it waits for a matching volume.
    [
      "PersistentVolumeClaimSpec.selector",
      "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n  selector: {matchLabels: {disk: fast}}\n",
      "m.yaml:7",
    ],
    [
      "PersistentVolumeClaimSpec.selector",
      "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: c, image: postgres}]}\n  volumeClaimTemplates:\n    - metadata: {name: data}\n      spec:\n        accessModes: [ReadWriteOnce]\n        resources: {requests: {storage: 1Gi}}\n        selector: {matchLabels: {disk: fast}}\n",
      "m.yaml:15",
    ],
    [
      "ObjectMeta.finalizers",
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p, finalizers: [example.com/hold]}\nspec: {containers: [{name: c}]}\n",
      "m.yaml:3",
    ],
  ])("%s", (field, file, where) => {
    expect(scenarioWith(file).notModelled).toEqual([{ field, where }]);
  });

  it("what the scheduler reads is loaded, not reported: node and pod affinity with namespaces, the spread constraints' matchLabelKeys, minDomains and policies", () => {
    const s = scenarioWith(
      deployment(
        "",
        "      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [a]}]}]}}, podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: kubernetes.io/hostname, namespaces: [db], namespaceSelector: {matchLabels: {team: x}}, labelSelector: {matchLabels: {app: db}}}]}}\n" +
          "      topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [pod-template-hash], minDomains: 3, nodeAffinityPolicy: Ignore, nodeTaintsPolicy: Honor}]\n",
      ),
    );
    expect(s.notModelled).toEqual([]);
    const spec = (s.manifests[0]!.object as Deployment).spec.template.spec;
    expect(spec.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.[0]).toMatchObject({
      namespaces: ["db"],
      namespaceSelector: { matchLabels: { team: "x" } },
    });
    expect(spec.topologySpreadConstraints?.[0]).toMatchObject({
      matchLabelKeys: ["pod-template-hash"],
      minDomains: 3,
      nodeAffinityPolicy: "Ignore",
      nodeTaintsPolicy: "Honor",
    });
  });

  it("a preStop hook, which the kubelet runs before SIGTERM, is not reported", () => {
    const s = scenarioWith(deployment("", "", "          lifecycle: {preStop: {sleep: {seconds: 5}}}\n"));
    expect(s.notModelled).toEqual([]);
  });

  it("the values the models assume are not reported (default-scheduler, sessionAffinity None, IfHealthyBudget)", () => {
    const s = scenarioWith(
      `${deployment("", "      schedulerName: default-scheduler\n")}---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {selector: {app: web}, sessionAffinity: None, internalTrafficPolicy: Cluster}\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: p}\nspec: {minAvailable: 1, unhealthyPodEvictionPolicy: IfHealthyBudget}\n`,
    );
    expect(s.notModelled).toEqual([]);
  });

  it("each field once, where it first appears", () => {
    const two = `${deployment("  minReadySeconds: 5\n")}---\n${deployment("  minReadySeconds: 7\n").replace("name: web}", "name: api}").replaceAll("app: web", "app: api")}`;
    expect(scenarioWith(two).notModelled).toEqual([
      { field: "DeploymentSpec.minReadySeconds", where: "m.yaml:5" },
    ]);
  });

  it("is a line of the starting state and a key of the JSON, only when there is something to say", () => {
    const s = scenarioWith(
      deployment("  strategy: {type: Recreate}\n", "", "          resources: {limits: {memory: 1Gi}}\n"),
    );
    const result = simulate(s);
    expect(formatTimeline(result, s).split("\n")).toContain(
      "  not modelled: DeploymentSpec.strategy (m.yaml:5), Container.resources.limits (m.yaml:12)",
    );
    expect(JSON.parse(formatJson(result, s)).notModelled).toEqual([
      { field: "DeploymentSpec.strategy", where: "m.yaml:5" },
      { field: "Container.resources.limits", where: "m.yaml:12" },
    ]);
    const plain = scenarioWith(deployment(""));
    const plainResult = simulate(plain);
    expect(formatTimeline(plainResult, plain)).not.toContain("not modelled:");
    expect(JSON.parse(formatJson(plainResult, plain))).not.toHaveProperty("notModelled");
  });

  it("objects of kinds no model reads are a key of the JSON too, each with where it is", () => {
    const s = scenarioWith(
      `${deployment("")}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: web-config}\n---\napiVersion: monitoring.coreos.com/v1\nkind: Alertmanager\nmetadata: {name: main}\n`,
    );
    const result = simulate(s);
    expect(formatTimeline(result, s)).toContain(
      "  ignored (not modelled): ConfigMap web-config, Alertmanager main",
    );
    expect(JSON.parse(formatJson(result, s)).ignored).toEqual([
      { kind: "ConfigMap", apiVersion: "v1", name: "web-config", where: "m.yaml:12" },
      { kind: "Alertmanager", apiVersion: "monitoring.coreos.com/v1", name: "main", where: "m.yaml:16" },
    ]);
    const plain = scenarioWith(deployment(""));
    expect(JSON.parse(formatJson(simulate(plain), plain))).not.toHaveProperty("ignored");
  });
});
