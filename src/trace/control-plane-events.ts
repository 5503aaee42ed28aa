// Events of the control plane's controllers and of the API server: node health, taints, zones,
// evictions, pod lifecycle, endpoints, volumes. Fields only; report/messages/control-plane.ts
// writes the prose.
//
// `by` names who acted, with Kubernetes' controller names (cmd/kube-controller-manager/names/
// controller_names.go) or `operator` for a step of the scenario's timeline (`step`, as written).

import type { NodeRow, PodRow } from "../kubernetes/kubectl.ts";
import type { ConditionStatus } from "../kubernetes/objects.ts";
import type { KubeletPodDeletedFields, KubeletPodReadyFields } from "./node-events.ts";
import type { TimelineStepRef } from "./timeline-events.ts";

/** A step of the scenario's timeline did it (kubectl, or the machine's operator). */
export interface ByOperator {
  by: "operator";
  step: TimelineStepRef;
}

/**
 * The cloud controller manager's node lifecycle controller (k8s.io/cloud-provider
 * controllers/nodelifecycle/node_lifecycle_controller.go MonitorNodes, every its --node-monitor-period).
 */
export interface ByCloudNodeLifecycle {
  by: "cloud-node-lifecycle-controller";
  /** the Node's Ready condition the pass found (not True: MonitorNodes asks the cloud only then) */
  ready: ConditionStatus;
  /** what the cloud provider said of the instance */
  instance: "not-found" | "shutdown";
  nodeMonitorPeriod: number;
}

/** A rate limit and the flag that set it (`flag` absent: a rate no flag names). */
export interface Rate {
  flag?: "node-eviction-rate" | "secondary-node-eviction-rate";
  /** nodes per second; 0 stops the zone's NoExecute tainting */
  value: number;
}

/** Why the taint eviction controller deletes a pod (processPodOnNode): the node's NoExecute taints against its tolerations. */
export type TaintEvictionCause = {
  by: "taint-eviction-controller";
  /** The node's NoExecute taints when the eviction was decided (`key[=value]:NoExecute`). */
  taints: string[];
} & (
  | {
      /** Some taint is not tolerated: evicted at once. */
      tolerated: false;
      untolerated: string[];
    }
  | {
      /** Every taint tolerated, the smallest tolerationSeconds counted from `createdAt`. */
      tolerated: true;
      tolerationSeconds: number;
      /** The toleration was added by the DefaultTolerationSeconds admission plugin. */
      admissionDefault: boolean;
      /** When the countdown started: when the controller saw the taint (TimedWorker.CreatedAt). */
      createdAt: number;
    }
);

/** Why a pod object is marked for deletion (deletionTimestamp set). */
export type EvictionCause =
  | TaintEvictionCause
  | { by: "replicaset-controller"; replicaSet: string; replicas: number; active: number }
  /** kube-scheduler's DefaultPreemption (preemption.go PreemptPod): a victim of a higher-priority pod. */
  | PreemptionCause
  /** the Job controller deletes a finished or failed Job's active pods */
  | { by: "job-controller"; job: string; jobReason: string }
  /** `kubectl drain` through the Eviction API. */
  | ByOperator
  /** A StatefulSet's rolling update (stateful_set_control.go updateStatefulSet). */
  | StatefulSetUpdateCause;

/**
 * A rolling update's step: the revision rolled out, and (MaxUnavailableStatefulSet on) the budget:
 * maxUnavailable against the pods unavailable when the controller looked.
 */
export type StatefulSetUpdateCause = {
  by: "statefulset-controller";
  statefulSet: string;
  revision: number;
  /** MaxUnavailableStatefulSet is on (updateStatefulSetAfterInvariantEstablished) */
  maxUnavailableGate: boolean;
  maxUnavailable: number;
  unavailable: number;
};

/** A victim of DefaultPreemption: the pod it makes room for, and the priorities compared. */
export type PreemptionCause = {
  by: "scheduler";
  /** `<ns>/<name>` of the pod preempting */
  preemptor: string;
  preemptorPriority: number;
  /** the victim's priority */
  priority: number;
  /** victims on the node whose PodDisruptionBudget the preemption violates (NumPDBViolations) */
  pdbViolations: number;
  /** victims on the node, this one included */
  victims: number;
};

/** Why a pod object leaves the API. */
export type PodRemovalCause =
  /** PodGC's gcTerminating: terminating on a NotReady node with the out-of-service taint. */
  | { by: "pod-garbage-collector-controller"; gc: "terminating"; gcCheckPeriod: number; taint: string }
  /** PodGC's gcOrphaned: bound to a node gone for the quarantine. */
  | {
      by: "pod-garbage-collector-controller";
      gc: "orphaned";
      gcCheckPeriod: number;
      quarantine: number;
    }
  /** `kubectl delete pod --force`, or a graceful delete of a pod no node runs (see EvictionCause). */
  | EvictionCause;

