// The prose for the events of trace/control-plane-events.ts: the node lifecycle and taint eviction
// controllers, the workload controllers, the API server's pod lifecycle, EndpointSlices, volumes,
// and what the operator does through the API. Each printer reads only its event's fields.

import { EVICTION_REFUSED } from "../../cluster/eviction.ts";
import { printNodeRow, printPodRow } from "../../kubernetes/kubectl.ts";
import type {
  ControlPlaneEventFields,
  EndpointView,
  EvictionCause,
  PodRemovalCause,
  Rate,
} from "../../trace/control-plane-events.ts";
import type { EventOf } from "../../trace/events.ts";
import { fmt, round3 } from "../../trace/format.ts";
import { jobCreateWhy } from "./jobs.ts";
import { kubeletPodDeletedProse, kubeletPodReadyProse } from "./node.ts";
import type { Printers, Prose } from "./prose.ts";
import { timelineWhy } from "./timeline.ts";

const name = (object: string) => object.slice(object.lastIndexOf("/") + 1);
/** `Pod/<ns>/<name>` → `<ns>/<name>` */
const nsName = (object: string) => object.slice(object.indexOf("/") + 1);
/** `default/web` → `web` */
const short = (nsSlashName: string) => nsSlashName.slice(nsSlashName.indexOf("/") + 1);

/** A zone's tainting rate: the flag and what it means, or that tainting stopped. */
export function rateText(rate: Rate): string {
  if (rate.value <= 0) return "0: stopped";
  if (rate.flag) return `${rate.flag}=${fmt(rate.value)}: at most one node every ${fmt(1 / rate.value)}s`;
  return `${fmt(rate.value)} nodes/s`;
}

/** Why a pod was marked for deletion. */
function evictionProse(e: EventOf<"PodEvicted"> | EventOf<"PodDeleted">, cause: EvictionCause): Prose {
  const pod = name(e.object);
  switch (cause.by) {
    case "taint-eviction-controller": {
      const why = cause.tolerated
        ? `${pod} tolerates ${cause.taints.join(", ")} on ${e.node ?? ""} for tolerationSeconds=${fmt(cause.tolerationSeconds)}` +
          (cause.admissionDefault
            ? ` (added by the DefaultTolerationSeconds admission plugin: default-unreachable-toleration-seconds / default-not-ready-toleration-seconds = ${fmt(cause.tolerationSeconds)})`
            : "") +
          `, counted from when the taint eviction controller saw the taint at t=${fmt(round3(cause.createdAt))}s`
        : `${e.node ?? ""} has ${cause.untolerated.join(", ")}, which ${pod} does not tolerate: evicted at once`;
      return {
        message: `taint eviction controller evicts ${pod}: "Marking for deletion Pod ${nsName(e.object)}" (TaintManagerEviction)`,
        why,
      };
    }
    case "replicaset-controller":
      return {
        message: `ReplicaSet ${cause.replicaSet} deletes ${pod}`,
        why: `it has ${cause.active} active pods and wants ${cause.replicas}`,
      };
    case "scheduler":
      return {
        message: `kube-scheduler preempts ${pod} on ${e.node ?? ""} for ${cause.preemptor}: event Preempted, condition DisruptionTarget=True (PreemptionByScheduler: "default-scheduler: preempting to accommodate a higher priority pod")`,
        why:
          `${cause.preemptor} (priority ${cause.preemptorPriority}) fits on no node; DefaultPreemption found that removing pods of lower priority from ${e.node ?? ""} makes room and chose it among the candidates ` +
          `(fewest PodDisruptionBudget violations, then the lowest highest victim priority, the smallest sum, the fewest victims); ${pod} (priority ${cause.priority}) is one of ${cause.victims} victim${cause.victims === 1 ? "" : "s"} that could not be reprieved` +
          (cause.pdbViolations > 0 ? `, ${cause.pdbViolations} of them against a PodDisruptionBudget` : "") +
          ". It is deleted gracefully; the preemptor is nominated to the node and scheduled once the victims are gone",
      };
    case "statefulset-controller":
      return {
        message: `StatefulSet ${cause.statefulSet} deletes ${pod} for its rolling update to revision ${cause.revision}: "delete Pod ${pod} in StatefulSet ${cause.statefulSet} successful" (SuccessfulDelete)`,
        why: cause.maxUnavailableGate
          ? `maxUnavailable=${cause.maxUnavailable} (MaxUnavailableStatefulSet on) with ${cause.unavailable} of its pods unavailable: it takes down up to ${cause.maxUnavailable - cause.unavailable} more not yet updated, from the highest ordinal (updateStatefulSetAfterInvariantEstablished)`
          : "one pod at a time, from the highest ordinal not yet updated (MaxUnavailableStatefulSet off in this version: maxUnavailable is not read); its replacement is created at the new revision once it is gone",
      };
    case "job-controller":
      return {
        message: `Job ${short(cause.job)} deletes ${pod}`,
        why: `${cause.jobReason}: the Job's active pods are deleted`,
      };
    case "operator":
      return {
        message: `evicting pod ${nsName(e.object)}`,
        why: `${timelineWhy(cause.step)}: kubectl drain evicts each pod through the Eviction API, honouring PodDisruptionBudgets`,
      };
  }
}

