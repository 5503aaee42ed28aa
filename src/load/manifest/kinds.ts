// The kinds of Kubernetes' built-in API groups (Kubernetes 1.28 to 1.37, served or recently removed),
// so that a kind misspelled in a built-in group (`apps/v1` `Statefulset`) is an error with a
// suggestion, as the API server's "no matches for kind" is, while a kind of a group Kubernetes does
// not have (a CRD's) is only listed as ignored. For kinds faultline does not model, the versions
// Kubernetes stopped serving before 1.28 are errors (REMOVED_VERSIONS); others are not checked.

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

/**
 * The versions Kubernetes stopped serving before 1.28, the oldest faultline models, so that no
 * modelled version serves them: apiVersion → kind → the apiVersion to use, or null when the kind
 * was removed with no successor. From the Deprecated API Migration Guide (kubernetes/website
 * content/en/docs/reference/using-api/deprecation-guide.md): removed in 1.16, 1.22, 1.25, 1.26, 1.27.
 * (flowcontrol.apiserver.k8s.io/v1beta2 and v1beta3, removed in 1.29 and 1.32, are not checked.)
 */
export const REMOVED_VERSIONS: Readonly<Record<string, Readonly<Record<string, string | null>>>> = {
  // 1.16
  "extensions/v1beta1": {
    DaemonSet: "apps/v1",
    Deployment: "apps/v1",
    ReplicaSet: "apps/v1",
    NetworkPolicy: "networking.k8s.io/v1",
    PodSecurityPolicy: null,
    Ingress: "networking.k8s.io/v1", // 1.22
  },
  "apps/v1beta1": { Deployment: "apps/v1", StatefulSet: "apps/v1", ReplicaSet: "apps/v1" },
  "apps/v1beta2": {
    DaemonSet: "apps/v1",
    Deployment: "apps/v1",
    StatefulSet: "apps/v1",
    ReplicaSet: "apps/v1",
  },
  // 1.22
  "admissionregistration.k8s.io/v1beta1": {
    MutatingWebhookConfiguration: "admissionregistration.k8s.io/v1",
    ValidatingWebhookConfiguration: "admissionregistration.k8s.io/v1",
  },
  "apiextensions.k8s.io/v1beta1": { CustomResourceDefinition: "apiextensions.k8s.io/v1" },
  "apiregistration.k8s.io/v1beta1": { APIService: "apiregistration.k8s.io/v1" },
  "authentication.k8s.io/v1beta1": { TokenReview: "authentication.k8s.io/v1" },
  "authorization.k8s.io/v1beta1": {
    LocalSubjectAccessReview: "authorization.k8s.io/v1",
    SelfSubjectAccessReview: "authorization.k8s.io/v1",
    SubjectAccessReview: "authorization.k8s.io/v1",
  },
  "certificates.k8s.io/v1beta1": { CertificateSigningRequest: "certificates.k8s.io/v1" },
  "coordination.k8s.io/v1beta1": { Lease: "coordination.k8s.io/v1" },
  "networking.k8s.io/v1beta1": { Ingress: "networking.k8s.io/v1", IngressClass: "networking.k8s.io/v1" },
  "rbac.authorization.k8s.io/v1beta1": {
    ClusterRole: "rbac.authorization.k8s.io/v1",
    ClusterRoleBinding: "rbac.authorization.k8s.io/v1",
    Role: "rbac.authorization.k8s.io/v1",
    RoleBinding: "rbac.authorization.k8s.io/v1",
  },
  "scheduling.k8s.io/v1beta1": { PriorityClass: "scheduling.k8s.io/v1" },
  "storage.k8s.io/v1beta1": {
    CSIDriver: "storage.k8s.io/v1",
    CSINode: "storage.k8s.io/v1",
    StorageClass: "storage.k8s.io/v1",
    VolumeAttachment: "storage.k8s.io/v1",
    CSIStorageCapacity: "storage.k8s.io/v1", // 1.27
  },
  // 1.25
  "batch/v1beta1": { CronJob: "batch/v1" },
  "discovery.k8s.io/v1beta1": { EndpointSlice: "discovery.k8s.io/v1" },
  "events.k8s.io/v1beta1": { Event: "events.k8s.io/v1" },
  "autoscaling/v2beta1": { HorizontalPodAutoscaler: "autoscaling/v2" },
  "policy/v1beta1": { PodDisruptionBudget: "policy/v1", PodSecurityPolicy: null },
  "node.k8s.io/v1beta1": { RuntimeClass: "node.k8s.io/v1" },
  // 1.26
  "autoscaling/v2beta2": { HorizontalPodAutoscaler: "autoscaling/v2" },
  "flowcontrol.apiserver.k8s.io/v1beta1": {
    FlowSchema: "flowcontrol.apiserver.k8s.io/v1",
    PriorityLevelConfiguration: "flowcontrol.apiserver.k8s.io/v1",
  },
};

/** When Kubernetes removed a kind with no successor (PodSecurityPolicy: 1.25). */
export const REMOVED_KINDS: Readonly<Record<string, string>> = { PodSecurityPolicy: "1.25" };
