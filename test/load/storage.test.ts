// PersistentVolumes, StorageClasses and claims, typed for volume binding and zonal scheduling, and
// node affinity terms, validated as the API server validates them.

import { describe, expect, it } from "vitest";
import type {
  Deployment,
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
} from "../../src/kubernetes/objects.ts";
import { type ExactCase, expectExact } from "./exact.ts";
import { load } from "./helpers.ts";

const NODES = "nodes: [{name: worker-1, zone: a}]\n";
const withFile = (file: string) => ({
  scenario: `duration: 15m\n${NODES}manifests: [m.yaml]\n`,
  files: { "m.yaml": file },
});
const scenarioWith = (file: string) => load(withFile(file).scenario, withFile(file).files);

const PV = `apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-a}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
  claimRef: {namespace: default, name: data-db-0}
  storageClassName: zonal
  csi: {driver: pd.csi.storage.gke.io, volumeHandle: disk-1}
  nodeAffinity:
    required:
      nodeSelectorTerms:
        - matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [a]}]
`;
const SC = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: zonal}
provisioner: pd.csi.storage.gke.io
volumeBindingMode: WaitForFirstConsumer
allowedTopologies:
  - matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [a, b]}]
`;

describe("PersistentVolume and StorageClass", () => {
  it("load as typed, cluster-scoped objects with the API's defaults", () => {
    const s = scenarioWith(`${PV}---\n${SC}`);
    expect(s.manifests.map((m) => m.object)).toEqual([
      {
        kind: "PersistentVolume",
        metadata: { name: "pv-a" },
        spec: {
          capacity: 10 * 2 ** 30,
          accessModes: ["ReadWriteOnce"],
          claimRef: { namespace: "default", name: "data-db-0" },
          storageClassName: "zonal",
          persistentVolumeReclaimPolicy: "Retain",
          volumeMode: "Filesystem",
          nodeAffinity: {
            required: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: "topology.kubernetes.io/zone", operator: "In", values: ["a"] }] },
              ],
            },
          },
        },
      } satisfies PersistentVolume,
      {
        kind: "StorageClass",
        metadata: { name: "zonal" },
        provisioner: "pd.csi.storage.gke.io",
        reclaimPolicy: "Delete",
        volumeBindingMode: "WaitForFirstConsumer",
        allowedTopologies: [
          { matchLabelExpressions: [{ key: "topology.kubernetes.io/zone", values: ["a", "b"] }] },
        ],
      } satisfies StorageClass,
    ]);
    expect(s.ignored).toEqual([]);
  });

  it("a claim keeps its class, volume name and request", () => {
    const s = scenarioWith(
      "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec: {accessModes: [ReadWriteOnce], storageClassName: zonal, volumeName: pv-a, resources: {requests: {storage: 5Gi}}}\n",
    );
    expect((s.manifests[0]!.object as PersistentVolumeClaim).spec).toEqual({
      accessModes: ["ReadWriteOnce"],
      storageClassName: "zonal",
      volumeName: "pv-a",
      storage: 5 * 2 ** 30,
    });
  });

  it("node affinity and pod affinity are typed for the scheduler", () => {
    const s = scenarioWith(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web}]
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions: [{key: disk, operator: Exists}]
                matchFields: [{key: metadata.name, operator: NotIn, values: [worker-2]}]
          preferredDuringSchedulingIgnoredDuringExecution:
            - {weight: 10, preference: {matchExpressions: [{key: cores, operator: Gt, values: ["8"]}]}}
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - {topologyKey: topology.kubernetes.io/zone, labelSelector: {matchLabels: {app: db}}}
`);
    expect((s.manifests[0]!.object as Deployment).spec.template.spec.affinity).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [{ key: "disk", operator: "Exists" }],
              matchFields: [{ key: "metadata.name", operator: "NotIn", values: ["worker-2"] }],
            },
          ],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 10, preference: { matchExpressions: [{ key: "cores", operator: "Gt", values: ["8"] }] } },
        ],
      },
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: "topology.kubernetes.io/zone", labelSelector: { matchLabels: { app: "db" } } },
        ],
      },
    });
  });

  const pv = (spec: string) => `apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv}\nspec:\n${spec}`;
  const affinity = (na: string) =>
    `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n  affinity: {nodeAffinity: ${na}}\n`;
  const cases: ExactCase[] = [
    {
      name: "a PersistentVolume without a volume source",
      ...withFile(pv("  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n")),
      message:
        "m.yaml:5:3: spec: must specify a volume type (one of awsElasticBlockStore, azureDisk, azureFile, cephfs, cinder, csi, fc, flexVolume, flocker, gcePersistentDisk, glusterfs, hostPath, iscsi, local, nfs, photonPersistentDisk, portworxVolume, quobyte, rbd, scaleIO, storageos, vsphereVolume)",
    },
    {
      name: "a PersistentVolume with two sources",
      ...withFile(
        pv(
          "  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n  csi: {driver: d, volumeHandle: h}\n  nfs: {server: s, path: /}\n",
        ),
      ),
      message: "m.yaml:8:3: spec.nfs: may not specify more than 1 volume type (found csi and nfs)",
    },
    {
      name: "a PersistentVolume without capacity.storage",
      ...withFile(
        pv("  capacity: {}\n  accessModes: [ReadWriteOnce]\n  csi: {driver: d, volumeHandle: h}\n"),
      ),
      message: 'm.yaml:5:13: spec.capacity.storage: missing required field "storage" in capacity',
    },
    {
      name: "a PersistentVolume with a capacity other than storage",
      ...withFile(
        pv(
          "  capacity: {storage: 1Gi, cpu: 1}\n  accessModes: [ReadWriteOnce]\n  csi: {driver: d, volumeHandle: h}\n",
        ),
      ),
      message: 'm.yaml:5:28: spec.capacity.cpu: Unsupported value: "cpu": supported values: "storage"',
    },
    {
      name: "a local PersistentVolume without node affinity",
      ...withFile(
        pv("  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n  local: {path: /mnt/disk}\n"),
      ),
      message: 'm.yaml:5:3: spec: a local volume needs nodeAffinity (missing required field "nodeAffinity")',
    },
    {
      name: "node affinity without terms",
      ...withFile(affinity("{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: []}}")),
      message:
        "m.yaml:6:97: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: must have at least one node selector term",
    },
    {
      name: "Gt with two values",
      ...withFile(
        affinity(
          "{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: cores, operator: Gt, values: ['8', '9']}]}]}}",
        ),
      ),
      message:
        "m.yaml:6:153: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: must be specified single value when `operator` is 'Lt' or 'Gt'",
    },
    {
      name: "a matchFields key other than metadata.name",
      ...withFile(
        affinity(
          "{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: metadata.labels, operator: In, values: [x]}]}]}}",
        ),
      ),
      message:
        'm.yaml:6:119: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key: "metadata.labels" is not a valid field selector key: only "metadata.name" is supported',
    },
    {
      name: "a preference weight of 0",
      ...withFile(
        affinity("{preferredDuringSchedulingIgnoredDuringExecution: [{weight: 0, preference: {}}]}"),
      ),
      message:
        "m.yaml:6:88: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: 0 is too small: must be at least 1",
    },
    {
      name: "a StorageClass without a provisioner",
      ...withFile("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: s}\n"),
      message: 'm.yaml:1:1: provisioner: missing required field "provisioner" in StorageClass',
    },
    {
      name: "a StorageClass with an unknown binding mode",
      ...withFile(
        "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: s}\nprovisioner: x.io/d\nvolumeBindingMode: Lazy\n",
      ),
      message: 'm.yaml:5:20: volumeBindingMode: "Lazy" is not one of "Immediate", "WaitForFirstConsumer"',
    },
    {
      name: "a StorageClass topology term without values",
      ...withFile(
        "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: s}\nprovisioner: x.io/d\nallowedTopologies: [{matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: []}]}]\n",
      ),
      message:
        "m.yaml:5:89: allowedTopologies[0].matchLabelExpressions[0].values: must specify as least one value",
    },
    {
      name: "a claim without a storage request",
      ...withFile(
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec: {accessModes: [ReadWriteOnce]}\n",
      ),
      message: 'm.yaml:4:7: spec: missing required field "resources.requests.storage" (e.g. storage: 1Gi)',
    },
    {
      name: "a claim asking for 0 bytes",
      ...withFile(
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 0}}}\n",
      ),
      message:
        "m.yaml:4:70: spec.resources.requests.storage: 0 is not more than 0: must be greater than zero",
    },
  ];
  it.each(cases)("$name", expectExact);
});
