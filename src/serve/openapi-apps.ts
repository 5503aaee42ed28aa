// The served fields of a pod's status (core/v1) and of the apps/v1 workloads, for the OpenAPI
// documents (openapi.ts); as convert-pod.ts and convert-workloads.ts write them. Descriptions:
// k8s.io/api core/v1 and apps/v1 types.go, v1.32, first sentences.

import { type DefSpec, kindFields } from "./openapi-core.ts";

const TEMPLATE = "core.PodTemplateSpec";
const SELECTOR = "meta.LabelSelector";
const OBSERVED: [string, string] = ["integer", "The generation observed by the controller."];

export const STATUS_DEFS: Record<string, DefSpec> = {
  "core.PodStatus": {
    description:
      "PodStatus represents information about the status of a pod. Status may trail the actual state of a system, especially if the node that hosts the pod cannot contact the control plane.",
    fields: {
      phase: [
        "string",
        "The phase of a Pod is a simple, high-level summary of where the Pod is in its lifecycle: Pending, Running, Succeeded, Failed or Unknown.",
      ],
      conditions: ["[]core.PodCondition", "Current service state of pod."],
      podIP: [
        "string",
        "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.",
      ],
      podIPs: ["[]core.PodIP", "podIPs holds the IP addresses allocated to the pod."],
      containerStatuses: [
        "[]core.ContainerStatus",
        "Statuses of containers in this pod. Each container in the pod should have at most one status in this list, and all statuses should be for containers in the pod.",
      ],
      initContainerStatuses: [
        "[]core.ContainerStatus",
        "Statuses of init containers in this pod. The most recent successful non-restartable init container will have ready = true, the most recently started container will have startTime set.",
      ],
      qosClass: [
        "string",
        "The Quality of Service (QOS) classification assigned to the pod based on resource requirements: Guaranteed, Burstable or BestEffort.",
      ],
    },
  },
  "core.PodIP": {
    description: "PodIP represents a single IP address allocated to the pod.",
    required: ["ip"],
    fields: { ip: ["string", "IP is the IP address assigned to the pod"] },
  },
  "core.PodCondition": {
    description: "PodCondition contains details for the current condition of this pod.",
    required: ["type", "status"],
    fields: {
      type: ["string", "Type is the type of the condition."],
      status: ["string", "Status is the status of the condition. Can be True, False, Unknown."],
      lastProbeTime: ["time", "Last time we probed the condition."],
      lastTransitionTime: ["time", "Last time the condition transitioned from one status to another."],
      reason: ["string", "Unique, one-word, CamelCase reason for the condition's last transition."],
      message: ["string", "Human-readable message indicating details about last transition."],
    },
  },
  "core.ContainerStatus": {
    description: "ContainerStatus contains details for the current status of this container.",
    required: ["name", "ready", "restartCount", "image", "imageID"],
    fields: {
      name: ["string", "Name is a DNS_LABEL representing the unique name of the container."],
      state: ["core.ContainerState", "State holds details about the container's current condition."],
      lastState: [
        "core.ContainerState",
        "LastTerminationState holds the last termination state of the container to help debug container crashes and restarts.",
      ],
      ready: [
        "boolean",
        "Ready specifies whether the container is currently passing its readiness check. The value will change as readiness probes keep executing.",
      ],
      restartCount: [
        "integer",
        "RestartCount holds the number of times the container has been restarted. Kubelet makes an effort to always increment the value, but there are cases when the state may be lost due to node restarts and then the value may be reset to 0.",
      ],
      image: ["string", "Image is the name of container image that the container is running."],
      imageID: ["string", "ImageID is the image ID of the container's image."],
      started: [
        "boolean",
        "Started indicates whether the container has finished its postStart lifecycle hook and passed its startup probe.",
      ],
    },
  },
  "core.ContainerState": {
    description:
      "ContainerState holds a possible state of container. Only one of its members may be specified. If none of them is specified, the default one is ContainerStateWaiting.",
    fields: {
      waiting: ["core.ContainerStateWaiting", "Details about a waiting container"],
      running: ["core.ContainerStateRunning", "Details about a running container"],
      terminated: ["core.ContainerStateTerminated", "Details about a terminated container"],
    },
  },
  "core.ContainerStateWaiting": {
    description: "ContainerStateWaiting is a waiting state of a container.",
    fields: {
      reason: ["string", "(brief) reason the container is not yet running."],
      message: ["string", "Message regarding why the container is not yet running."],
    },
  },
  "core.ContainerStateRunning": {
    description: "ContainerStateRunning is a running state of a container.",
    fields: { startedAt: ["time", "Time at which the container was last (re-)started"] },
  },
  "core.ContainerStateTerminated": {
    description: "ContainerStateTerminated is a terminated state of a container.",
    required: ["exitCode"],
    fields: {
      exitCode: ["integer", "Exit status from the last termination of the container"],
      reason: ["string", "(brief) reason from the last termination of the container"],
      startedAt: ["time", "Time at which previous execution of the container started"],
      finishedAt: ["time", "Time at which the container last terminated"],
    },
  },
};

