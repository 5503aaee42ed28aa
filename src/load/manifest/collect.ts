// A manifest document's value → typed objects: a List's items one by one, a modelled kind through
// its converter (one file per API area), any other kind kept aside as `ignored`, never rejected.
// Applies the API server's defaults that the models rely on (namespace "default", replicas 1,
// requests from limits) and its validation of the fields the models read.

import { type KubeObject, type ManifestKind, MODELLED_MANIFEST_KINDS } from "../../kubernetes/objects.ts";
import type { IgnoredObject, IgnoredView, ManifestObject } from "../../scenario/types.ts";
import { closest, fail, isObj, knownFields, type Obj, required, show, str } from "../check.ts";
import { lazyPosition, type Path, type SourceDoc } from "../source.ts";
import { cronJob } from "./cronjob.ts";
import * as F from "./fields.ts";
import { job } from "./jobs.ts";
import {
  ALL_KINDS,
  BUILTIN_KINDS,
  groupOf,
  groupsWithKind,
  isBuiltinGroup,
  isListKind,
  REMOVED_KINDS,
  REMOVED_VERSIONS,
} from "./kinds.ts";
import { type Meta, objectMeta } from "./meta.ts";
import { type NotModelled, noteNotModelled } from "./not-modelled.ts";
import { pod } from "./pod-spec.ts";
import { podDisruptionBudget } from "./policy.ts";
import { priorityClass } from "./priority.ts";
import { objectKey, type Reference, referencesOf } from "./references.ts";
import { service } from "./service.ts";
import { persistentVolume, persistentVolumeClaim, storageClass } from "./storage.ts";
import { daemonSet, deployment, replicaSet, statefulSet } from "./workloads.ts";

const API_VERSION: Record<ManifestKind, string> = {
  Pod: "v1",
  Service: "v1",
  PersistentVolumeClaim: "v1",
  Deployment: "apps/v1",
  ReplicaSet: "apps/v1",
  StatefulSet: "apps/v1",
  DaemonSet: "apps/v1",
  Job: "batch/v1",
  CronJob: "batch/v1",
  PodDisruptionBudget: "policy/v1",
  PersistentVolume: "v1",
  StorageClass: "storage.k8s.io/v1",
  PriorityClass: "scheduling.k8s.io/v1",
};

export interface Collected {
  manifests: ManifestObject[];
  ignored: IgnoredObject[];
  /** Where each of `manifests` is, in the same order, to point at it in later checks. */
  where: { src: SourceDoc; path: Path }[];
  /** `Kind/namespace/name` → position of the first object of that identity. */
  seen: Map<string, { file: string; line: number; col: number }>;
  /** Valid fields no model reads, each where it first appears. */
  notModelled: NotModelled;
  /** The identity (references.ts objectKey) of every object loaded, modelled or ignored. */
  present: Set<string>;
  /** References to other objects (namespace, service account, ConfigMaps, Secrets), in load order. */
  references: Reference[];
}