/** Who set a pod's Ready condition: the node lifecycle controller (MarkPodsNotReady) or the kubelet. */
export type PodReadyBy =
  | {
      by: "node-lifecycle-controller";
      reason: "NodeNotReady";
      /** The node's Ready status that triggered it. */
      nodeReady: ConditionStatus;
    }
  | KubeletPodReadyFields;

/** `podRow`: the pod as `kubectl get pod -o wide` shows it after the change. */
export type PodReadyFields = { podRow?: PodRow } & PodReadyBy;

/** Who removed a pod object: a controller or the operator, or the kubelet's final delete. */
export type PodDeletedFields = { force: boolean } & (PodRemovalCause | KubeletPodDeletedFields);

/** Why a controller created a pod. */
export type PodCreatedCause =
  | {
      by: "replicaset-controller";
      replicaSet: string;
      replicas: number;
      active: number;
      terminating: number;
      /** pods of the ReplicaSet in phase Failed or Succeeded (a node's graceful shutdown ended them) */
      failed?: number;
    }
  | {
      by: "statefulset-controller";
      statefulSet: string;
      ordinal: number;
      /** The identity had a pod object before, which had to be gone first. */
      recreated: boolean;
    }
  | { by: "daemonset-controller"; daemonSet: string; forNode: string }
  | {
      by: "job-controller";
      job: string;
      /** pods it keeps running: min(parallelism, completions − succeeded) */
      wanted: number;
      active: number;
      succeeded: number;
      failed: number;
      /** the pod-failure back-off it waited out since the last failure (seconds), when one applied */
      backoff?: number;
      /** terminating pods it does not wait for (podReplacementPolicy TerminatingOrFailed) */
      terminating: number;
      /** Indexed: the completion index */
      index?: number;
    };

/** Why the node lifecycle controller added a taint. */
export type NodeTaintCause =
  /** doNoExecuteTaintingPass: through the zone's rate-limited queue, one monitor pass after the transition. */
  | { by: "node-lifecycle-controller"; cause: "zone-queue"; ready: ConditionStatus; zone: string; rate: Rate }
  /** SwapNodeControllerTaint: the other NoExecute taint was there, so this one replaces it at once. */
  | { by: "node-lifecycle-controller"; cause: "swap"; ready: ConditionStatus }
  /** doNoScheduleTaintingPass, for spec.unschedulable. */
  | { by: "node-lifecycle-controller"; cause: "unschedulable" }
  /** doNoScheduleTaintingPass, for the node's conditions. */
  | { by: "node-lifecycle-controller"; cause: "condition"; ready?: ConditionStatus }
  /** MonitorNodes: the instance is shut down (InstanceShutdown), so node.cloudprovider.kubernetes.io/shutdown:NoSchedule. */
  | (ByCloudNodeLifecycle & { cause: "instance-shutdown" })
  | ByOperator;

/** Why the node lifecycle controller removed a taint. */
export type NodeTaintRemovalCause = "ready-again" | "all-zones-down" | "swapped" | "condition-cleared";

/** One endpoint of an EndpointSlice, as `kubectl get endpointslice -o yaml` shows it. */
export interface EndpointView {
  address: string;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  nodeName?: string;
}

