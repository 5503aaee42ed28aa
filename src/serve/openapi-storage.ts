// The served fields of the core/v1 config, event and storage kinds (ConfigMap, Secret,
// ServiceAccount, Event, PersistentVolumeClaim, PersistentVolume) and of storage.k8s.io/v1
// (StorageClass, VolumeAttachment), for the OpenAPI documents (openapi.ts); as config-objects.ts,
// event-objects.ts and convert.ts write them. Descriptions: k8s.io/api core/v1 and storage/v1
// types.go, v1.32, first sentences (as kube-apiserver's generated OpenAPI publishes them).

import { type DefSpec, type FieldSpec, kindFields } from "./openapi-core.ts";

const ACCESS_MODES: FieldSpec = [
  "[]string",
  "accessModes contains the desired access modes the volume should have.",
];
const VOLUME_MODE: FieldSpec = [
  "string",
  "volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.",
];

export const CONFIG_DEFS: Record<string, DefSpec> = {
  "core.ConfigMap": {
    description: "ConfigMap holds configuration data for pods to consume.",
    gvk: ["", "v1", "ConfigMap"],
    fields: kindFields({
      data: [
        "map",
        "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'.",
      ],
      binaryData: [
        "map",
        "BinaryData contains the binary data. Each key must consist of alphanumeric characters, '-', '_' or '.'.",
      ],
    }),
  },
  "core.Secret": {
    description:
      "Secret holds secret data of a certain type. The total bytes of the values in the Data field must be less than MaxSecretSize bytes.",
    gvk: ["", "v1", "Secret"],
    fields: kindFields({
      type: ["string", "Used to facilitate programmatic handling of secret data."],
      data: [
        "map",
        "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here.",
      ],
    }),
  },
  "core.ServiceAccount": {
    description:
      "ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral systems, for an identity * a principal that can be authenticated and authorized * a set of secrets",
    gvk: ["", "v1", "ServiceAccount"],
    fields: kindFields({}),
  },
  "core.Event": {
    description: "Event is a report of an event somewhere in the cluster.",
    gvk: ["", "v1", "Event"],
    required: ["metadata", "involvedObject"],
    fields: kindFields({
      involvedObject: ["core.ObjectReference", "The object that this event is about."],
      reason: [
        "string",
        "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
      ],
      message: ["string", "A human-readable description of the status of this operation."],
      type: ["string", "Type of this event (Normal, Warning), new types could be added in the future"],
      source: [
        "core.EventSource",
        "The component reporting this event. Should be a short machine understandable string.",
      ],
      firstTimestamp: [
        "time",
        "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)",
      ],
      lastTimestamp: ["time", "The time at which the most recent occurrence of this event was recorded."],
      count: ["integer", "The number of times this event has occurred."],
      eventTime: ["microtime", "Time when this Event was first observed."],
      series: [
        "core.EventSeries",
        "Data about the Event series this event represents or nil if it's a singleton Event.",
      ],
      action: ["string", "What action was taken/failed regarding to the Regarding object."],
      reportingComponent: [
        "string",
        "Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.",
      ],
      reportingInstance: ["string", "ID of the controller instance, e.g. `kubelet-xyzf`."],
    }),
  },
  "core.EventSeries": {
    description:
      "EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time.",
    fields: {
      count: ["integer", "Number of occurrences in this series up to the last heartbeat time"],
      lastObservedTime: ["microtime", "Time of the last occurrence observed"],
    },
  },
  "core.EventSource": {
    description: "EventSource contains information for an event.",
    fields: {
      component: ["string", "Component from which the event is generated."],
      host: ["string", "Node name on which the event is generated."],
    },
  },
  "core.ObjectReference": {
    description:
      "ObjectReference contains enough information to let you inspect or modify the referred object.",
    fields: {
      apiVersion: ["string", "API version of the referent."],
      kind: ["string", "Kind of the referent."],
      namespace: ["string", "Namespace of the referent."],
      name: ["string", "Name of the referent."],
      uid: ["string", "UID of the referent."],
      resourceVersion: ["string", "Specific resourceVersion to which this reference is made, if any."],
      fieldPath: [
        "string",
        "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].",
      ],
    },
  },
};