const strings = (v: unknown): Record<string, string> | undefined => {
  if (!isObj(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === "string") out[k] = x;
  return out;
};

/**
 * What `faultline serve` shows of a ConfigMap, Secret or ServiceAccount the models do not read: its
 * namespace, labels and creation time, a ConfigMap's data, a Secret's keys and type, never a
 * Secret's values (they are not kept).
 */
function servedView(kind: string, namespace: string, meta: Obj, value: Obj): IgnoredView | undefined {
  if (kind !== "ConfigMap" && kind !== "Secret" && kind !== "ServiceAccount") return undefined;
  const view: IgnoredView = { namespace };
  const labels = strings(meta.labels);
  if (labels && Object.keys(labels).length > 0) view.labels = labels;
  if (typeof meta.creationTimestamp === "string") view.created = meta.creationTimestamp;
  if (kind === "ConfigMap") {
    const data = strings(value.data);
    if (data) view.data = data;
    if (isObj(value.binaryData)) view.keys = Object.keys(value.binaryData);
  }
  if (kind === "Secret") {
    const keys = [value.data, value.stringData].flatMap((d) => (isObj(d) ? Object.keys(d) : []));
    view.keys = [...new Set(keys)].sort();
    view.type = typeof value.type === "string" && value.type !== "" ? value.type : "Opaque";
  }
  return view;
}

export function emptyCollected(): Collected {
  return {
    manifests: [],
    ignored: [],
    where: [],
    seen: new Map(),
    notModelled: new Map(),
    present: new Set(),
    references: [],
  };
}

/**
 * Validate one value of a manifest document (an object or a List of objects) at `path` in `src`
 * and append it to `out`.
 */
export function collectObjects(src: SourceDoc, path: Path, input: unknown, out: Collected): void {
  const { value, kind, apiVersion } = kindAndVersion(src, path, input);
  const group = groupOf(apiVersion);
  const builtin = isBuiltinGroup(group);

  // kubectl accepts `kind: List` (as `kubectl get -o yaml` prints it) and <Kind>List with `items`.
  if (
    kind === "List" ||
    (builtin && isListKind(group, kind)) ||
    (kind.endsWith("List") && Array.isArray(value.items))
  ) {
    if (value.items == null)
      fail(src, path, "invalid-object", `a ${kind} needs "items", the list of its objects`);
    if (!Array.isArray(value.items))
      fail(
        src,
        [...path, "items"],
        "invalid-object",
        `${show(value.items)} is not a list: a ${kind} holds its objects in "items"`,
      );
    value.items.forEach((item, i) => {
      collectObjects(src, [...path, "items", i], item, out);
    });
    return;
  }

  const pos = lazyPosition(src, path);
  const modelled =
    builtin && (MODELLED_MANIFEST_KINDS as readonly string[]).includes(kind)
      ? (kind as ManifestKind)
      : undefined;
  if (!modelled) {
    refuseUnknownKind(src, path, builtin, group, kind, apiVersion);
    const meta = isObj(value.metadata) ? value.metadata : {};
    const name = typeof meta.name === "string" ? meta.name : "";
    const namespace =
      typeof meta.namespace === "string" && meta.namespace !== "" ? meta.namespace : "default";
    out.present.add(objectKey(kind, namespace, name));
    const view = apiVersion === "v1" ? servedView(kind, namespace, meta, value) : undefined;
    out.ignored.push({ apiVersion, kind, name, pos, ...(view ? { view } : {}) });
    return;
  }
  const expected = API_VERSION[modelled];
  if (apiVersion !== expected) {
    fail(
      src,
      [...path, "apiVersion"],
      "invalid-object",
      `no matches for kind "${kind}" in version "${apiVersion}" (use apiVersion: ${expected})`,
    );
  }
  // A StorageClass's and a PriorityClass's fields sit beside metadata; their converters check them.
  if (modelled !== "StorageClass" && modelled !== "PriorityClass")
    knownFields(src, path, value, F.OBJECT_FIELDS, kind);
  const object = convert(src, path, modelled, value);
  // Cluster-scoped objects (PersistentVolume, StorageClass, PriorityClass) have no namespace.
  const key = object.metadata.namespace
    ? `${object.metadata.namespace}/${object.metadata.name}`
    : object.metadata.name;
  const id = `${modelled}/${key}`;
  const first = out.seen.get(id);
  if (first) {
    fail(
      src,
      [...path, "metadata", "name"],
      "duplicate-object",
      `duplicate object: ${modelled} "${key}" is already defined at ${first.file}:${first.line}:${first.col}`,
    );
  }
  out.seen.set(id, pos);
  out.present.add(objectKey(modelled, object.metadata.namespace ?? "", object.metadata.name));
  noteNotModelled(src, path, modelled, value, out.manifests.length, out.notModelled);
  out.references.push(
    ...referencesOf(src, path, modelled, value, object.metadata.namespace ?? "", out.manifests.length),
  );
  out.manifests.push({ object, kind: modelled, pos });
  out.where.push({ src, path });
}

/** Each modelled kind's converter: the object's value at `path` → its typed object. */
const CONVERT: Record<ManifestKind, (src: SourceDoc, path: Path, metadata: Meta, o: Obj) => KubeObject> = {
  Pod: pod,
  Deployment: deployment,
  ReplicaSet: replicaSet,
  StatefulSet: statefulSet,
  DaemonSet: daemonSet,
  Job: job,
  CronJob: cronJob,
  Service: service,
  PersistentVolumeClaim: persistentVolumeClaim,
  PodDisruptionBudget: podDisruptionBudget,
  PersistentVolume: persistentVolume,
  StorageClass: storageClass,
  PriorityClass: priorityClass,
};

function convert(src: SourceDoc, path: Path, kind: ManifestKind, o: Obj): KubeObject {
  const metadata = objectMeta(src, [...path, "metadata"], required(src, path, o, "metadata", kind), kind);
  return CONVERT[kind](src, path, metadata, o);
}

/** The object's kind and apiVersion, or a located refusal of a value that is not an object or lacks them. */
function kindAndVersion(
  src: SourceDoc,
  path: Path,
  value: unknown,
): { value: Obj; kind: string; apiVersion: string } {
  if (!isObj(value)) {
    fail(
      src,
      path,
      "invalid-object",
      `${show(value)} is not a Kubernetes object (a mapping with apiVersion, kind and metadata)`,
    );
  }
  const kindValue = value.kind;
  const apiVersionValue = value.apiVersion;
  if (
    kindValue === undefined ||
    kindValue === null ||
    apiVersionValue === undefined ||
    apiVersionValue === null
  ) {
    const missing = kindValue === undefined || kindValue === null ? "kind" : "apiVersion";
    fail(
      src,
      path,
      "invalid-object",
      `object has no "${missing}": every Kubernetes object needs apiVersion and kind (e.g. apiVersion: apps/v1, kind: Deployment)`,
    );
  }
  return {
    value,
    kind: str(src, [...path, "kind"], kindValue),
    apiVersion: str(src, [...path, "apiVersion"], apiVersionValue),
  };
}

/**
 * A kind the API server would not serve: not in a built-in group (`no matches for kind`, with the nearest
 * name), or at an apiVersion removed from Kubernetes. Other kinds (custom resources) pass, to be ignored.
 */
function refuseUnknownKind(
  src: SourceDoc,
  path: Path,
  builtin: boolean,
  group: string,
  kind: string,
  apiVersion: string,
): void {
  // A kind Kubernetes' built-in group does not have is a mistake, not a custom resource.
  if (builtin && !BUILTIN_KINDS[group]!.includes(kind)) {
    const near = closest(kind, BUILTIN_KINDS[group]!);
    const elsewhere = near ? [] : groupsWithKind(kind);
    const other = near || elsewhere.length > 0 ? undefined : closest(kind, ALL_KINDS);
    const version = (g: string) => (g === "" ? "v1" : g);
    const hint = near
      ? `; did you mean "${near}"?`
      : elsewhere.length > 0
        ? ` (${kind} is in ${elsewhere.map(version).join(", ")})`
        : other
          ? `; did you mean "${other}" (in ${groupsWithKind(other).map(version).join(", ")})?`
          : "";
    fail(
      src,
      [...path, "kind"],
      "invalid-object",
      `no matches for kind "${kind}" in version "${apiVersion}"${hint}`,
    );
  }
  const removed = REMOVED_VERSIONS[apiVersion];
  if (removed && Object.hasOwn(removed, kind)) {
    const use = removed[kind];
    fail(
      src,
      [...path, "apiVersion"],
      "invalid-object",
      `no matches for kind "${kind}" in version "${apiVersion}" (${use ? `use apiVersion: ${use}` : `${kind} was removed in Kubernetes ${REMOVED_KINDS[kind]}`})`,
    );
  }
}
