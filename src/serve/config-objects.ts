// ConfigMaps, Secrets, ServiceAccounts and StorageClasses as a real cluster serves them: those the
// input has (a manifest's or a dump's; no model reads the first three, loaded as their view:
// load/manifest/collect.ts), a Secret with its keys and type only, never its values (each value is
// served empty: the input's values are not kept); and those every cluster has, made by its
// controllers in every namespace: the ServiceAccount "default" (the serviceaccounts controller,
// pkg/controller/serviceaccount) and the ConfigMap "kube-root-ca.crt" with its one key ca.crt (the
// root-ca-cert-publisher, pkg/controller/certificates/rootcacertpublisher, since 1.20; its
// certificate is not the model's to give, so its value is served empty too). StorageClasses are the
// store's, and the class the model assumes when the input declares no default
// (controllers/persistentvolume-controller.ts ASSUMED_DEFAULT_CLASS), as a managed cloud has it.
// Printing: pkg/printers/internalversion/printers.go (1.32) printConfigMap, printSecret,
// printServiceAccount, printStorageClass (" (default)" after the default class's name).

import { keyOf } from "../cluster/store.ts";
import type { StorageClass } from "../kubernetes/objects.ts";
import type { IgnoredObject } from "../scenario/types.ts";
import type { ApiObject } from "./api-types.ts";
import { type ConvertContext, metaJ, uuidOf } from "./convert-meta.ts";
import { AGE, age, col, NAME, type Printer } from "./table-format.ts";
import { timeString } from "./time.ts";

const DEFAULT_CLASS = "storageclass.kubernetes.io/is-default-class";

function meta(
  kind: string,
  namespace: string,
  name: string,
  created: number,
  labels?: Record<string, string>,
) {
  return {
    name,
    namespace,
    uid: uuidOf(`${kind}/${namespace}/${name}`),
    creationTimestamp: timeString(created),
    ...(labels ? { labels: { ...labels } } : {}),
  };
}

/** The ServiceAccount "default" and ConfigMap "kube-root-ca.crt" of a namespace, made with it. */
export function namespaceDefaults(namespace: string, created: number): ApiObject[] {
  return [
    {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: meta("ServiceAccount", namespace, "default", created),
    },
    {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: meta("ConfigMap", namespace, "kube-root-ca.crt", created),
      data: { "ca.crt": "" },
    },
  ];
}

/** The input's ConfigMaps, Secrets and ServiceAccounts, as served. */
export function inputConfigObjects(ignored: readonly IgnoredObject[], created: number): ApiObject[] {
  const out: ApiObject[] = [];
  for (const o of ignored) {
    const v = o.view;
    if (!v) continue;
    const t = v.created ? Date.parse(v.created) : Number.NaN;
    const m = meta(o.kind, v.namespace, o.name, created, v.labels);
    if (!Number.isNaN(t)) m.creationTimestamp = new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z");
    const base = { apiVersion: "v1", kind: o.kind, metadata: m };
    if (o.kind === "Secret")
      out.push({
        ...base,
        type: v.type ?? "Opaque",
        data: Object.fromEntries((v.keys ?? []).map((k) => [k, ""])),
      });
    else if (o.kind === "ConfigMap")
      out.push({
        ...base,
        ...(v.data ? { data: { ...v.data } } : {}),
        ...(v.keys?.length ? { binaryData: Object.fromEntries(v.keys.map((k) => [k, ""])) } : {}),
      });
    else out.push(base);
  }
  return out;
}

export function storageClassJ(cc: ConvertContext, sc: StorageClass): ApiObject {
  return {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: metaJ(cc, sc.metadata, `StorageClass/${keyOf(sc)}`),
    provisioner: sc.provisioner,
    ...(sc.parameters ? { parameters: sc.parameters } : {}),
    reclaimPolicy: sc.reclaimPolicy,
    volumeBindingMode: sc.volumeBindingMode,
    ...(sc.allowedTopologies ? { allowedTopologies: sc.allowedTopologies } : {}),
    ...(sc.allowVolumeExpansion !== undefined ? { allowVolumeExpansion: sc.allowVolumeExpansion } : {}),
  };
}

const count = (...maps: (Record<string, unknown> | undefined)[]) =>
  maps.reduce((n, m) => n + Object.keys(m ?? {}).length, 0);

export const CONFIG_PRINTERS: Record<string, Printer> = {
  configmaps: {
    columns: [NAME, col("Data", "string", "Data contains the configuration data."), AGE],
    cells: (o, now) => [o.metadata.name, count(o.data, o.binaryData), age(o, now)],
  },
  secrets: {
    columns: [
      NAME,
      col("Type", "string", "Used to facilitate programmatic handling of secret data."),
      col("Data", "string", "Data contains the secret data."),
      AGE,
    ],
    cells: (o, now) => [o.metadata.name, o.type ?? "", count(o.data), age(o, now)],
  },
  serviceaccounts: {
    columns: [
      NAME,
      col(
        "Secrets",
        "string",
        "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.",
      ),
      AGE,
    ],
    cells: (o, now) => [o.metadata.name, (o.secrets ?? []).length, age(o, now)],
  },
  storageclasses: {
    columns: [
      NAME,
      col("Provisioner", "string", "Provisioner indicates the type of the provisioner."),
      col(
        "ReclaimPolicy",
        "string",
        "Dynamically provisioned PersistentVolumes of this storage class are created with this reclaimPolicy. Defaults to Delete.",
      ),
      col(
        "VolumeBindingMode",
        "string",
        "VolumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound. When unset, VolumeBindingImmediate is used.",
      ),
      col(
        "AllowVolumeExpansion",
        "string",
        "AllowVolumeExpansion shows whether the storage class allow volume expand.",
      ),
      AGE,
    ],
    cells: (o, now) => [
      o.metadata.annotations?.[DEFAULT_CLASS] === "true" ? `${o.metadata.name} (default)` : o.metadata.name,
      o.provisioner,
      o.reclaimPolicy ?? "Delete",
      o.volumeBindingMode ?? "Immediate",
      o.allowVolumeExpansion === true,
      age(o, now),
    ],
  },
};
