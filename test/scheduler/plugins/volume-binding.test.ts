// Issue 9 point 11: zonal volumes. A volume provisioned for a claim carries its zone as node
// affinity (kubernetes-csi/external-provisioner topology.go: GenerateVolumeNodeAffinity from the
// selected node, or from the zone the claim's name hashes to with Immediate binding), and the
// scheduler's VolumeBinding filter keeps the claim's pods there ("node(s) had volume node affinity
// conflict", volumebinding/binder.go checkBoundClaims).

import { describe, expect, it } from "vitest";
import type { Scenario } from "../../../src/scenario/types.ts";
import { clusterHead, eventsOf, first, only, run, scenario } from "../../helpers/sim.ts";

const ZONES: Record<string, string> = { "worker-1": "a", "worker-2": "b", "worker-3": "c" };

function statefulSet(replicas: number, start: string, timeline = "", classes = ""): Scenario {
  return scenario(`
name: zonal
kubernetesVersion: "1.32"
duration: 10m
start: ${start}
nodes:
  - {name: worker-1, zone: a}
  - {name: worker-2, zone: b}
  - {name: worker-3, zone: c}
manifests:${classes}
  - apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: db}
    spec:
      serviceName: db
      replicas: ${replicas}
      podManagementPolicy: Parallel
      selector: {matchLabels: {app: db}}
      template:
        metadata: {labels: {app: db}}
        spec:
          containers: [{name: postgres, image: postgres}]
      volumeClaimTemplates:
        - metadata: {name: data}
          spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
${timeline}`);
}

describe("WaitForFirstConsumer (the clouds' default, assumed when the scenario declares none)", () => {
  it("the volume is created in the zone of the node the first pod was scheduled to", () => {
    const r = run(statefulSet(1, "created"));
    const scheduled = only(r, "PodScheduled");
    const provisioned = only(r, "ProvisioningSucceeded");
    expect(provisioned).toMatchObject({
      object: "PersistentVolumeClaim/default/data-db-0",
      selectedNode: scheduled.node,
      zone: ZONES[scheduled.node!],
      assumedClass: true,
    });
    expect(provisioned.t).toBe(scheduled.t);
  });

  it("a replacement for a pod lost with its node stays Pending: every other node is in another zone", () => {
    const first = run(statefulSet(1, "created"));
    const node = only(first, "PodScheduled").node!;
    const r = run(
      statefulSet(
        1,
        "created",
        `timeline:\n  - {at: 10s, do: power-off, node: ${node}}\n  - {at: 2m, do: force-delete-pod, pod: default/db-0}`,
      ),
    );
    const deleted = only(r, "PodDeleted");
    expect(eventsOf(r, "PodScheduled", (e) => e.t > deleted.t)).toEqual([]);
    const failed = failedAfter(r, deleted.t);
    expect(failed.filtered).toContainEqual({ reason: "VolumeNodeAffinityConflict", nodes: 2 });
    expect(failed.filtered.find((f) => f.reason === "UntoleratedTaint")?.nodes).toBe(1);
    expect(r.summary.pods.find((p) => p.pod === "default/db-0")).toMatchObject({
      node: null,
      status: "Pending",
    });
  });
});

function failedAfter(r: ReturnType<typeof run>, after: number) {
  return first(r, "FailedScheduling", (e) => e.t >= after);
}

/** hash/fnv New32 (FNV-1): multiply by the prime, then xor each byte. */
function fnv1(s: string): number {
  let h = 2166136261;
  for (const c of Buffer.from(s, "utf8")) h = ((Math.imul(h, 16777619) >>> 0) ^ c) >>> 0;
  return h;
}

describe("Immediate binding", () => {
  const immediate = (provisioner: string) => `
  - apiVersion: storage.k8s.io/v1
    kind: StorageClass
    metadata:
      name: fast
      annotations: {storageclass.kubernetes.io/is-default-class: "true"}
    provisioner: ${provisioner}
    volumeBindingMode: Immediate`;

  it("each claim is provisioned when it is created, in the zones sorted and shifted by the StatefulSet name's hash plus the ordinal; its pod follows", () => {
    const r = run(statefulSet(3, "created", "", immediate("pd.csi.storage.gke.io")));
    const zones = ["a", "b", "c"];
    const h = fnv1("db");
    for (let i = 0; i < 3; i++) {
      const p = only(
        r,
        "ProvisioningSucceeded",
        (e) => e.object === `PersistentVolumeClaim/default/data-db-${i}`,
      );
      expect(p.selectedNode).toBeUndefined();
      expect(p.assumedClass).toBe(false);
      expect(p.zone).toBe(zones[(h + i) % 3]);
      const scheduled = only(r, "PodScheduled", (e) => e.object === `Pod/default/db-${i}`);
      expect(ZONES[scheduled.node!]).toBe(p.zone);
      expect(p.t).toBeLessThanOrEqual(scheduled.t);
    }
  });

  it("a class with no provisioner leaves the claim Pending, and its pod with it (pod has unbound immediate PersistentVolumeClaims)", () => {
    const r = run(statefulSet(1, "created", "", immediate("kubernetes.io/no-provisioner")));
    expect(only(r, "ClaimPending")).toMatchObject({ cause: "ExternalProvisioner" });
    expect(eventsOf(r, "PodScheduled")).toEqual([]);
    expect(first(r, "FailedScheduling")).toMatchObject({
      preFilter: { reason: "UnboundImmediateClaims" },
      preemption: { notHelpful: 3, noVictims: 0 },
    });
  });
});

describe("PersistentVolumes and claims given in manifests are used as they are", () => {
  const app = (claim: string) =>
    scenario(`
${clusterHead("static", ["a", "b", "c"])}manifests:
  - apiVersion: storage.k8s.io/v1
    kind: StorageClass
    metadata: {name: local}
    provisioner: kubernetes.io/no-provisioner
    volumeBindingMode: WaitForFirstConsumer
  - apiVersion: v1
    kind: PersistentVolume
    metadata: {name: disk-c}
    spec:
      capacity: {storage: 10Gi}
      accessModes: [ReadWriteOnce]
      storageClassName: local
      local: {path: /mnt/disks/c}
      nodeAffinity:
        required:
          nodeSelectorTerms: [{matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [c]}]}]
  - apiVersion: v1
    kind: PersistentVolumeClaim
    metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], storageClassName: local, resources: {requests: {storage: 1Gi}}}
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: app}
    spec:
      replicas: 1
      selector: {matchLabels: {app: app}}
      template:
        metadata: {labels: {app: app}}
        spec:
          containers: [{name: app, image: app}]
          volumes: [{name: data, persistentVolumeClaim: {claimName: ${claim}}}]
`);

  it("a WaitForFirstConsumer claim binds to the existing volume its pod can reach: the pod goes to that volume's zone", () => {
    const r = run(app("data"));
    expect(only(r, "ClaimBound")).toMatchObject({
      object: "PersistentVolumeClaim/default/data",
      volume: "disk-c",
    });
    expect(only(r, "PodScheduled").node).toBe("worker-3");
    expect(eventsOf(r, "ProvisioningSucceeded")).toEqual([]);
  });

  it("a pod mounting a claim that does not exist is Pending: persistentvolumeclaim not found", () => {
    const r = run(app("nope"));
    expect(eventsOf(r, "PodScheduled")).toEqual([]);
    expect(first(r, "FailedScheduling")).toMatchObject({
      preFilter: { reason: "ClaimNotFound", claim: "nope" },
      filtered: [],
    });
  });
});
