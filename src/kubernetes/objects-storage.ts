// Storage (core/v1 PersistentVolumeClaim and PersistentVolume, storage.k8s.io/v1 StorageClass and
// VolumeAttachment), as binding, scheduling and attaching read them; objects.ts re-exports them.
// Field names and shapes follow the Kubernetes API.

import type { NodeSelector } from "./objects-affinity.ts";
import type { ObjectMeta } from "./objects-meta.ts";

export interface PersistentVolumeClaimTemplate {
  /** getPersistentVolumeClaims copies the template's annotations into each claim */
  metadata: { name: string; annotations?: Record<string, string> };
  /** the claims' spec (getPersistentVolumeClaims copies it): class, request, access modes */
  spec: { accessModes?: string[]; storageClassName?: string; storage?: number };
}

export interface PersistentVolumeClaim {
  kind: "PersistentVolumeClaim";
  metadata: ObjectMeta & { namespace: string };
  spec: {
    accessModes: string[];
    /** absent: the cluster's default StorageClass; "": no class (bind to a PV without one) */
    storageClassName?: string;
    /** the PersistentVolume to bind to, when set by the user or the binder */
    volumeName?: string;
    /** bytes requested (resources.requests.storage) */
    storage?: number;
  };
  /** written by the PersistentVolume controller when it binds the claim */
  status?: { phase: "Pending" | "Bound" | "Lost" };
}

/** core/v1 PersistentVolume (cluster-scoped), with what binding and scheduling read. */
export interface PersistentVolume {
  kind: "PersistentVolume";
  metadata: ObjectMeta;
  spec: {
    /** bytes (capacity.storage) */
    capacity: number;
    accessModes: string[];
    /** the claim this volume is bound or reserved to */
    claimRef?: { namespace: string; name: string; uid?: string };
    /** the nodes that can reach the volume (a zonal disk: its zone) */
    nodeAffinity?: { required: NodeSelector };
    storageClassName?: string;
    persistentVolumeReclaimPolicy: "Retain" | "Delete" | "Recycle";
    volumeMode: "Filesystem" | "Block";
  };
  /** Available until the PersistentVolume controller binds it (absent: Available) */
  status?: { phase: "Pending" | "Available" | "Bound" | "Released" | "Failed" };
}

/** core/v1 TopologySelectorTerm: a StorageClass's allowedTopologies term. */
export interface TopologySelectorTerm {
  matchLabelExpressions: { key: string; values: string[] }[];
}

/** storage.k8s.io/v1 StorageClass (cluster-scoped): its fields sit beside metadata, not in a spec. */
export interface StorageClass {
  kind: "StorageClass";
  metadata: ObjectMeta;
  provisioner: string;
  parameters?: Record<string, string>;
  /** Delete (the API's default) or Retain */
  reclaimPolicy: "Delete" | "Retain";
  /** Immediate (the API's default) or WaitForFirstConsumer */
  volumeBindingMode: "Immediate" | "WaitForFirstConsumer";
  allowedTopologies?: TopologySelectorTerm[];
  allowVolumeExpansion?: boolean;
}

/** storage.k8s.io/v1 VolumeAttachment, reduced to what the attach/detach controller tracks. */
export interface VolumeAttachment {
  kind: "VolumeAttachment";
  metadata: ObjectMeta;
  spec: { nodeName: string; claim: string };
  status: { attached: boolean };
}
