// The kinds of Kubernetes' built-in API groups (Kubernetes 1.28 to 1.37, served or recently removed),
// so that a kind misspelled in a built-in group (`apps/v1` `Statefulset`) is an error with a
// suggestion, as the API server's "no matches for kind" is, while a kind of a group Kubernetes does
// not have (a CRD's) is only listed as ignored. Versions are not checked for kinds faultline does
// not model.

/** API group ("" for core) → its kinds. */
export const BUILTIN_KINDS: Readonly<Record<string, readonly string[]>> = {
  "": [
    "Binding",
    "ComponentStatus",
    "ConfigMap",
    "Endpoints",
    "Event",
    "LimitRange",
    "Namespace",
    "Node",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "Pod",
    "PodTemplate",
    "ReplicationController",
    "ResourceQuota",
    "Secret",
    "Service",
    "ServiceAccount",
  ],
  "admissionregistration.k8s.io": [
    "MutatingAdmissionPolicy",
    "MutatingAdmissionPolicyBinding",
    "MutatingWebhookConfiguration",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    "ValidatingWebhookConfiguration",
  ],
  "apiextensions.k8s.io": ["CustomResourceDefinition"],
  "apiregistration.k8s.io": ["APIService"],
  apps: ["ControllerRevision", "DaemonSet", "Deployment", "ReplicaSet", "StatefulSet"],
  "authentication.k8s.io": ["SelfSubjectReview", "TokenRequest", "TokenReview"],
  "authorization.k8s.io": [
    "LocalSubjectAccessReview",
    "SelfSubjectAccessReview",
    "SelfSubjectRulesReview",
    "SubjectAccessReview",
  ],
  autoscaling: ["HorizontalPodAutoscaler", "Scale"],
  batch: ["CronJob", "Job"],
  "certificates.k8s.io": ["CertificateSigningRequest", "ClusterTrustBundle", "PodCertificateRequest"],
  "coordination.k8s.io": ["Lease", "LeaseCandidate"],
  "discovery.k8s.io": ["EndpointSlice"],
  "events.k8s.io": ["Event"],
  // Removed in 1.16–1.22; its kinds still name a real resource, so they stay recognisable.
  extensions: ["DaemonSet", "Deployment", "Ingress", "NetworkPolicy", "PodSecurityPolicy", "ReplicaSet"],
  "flowcontrol.apiserver.k8s.io": ["FlowSchema", "PriorityLevelConfiguration"],
  "internal.apiserver.k8s.io": ["StorageVersion"],
  "networking.k8s.io": ["IPAddress", "Ingress", "IngressClass", "NetworkPolicy", "ServiceCIDR"],
  "node.k8s.io": ["RuntimeClass"],
  policy: ["Eviction", "PodDisruptionBudget", "PodSecurityPolicy"],
  "rbac.authorization.k8s.io": ["ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"],
  "resource.k8s.io": [
    "DeviceClass",
    "DeviceTaintRule",
    "ResourceClaim",
    "ResourceClaimTemplate",
    "ResourceSlice",
  ],
  "scheduling.k8s.io": ["PriorityClass", "Workload"],
  "storage.k8s.io": [
    "CSIDriver",
    "CSINode",
    "CSIStorageCapacity",
    "StorageClass",
    "VolumeAttachment",
    "VolumeAttributesClass",
  ],
  "storagemigration.k8s.io": ["StorageVersionMigration"],
};

/** The group of an apiVersion: "apps" for apps/v1, "" for v1. */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}

export function isBuiltinGroup(group: string): boolean {
  return Object.hasOwn(BUILTIN_KINDS, group) && BUILTIN_KINDS[group]!.length > 0;
}

/** The served groups that have `kind`, for "did you mean" across groups (Deployment in v1 → apps). */
export function groupsWithKind(kind: string): string[] {
  return Object.keys(BUILTIN_KINDS).filter((g) => g !== "extensions" && BUILTIN_KINDS[g]!.includes(kind));
}

/** Every served kind once, for "did you mean" when the group has nothing close. */
export const ALL_KINDS: readonly string[] = [
  ...new Set(
    Object.entries(BUILTIN_KINDS)
      .filter(([g]) => g !== "extensions")
      .flatMap(([, kinds]) => kinds),
  ),
];

/** `<Kind>List` of a built-in kind in that group (PodList, DeploymentList), or the generic List. */
export function isListKind(group: string, kind: string): boolean {
  if (kind === "List") return group === "";
  return kind.endsWith("List") && (BUILTIN_KINDS[group] ?? []).includes(kind.slice(0, -"List".length));
}
