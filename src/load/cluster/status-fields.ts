// The fields of a dumped object's `status`, as the API server stores them (issue 30, item 3): a key
// no version of the type has is an unknown field, located at its key with kubectl's wording, as an
// unknown field of a manifest's spec is (check.ts knownFields). The lists are the json names of the
// Go types' fields through Kubernetes 1.35 (k8s.io/api core/v1, apps/v1 and policy/v1 types.go);
// a field of a newer release than that is refused with the same line, which names the type, so the
// list is where to add it.

import { isObj, knownFields, type Obj } from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";

/** core/v1 PodStatus (observedGeneration 1.34, resize 1.27–1.33, extendedResourceClaimStatus 1.34). */
const POD_STATUS = [
  "observedGeneration",
  "phase",
  "conditions",
  "message",
  "reason",
  "nominatedNodeName",
  "hostIP",
  "hostIPs",
  "podIP",
  "podIPs",
  "startTime",
  "initContainerStatuses",
  "containerStatuses",
  "qosClass",
  "ephemeralContainerStatuses",
  "resize",
  "resourceClaimStatuses",
  "extendedResourceClaimStatus",
];

/** core/v1 ContainerStatus (allocatedResources 1.27, resources 1.27, volumeMounts 1.30, user 1.31, stopSignal 1.33). */
const CONTAINER_STATUS = [
  "name",
  "state",
  "lastState",
  "ready",
  "restartCount",
  "image",
  "imageID",
  "containerID",
  "started",
  "allocatedResources",
  "resources",
  "volumeMounts",
  "user",
  "allocatedResourcesStatus",
  "stopSignal",
];

/** core/v1 NodeStatus (runtimeHandlers 1.30, features 1.31, declaredFeatures 1.35: KEP-5328, alpha). */
const NODE_STATUS = [
  "capacity",
  "allocatable",
  "phase",
  "conditions",
  "addresses",
  "daemonEndpoints",
  "nodeInfo",
  "images",
  "volumesInUse",
  "volumesAttached",
  "config",
  "runtimeHandlers",
  "features",
  "declaredFeatures",
];

/** Each kind's status type and its fields (apps/v1, core/v1, policy/v1). */
const STATUS: Record<string, { type: string; fields: readonly string[] }> = {
  Pod: { type: "PodStatus", fields: POD_STATUS },
  Node: { type: "NodeStatus", fields: NODE_STATUS },
  Deployment: {
    type: "DeploymentStatus",
    fields: [
      "observedGeneration",
      "replicas",
      "updatedReplicas",
      "readyReplicas",
      "availableReplicas",
      "unavailableReplicas",
      "terminatingReplicas",
      "conditions",
      "collisionCount",
    ],
  },
  ReplicaSet: {
    type: "ReplicaSetStatus",
    fields: [
      "replicas",
      "fullyLabeledReplicas",
      "readyReplicas",
      "availableReplicas",
      "terminatingReplicas",
      "observedGeneration",
      "conditions",
    ],
  },
  StatefulSet: {
    type: "StatefulSetStatus",
    fields: [
      "observedGeneration",
      "replicas",
      "readyReplicas",
      "currentReplicas",
      "updatedReplicas",
      "currentRevision",
      "updateRevision",
      "collisionCount",
      "conditions",
      "availableReplicas",
    ],
  },
  DaemonSet: {
    type: "DaemonSetStatus",
    fields: [
      "currentNumberScheduled",
      "numberMisscheduled",
      "desiredNumberScheduled",
      "numberReady",
      "observedGeneration",
      "updatedNumberScheduled",
      "numberAvailable",
      "numberUnavailable",
      "collisionCount",
      "conditions",
    ],
  },
  PersistentVolumeClaim: {
    type: "PersistentVolumeClaimStatus",
    fields: [
      "phase",
      "accessModes",
      "capacity",
      "conditions",
      "allocatedResources",
      "allocatedResourceStatuses",
      "currentVolumeAttributesClassName",
      "modifyVolumeStatus",
    ],
  },
  PersistentVolume: {
    type: "PersistentVolumeStatus",
    fields: ["phase", "message", "reason", "lastPhaseTransitionTime"],
  },
  Service: { type: "ServiceStatus", fields: ["loadBalancer", "conditions"] },
  PodDisruptionBudget: {
    type: "PodDisruptionBudgetStatus",
    fields: [
      "observedGeneration",
      "disruptedPods",
      "disruptionsAllowed",
      "currentHealthy",
      "desiredHealthy",
      "expectedPods",
      "conditions",
    ],
  },
};

/** The container status lists of a PodStatus, each item a ContainerStatus. */
const CONTAINER_LISTS = ["initContainerStatuses", "containerStatuses", "ephemeralContainerStatuses"];

/** Refuses a key of `o.status` (and of a pod's container statuses) that its status type does not have. */
export function checkStatusFields(src: SourceDoc, path: Path, kind: string, o: Obj): void {
  const known = STATUS[kind];
  if (!known || !isObj(o.status)) return;
  const sp = [...path, "status"];
  knownFields(src, sp, o.status, known.fields, known.type);
  if (kind !== "Pod") return;
  for (const field of CONTAINER_LISTS) {
    const list = o.status[field];
    if (!Array.isArray(list)) continue;
    list.forEach((c, i) => {
      if (isObj(c)) knownFields(src, [...sp, field, i], c, CONTAINER_STATUS, "ContainerStatus");
    });
  }
}
