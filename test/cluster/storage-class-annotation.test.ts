// A claim's class named by the beta annotation `volume.beta.kubernetes.io/storage-class`, as the
// Cassandra example's volumeClaimTemplates do (kubernetes/examples cassandra-statefulset.yaml).
// GetPersistentVolumeClaimClass (k8s.io/component-helpers/storage/volume/helpers.go, the PV
// controller's and the scheduler's VolumeBinding's reading of a claim's class) takes the annotation
// before spec.storageClassName, and PersistentVolumeClaimHasClass makes the DefaultStorageClass
// admission plugin leave such a claim alone. The alpha annotation
// `volume.alpha.kubernetes.io/storage-class` (the CockroachDB example) is read by nothing any more: the
// claim gets the default class. The StatefulSet controller copies each template's metadata,
// annotations included, into the claims it creates (getPersistentVolumeClaims, stateful_set_utils.go).

import { describe, expect, it } from "vitest";
import { clusterHead, only, run, scenario } from "../helpers/sim.ts";

const cluster = (manifests: string) =>
  scenario(`
${clusterHead("class-annotation", ["a", "b"])}manifests:
  - apiVersion: storage.k8s.io/v1
    kind: StorageClass
    metadata: {name: fast}
    provisioner: k8s.io/minikube-hostpath
${manifests}`);

const claimTemplate = (annotation: string) => `
  - apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: cassandra}
    spec:
      serviceName: cassandra
      replicas: 1
      selector: {matchLabels: {app: cassandra}}
      template:
        metadata: {labels: {app: cassandra}}
        spec:
          containers: [{name: cassandra, image: cassandra}]
      volumeClaimTemplates:
        - metadata:
            name: data
            annotations: {${annotation}}
          spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}`;

describe("the beta storage-class annotation names the claim's class", () => {
  it("a StatefulSet's claim template: the claim is provisioned with class fast (Immediate: before any pod is scheduled)", () => {
    const r = run(cluster(claimTemplate('"volume.beta.kubernetes.io/storage-class": fast')));
    const provisioned = only(r, "ProvisioningSucceeded");
    expect(provisioned).toMatchObject({
      object: "PersistentVolumeClaim/default/data-cassandra-0",
      storageClass: "fast",
      assumedClass: false,
    });
    // Immediate binding (the class's default mode): no node was selected for it.
    expect(provisioned.selectedNode).toBeUndefined();
  });

  it("a claim of its own: the annotation wins over spec.storageClassName", () => {
    const r = run(
      cluster(`
  - apiVersion: v1
    kind: PersistentVolumeClaim
    metadata:
      name: data
      annotations: {"volume.beta.kubernetes.io/storage-class": fast}
    spec: {storageClassName: other, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}`),
    );
    expect(only(r, "ProvisioningSucceeded")).toMatchObject({ storageClass: "fast", assumedClass: false });
  });

  it("the alpha annotation is read by nothing: the claim takes the default class", () => {
    const r = run(cluster(claimTemplate('"volume.alpha.kubernetes.io/storage-class": fast')));
    expect(only(r, "ProvisioningSucceeded")).toMatchObject({ assumedClass: true });
  });
});
