// The PersistentVolume controller and provisioner on their own (an engine, a store, the controller):
// Immediate claims bound when created, in the zone the external provisioner picks
// (kubernetes-csi/external-provisioner pkg/controller/topology.go getPVCNameHashAndIndexOffset), a
// volume pre-bound to a claim used as it is, a claim nothing can satisfy left Pending.

import { describe, expect, it } from "vitest";
import type { Context } from "../../src/cluster/context.ts";
import { Store } from "../../src/cluster/store.ts";
import {
  claimZoneIndex,
  PersistentVolumeController,
} from "../../src/controllers/persistentvolume-controller.ts";
import { Engine } from "../../src/engine/engine.ts";
import type { KubeObject, PersistentVolumeClaim } from "../../src/kubernetes/objects.ts";
import { Trace } from "../../src/trace/events.ts";

function setup(...objects: KubeObject[]) {
  const engine = new Engine(1);
  const store = new Store(engine);
  const trace = new Trace(engine);
  for (const zone of ["c", "a", "b"])
    store.create({
      kind: "Node",
      metadata: { name: `node-${zone}`, labels: { "topology.kubernetes.io/zone": zone } },
      spec: {},
      status: { capacity: {}, allocatable: {}, conditions: [] },
    });
  new PersistentVolumeController({ engine, store, trace } as unknown as Context);
  for (const o of objects) store.create(o);
  engine.run(0);
  return { store, trace };
}

const claim = (name: string, storageClassName?: string): PersistentVolumeClaim => ({
  kind: "PersistentVolumeClaim",
  metadata: { name, namespace: "default" },
  spec: { accessModes: ["ReadWriteOnce"], ...(storageClassName !== undefined ? { storageClassName } : {}) },
});

const immediate: KubeObject = {
  kind: "StorageClass",
  metadata: { name: "fast" },
  provisioner: "ebs.csi.aws.com",
  volumeBindingMode: "Immediate",
  reclaimPolicy: "Delete",
};

describe("the provisioner's zone for a claim with no selected node", () => {
  it("a StatefulSet's claims hash the set's name only, and go round the zones by ordinal", () => {
    const first = claimZoneIndex("data-web-0", 3);
    expect(claimZoneIndex("logs-web-0", 3)).toBe(first);
    expect(claimZoneIndex("data-web-1", 3)).toBe((first + 1) % 3);
    expect(claimZoneIndex("data-web-2", 3)).toBe((first + 2) % 3);
  });
});

describe("PersistentVolumeController", () => {
  it("binds an Immediate claim at once to a new volume carrying its zone as node affinity", () => {
    const { store } = setup(immediate, claim("data-web-1", "fast"));
    const pvc = store.get("PersistentVolumeClaim", "default/data-web-1")!;
    expect(pvc.status?.phase).toBe("Bound");
    const pv = store.get("PersistentVolume", pvc.spec.volumeName!)!;
    const zone = ["a", "b", "c"][claimZoneIndex("data-web-1", 3)];
    expect(pv.spec.nodeAffinity?.required?.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: "topology.kubernetes.io/zone", operator: "In", values: [zone] }] },
    ]);
    expect(pv.spec.claimRef).toMatchObject({ namespace: "default", name: "data-web-1" });
    expect(pv.spec.storageClassName).toBe("fast");
  });

  it("uses a volume pre-bound to the claim, declared after it in the same instant, and provisions nothing", () => {
    const { store, trace } = setup(immediate, claim("data", "fast"), {
      kind: "PersistentVolume",
      metadata: { name: "disk-1" },
      spec: {
        capacity: 2 ** 30,
        accessModes: ["ReadWriteOnce"],
        storageClassName: "fast",
        claimRef: { namespace: "default", name: "data" },
        persistentVolumeReclaimPolicy: "Retain",
        volumeMode: "Filesystem",
      },
    });
    expect(store.get("PersistentVolumeClaim", "default/data")!.spec.volumeName).toBe("disk-1");
    expect(store.list("PersistentVolume")).toHaveLength(1);
    expect(trace.events.filter((e) => e.type === "ProvisioningSucceeded")).toEqual([]);
  });

  it("leaves a WaitForFirstConsumer claim to the scheduler", () => {
    const { store } = setup(
      { ...immediate, volumeBindingMode: "WaitForFirstConsumer" } as KubeObject,
      claim("data", "fast"),
    );
    expect(store.get("PersistentVolumeClaim", "default/data")!.spec.volumeName).toBeUndefined();
    expect(store.list("PersistentVolume")).toEqual([]);
  });

  it.each([
    ["its class does not exist", "missing", { cause: "StorageClassNotFound", storageClass: "missing" }],
    ["it has no class", "", { cause: "NoStorageClass" }],
  ])("leaves a claim Pending when %s", (_, cls, fields) => {
    const { store, trace } = setup(claim("data", cls));
    expect(store.get("PersistentVolumeClaim", "default/data")!.spec.volumeName).toBeUndefined();
    expect(trace.events.find((e) => e.type === "ClaimPending")).toMatchObject(fields);
  });
});