function removalProse(e: EventOf<"PodDeleted">, cause: PodRemovalCause): Prose {
  const pod = name(e.object);
  if (cause.by === "pod-garbage-collector-controller") {
    if (cause.gc === "terminating")
      return {
        message: `PodGC force-deletes ${pod}: it is terminating on ${e.node ?? ""}, which is not Ready and has the ${cause.taint} taint`,
        why: `gcTerminating, in PodGC's pass every gcCheckPeriod=${cause.gcCheckPeriod}s (non-graceful node shutdown)`,
      };
    return {
      message: `PodGC deletes ${pod}: "PodGC: node no longer exists" (${e.node ?? ""})`,
      why: `gcOrphaned: node ${e.node ?? ""} has been gone for the quarantine of ${cause.quarantine}s, checked every gcCheckPeriod=${cause.gcCheckPeriod}s`,
    };
  }
  if (cause.by === "operator" && e.force)
    return {
      message: `${pod} is force-deleted: the API forgets it at once, whether or not its containers still run`,
      why: timelineWhy(cause.step),
    };
  // A graceful delete of a pod no node runs: removed at once, for the eviction's reason.
  return evictionProse(e, cause);
}

/** `kubectl get endpointslice … -o yaml`, the endpoint as it now reads. */
function endpointYaml(service: string, ep: EndpointView): string {
  return `$ kubectl get endpointslice -l kubernetes.io/service-name=${short(service)} -o yaml\n  - addresses: ["${ep.address}"]\n    conditions: {ready: ${ep.ready}, serving: ${ep.serving}, terminating: ${ep.terminating}}\n    nodeName: ${ep.nodeName ?? ""}`;
}

/** The FailedAttachVolume event's words (reconciler.go reportMultiAttachError, GenerateMsg). */
function multiAttachText(e: EventOf<"FailedAttachVolume">): string {
  const volume = short(e.claim);
  return e.prefix === "Waiting for detach"
    ? `Waiting for detach for volume "${volume}" Volume is already exclusively attached to one node, waiting on detach before it can be attached to another node`
    : `Multi-Attach error for volume "${volume}" Volume is already exclusively attached to one node and can't be attached to another`;
}