export const VOLUME_DEFS: Record<string, DefSpec> = {
  "core.PersistentVolumeClaim": {
    description: "PersistentVolumeClaim is a user's request for and claim to a persistent volume",
    gvk: ["", "v1", "PersistentVolumeClaim"],
    fields: kindFields({
      spec: [
        "core.PersistentVolumeClaimSpec",
        "spec defines the desired characteristics of a volume requested by a pod author.",
      ],
      status: [
        "core.PersistentVolumeClaimStatus",
        "status represents the current information/status of a persistent volume claim. Read-only.",
      ],
    }),
  },
  "core.PersistentVolumeClaimSpec": {
    description:
      "PersistentVolumeClaimSpec describes the common attributes of storage devices and allows a Source for provider-specific attributes",
    fields: {
      accessModes: ACCESS_MODES,
      resources: [
        "core.VolumeResourceRequirements",
        "resources represents the minimum resources the volume should have.",
      ],
      volumeName: [
        "string",
        "volumeName is the binding reference to the PersistentVolume backing this claim.",
      ],
      storageClassName: ["string", "storageClassName is the name of the StorageClass required by the claim."],
      volumeMode: VOLUME_MODE,
    },
  },
  "core.VolumeResourceRequirements": {
    description: "VolumeResourceRequirements describes the storage resource requirements for a volume.",
    fields: {
      limits: ["quantities", "Limits describes the maximum amount of compute resources allowed."],
      requests: [
        "quantities",
        "Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value.",
      ],
    },
  },
  "core.PersistentVolumeClaimStatus": {
    description: "PersistentVolumeClaimStatus is the current status of a persistent volume claim.",
    fields: {
      phase: [
        "string",
        "phase represents the current phase of PersistentVolumeClaim: Pending, Bound or Lost.",
      ],
      accessModes: [
        "[]string",
        "accessModes contains the actual access modes the volume backing the PVC has.",
      ],
      capacity: ["quantities", "capacity represents the actual resources of the underlying volume."],
    },
  },
  "core.PersistentVolume": {
    description:
      "PersistentVolume (PV) is a storage resource provisioned by an administrator. It is analogous to a node.",
    gvk: ["", "v1", "PersistentVolume"],
    fields: kindFields({
      spec: [
        "core.PersistentVolumeSpec",
        "spec defines a specification of a persistent volume owned by the cluster. Provisioned by an administrator.",
      ],
      status: [
        "core.PersistentVolumeStatus",
        "status represents the current information/status for the persistent volume. Populated by the system. Read-only.",
      ],
    }),
  },
  "core.PersistentVolumeSpec": {
    description: "PersistentVolumeSpec is the specification of a persistent volume.",
    fields: {
      capacity: [
        "quantities",
        "capacity is the description of the persistent volume's resources and capacity.",
      ],
      accessModes: ["[]string", "accessModes contains all ways the volume can be mounted."],
      claimRef: [
        "core.ObjectReference",
        "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound.",
      ],
      csi: [
        "core.CSIPersistentVolumeSource",
        "csi represents storage that is handled by an external CSI driver.",
      ],
      nodeAffinity: [
        "core.VolumeNodeAffinity",
        "nodeAffinity defines constraints that limit what nodes this volume can be accessed from. This field influences the scheduling of pods that use this volume.",
      ],
      persistentVolumeReclaimPolicy: [
        "string",
        "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated).",
      ],
      storageClassName: [
        "string",
        "storageClassName is the name of StorageClass to which this persistent volume belongs. Empty value means that this volume does not belong to any StorageClass.",
      ],
      volumeMode: [
        "string",
        "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.",
      ],
    },
  },
  "core.CSIPersistentVolumeSource": {
    description: "Represents storage that is managed by an external CSI volume driver",
    required: ["driver", "volumeHandle"],
    fields: {
      driver: ["string", "driver is the name of the driver to use for this volume. Required."],
      volumeHandle: [
        "string",
        "volumeHandle is the unique volume name returned by the CSI volume plugin’s CreateVolume to refer to the volume on all subsequent calls. Required.",
      ],
    },
  },
  "core.VolumeNodeAffinity": {
    description:
      "VolumeNodeAffinity defines constraints that limit what nodes this volume can be accessed from.",
    fields: {
      required: ["core.NodeSelector", "required specifies hard node constraints that must be met."],
    },
  },
  "core.NodeSelector": {
    description:
      "A node selector represents the union of the results of one or more label queries over a set of nodes; that is, it represents the OR of the selectors represented by the node selector terms.",
    required: ["nodeSelectorTerms"],
    fields: {
      nodeSelectorTerms: [
        "[]core.NodeSelectorTerm",
        "Required. A list of node selector terms. The terms are ORed.",
      ],
    },
  },
  "core.NodeSelectorTerm": {
    description:
      "A null or empty node selector term matches no objects. The requirements of them are ANDed. The TopologySelectorTerm type implements a subset of the NodeSelectorTerm.",
    fields: {
      matchExpressions: [
        "[]core.NodeSelectorRequirement",
        "A list of node selector requirements by node's labels.",
      ],
      matchFields: [
        "[]core.NodeSelectorRequirement",
        "A list of node selector requirements by node's fields.",
      ],
    },
  },
  "core.NodeSelectorRequirement": {
    description:
      "A node selector requirement is a selector that contains values, a key, and an operator that relates the key and values.",
    required: ["key", "operator"],
    fields: {
      key: ["string", "The label key that the selector applies to."],
      operator: [
        "string",
        "Represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.",
      ],
      values: ["[]string", "An array of string values."],
    },
  },
  "core.PersistentVolumeStatus": {
    description: "PersistentVolumeStatus is the current status of a persistent volume.",
    fields: {
      phase: [
        "string",
        "phase indicates if a volume is available, bound to a claim, or released by a claim.",
      ],
    },
  },
};

