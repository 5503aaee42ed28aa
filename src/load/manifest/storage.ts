// Storage (core/v1, storage.k8s.io/v1): PersistentVolumeClaims and a StatefulSet's claim templates,
// PersistentVolumes and StorageClasses, validated as pkg/apis/core/validation
// (ValidatePersistentVolumeClaimSpec, ValidatePersistentVolumeSpec) and pkg/apis/storage/validation
// (ValidateStorageClass) do, typed for volume binding and scheduling.

import type {
  ObjectMeta,
  PersistentVolume,
  PersistentVolumeClaim,
  PersistentVolumeClaimTemplate,
  StorageClass,
  TopologySelectorTerm,
} from "../../kubernetes/objects.ts";
import {
  bool,
  fail,
  knownFields,
  list,
  type Obj,
  obj,
  oneOf,
  optOneOf,
  optStr,
  quantity,
  required,
  show,
  str,
  stringMap,
} from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";
import { nodeSelector } from "./affinity.ts";
import * as F from "./fields.ts";
import { annotationMap, check, dnsLabel, dnsSubdomain, type Meta } from "./meta.ts";
import { isDNS1123Subdomain, isLabelKey, isLabelValue } from "./names.ts";

export function persistentVolumeClaim(
  src: SourceDoc,
  path: Path,
  metadata: Meta,
  o: Obj,
): PersistentVolumeClaim {
  const specPath = [...path, "spec"];
  const s = obj(src, specPath, required(src, path, o, "spec", "PersistentVolumeClaim"));
  return { kind: "PersistentVolumeClaim", metadata, spec: claimSpec(src, specPath, s) };
}

/** ValidatePersistentVolumeClaimSpec: access modes, a positive storage request, a class name. */
function claimSpec(src: SourceDoc, path: Path, s: Obj): PersistentVolumeClaim["spec"] {
  knownFields(src, path, s, F.PERSISTENT_VOLUME_CLAIM_SPEC_FIELDS, "PersistentVolumeClaimSpec");
  const spec: PersistentVolumeClaim["spec"] = {
    accessModes: accessModes(src, [...path, "accessModes"], s.accessModes, true),
  };
  const rp = [...path, "resources"];
  const r = s.resources == null ? {} : obj(src, rp, s.resources);
  knownFields(src, rp, r, ["limits", "requests"], "VolumeResourceRequirements");
  const requests = r.requests == null ? {} : obj(src, [...rp, "requests"], r.requests);
  if (requests.storage == null)
    fail(
      src,
      s.resources == null ? path : rp,
      "missing-field",
      'missing required field "resources.requests.storage" (e.g. storage: 1Gi)',
    );
  spec.storage = positiveQuantity(src, [...rp, "requests", "storage"], requests.storage);
  const cls = optStr(src, [...path, "storageClassName"], s.storageClassName);
  if (cls !== undefined) {
    // ValidateClassName: "" means no class; anything else is a DNS subdomain.
    if (cls !== "") check(src, [...path, "storageClassName"], cls, isDNS1123Subdomain, "StorageClass name");
    spec.storageClassName = cls;
  }
  const volumeName = optStr(src, [...path, "volumeName"], s.volumeName);
  if (volumeName)
    spec.volumeName = dnsSubdomain(src, [...path, "volumeName"], volumeName, "PersistentVolume name");
  return spec;
}

/** ValidatePositiveQuantityValue: more than zero. */
function positiveQuantity(src: SourceDoc, path: Path, v: unknown): number {
  const n = quantity(src, path, v);
  if (n <= 0) fail(src, path, "invalid-quantity", `${show(v)} is not more than 0: must be greater than zero`);
  return n;
}

const ACCESS_MODES = ["ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"] as const;

function accessModes(src: SourceDoc, path: Path, v: unknown, needed: boolean): string[] {
  if (v == null) {
    if (needed) fail(src, path, "missing-field", "at least 1 access mode is required");
    return [];
  }
  const modes = list(src, path, v).map((m, i) => oneOf(src, [...path, i], m, ACCESS_MODES));
  if (needed && modes.length === 0) fail(src, path, "missing-field", "at least 1 access mode is required");
  return modes;
}

