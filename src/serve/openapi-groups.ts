// The served fields of StatefulSet and DaemonSet (apps/v1), PodDisruptionBudget (policy/v1), Lease
// (coordination.k8s.io/v1), EndpointSlice (discovery.k8s.io/v1), StorageClass and VolumeAttachment
// (storage.k8s.io/v1, in openapi-storage.ts), for the OpenAPI documents (openapi.ts); as convert-workloads.ts, convert.ts
// and config-objects.ts write them. Descriptions: k8s.io/api apps/v1, policy/v1,
// coordination/v1, discovery/v1 and storage/v1 types.go, v1.32, first sentences.

import { type DefSpec, type FieldSpec, kindFields } from "./openapi-core.ts";

const TEMPLATE = "core.PodTemplateSpec";
const SELECTOR = "meta.LabelSelector";
const OBSERVED: FieldSpec = ["integer", "The most recent generation observed by this controller."];
const REVISIONS: FieldSpec = [
  "integer",
  "The number of old history to retain to allow rollback. This is a pointer to distinguish between explicit zero and not specified. Defaults to 10.",
];

export const WORKLOAD_DEFS: Record<string, DefSpec> = {
  "apps.StatefulSet": {
    description:
      "StatefulSet represents a set of pods with consistent identities. Identities are defined as: - Network: A single stable DNS and hostname. - Storage: As many VolumeClaims as requested.",
    gvk: ["apps", "v1", "StatefulSet"],
    fields: kindFields({
      spec: ["apps.StatefulSetSpec", "Spec defines the desired identities of pods in this set."],
      status: [
        "apps.StatefulSetStatus",
        "Status is the current status of Pods in this StatefulSet. This data may be out of date by some window of time.",
      ],
    }),
  },
  "apps.StatefulSetSpec": {
    description: "A StatefulSetSpec is the specification of a StatefulSet.",
    required: ["selector", "template"],
    fields: {
      replicas: [
        "integer",
        "replicas is the desired number of replicas of the given Template. These are replicas in the sense that they are instantiations of the same Template, but individual replicas also have a consistent identity. If unspecified, defaults to 1.",
      ],
      selector: [
        SELECTOR,
        "selector is a label query over pods that should match the replica count. It must match the pod template's labels.",
      ],
      serviceName: [
        "string",
        'serviceName is the name of the service that governs this StatefulSet. This service must exist before the StatefulSet, and is responsible for the network identity of the set. Pods get DNS/hostnames that follow the pattern: pod-specific-string.serviceName.default.svc.cluster.local where "pod-specific-string" is managed by the StatefulSet controller.',
      ],
      template: [
        TEMPLATE,
        "template is the object that describes the pod that will be created if insufficient replicas are detected. Each pod stamped out by the StatefulSet will fulfill this Template, but have a unique identity from the rest of the StatefulSet.",
      ],
      podManagementPolicy: [
        "string",
        "podManagementPolicy controls how pods are created during initial scale up, when replacing pods on nodes, or when scaling down. The default policy is `OrderedReady`.",
      ],
      updateStrategy: [
        "apps.StatefulSetUpdateStrategy",
        "updateStrategy indicates the StatefulSetUpdateStrategy that will be employed to update Pods in the StatefulSet when a revision is made to Template.",
      ],
      revisionHistoryLimit: [
        "integer",
        "revisionHistoryLimit is the maximum number of revisions that will be maintained in the StatefulSet's revision history. The revision history consists of all revisions not represented by a currently applied StatefulSetSpec version. The default value is 10.",
      ],
      volumeClaimTemplates: [
        "[]core.PersistentVolumeClaim",
        "volumeClaimTemplates is a list of claims that pods are allowed to reference. The StatefulSet controller is responsible for mapping network identities to claims in a way that maintains the identity of a pod.",
      ],
    },
  },
  "apps.StatefulSetUpdateStrategy": {
    description:
      "StatefulSetUpdateStrategy indicates the strategy that the StatefulSet controller will use to perform updates. It includes any additional parameters necessary to perform the update for the indicated strategy.",
    fields: {
      type: ["string", "Type indicates the type of the StatefulSetUpdateStrategy. Default is RollingUpdate."],
      rollingUpdate: [
        "apps.RollingUpdateStatefulSetStrategy",
        "RollingUpdate is used to communicate parameters when Type is RollingUpdateStatefulSetStrategyType.",
      ],
    },
  },
  "apps.RollingUpdateStatefulSetStrategy": {
    description:
      "RollingUpdateStatefulSetStrategy is used to communicate parameter for RollingUpdateStatefulSetStrategyType.",
    fields: {
      partition: [
        "integer",
        "Partition indicates the ordinal at which the StatefulSet should be partitioned for updates. During a rolling update, all pods from ordinal Replicas-1 to Partition are updated. All pods from ordinal Partition-1 to 0 remain untouched.",
      ],
    },
  },
  "apps.StatefulSetStatus": {
    description: "StatefulSetStatus represents the current state of a StatefulSet.",
    required: ["replicas"],
    fields: {
      observedGeneration: [
        "integer",
        "observedGeneration is the most recent generation observed for this StatefulSet. It corresponds to the StatefulSet's generation, which is updated on mutation by the API Server.",
      ],
      replicas: ["integer", "replicas is the number of Pods created by the StatefulSet controller."],
      readyReplicas: [
        "integer",
        "readyReplicas is the number of pods created for this StatefulSet with a Ready Condition.",
      ],
      currentReplicas: [
        "integer",
        "currentReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version indicated by currentRevision.",
      ],
      updatedReplicas: [
        "integer",
        "updatedReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version indicated by updateRevision.",
      ],
      availableReplicas: [
        "integer",
        "Total number of available pods (ready for at least minReadySeconds) targeted by this statefulset.",
      ],
    },
  },
  "apps.DaemonSet": {
    description: "DaemonSet represents the configuration of a daemon set.",
    gvk: ["apps", "v1", "DaemonSet"],
    fields: kindFields({
      spec: ["apps.DaemonSetSpec", "The desired behavior of this daemon set."],
      status: [
        "apps.DaemonSetStatus",
        "The current status of this daemon set. This data may be out of date by some window of time. Populated by the system. Read-only.",
      ],
    }),
  },
  "apps.DaemonSetSpec": {
    description: "DaemonSetSpec is the specification of a daemon set.",
    required: ["selector", "template"],
    fields: {
      selector: [
        SELECTOR,
        "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels.",
      ],
      template: [
        TEMPLATE,
        "An object that describes the pod that will be created. The DaemonSet will create exactly one copy of this pod on every node that matches the template's node selector (or on every node if no node selector is specified).",
      ],
      updateStrategy: [
        "apps.DaemonSetUpdateStrategy",
        "An update strategy to replace existing DaemonSet pods with new pods.",
      ],
      revisionHistoryLimit: REVISIONS,
    },
  },
  "apps.DaemonSetUpdateStrategy": {
    description: "DaemonSetUpdateStrategy is a struct used to control the update strategy for a DaemonSet.",
    fields: {
      type: [
        "string",
        'Type of daemon set update. Can be "RollingUpdate" or "OnDelete". Default is RollingUpdate.',
      ],
      rollingUpdate: [
        "apps.RollingUpdateDaemonSet",
        'Rolling update config params. Present only if type = "RollingUpdate".',
      ],
    },
  },
  "apps.RollingUpdateDaemonSet": {
    description: "Spec to control the desired behavior of daemon set rolling update.",
    fields: {
      maxUnavailable: [
        "intstr",
        "The maximum number of DaemonSet pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of total number of DaemonSet pods at the start of the update (ex: 10%). Default value is 1.",
      ],
      maxSurge: [
        "intstr",
        "The maximum number of nodes with an existing available DaemonSet pod that can have an updated DaemonSet pod during during an update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Default value is 0.",
      ],
    },
  },
  "apps.DaemonSetStatus": {
    description: "DaemonSetStatus represents the current status of a daemon set.",
    required: ["currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled", "numberReady"],
    fields: {
      currentNumberScheduled: [
        "integer",
        "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.",
      ],
      numberMisscheduled: [
        "integer",
        "The number of nodes that are running the daemon pod, but are not supposed to run the daemon pod.",
      ],
      desiredNumberScheduled: [
        "integer",
        "The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).",
      ],
      numberReady: [
        "integer",
        "numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.",
      ],
      observedGeneration: OBSERVED,
      updatedNumberScheduled: ["integer", "The total number of nodes that are running updated daemon pod"],
      numberAvailable: [
        "integer",
        "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)",
      ],
      numberUnavailable: [
        "integer",
        "The number of nodes that should be running the daemon pod and have none of the daemon pod running and available (ready for at least spec.minReadySeconds)",
      ],
    },
  },
};