export const STORAGE_DEFS: Record<string, DefSpec> = {
  "storage.StorageClass": {
    description:
      "StorageClass describes the parameters for a class of storage for which PersistentVolumes can be dynamically provisioned.",
    gvk: ["storage.k8s.io", "v1", "StorageClass"],
    required: ["provisioner"],
    fields: kindFields({
      provisioner: ["string", "provisioner indicates the type of the provisioner."],
      parameters: [
        "map",
        "parameters holds the parameters for the provisioner that should create volumes of this storage class.",
      ],
      reclaimPolicy: [
        "string",
        "reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.",
      ],
      allowVolumeExpansion: [
        "boolean",
        "allowVolumeExpansion shows whether the storage class allow volume expand.",
      ],
      volumeBindingMode: [
        "string",
        "volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound. When unset, VolumeBindingImmediate is used.",
      ],
      allowedTopologies: [
        "[]core.TopologySelectorTerm",
        "allowedTopologies restrict the node topologies where volumes can be dynamically provisioned.",
      ],
    }),
  },
  "core.TopologySelectorTerm": {
    description:
      "A topology selector term represents the result of label queries. A null or empty topology selector term matches no objects. The requirements of them are ANDed.",
    fields: {
      matchLabelExpressions: [
        "[]core.TopologySelectorLabelRequirement",
        "A list of topology selector requirements by labels.",
      ],
    },
  },
  "core.TopologySelectorLabelRequirement": {
    description:
      "A topology selector requirement is a selector that matches given label. This is an alpha feature and may change in the future.",
    required: ["key", "values"],
    fields: {
      key: ["string", "The label key that the selector applies to."],
      values: [
        "[]string",
        "An array of string values. One value must match the label to be selected. Each entry in Values is ORed.",
      ],
    },
  },
  "storage.VolumeAttachment": {
    description:
      "VolumeAttachment captures the intent to attach or detach the specified volume to/from the specified node.",
    gvk: ["storage.k8s.io", "v1", "VolumeAttachment"],
    required: ["spec"],
    fields: kindFields({
      spec: [
        "storage.VolumeAttachmentSpec",
        "spec represents specification of the desired attach/detach volume behavior. Populated by the Kubernetes system.",
      ],
      status: [
        "storage.VolumeAttachmentStatus",
        "status represents status of the VolumeAttachment request. Populated by the entity completing the attach or detach operation, i.e. the external-attacher.",
      ],
    }),
  },
  "storage.VolumeAttachmentSpec": {
    description: "VolumeAttachmentSpec is the specification of a VolumeAttachment request.",
    required: ["attacher", "source", "nodeName"],
    fields: {
      attacher: [
        "string",
        "attacher indicates the name of the volume driver that MUST handle this request. This is the name returned by GetPluginName().",
      ],
      source: ["storage.VolumeAttachmentSource", "source represents the volume that should be attached."],
      nodeName: ["string", "nodeName represents the node that the volume should be attached to."],
    },
  },
  "storage.VolumeAttachmentSource": {
    description:
      "VolumeAttachmentSource represents a volume that should be attached. Right now only PersistentVolumes can be attached via external attacher, in the future we may allow also inline volumes in pods. Exactly one member can be set.",
    fields: {
      persistentVolumeName: [
        "string",
        "persistentVolumeName represents the name of the persistent volume to attach.",
      ],
    },
  },
  "storage.VolumeAttachmentStatus": {
    description: "VolumeAttachmentStatus is the status of a VolumeAttachment request.",
    required: ["attached"],
    fields: {
      attached: [
        "boolean",
        "attached indicates the volume is successfully attached. This field must only be set by the entity completing the attach operation, i.e. the external-attacher.",
      ],
    },
  },
};
