// The served fields of a Pod (core/v1), for the OpenAPI documents (openapi.ts): the fields the
// model's PodSpec and Container carry (src/kubernetes/objects.ts) plus the defaults the API server
// writes on them (convert-pod.ts). Descriptions: k8s.io/api core/v1 types.go, v1.32, first sentences.

import { type DefSpec, kindFields } from "./openapi-core.ts";

const PROBE = "core.Probe";

export const POD_DEFS: Record<string, DefSpec> = {
  "core.Pod": {
    description:
      "Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.",
    gvk: ["", "v1", "Pod"],
    fields: kindFields({
      spec: ["core.PodSpec", "Specification of the desired behavior of the pod."],
      status: [
        "core.PodStatus",
        "Most recently observed status of the pod. This data may not be up to date. Populated by the system. Read-only.",
      ],
    }),
  },
  "core.PodTemplateSpec": {
    description: "PodTemplateSpec describes the data a pod should have when created from a template",
    fields: {
      metadata: ["meta.ObjectMeta", "Standard object's metadata."],
      spec: ["core.PodSpec", "Specification of the desired behavior of the pod."],
    },
  },
  "core.PodSpec": {
    description: "PodSpec is a description of a pod.",
    required: ["containers"],
    fields: {
      containers: [
        "[]core.Container",
        "List of containers belonging to the pod. Containers cannot currently be added or removed. There must be at least one container in a Pod. Cannot be updated.",
      ],
      initContainers: [
        "[]core.Container",
        "List of initialization containers belonging to the pod. Init containers are executed in order prior to containers being started.",
      ],
      nodeName: [
        "string",
        "NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName.",
      ],
      nodeSelector: [
        "map",
        "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node.",
      ],
      tolerations: ["[]core.Toleration", "If specified, the pod's tolerations."],
      affinity: ["core.Affinity", "If specified, the pod's scheduling constraints"],
      readinessGates: [
        "[]core.PodReadinessGate",
        'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True"',
      ],
      topologySpreadConstraints: [
        "[]core.TopologySpreadConstraint",
        "TopologySpreadConstraints describes how a group of pods ought to spread across topology domains. Scheduler will schedule pods in a way which abides by the constraints. All topologySpreadConstraints are ANDed.",
      ],
      restartPolicy: [
        "string",
        "Restart policy for all containers within the pod. One of Always, OnFailure, Never. In some contexts, only a subset of those values may be permitted. Default to Always.",
      ],
      terminationGracePeriodSeconds: [
        "integer",
        "Optional duration in seconds the pod needs to terminate gracefully. May be decreased in delete request. Value must be non-negative integer. The value zero indicates stop immediately via the kill signal (no opportunity to shut down). Defaults to 30 seconds.",
      ],
      dnsPolicy: [
        "string",
        "Set DNS policy for the pod. Defaults to \"ClusterFirst\". Valid values are 'ClusterFirstWithHostNet', 'ClusterFirst', 'Default' or 'None'.",
      ],
      schedulerName: [
        "string",
        "If specified, the pod will be dispatched by specified scheduler. If not specified, the pod will be dispatched by default scheduler.",
      ],
      serviceAccountName: [
        "string",
        "ServiceAccountName is the name of the ServiceAccount to use to run this pod.",
      ],
      priorityClassName: [
        "string",
        'If specified, indicates the pod\'s priority. "system-node-critical" and "system-cluster-critical" are two special keywords which indicate the highest priorities with the former being the highest priority.',
      ],
      priority: [
        "integer",
        "The priority value. Various system components use this field to find the priority of the pod. When Priority Admission Controller is enabled, it prevents users from setting this field.",
      ],
      preemptionPolicy: [
        "string",
        "PreemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.",
      ],
      enableServiceLinks: [
        "boolean",
        "EnableServiceLinks indicates whether information about services should be injected into pod's environment variables, matching the syntax of Docker links. Optional: Defaults to true.",
      ],
      hostNetwork: [
        "boolean",
        "Host networking requested for this pod. Use the host's network namespace. Default to false.",
      ],
      hostname: [
        "string",
        "Specifies the hostname of the Pod If not specified, the pod's hostname will be set to a system-defined value.",
      ],
      subdomain: [
        "string",
        'If specified, the fully qualified Pod hostname will be "<hostname>.<subdomain>.<pod namespace>.svc.<cluster domain>". If not specified, the pod will not have a domainname at all.',
      ],
      volumes: ["[]core.Volume", "List of volumes that can be mounted by containers belonging to the pod."],
      securityContext: [
        "core.PodSecurityContext",
        "SecurityContext holds pod-level security attributes and common container settings. Optional: Defaults to empty.",
      ],
    },
  },
  "core.PodSecurityContext": {
    description:
      "PodSecurityContext holds pod-level security attributes and common container settings. Some fields are also present in container.securityContext. Field values of container.securityContext take precedence over field values of PodSecurityContext.",
    fields: {},
  },
  "core.Volume": {
    description:
      "Volume represents a named volume in a pod that may be accessed by any container in the pod.",
    required: ["name"],
    fields: {
      name: ["string", "name of the volume. Must be a DNS_LABEL and unique within the pod."],
      persistentVolumeClaim: [
        "core.PersistentVolumeClaimVolumeSource",
        "persistentVolumeClaimVolumeSource represents a reference to a PersistentVolumeClaim in the same namespace.",
      ],
      emptyDir: [
        "core.EmptyDirVolumeSource",
        "emptyDir represents a temporary directory that shares a pod's lifetime.",
      ],
    },
  },
  // Served empty: the model keeps that the volume is an emptyDir, not its medium or sizeLimit.
  "core.EmptyDirVolumeSource": {
    description:
      "Represents an empty directory for a pod. Empty directory volumes support ownership management and SELinux relabeling.",
    fields: {},
  },
  "core.PersistentVolumeClaimVolumeSource": {
    description:
      "PersistentVolumeClaimVolumeSource references the user's PVC in the same namespace. This volume finds the bound PV and mounts that volume for the pod.",
    required: ["claimName"],
    fields: {
      claimName: [
        "string",
        "claimName is the name of a PersistentVolumeClaim in the same namespace as the pod using this volume.",
      ],
    },
  },
  "core.TopologySpreadConstraint": {
    description: "TopologySpreadConstraint specifies how to spread matching pods among the given topology.",
    required: ["maxSkew", "topologyKey", "whenUnsatisfiable"],
    fields: {
      maxSkew: ["integer", "MaxSkew describes the degree to which pods may be unevenly distributed."],
      topologyKey: [
        "string",
        "TopologyKey is the key of node labels. Nodes that have a label with this key and identical values are considered to be in the same topology.",
      ],
      whenUnsatisfiable: [
        "string",
        "WhenUnsatisfiable indicates how to deal with a pod if it doesn't satisfy the spread constraint: DoNotSchedule (default) or ScheduleAnyway.",
      ],
      labelSelector: [
        "meta.LabelSelector",
        "LabelSelector is used to find matching pods. Pods that match this label selector are counted to determine the number of pods in their corresponding topology domain.",
      ],
      matchLabelKeys: [
        "[]string",
        "MatchLabelKeys is a set of pod label keys to select the pods over which spreading will be calculated.",
      ],
      minDomains: ["integer", "MinDomains indicates a minimum number of eligible domains."],
      nodeAffinityPolicy: [
        "string",
        "NodeAffinityPolicy indicates how we will treat Pod's nodeAffinity/nodeSelector when calculating pod topology spread skew. If this value is nil, the behavior is equivalent to the Honor policy.",
      ],
      nodeTaintsPolicy: [
        "string",
        "NodeTaintsPolicy indicates how we will treat node taints when calculating pod topology spread skew. If this value is nil, the behavior is equivalent to the Ignore policy.",
      ],
    },
  },
  "core.Toleration": {
    description:
      "The pod this Toleration is attached to tolerates any taint that matches the triple <key,value,effect> using the matching operator <operator>.",
    fields: {
      key: [
        "string",
        "Key is the taint key that the toleration applies to. Empty means match all taint keys. If the key is empty, operator must be Exists; this combination means to match all values and all keys.",
      ],
      operator: [
        "string",
        "Operator represents a key's relationship to the value. Valid operators are Exists and Equal. Defaults to Equal.",
      ],
      value: ["string", "Value is the taint value the toleration matches to."],
      effect: [
        "string",
        "Effect indicates the taint effect to match. Empty means match all taint effects. When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.",
      ],
      tolerationSeconds: [
        "integer",
        "TolerationSeconds represents the period of time the toleration (which must be of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default, it is not set, which means tolerate the taint forever (do not evict).",
      ],
    },
  },
  "core.Container": {
    description: "A single application container that you want to run within a pod.",
    required: ["name"],
    fields: {
      name: [
        "string",
        "Name of the container specified as a DNS_LABEL. Each container in a pod must have a unique name (DNS_LABEL). Cannot be updated.",
      ],
      image: ["string", "Container image name."],
      imagePullPolicy: [
        "string",
        "Image pull policy. One of Always, Never, IfNotPresent. Defaults to Always if :latest tag is specified, or IfNotPresent otherwise. Cannot be updated.",
      ],
      ports: [
        "[]core.ContainerPort",
        "List of ports to expose from the container. Not specifying a port here DOES NOT prevent that port from being exposed.",
      ],
      resources: [
        "core.ResourceRequirements",
        "Compute Resources required by this container. Cannot be updated.",
      ],
      startupProbe: [
        PROBE,
        "StartupProbe indicates that the Pod has successfully initialized. If specified, no other probes are executed until this completes successfully.",
      ],
      livenessProbe: [
        PROBE,
        "Periodic probe of container liveness. Container will be restarted if the probe fails. Cannot be updated.",
      ],
      readinessProbe: [
        PROBE,
        "Periodic probe of container service readiness. Container will be removed from service endpoints if the probe fails. Cannot be updated.",
      ],
      lifecycle: [
        "core.Lifecycle",
        "Actions that the management system should take in response to container lifecycle events. Cannot be updated.",
      ],
      restartPolicy: [
        "string",
        'RestartPolicy defines the restart behavior of individual containers in a pod. This field may only be set for init containers, and the only allowed value is "Always".',
      ],
      terminationMessagePath: [
        "string",
        "Optional: Path at which the file to which the container's termination message will be written is mounted into the container's filesystem. Defaults to /dev/termination-log.",
      ],
      terminationMessagePolicy: [
        "string",
        "Indicate how the termination message should be populated. File will use the contents of terminationMessagePath to populate the container status message on both success and failure. Defaults to File.",
      ],
    },
  },
  "core.ContainerPort": {
    description: "ContainerPort represents a network port in a single container.",
    required: ["containerPort"],
    fields: {
      containerPort: [
        "integer",
        "Number of port to expose on the pod's IP address. This must be a valid port number, 0 < x < 65536.",
      ],
      name: [
        "string",
        "If specified, this must be an IANA_SVC_NAME and unique within the pod. Each named port in a pod must have a unique name.",
      ],
      protocol: ["string", 'Protocol for port. Must be UDP, TCP, or SCTP. Defaults to "TCP".'],
      hostPort: [
        "integer",
        "Number of port to expose on the host. If specified, this must be a valid port number, 0 < x < 65536.",
      ],
      hostIP: ["string", "What host IP to bind the external port to."],
    },
  },
  "core.ResourceRequirements": {
    description: "ResourceRequirements describes the compute resource requirements.",
    fields: {
      limits: ["quantities", "Limits describes the maximum amount of compute resources allowed."],
      requests: [
        "quantities",
        "Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value.",
      ],
    },
  },
  "core.Probe": {
    description:
      "Probe describes a health check to be performed against a container to determine whether it is alive or ready to receive traffic.",
    fields: {
      httpGet: ["core.HTTPGetAction", "HTTPGet specifies an HTTP GET request to perform."],
      tcpSocket: ["core.TCPSocketAction", "TCPSocket specifies a connection to a TCP port."],
      exec: ["core.ExecAction", "Exec specifies a command to execute in the container."],
      initialDelaySeconds: [
        "integer",
        "Number of seconds after the container has started before liveness probes are initiated.",
      ],
      periodSeconds: [
        "integer",
        "How often (in seconds) to perform the probe. Default to 10 seconds. Minimum value is 1.",
      ],
      timeoutSeconds: [
        "integer",
        "Number of seconds after which the probe times out. Defaults to 1 second. Minimum value is 1.",
      ],
      successThreshold: [
        "integer",
        "Minimum consecutive successes for the probe to be considered successful after having failed. Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.",
      ],
      failureThreshold: [
        "integer",
        "Minimum consecutive failures for the probe to be considered failed after having succeeded. Defaults to 3. Minimum value is 1.",
      ],
      terminationGracePeriodSeconds: [
        "integer",
        "Optional duration in seconds the pod needs to terminate gracefully upon probe failure.",
      ],
    },
  },
  "core.HTTPGetAction": {
    description: "HTTPGetAction describes an action based on HTTP Get requests.",
    required: ["port"],
    fields: {
      path: ["string", "Path to access on the HTTP server."],
      port: [
        "intstr",
        "Name or number of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.",
      ],
      scheme: ["string", "Scheme to use for connecting to the host. Defaults to HTTP."],
    },
  },
  "core.TCPSocketAction": {
    description: "TCPSocketAction describes an action based on opening a socket",
    required: ["port"],
    fields: {
      port: [
        "intstr",
        "Number or name of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.",
      ],
    },
  },
  "core.ExecAction": {
    description: 'ExecAction describes a "run in container" action.',
    fields: {
      command: [
        "[]string",
        "Command is the command line to execute inside the container, the working directory for the command  is root ('/') in the container's filesystem.",
      ],
    },
  },
  "core.Lifecycle": {
    description:
      "Lifecycle describes actions that the management system should take in response to container lifecycle events.",
    fields: {
      preStop: [
        "core.LifecycleHandler",
        "PreStop is called immediately before a container is terminated due to an API request or management event such as liveness/startup probe failure, preemption, resource contention, etc.",
      ],
    },
  },
  "core.LifecycleHandler": {
    description:
      "LifecycleHandler defines a specific action that should be taken in a lifecycle hook. One and only one of the fields, except TCPSocket must be specified.",
    fields: {
      exec: ["core.ExecAction", "Exec specifies a command to execute in the container."],
      httpGet: ["core.HTTPGetAction", "HTTPGet specifies an HTTP GET request to perform."],
      sleep: ["core.SleepAction", "Sleep represents a duration that the container should sleep."],
    },
  },
  "core.SleepAction": {
    description: 'SleepAction describes a "sleep" action.',
    required: ["seconds"],
    fields: { seconds: ["integer", "Seconds is the number of seconds to sleep."] },
  },
};