export const CONTROL_PLANE_PRINTERS: Printers<keyof ControlPlaneEventFields> = {
  NodeNotReady: (e) => ({
    message: `node controller sets ${name(e.object)} Ready=Unknown: "${e.conditionMessage}"`,
    why:
      `no Lease renewal seen for ${fmt(round3(e.t - (e.leaseRenewTime ?? e.probeTimestamp)))}s: the last one was observed at the pass ${fmt(round3(e.t - e.probeTimestamp))}s ago, ` +
      `and now > probeTimestamp + ${e.flag}=${fmt(e.value)}s (checked every node-monitor-period=${fmt(e.nodeMonitorPeriod)}s)`,
    see: printNodeRow(e.nodeRow),
  }),

  NodeDeleted: (e) => ({
    message:
      e.by === "operator"
        ? `Node ${name(e.object)} is deleted from the API`
        : `cloud node lifecycle controller deletes Node ${name(e.object)}: "Deleting node ${name(e.object)} because it does not exist in the cloud provider"`,
    why:
      e.by === "operator"
        ? timelineWhy(e.step)
        : `the node is Ready=${e.ready} and the cloud provider no longer finds its instance (MonitorNodes, every cloud-controller-manager --node-monitor-period=${fmt(e.nodeMonitorPeriod)}s); its pods are now orphans for PodGC`,
    see: `$ kubectl get node ${name(e.object)}\nError from server (NotFound): nodes "${name(e.object)}" not found`,
  }),

  NodeScaleUp: (e) => {
    const pods = e.pods.map((p) => p.slice(p.indexOf("/") + 1));
    const who =
      e.by === "karpenter"
        ? "Karpenter launches a NodeClaim"
        : `cluster-autoscaler scales node group ${e.group} up`;
    return {
      message: `${who} for ${pods.join(", ")}: ${e.newNode} (${e.from}->${e.to}, max ${e.max}), Ready in about ${fmt(e.bootSeconds)}s`,
      why:
        e.by === "karpenter"
          ? `the pod${pods.length === 1 ? " is" : "s are"} unschedulable and NodePool ${e.group}'s template fits; Karpenter batches pending pods for ${fmt(e.scanInterval)}s of quiet before it launches`
          : `the pod${pods.length === 1 ? " is" : "s are"} unschedulable and ${e.group}'s template fits them; cluster-autoscaler looks every --scan-interval=${fmt(e.scanInterval)}s`,
      see: `$ kubectl describe pod ${pods[0] ?? ""}\n  Normal  TriggeredScaleUp  cluster-autoscaler  pod triggered scale-up: [{${e.group} ${e.from}->${e.to} (max: ${e.max})}]`,
    };
  },

  ScaledNodeReady: (e) => ({
    message: `${name(e.object)}, the node ${e.by} added to ${e.group}, is Ready ${fmt(round3(e.after))}s after the scale-up`,
    why: "the machine booted and its kubelet registered the node; the scheduler can now place the pods that waited",
  }),

  RepairedNodeReady: (e) => ({
    message: `${name(e.object)}, the node ${e.platform.toUpperCase()} node auto-repair launched in place of ${e.replaces}, is Ready ${fmt(round3(e.after))}s after the repair`,
    why: "the node group's new instance booted and its kubelet registered the node; the scheduler can place pods on it",
  }),

  NodeAutoRepair: (e) => {
    const node = name(e.object);
    const what =
      e.action === "recreate"
        ? `drains and re-creates the VM under the same name (back in ${fmt(e.bootSeconds)}s, same zone: its pods' bindings and zonal volumes still fit; GKE "waits one hour for the drain to complete", which pods on a NotReady node cannot do, so it may come up to an hour later)`
        : e.action === "reboot"
          ? `reboots the node (back in ${fmt(e.bootSeconds)}s; reimage, then redeploy, only if it stays unhealthy)`
          : `terminates the instance and replaces the node with ${e.replacement ?? "a new one"} (a new name, same node group and zone, Ready in ${fmt(e.bootSeconds)}s; the cloud controller deletes the old Node)`;
    return {
      message: `${e.platform.toUpperCase()} node auto-repair ${what}: ${node}`,
      why: `${node} has been not Ready for ${fmt(round3(e.notReadyFor))}s, past the platform's ${fmt(e.afterSeconds)}s (${e.source})`,
      ...(e.event
        ? {
            see: `$ kubectl get events --field-selector involvedObject.name=${node}\nNormal  ${e.event.reason}  node/${node}  ${e.event.message}`,
          }
        : {}),
    };
  },

  NodeTainted: (e) => {
    const node = name(e.object);
    if (e.by === "operator")
      return {
        message: `${node} is marked out of service (non-graceful node shutdown)`,
        why: `${timelineWhy(e.step)}: it tells Kubernetes the node is shut down, so its pods and volumes can move`,
      };
    if (e.by === "cloud-node-lifecycle-controller")
      return {
        message: `cloud node lifecycle controller taints ${node} with ${e.taint}`,
        why: `the node is Ready=${e.ready} and the cloud provider reports its instance shut down (MonitorNodes, every --node-monitor-period=${fmt(e.nodeMonitorPeriod)}s): no new pods land there; the taint goes when the node is Ready again`,
      };
    const why =
      e.cause === "zone-queue"
        ? `the node is Ready=${e.ready}; NoExecute taints are applied one node-monitor-period pass after the transition, through zone ${e.zone}'s rate-limited queue (${rateText(e.rate)})`
        : e.cause === "swap"
          ? `the node is Ready=${e.ready}: the controller swaps the NoExecute taint at once`
          : e.cause === "unschedulable"
            ? "spec.unschedulable is true (cordoned); NoSchedule taints follow node changes at once, not rate limited"
            : `Ready=${e.ready}: NoSchedule taints follow the node's conditions at once, not rate limited`;
    const list = e.taints.length === 0 ? "<none>" : e.taints.join("\n                    ");
    return {
      message: `node controller taints ${node} with ${e.taint}`,
      why,
      see: `$ kubectl describe node ${node} | grep Taints -A2\nTaints:             ${list}`,
    };
  },

  NodeTaintRemoved: (e) => ({
    message: `${e.by === "cloud-node-lifecycle-controller" ? "cloud node lifecycle controller" : "node controller"} removes ${e.taint} from ${name(e.object)}`,
    why:
      e.cause === "ready-again"
        ? "the node is Ready again"
        : e.cause === "all-zones-down"
          ? "every zone is in FullDisruption: the controller assumes it lost the nodes, not the nodes failed, and removes NoExecute taints"
          : e.cause === "swapped"
            ? `swapped for ${e.swappedFor ?? ""}`
            : "the condition behind it cleared",
  }),

  ZoneStateChanged: (e) => ({
    message: `zone ${e.zone} is ${e.state} (${e.nodes} node${e.nodes === 1 ? "" : "s"}); NoExecute tainting there now runs at ${rateText(e.rate)}`,
    why:
      e.state === "FullDisruption"
        ? "no node in the zone is Ready"
        : e.state === "PartialDisruption"
          ? `more than 2 nodes and at least unhealthy-zone-threshold=${e.unhealthyZoneThreshold} of the zone are not Ready; the zone has ${e.nodes} nodes, ${e.nodes > e.largeClusterSizeThreshold ? "more than" : "not more than"} large-cluster-size-threshold=${e.largeClusterSizeThreshold} (compared with the zone's size in the code, not the cluster's as the docs say)`
          : "fewer than 3 nodes, or under the unhealthy-zone-threshold share, are not Ready",
  }),

  PodCreated: (e) => {
    const pod = name(e.object);
    switch (e.by) {
      case "replicaset-controller":
        return {
          message: `${ownerWords(e.owner)} creates pod ${pod}`,
          why:
            `ReplicaSet ${e.replicaSet} wants replicas=${e.replicas} and counts ${e.active} active pod${e.active === 1 ? "" : "s"}` +
            (e.terminating > 0
              ? "; a pod with a deletionTimestamp (Terminating) no longer counts, so it is replaced without waiting for it to stop"
              : "") +
            (e.failed ? "; a Failed pod is not active (controller.FilterActivePods), so it is replaced" : ""),
        };
      case "statefulset-controller":
        return {
          message: `${ownerWords(e.owner)} creates pod ${pod}`,
          why:
            `StatefulSet ${e.statefulSet} has no pod object named ${pod}: the identity is free, so it creates one` +
            (e.recreated
              ? " (it waited while the old pod object existed: at most one pod per identity)"
              : ""),
        };
      case "daemonset-controller":
        return {
          message: `${ownerWords(e.owner)} creates pod ${pod}`,
          why: `DaemonSet ${e.daemonSet} runs one pod on every eligible node and ${e.forNode} has none`,
        };
      case "job-controller":
        return { message: `Job ${short(e.job)} creates pod ${pod}`, why: jobCreateWhy(e) };
    }
  },

  // PodReady, PodNotReady and PodDeleted are recorded by cluster/api.ts for any component; the
  // kubelet's (by: "kubelet") are printed by report/messages/node.ts (kubeletPodReadyProse,
  // kubeletPodDeletedProse). Only the kubelet sets Ready=True.
  PodReady: (e) => podReadyProse(e),
  PodNotReady: (e) => podReadyProse(e),

  PodEvicted: (e) => ({ ...evictionProse(e, e), see: printPodRow(e.podRow) }),

  EvictionBlocked: (e) => ({
    message: `error when evicting pods/"${name(e.object)}" -n "${e.object.split("/")[1]}" (will retry after ${fmt(e.retryAfter)}s): ${EVICTION_REFUSED}`,
    why: `${
      e.syncError !== undefined
        ? `the disruption controller cannot compute the status of PodDisruptionBudget ${short(e.pdb)} (${e.syncError}), so it allows no disruption`
        : `the disruption budget ${short(e.pdb)} needs ${e.desiredHealthy} healthy pods and has ${e.currentHealthy} currently (expected pods ${e.expectedPods}, status.disruptionsAllowed ${e.disruptionsAllowed})`
    }; kubectl drain retries every ${fmt(e.retryAfter)}s until the budget allows it: the retries are not shown, the end of the run says whether it is still blocked`,
  }),

  EvictionFailed: (e) => ({
    message: `error when evicting pods/"${name(e.object)}" -n "${e.object.split("/")[1]}": ${e.error}`,
    why: `PodDisruptionBudgets ${e.pdbs.map(short).join(" and ")} both select the pod; the API server answers ${e.code} and kubectl drain does not retry it: the drain fails`,
  }),

  StatefulSetUpdateWaiting: (e) => ({
    message: e.maxUnavailableGate
      ? `StatefulSet ${e.statefulSet}'s rolling update to revision ${e.revision} waits: ${
          e.unavailable > e.maxUnavailable
            ? `"StatefulSet found unavailablePods, more than the allowed maxUnavailable" (${e.unavailable} unavailable, maxUnavailable=${e.maxUnavailable})`
            : `${e.unavailable} pod${e.unavailable === 1 ? "" : "s"} unavailable, maxUnavailable=${e.maxUnavailable}: no room to take another down`
        }`
      : `StatefulSet ${e.statefulSet}'s rolling update to revision ${e.revision} waits: "StatefulSet is waiting for Pod to update" (${name(`Pod/${e.waitingFor ?? ""}`)})`,
    why: e.maxUnavailableGate
      ? "MaxUnavailableStatefulSet on: every unavailable pod counts against maxUnavailable, updated or not, and none is taken down while the budget is spent"
      : "MaxUnavailableStatefulSet off: the update goes down the ordinals one pod at a time and stops at the first that is not Running and Ready",
  }),

  EvictionCancelled: (e) => ({
    message: `Cancelling deletion of Pod ${nsName(e.object)}`,
    why: `no NoExecute taint is left on ${e.node ?? ""}`,
  }),

  PodDeleted: (e) => {
    if (e.by === "kubelet") return kubeletPodDeletedProse(e);
    return removalProse(e, e);
  },

  EndpointReady: (e) => ({
    message: `${name(e.object)} (${e.endpoint.address}) is a ready endpoint of ${e.service}: Services route new requests to it`,
    why: "its pod is Ready and not terminating (ready = serving && !terminating)",
    see: endpointYaml(e.service, e.endpoint),
  }),

  EndpointNotReady: (e) =>
    e.removed
      ? { message: `${name(e.object)} leaves ${e.service}'s endpoints`, why: "the pod is gone" }
      : {
          message: `${name(e.object)} (${e.endpoint.address}) is no longer a ready endpoint of ${e.service}: new requests stop going to it`,
          why: e.endpoint.terminating
            ? "its pod is terminating (deletionTimestamp set): ready is never true for a terminating pod"
            : "its pod's Ready condition is False (serving = Ready)",
          see: endpointYaml(e.service, e.endpoint),
        },

  EndpointRemoved: (e) => ({
    message: `EndpointSlice ${short(e.service)} drops ${name(e.object)} (${e.address})`,
    why: e.podDeleted ? "the pod object was removed from the API" : "the pod has no IP or has finished",
  }),

  VolumeAttached: (e) => ({
    message: `attach/detach controller attaches ${e.claim}'s volume to ${e.node ?? ""}`,
    why: `a pod on ${e.node ?? ""} uses the claim and the volume is attached nowhere else`,
  }),

  VolumeDetached: (e) => {
    const node = e.node ?? "";
    return {
      message: `attach/detach controller ${e.forced ? "force-detaches" : "detaches"} ${e.claim}'s volume from ${node}`,
      why:
        e.cause === "unmounted"
          ? `the kubelet on ${node} reported the volume unmounted`
          : e.cause === "out-of-service"
            ? `${node} has the node.kubernetes.io/out-of-service taint: detach at once, even though the volume may still be mounted`
            : `the detach has waited ${fmt(Math.round(e.waited * 10) / 10)}s since the pod was gone from the API > ReconcilerMaxWaitForUnmountDuration=${fmt(e.maxWaitForUnmount / 60)}m, ${node} is not healthy and never reported the volume unmounted (--disable-force-detach-on-timeout=false)`,
    };
  },

  FailedAttachVolume: (e) => {
    const text = multiAttachText(e);
    const pod = name(e.object);
    return {
      message: `${pod} waits for its volume: ${text}`,
      why: `PersistentVolumeClaim ${e.claim} is ReadWriteOnce and still attached to ${e.attachedTo}`,
      see: `$ kubectl describe pod ${pod}\n  Warning  FailedAttachVolume  attachdetach-controller  ${text}`,
    };
  },
};

/** `Deployment/default/web` → `Deployment web`; no owner: the API server. */
function ownerWords(owner: string): string {
  if (owner === "none") return "the API server";
  const [kind, , ownerName] = owner.split("/");
  return `${kind} ${ownerName}`;
}

function podReadyProse(e: EventOf<"PodReady" | "PodNotReady">): Prose {
  if (e.by === "node-lifecycle-controller")
    return {
      message: `node controller marks ${name(e.object)} not ready ("Node is not ready")`,
      why: `its node ${e.node ?? ""} just went Ready → ${e.nodeReady}; MarkPodsNotReady runs on that transition`,
      ...(e.podRow ? { see: printPodRow(e.podRow) } : {}),
    };
  return kubeletPodReadyProse(e);
}
