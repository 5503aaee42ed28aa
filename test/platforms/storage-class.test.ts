// Each platform's default StorageClass (src/platforms/<name>.ts storageClass, each from its page),
// installed in the cluster from the start and written on a claim without storageClassName by the
// DefaultStorageClass admission plugin: its name, binding mode and whether its volumes are zonal;
// EKS stopped annotating gp2 as the default for clusters created on 1.30 or later.

import { describe, expect, it } from "vitest";
import type { ProfileName } from "../../src/scenario/types.ts";
import { eventsOf, only, run, scenario } from "../helpers/sim.ts";

const text = (profile: ProfileName, version = "1.33", extra = "") => `
name: default-class
kubernetesVersion: "${version}"
profile: ${profile}
duration: 1m
start: created
nodes:
  - {name: worker-1, zone: a}
  - {name: worker-2, zone: b}
manifests:
  - apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: db}
    spec:
      serviceName: db
      replicas: 1
      selector: {matchLabels: {app: db}}
      template:
        metadata: {labels: {app: db}}
        spec:
          containers: [{name: postgres, image: "postgres:17"}]
      volumeClaimTemplates:
        - metadata: {name: data}
          spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
${extra}`;

const provisioned = (profile: ProfileName, version?: string, extra?: string) =>
  only(run(scenario(text(profile, version, extra))), "ProvisioningSucceeded");

describe("the platform's default StorageClass", () => {
  it.each([
    ["gke", "standard-rwo"],
    ["aks", "managed-csi"],
  ] as const)("%s: %s, WaitForFirstConsumer: the volume in the first pod's node's zone", (profile, cls) => {
    const p = provisioned(profile);
    expect(p).toMatchObject({ storageClass: cls, assumedClass: false });
    expect(p.selectedNode).toBeDefined();
    expect(p.zone).toBe(p.selectedNode === "worker-1" ? "a" : "b");
  });

  it("doks: do-block-storage, Immediate: provisioned at the claim's creation, with no zone (a region's volume)", () => {
    const p = provisioned("doks");
    expect(p).toMatchObject({ storageClass: "do-block-storage", assumedClass: false });
    expect(p.selectedNode).toBeUndefined();
    expect(p.zone).toBeUndefined();
  });

  it("eks on 1.29: gp2 is the default", () => {
    expect(provisioned("eks", "1.29")).toMatchObject({ storageClass: "gp2" });
  });

  it("eks from 1.30: gp2 is not the default, so a claim without a class stays Pending (no class is set)", () => {
    const r = run(scenario(text("eks", "1.30")));
    expect(eventsOf(r, "ProvisioningSucceeded")).toEqual([]);
    expect(only(r, "ClaimPending")).toMatchObject({ cause: "NoStorageClass" });
  });

  it("a default class the scenario declares wins; no platform class is assumed over it", () => {
    const gp3 = `  - apiVersion: storage.k8s.io/v1
    kind: StorageClass
    metadata: {name: gp3, annotations: {storageclass.kubernetes.io/is-default-class: "true"}}
    provisioner: ebs.csi.aws.com
    volumeBindingMode: WaitForFirstConsumer
`;
    expect(provisioned("eks", "1.33", gp3)).toMatchObject({ storageClass: "gp3" });
  });

  it("stock keeps faultline's assumed cloud default", () => {
    expect(provisioned("stock")).toMatchObject({ storageClass: "standard", assumedClass: true });
  });
});
