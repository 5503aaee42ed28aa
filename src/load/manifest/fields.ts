// Field names of the Kubernetes API objects faultline reads, hand-copied from the API reference
// (k8s.io/api core/v1, apps/v1, policy/v1, storage/v1, v1.28 to v1.35), so that strict validation
// rejects a typo (`livenesProbe`) as the API server's strict field validation does, while every real
// manifest passes. Sub-objects faultline does not read (securityContext, env, volume sources…) are
// not checked field by field.

export const OBJECT_FIELDS = ["apiVersion", "kind", "metadata", "spec", "status"] as const;

export const OBJECT_META_FIELDS = [
  "annotations",
  "creationTimestamp",
  "deletionGracePeriodSeconds",
  "deletionTimestamp",
  "finalizers",
  "generateName",
  "generation",
  "labels",
  "managedFields",
  "name",
  "namespace",
  "ownerReferences",
  "resourceVersion",
  "selfLink",
  "uid",
] as const;

export const OWNER_REFERENCE_FIELDS = [
  "apiVersion",
  "blockOwnerDeletion",
  "controller",
  "kind",
  "name",
  "uid",
] as const;

export const POD_SPEC_FIELDS = [
  "activeDeadlineSeconds",
  "affinity",
  "automountServiceAccountToken",
  "containers",
  "dnsConfig",
  "dnsPolicy",
  "enableServiceLinks",
  "ephemeralContainers",
  "hostAliases",
  "hostIPC",
  "hostNetwork",
  "hostPID",
  "hostUsers",
  "hostname",
  "hostnameOverride", // v1.34, alpha
  "imagePullSecrets",
  "initContainers",
  "nodeName",
  "nodeSelector",
  "os",
  "overhead",
  "preemptionPolicy",
  "priority",
  "priorityClassName",
  "readinessGates",
  "resourceClaims",
  "resources", // pod-level resources, v1.32 alpha, v1.34 beta
  "restartPolicy",
  "runtimeClassName",
  "schedulerName",
  "schedulingGates",
  "securityContext",
  "serviceAccount",
  "serviceAccountName",
  "setHostnameAsFQDN",
  "shareProcessNamespace",
  "subdomain",
  "terminationGracePeriodSeconds",
  "tolerations",
  "topologySpreadConstraints",
  "volumes",
  "workloadRef", // v1.35, alpha (gang scheduling)
] as const;

export const CONTAINER_FIELDS = [
  "args",
  "command",
  "env",
  "envFrom",
  "image",
  "imagePullPolicy",
  "lifecycle",
  "livenessProbe",
  "name",
  "ports",
  "readinessProbe",
  "resizePolicy",
  "resources",
  "restartPolicy", // sidecar init containers, v1.28+
  "restartPolicyRules", // v1.34, alpha
  "securityContext",
  "startupProbe",
  "stdin",
  "stdinOnce",
  "terminationMessagePath",
  "terminationMessagePolicy",
  "tty",
  "volumeDevices",
  "volumeMounts",
  "workingDir",
] as const;

export const CONTAINER_PORT_FIELDS = ["containerPort", "hostIP", "hostPort", "name", "protocol"] as const;

export const RESOURCE_REQUIREMENTS_FIELDS = ["claims", "limits", "requests"] as const;

export const PROBE_HANDLERS = ["exec", "grpc", "httpGet", "tcpSocket"] as const;

export const PROBE_FIELDS = [
  ...PROBE_HANDLERS,
  "failureThreshold",
  "initialDelaySeconds",
  "periodSeconds",
  "successThreshold",
  "terminationGracePeriodSeconds",
  "timeoutSeconds",
] as const;

export const EXEC_ACTION_FIELDS = ["command"] as const;
export const HTTP_GET_ACTION_FIELDS = ["host", "httpHeaders", "path", "port", "scheme"] as const;
export const TCP_SOCKET_ACTION_FIELDS = ["host", "port"] as const;
export const GRPC_ACTION_FIELDS = ["port", "service"] as const;
export const SLEEP_ACTION_FIELDS = ["seconds"] as const;

export const LIFECYCLE_FIELDS = ["postStart", "preStop", "stopSignal"] as const;
export const LIFECYCLE_HANDLERS = ["exec", "httpGet", "sleep", "tcpSocket"] as const;

export const TOLERATION_FIELDS = ["effect", "key", "operator", "tolerationSeconds", "value"] as const;

export const LABEL_SELECTOR_FIELDS = ["matchExpressions", "matchLabels"] as const;
export const LABEL_SELECTOR_REQUIREMENT_FIELDS = ["key", "operator", "values"] as const;

export const AFFINITY_FIELDS = ["nodeAffinity", "podAffinity", "podAntiAffinity"] as const;
export const POD_AFFINITY_FIELDS = [
  "preferredDuringSchedulingIgnoredDuringExecution",
  "requiredDuringSchedulingIgnoredDuringExecution",
] as const;

export const TOPOLOGY_SPREAD_CONSTRAINT_FIELDS = [
  "labelSelector",
  "matchLabelKeys",
  "maxSkew",
  "minDomains",
  "nodeAffinityPolicy",
  "nodeTaintsPolicy",
  "topologyKey",
  "whenUnsatisfiable",
] as const;

export const POD_TEMPLATE_SPEC_FIELDS = ["metadata", "spec"] as const;