export interface ControlPlaneEventFields {
  NodeNotReady: {
    status: "Unknown" | "False";
    reason: string;
    /** The Ready condition's message ("Kubelet stopped posting node status."). */
    conditionMessage: string;
    flag: "node-monitor-grace-period" | "node-startup-grace-period";
    value: number;
    nodeMonitorPeriod: number;
    /** When the controller last saw a sign of life (a Lease renewal or a status post). */
    probeTimestamp: number;
    /** The Lease's spec.renewTime, when there is a Lease. */
    leaseRenewTime?: number;
    nodeRow: NodeRow;
  };
  NodeDeleted: ByOperator | ByCloudNodeLifecycle;
  /** Cluster Autoscaler scales a node group up, or Karpenter launches a NodeClaim, for unschedulable pods. */
  NodeScaleUp: {
    by: "cluster-autoscaler" | "karpenter";
    group: string;
    /** the Node that will register */
    newNode: string;
    /** the group's size before and after, and its most (the scenario's nodes of it plus maxNewNodes) */
    from: number;
    to: number;
    max: number;
    /** the unschedulable pods it was for (`<ns>/<name>`) */
    pods: string[];
    scanInterval: number;
    bootSeconds: number;
  };
  /** The node a scale-up launched has booted and registered Ready. */
  ScaledNodeReady: { by: "cluster-autoscaler" | "karpenter"; group: string; after: number };
  /** The node a platform's auto-repair launched in place of another (EKS's Replace) has registered Ready. */
  RepairedNodeReady: { by: "node-auto-repair"; platform: string; replaces: string; after: number };
  /** The managed platform's node auto-repair acts on a node not Ready for its threshold (platforms/). */
  NodeAutoRepair: {
    by: "node-auto-repair";
    platform: string;
    action: "recreate" | "reboot" | "replace";
    /** seconds the node had been not Ready when the repair began */
    notReadyFor: number;
    afterSeconds: number;
    sameName: boolean;
    bootSeconds: number;
    /** `replace`: the new node's name, registered `bootSeconds` later */
    replacement?: string;
    /** the Event the platform records, when documented (AKS: NodeRebootStart) */
    event?: { reason: string; message: string; source: string };
    source: string;
  };
  NodeTainted: {
    taint: string;
    /** Every taint on the node after the change (`key[=value]:Effect`). */
    taints: string[];
  } & NodeTaintCause;
  NodeTaintRemoved: {
    taint: string;
    /** the cloud's controller removes its shutdown taint once the node is Ready again (MonitorNodes) */
    by: "node-lifecycle-controller" | "cloud-node-lifecycle-controller";
    cause: NodeTaintRemovalCause;
    /** For `swapped`: the NoExecute taint that replaced it. */
    swappedFor?: string;
  };
  ZoneStateChanged: {
    zone: string;
    state: string;
    from: string;
    /** The zone's nodes (those labelled node.kubernetes.io/exclude-disruption not counted) and how many are not Ready. */
    nodes: number;
    notReady: number;
    unhealthyZoneThreshold: number;
    largeClusterSizeThreshold: number;
    /** The zone's NoExecute tainting rate from now on. */
    rate: Rate;
  };
  PodCreated: {
    /** `Deployment/<ns>/<name>`, `StatefulSet/…`, `DaemonSet/…`, `ReplicaSet/…` */
    owner: string;
  } & PodCreatedCause;
  PodReady: PodReadyFields;
  PodNotReady: PodReadyFields;
  PodEvicted: { reason: string; podRow: PodRow } & EvictionCause;
  /**
   * The Eviction API refused (429) a drain's eviction: the budget has no disruption left. Emitted at
   * the first refusal only; kubectl keeps retrying every `retryAfter` seconds, and the run's summary
   * (`drains`) says whether it was still refused at the end.
   */
  EvictionBlocked: {
    /** `<ns>/<name>` */
    pdb: string;
    /** the budget's status (policy/v1) at the refusal */
    disruptionsAllowed: number;
    desiredHealthy: number;
    currentHealthy: number;
    expectedPods: number;
    /** the disruption controller could not compute the status (failSafe): its error */
    syncError?: string;
    /** kubectl drain retries every 5s */
    retryAfter: number;
  };
  /** The Eviction API failed with an error kubectl does not retry (500: two budgets select the pod). */
  EvictionFailed: { code: number; error: string; pdbs: string[] };
  EvictionCancelled: { by: "taint-eviction-controller" };
  PodDeleted: PodDeletedFields;
  /**
   * A StatefulSet's rolling update cannot take another pod down now: with MaxUnavailableStatefulSet,
   * more pods are unavailable than maxUnavailable allows ("StatefulSet found unavailablePods, more than
   * the allowed maxUnavailable"); without, the pod it goes through next is not Running and Ready
   * ("StatefulSet is waiting for Pod to update"). Told once per state.
   */
  StatefulSetUpdateWaiting: {
    statefulSet: string;
    revision: number;
    maxUnavailableGate: boolean;
    maxUnavailable: number;
    unavailable: number;
    /** `<ns>/<pod>` it waits for (gate off) */
    waitingFor?: string;
  };
  EndpointReady: { service: string; endpoint: EndpointView };
  /** `removed`: the endpoint left the slice (its pod is gone) while it was ready. */
  EndpointNotReady: { service: string; endpoint: EndpointView; removed: boolean };
  EndpointRemoved: { service: string; address: string; podDeleted: boolean };
  VolumeAttached: { claim: string; pod: string };
  VolumeDetached: {
    claim: string;
    forced: boolean;
    cause: "unmounted" | "out-of-service" | "max-wait-for-unmount";
    /** Seconds since the detach was first requested. */
    waited: number;
    /** ReconcilerMaxWaitForUnmountDuration */
    maxWaitForUnmount: number;
  };
  FailedAttachVolume: {
    claim: string;
    /** The node the volume is still attached to. */
    attachedTo: string;
    /** The event's words by version (reconciler.go reportMultiAttachError). */
    prefix: "Multi-Attach error" | "Waiting for detach";
  };
}
