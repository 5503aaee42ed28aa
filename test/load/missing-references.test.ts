// References to objects that are not among the manifests (src/load/manifest/references.ts): the
// models assume they exist, where Kubernetes would refuse the pod (the ServiceAccount admission
// plugin: "error looking up service account"), keep it in ContainerCreating (a configMap or secret
// volume: "MountVolume.SetUp failed … not found"), in CreateContainerConfigError (an env reference),
// or refuse the object (a namespace that does not exist). So each is listed as not modelled, once per
// field, where it first appears, unless the object is among the manifests (modelled or ignored) or
// the reference is `optional: true`. Found in the real manifests (test/fixtures/real): the Argo CD and
// kube-prometheus selections reference ServiceAccounts, ConfigMaps, Secrets and a namespace that a
// real install creates by other means.

import { describe, expect, it } from "vitest";
import { load } from "./helpers.ts";

const NODES = "nodes: [{name: worker-1, zone: a}]\n";
const scenarioWith = (...files: string[]) =>
  load(
    `duration: 1m\n${NODES}manifests: [${files.map((_, i) => `m${i}.yaml`).join(", ")}]\n`,
    Object.fromEntries(files.map((f, i) => [`m${i}.yaml`, f])),
  );

const deployment = (pod: string, container = "", namespace = "default") => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ${namespace}}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
${pod}      containers:
        - name: web
          image: nginx
${container}`;

const object = (kind: string, name: string, namespace = "default") =>
  `apiVersion: v1\nkind: ${kind}\nmetadata: {name: ${name}, namespace: ${namespace}}\n`;

describe("references to objects not among the manifests", () => {
  it.each([
    ["PodSpec.serviceAccountName", deployment("      serviceAccountName: web\n"), "m0.yaml:9"],
    ["PodSpec.serviceAccountName", deployment("      serviceAccount: web\n"), "m0.yaml:9"],
    [
      "Volume.configMap",
      deployment("      volumes: [{name: c, configMap: {name: web-config}}]\n"),
      "m0.yaml:9",
    ],
    ["Volume.secret", deployment("      volumes: [{name: s, secret: {secretName: web-tls}}]\n"), "m0.yaml:9"],
    [
      "VolumeProjection.secret",
      deployment("      volumes: [{name: p, projected: {sources: [{secret: {name: web-tls}}]}}]\n"),
      "m0.yaml:9",
    ],
    [
      "EnvVarSource.secretKeyRef",
      deployment("", "          env: [{name: A, valueFrom: {secretKeyRef: {name: web, key: a}}}]\n"),
      "m0.yaml:12",
    ],
    [
      "EnvVarSource.configMapKeyRef",
      deployment("", "          env: [{name: A, valueFrom: {configMapKeyRef: {name: web, key: a}}}]\n"),
      "m0.yaml:12",
    ],
    [
      "EnvFromSource.configMapRef",
      deployment("", "          envFrom: [{configMapRef: {name: web}}]\n"),
      "m0.yaml:12",
    ],
    [
      "EnvFromSource.secretRef",
      deployment("", "          envFrom: [{secretRef: {name: web}}]\n"),
      "m0.yaml:12",
    ],
    [
      "ObjectMeta.namespace",
      `apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: monitoring}\nspec: {selector: {app: web}, ports: [{port: 80}]}\n`,
      "m0.yaml:3",
    ],
  ])("%s (%s)", (field, manifest, where) => {
    expect(scenarioWith(manifest).notModelled).toEqual([{ field, where }]);
  });

  it("not listed when the object is among the manifests, modelled or ignored, in the same namespace", () => {
    const pod = `      serviceAccountName: web
      volumes: [{name: c, configMap: {name: web-config}}, {name: s, secret: {secretName: web-tls}}]
`;
    const s = scenarioWith(
      deployment(pod, "", "shop"),
      object("Namespace", "shop"),
      object("ServiceAccount", "web", "shop"),
      object("ConfigMap", "web-config", "shop"),
      object("Secret", "web-tls", "shop"),
    );
    expect(s.notModelled).toEqual([]);
    // The same objects in another namespace do not count.
    const elsewhere = scenarioWith(deployment(pod), object("ServiceAccount", "web", "shop"));
    expect(elsewhere.notModelled.map((n) => n.field)).toEqual([
      "PodSpec.serviceAccountName",
      "Volume.configMap",
      "Volume.secret",
    ]);
  });

  it("not listed: optional references, the default service account, the namespaces every cluster has", () => {
    const s = scenarioWith(
      deployment(
        "      serviceAccountName: default\n      volumes: [{name: c, configMap: {name: x, optional: true}}]\n",
        "          env: [{name: A, valueFrom: {secretKeyRef: {name: x, key: a, optional: true}}}]\n",
        "kube-system",
      ),
    );
    expect(s.notModelled).toEqual([]);
  });
});
