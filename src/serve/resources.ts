// The resources the server serves, by API group and version, as discovery lists them (names, short
// names and categories as kube-apiserver registers them). Every resource is read-only: get, list
// and watch.

export interface ResourceInfo {
  group: string;
  version: string;
  /** the plural in the URL: "pods" */
  resource: string;
  kind: string;
  singular: string;
  namespaced: boolean;
  shortNames?: string[];
  /** "all" puts it in `kubectl get all` */
  categories?: string[];
}

export const VERBS = ["get", "list", "watch"] as const;

export const RESOURCES: readonly ResourceInfo[] = [
  {
    group: "",
    version: "v1",
    resource: "namespaces",
    kind: "Namespace",
    singular: "namespace",
    namespaced: false,
    shortNames: ["ns"],
  },
  {
    group: "",
    version: "v1",
    resource: "nodes",
    kind: "Node",
    singular: "node",
    namespaced: false,
    shortNames: ["no"],
  },
  {
    group: "",
    version: "v1",
    resource: "pods",
    kind: "Pod",
    singular: "pod",
    namespaced: true,
    shortNames: ["po"],
    categories: ["all"],
  },
  {
    group: "",
    version: "v1",
    resource: "services",
    kind: "Service",
    singular: "service",
    namespaced: true,
    shortNames: ["svc"],
    categories: ["all"],
  },
  {
    group: "",
    version: "v1",
    resource: "events",
    kind: "Event",
    singular: "event",
    namespaced: true,
    shortNames: ["ev"],
  },
  {
    group: "",
    version: "v1",
    resource: "configmaps",
    kind: "ConfigMap",
    singular: "configmap",
    namespaced: true,
    shortNames: ["cm"],
  },
  {
    group: "",
    version: "v1",
    resource: "secrets",
    kind: "Secret",
    singular: "secret",
    namespaced: true,
  },
  {
    group: "",
    version: "v1",
    resource: "serviceaccounts",
    kind: "ServiceAccount",
    singular: "serviceaccount",
    namespaced: true,
    shortNames: ["sa"],
  },
  {
    group: "",
    version: "v1",
    resource: "persistentvolumeclaims",
    kind: "PersistentVolumeClaim",
    singular: "persistentvolumeclaim",
    namespaced: true,
    shortNames: ["pvc"],
  },
  {
    group: "",
    version: "v1",
    resource: "persistentvolumes",
    kind: "PersistentVolume",
    singular: "persistentvolume",
    namespaced: false,
    shortNames: ["pv"],
  },
  {
    group: "apps",
    version: "v1",
    resource: "deployments",
    kind: "Deployment",
    singular: "deployment",
    namespaced: true,
    shortNames: ["deploy"],
    categories: ["all"],
  },
  {
    group: "apps",
    version: "v1",
    resource: "replicasets",
    kind: "ReplicaSet",
    singular: "replicaset",
    namespaced: true,
    shortNames: ["rs"],
    categories: ["all"],
  },
  {
    group: "apps",
    version: "v1",
    resource: "statefulsets",
    kind: "StatefulSet",
    singular: "statefulset",
    namespaced: true,
    shortNames: ["sts"],
    categories: ["all"],
  },
  {
    group: "apps",
    version: "v1",
    resource: "daemonsets",
    kind: "DaemonSet",
    singular: "daemonset",
    namespaced: true,
    shortNames: ["ds"],
    categories: ["all"],
  },
  {
    group: "policy",
    version: "v1",
    resource: "poddisruptionbudgets",
    kind: "PodDisruptionBudget",
    singular: "poddisruptionbudget",
    namespaced: true,
    shortNames: ["pdb"],
  },
  {
    group: "coordination.k8s.io",
    version: "v1",
    resource: "leases",
    kind: "Lease",
    singular: "lease",
    namespaced: true,
  },
  {
    group: "discovery.k8s.io",
    version: "v1",
    resource: "endpointslices",
    kind: "EndpointSlice",
    singular: "endpointslice",
    namespaced: true,
  },
  {
    group: "events.k8s.io",
    version: "v1",
    resource: "events",
    kind: "Event",
    singular: "event",
    namespaced: true,
    shortNames: ["ev"],
  },
  {
    group: "storage.k8s.io",
    version: "v1",
    resource: "storageclasses",
    kind: "StorageClass",
    singular: "storageclass",
    namespaced: false,
    shortNames: ["sc"],
  },
  {
    group: "storage.k8s.io",
    version: "v1",
    resource: "volumeattachments",
    kind: "VolumeAttachment",
    singular: "volumeattachment",
    namespaced: false,
  },
];

/** apiVersion as objects carry it: "v1", "apps/v1". */
export function apiVersionOf(r: Pick<ResourceInfo, "group" | "version">): string {
  return r.group === "" ? r.version : `${r.group}/${r.version}`;
}

/** The named groups, in the order /apis lists them. */
export function groups(): { name: string; version: string }[] {
  const seen = new Map<string, string>();
  for (const r of RESOURCES) if (r.group !== "" && !seen.has(r.group)) seen.set(r.group, r.version);
  return [...seen].map(([name, version]) => ({ name, version }));
}

export function resourcesOf(group: string, version: string): ResourceInfo[] {
  return RESOURCES.filter((r) => r.group === group && r.version === version);
}

export function findResource(group: string, version: string, resource: string): ResourceInfo | undefined {
  return RESOURCES.find((r) => r.group === group && r.version === version && r.resource === resource);
}

/**
 * Whether the resource has a status subresource: Events, Leases, EndpointSlices, ConfigMaps,
 * Secrets, ServiceAccounts and StorageClasses have none (their
 * REST storage in k8s.io/kubernetes pkg/registry registers no "/status"), every other served kind has one.
 */
export function hasStatus(r: Pick<ResourceInfo, "resource" | "group">): boolean {
  return ![
    "events",
    "leases",
    "endpointslices",
    "configmaps",
    "secrets",
    "serviceaccounts",
    "storageclasses",
  ].includes(r.resource);
}