export const APPS_DEFS: Record<string, DefSpec> = {
  "apps.Deployment": {
    description: "Deployment enables declarative updates for Pods and ReplicaSets.",
    gvk: ["apps", "v1", "Deployment"],
    fields: kindFields({
      spec: ["apps.DeploymentSpec", "Specification of the desired behavior of the Deployment."],
      status: ["apps.DeploymentStatus", "Most recently observed status of the Deployment."],
    }),
  },
  "apps.DeploymentSpec": {
    description: "DeploymentSpec is the specification of the desired behavior of the Deployment.",
    required: ["selector", "template"],
    fields: {
      replicas: [
        "integer",
        "Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.",
      ],
      selector: [
        SELECTOR,
        "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels.",
      ],
      template: [
        TEMPLATE,
        'Template describes the pods that will be created. The only allowed template.spec.restartPolicy value is "Always".',
      ],
      strategy: [
        "apps.DeploymentStrategy",
        "The deployment strategy to use to replace existing pods with new ones.",
      ],
      revisionHistoryLimit: [
        "integer",
        "The number of old ReplicaSets to retain to allow rollback. This is a pointer to distinguish between explicit zero and not specified. Defaults to 10.",
      ],
      progressDeadlineSeconds: [
        "integer",
        "The maximum time in seconds for a deployment to make progress before it is considered to be failed. The deployment controller will continue to process failed deployments and a condition with a ProgressDeadlineExceeded reason will be surfaced in the deployment status. Defaults to 600s.",
      ],
    },
  },
  "apps.DeploymentStrategy": {
    description: "DeploymentStrategy describes how to replace existing pods with new ones.",
    fields: {
      type: ["string", 'Type of deployment. Can be "Recreate" or "RollingUpdate". Default is RollingUpdate.'],
      rollingUpdate: [
        "apps.RollingUpdateDeployment",
        "Rolling update config params. Present only if DeploymentStrategyType = RollingUpdate.",
      ],
    },
  },
  "apps.RollingUpdateDeployment": {
    description: "Spec to control the desired behavior of rolling update.",
    fields: {
      maxUnavailable: [
        "intstr",
        "The maximum number of pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Defaults to 25%.",
      ],
      maxSurge: [
        "intstr",
        "The maximum number of pods that can be scheduled above the desired number of pods. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Defaults to 25%.",
      ],
    },
  },
  "apps.DeploymentStatus": {
    description: "DeploymentStatus is the most recently observed status of the Deployment.",
    fields: {
      observedGeneration: OBSERVED,
      replicas: [
        "integer",
        "Total number of non-terminated pods targeted by this deployment (their labels match the selector).",
      ],
      updatedReplicas: [
        "integer",
        "Total number of non-terminated pods targeted by this deployment that have the desired template spec.",
      ],
      readyReplicas: [
        "integer",
        "readyReplicas is the number of pods targeted by this Deployment with a Ready Condition.",
      ],
      availableReplicas: [
        "integer",
        "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
      ],
      unavailableReplicas: [
        "integer",
        "Total number of unavailable pods targeted by this deployment. This is the total number of pods that are still required for the deployment to have 100% available capacity.",
      ],
      conditions: [
        "[]apps.DeploymentCondition",
        "Represents the latest available observations of a deployment's current state.",
      ],
    },
  },
  "apps.DeploymentCondition": {
    description: "DeploymentCondition describes the state of a deployment at a certain point.",
    required: ["type", "status"],
    fields: {
      type: ["string", "Type of deployment condition."],
      status: ["string", "Status of the condition, one of True, False, Unknown."],
      lastUpdateTime: ["time", "The last time this condition was updated."],
      lastTransitionTime: ["time", "Last time the condition transitioned from one status to another."],
      reason: ["string", "The reason for the condition's last transition."],
      message: ["string", "A human readable message indicating details about the transition."],
    },
  },
  "apps.ReplicaSet": {
    description: "ReplicaSet ensures that a specified number of pod replicas are running at any given time.",
    gvk: ["apps", "v1", "ReplicaSet"],
    fields: kindFields({
      spec: [
        "apps.ReplicaSetSpec",
        "Spec defines the specification of the desired behavior of the ReplicaSet.",
      ],
      status: ["apps.ReplicaSetStatus", "Status is the most recently observed status of the ReplicaSet."],
    }),
  },
  "apps.ReplicaSetSpec": {
    description: "ReplicaSetSpec is the specification of a ReplicaSet.",
    required: ["selector"],
    fields: {
      replicas: [
        "integer",
        "Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1.",
      ],
      selector: [SELECTOR, "Selector is a label query over pods that should match the replica count."],
      template: [
        TEMPLATE,
        "Template is the object that describes the pod that will be created if insufficient replicas are detected.",
      ],
    },
  },
  "apps.ReplicaSetStatus": {
    description: "ReplicaSetStatus represents the current status of a ReplicaSet.",
    required: ["replicas"],
    fields: {
      replicas: ["integer", "Replicas is the most recently observed number of non-terminating pods."],
      fullyLabeledReplicas: [
        "integer",
        "The number of non-terminating pods that have labels matching the labels of the pod template of the replicaset.",
      ],
      readyReplicas: [
        "integer",
        "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.",
      ],
      availableReplicas: [
        "integer",
        "The number of available non-terminating pods (ready for at least minReadySeconds) for this replica set.",
      ],
      observedGeneration: [
        "integer",
        "ObservedGeneration reflects the generation of the most recently observed ReplicaSet.",
      ],
    },
  },
};