export const GROUP_DEFS: Record<string, DefSpec> = {
  "policy.PodDisruptionBudget": {
    description:
      "PodDisruptionBudget is an object to define the max disruption that can be caused to a collection of pods",
    gvk: ["policy", "v1", "PodDisruptionBudget"],
    fields: kindFields({
      spec: [
        "policy.PodDisruptionBudgetSpec",
        "Specification of the desired behavior of the PodDisruptionBudget.",
      ],
      status: [
        "policy.PodDisruptionBudgetStatus",
        "Most recently observed status of the PodDisruptionBudget.",
      ],
    }),
  },
  "policy.PodDisruptionBudgetSpec": {
    description: "PodDisruptionBudgetSpec is a description of a PodDisruptionBudget.",
    fields: {
      minAvailable: [
        "intstr",
        'An eviction is allowed if at least "minAvailable" pods selected by "selector" will still be available after the eviction, i.e. even in the absence of the evicted pod.',
      ],
      selector: [SELECTOR, "Label query over pods whose evictions are managed by the disruption budget."],
      maxUnavailable: [
        "intstr",
        'An eviction is allowed if at most "maxUnavailable" pods selected by "selector" are unavailable after the eviction, i.e. even in absence of the evicted pod.',
      ],
      unhealthyPodEvictionPolicy: [
        "string",
        'UnhealthyPodEvictionPolicy defines the criteria for when unhealthy pods should be considered for eviction. Current implementation considers healthy pods, as pods that have status.conditions item with type="Ready",status="True". Valid policies are IfHealthyBudget and AlwaysAllow.',
      ],
    },
  },
  "policy.PodDisruptionBudgetStatus": {
    description:
      "PodDisruptionBudgetStatus represents information about the status of a PodDisruptionBudget. Status may trail the actual state of a system.",
    required: ["disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods"],
    fields: {
      observedGeneration: [
        "integer",
        "Most recent generation observed when updating this PDB status. DisruptionsAllowed and other status information is valid only if observedGeneration equals to PDB's object generation.",
      ],
      disruptionsAllowed: ["integer", "Number of pod disruptions that are currently allowed."],
      currentHealthy: ["integer", "current number of healthy pods"],
      desiredHealthy: ["integer", "minimum desired number of healthy pods"],
      expectedPods: ["integer", "total number of pods counted by this disruption budget"],
    },
  },
  "coordination.Lease": {
    description: "Lease defines a lease concept.",
    gvk: ["coordination.k8s.io", "v1", "Lease"],
    fields: kindFields({
      spec: ["coordination.LeaseSpec", "spec contains the specification of the Lease."],
    }),
  },
  "coordination.LeaseSpec": {
    description: "LeaseSpec is a specification of a Lease.",
    fields: {
      holderIdentity: ["string", "holderIdentity contains the identity of the holder of a current lease."],
      leaseDurationSeconds: [
        "integer",
        "leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it. This is measured against the time of last observed renewTime.",
      ],
      renewTime: [
        "microtime",
        "renewTime is a time when the current holder of a lease has last updated the lease.",
      ],
    },
  },
  "discovery.EndpointSlice": {
    description:
      "EndpointSlice represents a subset of the endpoints that implement a service. For a given service there may be multiple EndpointSlice objects, selected by labels, which must be joined to produce the full set of endpoints.",
    gvk: ["discovery.k8s.io", "v1", "EndpointSlice"],
    required: ["addressType", "endpoints"],
    fields: kindFields({
      addressType: [
        "string",
        "addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name.",
      ],
      endpoints: [
        "[]discovery.Endpoint",
        "endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.",
      ],
      ports: [
        "[]discovery.EndpointPort",
        "ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name.",
      ],
    }),
  },
  "discovery.Endpoint": {
    description: 'Endpoint represents a single logical "backend" implementing a service.',
    required: ["addresses"],
    fields: {
      addresses: [
        "[]string",
        'addresses of this endpoint. For EndpointSlices of addressType "IPv4" or "IPv6", the values are IP addresses in canonical form.',
      ],
      conditions: [
        "discovery.EndpointConditions",
        "conditions contains information about the current status of the endpoint.",
      ],
      targetRef: [
        "core.ObjectReference",
        "targetRef is a reference to a Kubernetes object that represents this endpoint.",
      ],
      nodeName: ["string", "nodeName represents the name of the Node hosting this endpoint."],
      zone: ["string", "zone is the name of the Zone this endpoint exists in."],
    },
  },
  "discovery.EndpointConditions": {
    description: "EndpointConditions represents the current condition of an endpoint.",
    fields: {
      ready: [
        "boolean",
        "ready indicates that this endpoint is ready to receive traffic, according to whatever system is managing the endpoint.",
      ],
      serving: [
        "boolean",
        "serving indicates that this endpoint is able to receive traffic, according to whatever system is managing the endpoint. For endpoints backed by pods, the EndpointSlice controller will mark the endpoint as serving if the pod's Ready condition is True.",
      ],
      terminating: ["boolean", "terminating indicates that this endpoint is terminating."],
    },
  },
  "discovery.EndpointPort": {
    description: "EndpointPort represents a Port used by an EndpointSlice",
    fields: {
      name: [
        "string",
        "name represents the name of this port. All ports in an EndpointSlice must have a unique name.",
      ],
      protocol: [
        "string",
        "protocol represents the IP protocol for this port. Must be UDP, TCP, or SCTP. Default is TCP.",
      ],
      port: [
        "integer",
        "port represents the port number of the endpoint. If this is not specified, ports are not restricted and must be interpreted in the context of the specific consumer.",
      ],
    },
  },
};