export const DEPLOYMENT_SPEC_FIELDS = [
  "minReadySeconds",
  "paused",
  "progressDeadlineSeconds",
  "replicas",
  "revisionHistoryLimit",
  "selector",
  "strategy",
  "template",
] as const;

export const REPLICA_SET_SPEC_FIELDS = ["minReadySeconds", "replicas", "selector", "template"] as const;

export const STATEFUL_SET_SPEC_FIELDS = [
  "minReadySeconds",
  "ordinals",
  "persistentVolumeClaimRetentionPolicy",
  "podManagementPolicy",
  "replicas",
  "revisionHistoryLimit",
  "selector",
  "serviceName",
  "template",
  "updateStrategy",
  "volumeClaimTemplates",
] as const;

export const DAEMON_SET_SPEC_FIELDS = [
  "minReadySeconds",
  "revisionHistoryLimit",
  "selector",
  "template",
  "updateStrategy",
] as const;

export const SERVICE_SPEC_FIELDS = [
  "allocateLoadBalancerNodePorts",
  "clusterIP",
  "clusterIPs",
  "externalIPs",
  "externalName",
  "externalTrafficPolicy",
  "healthCheckNodePort",
  "internalTrafficPolicy",
  "ipFamilies",
  "ipFamilyPolicy",
  "loadBalancerClass",
  "loadBalancerIP",
  "loadBalancerSourceRanges",
  "ports",
  "publishNotReadyAddresses",
  "selector",
  "sessionAffinity",
  "sessionAffinityConfig",
  "trafficDistribution",
  "type",
] as const;

export const SERVICE_PORT_FIELDS = [
  "appProtocol",
  "name",
  "nodePort",
  "port",
  "protocol",
  "targetPort",
] as const;

export const PERSISTENT_VOLUME_CLAIM_SPEC_FIELDS = [
  "accessModes",
  "dataSource",
  "dataSourceRef",
  "resources",
  "selector",
  "storageClassName",
  "volumeAttributesClassName",
  "volumeMode",
  "volumeName",
] as const;

export const PERSISTENT_VOLUME_CLAIM_TEMPLATE_FIELDS = [
  "apiVersion",
  "kind",
  "metadata",
  "spec",
  "status",
] as const;

export const POD_DISRUPTION_BUDGET_SPEC_FIELDS = [
  "maxUnavailable",
  "minAvailable",
  "selector",
  "unhealthyPodEvictionPolicy",
] as const;

export const NODE_AFFINITY_FIELDS = [
  "preferredDuringSchedulingIgnoredDuringExecution",
  "requiredDuringSchedulingIgnoredDuringExecution",
] as const;
export const NODE_SELECTOR_FIELDS = ["nodeSelectorTerms"] as const;
export const NODE_SELECTOR_TERM_FIELDS = ["matchExpressions", "matchFields"] as const;
export const NODE_SELECTOR_REQUIREMENT_FIELDS = ["key", "operator", "values"] as const;
export const PREFERRED_SCHEDULING_TERM_FIELDS = ["preference", "weight"] as const;
export const POD_AFFINITY_TERM_FIELDS = [
  "labelSelector",
  "matchLabelKeys",
  "mismatchLabelKeys",
  "namespaceSelector",
  "namespaces",
  "topologyKey",
] as const;
export const WEIGHTED_POD_AFFINITY_TERM_FIELDS = ["podAffinityTerm", "weight"] as const;

/** The volume sources a PersistentVolume may have (exactly one): core/v1 PersistentVolumeSource. */
export const PERSISTENT_VOLUME_SOURCES = [
  "awsElasticBlockStore",
  "azureDisk",
  "azureFile",
  "cephfs",
  "cinder",
  "csi",
  "fc",
  "flexVolume",
  "flocker",
  "gcePersistentDisk",
  "glusterfs",
  "hostPath",
  "iscsi",
  "local",
  "nfs",
  "photonPersistentDisk",
  "portworxVolume",
  "quobyte",
  "rbd",
  "scaleIO",
  "storageos",
  "vsphereVolume",
] as const;

export const PERSISTENT_VOLUME_SPEC_FIELDS = [
  ...PERSISTENT_VOLUME_SOURCES,
  "accessModes",
  "capacity",
  "claimRef",
  "mountOptions",
  "nodeAffinity",
  "persistentVolumeReclaimPolicy",
  "storageClassName",
  "volumeAttributesClassName",
  "volumeMode",
] as const;

export const OBJECT_REFERENCE_FIELDS = [
  "apiVersion",
  "fieldPath",
  "kind",
  "name",
  "namespace",
  "resourceVersion",
  "uid",
] as const;

/** storage.k8s.io/v1 StorageClass: its fields sit beside metadata. */
export const STORAGE_CLASS_FIELDS = [
  "allowVolumeExpansion",
  "allowedTopologies",
  "apiVersion",
  "kind",
  "metadata",
  "mountOptions",
  "parameters",
  "provisioner",
  "reclaimPolicy",
  "volumeBindingMode",
] as const;
export const TOPOLOGY_SELECTOR_TERM_FIELDS = ["matchLabelExpressions"] as const;
export const TOPOLOGY_SELECTOR_REQUIREMENT_FIELDS = ["key", "values"] as const;
