// Storage (core/v1, storage.k8s.io/v1): PersistentVolumeClaims and a StatefulSet's claim templates.

import type { PersistentVolumeClaim, PersistentVolumeClaimTemplate } from "../../kubernetes/objects.ts";
import { fail, knownFields, list, type Obj, obj, oneOf, required } from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";
import * as F from "./fields.ts";
import { dnsSubdomain, type Meta } from "./meta.ts";

export function persistentVolumeClaim(
  src: SourceDoc,
  path: Path,
  metadata: Meta,
  o: Obj,
): PersistentVolumeClaim {
  const specPath = [...path, "spec"];
  const s = obj(src, specPath, required(src, path, o, "spec", "PersistentVolumeClaim"));
  knownFields(src, specPath, s, F.PERSISTENT_VOLUME_CLAIM_SPEC_FIELDS, "PersistentVolumeClaimSpec");
  return {
    kind: "PersistentVolumeClaim",
    metadata,
    spec: { accessModes: accessModes(src, [...specPath, "accessModes"], s.accessModes, true) },
  };
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
  knownFields(src, sp, s, F.PERSISTENT_VOLUME_CLAIM_SPEC_FIELDS, "PersistentVolumeClaimSpec");
  return {
    metadata: { name },
    spec: { accessModes: accessModes(src, [...sp, "accessModes"], s.accessModes, true) },
  };
}