export function claimTemplate(src: SourceDoc, path: Path, v: unknown): PersistentVolumeClaimTemplate {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.PERSISTENT_VOLUME_CLAIM_TEMPLATE_FIELDS, "PersistentVolumeClaim");
  const mp = [...path, "metadata"];
  const m = obj(src, mp, required(src, path, o, "metadata", "PersistentVolumeClaim"));
  knownFields(src, mp, m, F.OBJECT_META_FIELDS, "ObjectMeta");
  const name = dnsSubdomain(src, [...mp, "name"], required(src, mp, m, "name", "ObjectMeta"));
  const sp = [...path, "spec"];
  const s = obj(src, sp, required(src, path, o, "spec", "PersistentVolumeClaim"));
  const metadata: PersistentVolumeClaimTemplate["metadata"] = { name };
  if (m.annotations != null) metadata.annotations = annotationMap(src, [...mp, "annotations"], m.annotations);
  return { metadata, spec: claimSpec(src, sp, s) };
}

const RECLAIM_POLICIES = ["Retain", "Delete", "Recycle"] as const;

/** core/v1 PersistentVolume: exactly one volume source, capacity.storage, access modes, node affinity. */
export function persistentVolume(src: SourceDoc, path: Path, metadata: Meta, o: Obj): PersistentVolume {
  const sp = [...path, "spec"];
  const s = obj(src, sp, required(src, path, o, "spec", "PersistentVolume"));
  knownFields(src, sp, s, F.PERSISTENT_VOLUME_SPEC_FIELDS, "PersistentVolumeSpec");
  const sources = F.PERSISTENT_VOLUME_SOURCES.filter((k) => s[k] != null);
  if (sources.length === 0)
    fail(
      src,
      sp,
      "missing-field",
      `must specify a volume type (one of ${F.PERSISTENT_VOLUME_SOURCES.join(", ")})`,
    );
  if (sources.length > 1)
    fail(
      src,
      [...sp, sources[1]!],
      "invalid-value",
      `may not specify more than 1 volume type (found ${sources.join(" and ")})`,
      "key",
    );
  const cp = [...sp, "capacity"];
  const capacity = obj(src, cp, required(src, sp, s, "capacity", "PersistentVolumeSpec"));
  for (const key of Object.keys(capacity))
    if (key !== "storage")
      fail(
        src,
        [...cp, key],
        "invalid-value",
        `Unsupported value: ${show(key)}: supported values: "storage"`,
        "key",
      );
  const spec: PersistentVolume["spec"] = {
    capacity: positiveQuantity(src, [...cp, "storage"], required(src, cp, capacity, "storage", "capacity")),
    accessModes: accessModes(src, [...sp, "accessModes"], s.accessModes, true),
    persistentVolumeReclaimPolicy:
      optOneOf(
        src,
        [...sp, "persistentVolumeReclaimPolicy"],
        s.persistentVolumeReclaimPolicy,
        RECLAIM_POLICIES,
      ) ??
      // SetDefaults_PersistentVolume: Retain.
      "Retain",
    volumeMode:
      optOneOf(src, [...sp, "volumeMode"], s.volumeMode, ["Filesystem", "Block"] as const) ?? "Filesystem",
  };
  if (s.claimRef != null) {
    const rp = [...sp, "claimRef"];
    const r = obj(src, rp, s.claimRef);
    knownFields(src, rp, r, F.OBJECT_REFERENCE_FIELDS, "ObjectReference");
    spec.claimRef = {
      namespace: dnsLabel(src, [...rp, "namespace"], required(src, rp, r, "namespace", "claimRef")),
      name: dnsSubdomain(src, [...rp, "name"], required(src, rp, r, "name", "claimRef")),
    };
  }
  if (s.nodeAffinity != null) {
    const ap = [...sp, "nodeAffinity"];
    const a = obj(src, ap, s.nodeAffinity);
    knownFields(src, ap, a, ["required"], "VolumeNodeAffinity");
    spec.nodeAffinity = {
      required: nodeSelector(
        src,
        [...ap, "required"],
        required(src, ap, a, "required", "VolumeNodeAffinity"),
      ),
    };
  } else if (s.local != null) {
    fail(
      src,
      sp,
      "missing-field",
      'a local volume needs nodeAffinity (missing required field "nodeAffinity")',
    );
  }
  const cls = optStr(src, [...sp, "storageClassName"], s.storageClassName);
  if (cls) {
    check(src, [...sp, "storageClassName"], cls, isDNS1123Subdomain, "StorageClass name");
    spec.storageClassName = cls;
  }
  return { kind: "PersistentVolume", metadata: clusterScoped(metadata), spec };
}

/** storage.k8s.io/v1 StorageClass (ValidateStorageClass): a provisioner, its modes and allowed topologies. */
export function storageClass(src: SourceDoc, path: Path, metadata: Meta, o: Obj): StorageClass {
  knownFields(src, path, o, F.STORAGE_CLASS_FIELDS, "StorageClass");
  const provisioner = str(
    src,
    [...path, "provisioner"],
    required(src, path, o, "provisioner", "StorageClass"),
  );
  // validateProvisioner: a qualified name, case aside.
  check(src, [...path, "provisioner"], provisioner.toLowerCase(), isLabelKey, "provisioner");
  const sc: StorageClass = {
    kind: "StorageClass",
    metadata: clusterScoped(metadata),
    provisioner,
    // SetDefaults_StorageClass: reclaimPolicy Delete, volumeBindingMode Immediate.
    reclaimPolicy:
      optOneOf(src, [...path, "reclaimPolicy"], o.reclaimPolicy, ["Delete", "Retain"] as const) ?? "Delete",
    volumeBindingMode:
      optOneOf(src, [...path, "volumeBindingMode"], o.volumeBindingMode, [
        "Immediate",
        "WaitForFirstConsumer",
      ] as const) ?? "Immediate",
  };
  if (o.parameters != null) sc.parameters = stringMap(src, [...path, "parameters"], o.parameters);
  if (o.allowVolumeExpansion != null)
    sc.allowVolumeExpansion = bool(src, [...path, "allowVolumeExpansion"], o.allowVolumeExpansion);
  if (o.allowedTopologies != null) {
    const tp = [...path, "allowedTopologies"];
    sc.allowedTopologies = list(src, tp, o.allowedTopologies).map((t, i) => topologyTerm(src, [...tp, i], t));
  }
  return sc;
}

/** ValidateTopologySelectorTerm: label keys with at least one value each, values unique. */
function topologyTerm(src: SourceDoc, path: Path, v: unknown): TopologySelectorTerm {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.TOPOLOGY_SELECTOR_TERM_FIELDS, "TopologySelectorTerm");
  const ep = [...path, "matchLabelExpressions"];
  const exprs = list(src, ep, required(src, path, o, "matchLabelExpressions", "TopologySelectorTerm"));
  if (exprs.length === 0)
    fail(src, ep, "missing-field", "must have at least one topology selector requirement");
  return {
    matchLabelExpressions: exprs.map((e, i) => {
      const p = [...ep, i];
      const r = obj(src, p, e);
      knownFields(src, p, r, F.TOPOLOGY_SELECTOR_REQUIREMENT_FIELDS, "TopologySelectorLabelRequirement");
      const key = str(src, [...p, "key"], required(src, p, r, "key", "TopologySelectorLabelRequirement"));
      check(src, [...p, "key"], key, isLabelKey, "label key");
      const vp = [...p, "values"];
      const values = list(src, vp, required(src, p, r, "values", "TopologySelectorLabelRequirement")).map(
        (x, j) => {
          const value = str(src, [...vp, j], x);
          check(src, [...vp, j], value, isLabelValue, "label value");
          return value;
        },
      );
      if (values.length === 0) fail(src, vp, "missing-field", "must specify as least one value");
      const dup = values.findIndex((x, j) => values.indexOf(x) !== j);
      if (dup >= 0) fail(src, [...vp, dup], "invalid-value", `Duplicate value: ${show(values[dup])}`);
      return { key, values };
    }),
  };
}

/** A cluster-scoped object has no namespace (the loader defaults namespaced objects' to "default"). */
function clusterScoped(metadata: Meta): ObjectMeta {
  const { namespace: _, ...rest } = metadata;
  return rest;
}
