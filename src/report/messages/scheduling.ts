// The prose for the events of trace/scheduling-events.ts: kube-scheduler's events (its reasons and
// FitError in its own words, from scheduler/framework/fit-error.ts) and the PersistentVolume
// controller's and provisioner's.

import { printPodRow } from "../../kubernetes/kubectl.ts";
import { fitErrorMessage, reasonText } from "../../scheduler/framework/fit-error.ts";
import type { EventOf } from "../../trace/events.ts";
import type { SchedulingEventFields } from "../../trace/scheduling-events.ts";
import type { Printers, Prose } from "./prose.ts";

export { fitErrorMessage, reasonText };

function podName(object: string): string {
  return object.split("/").pop()!;
}

function claimName(object: string): string {
  return object.slice("PersistentVolumeClaim/".length);
}

function scheduled(e: EventOf<"PodScheduled">): Prose {
  const [, namespace, name] = e.object.split("/");
  const message = `Successfully assigned ${namespace}/${name} to ${e.node}`;
  if (e.by === "daemonset-controller")
    return {
      message,
      why: `DaemonSet pods are placed on their node through node affinity (metadata.name=${e.node})`,
      see: printPodRow(e.podRow),
    };
  // The node(s) prefix reads oddly after a count in a sentence of the model's own.
  const filtered = e.filtered.map((f) => `${f.nodes} ${reasonText(f).replace(/^node\(s\) /, "")}`);
  const why =
    `${e.feasible} of ${e.checked} nodes checked pass the filters` +
    (e.stoppedAt !== undefined
      ? ` (percentageOfNodesToScore: the scheduler stops at ${e.stoppedAt} feasible of ${e.nodes})`
      : "") +
    (filtered.length > 0 ? ` (${filtered.join("; ")})` : "") +
    (e.owner !== undefined
      ? `; ${e.node} runs the fewest pods of ${e.owner.split("/").pop()} (topology spreading by node and zone)`
      : "") +
    (e.boundClaims
      ? `; its claims are bound first (VolumeBinding PreBind): ${e.boundClaims.join(", ")}`
      : "") +
    (e.attempt !== undefined
      ? `; tried again after a cluster event once its backoff ran out (podInitialBackoffSeconds=1 doubling to podMaxBackoffSeconds=10; attempt ${e.attempt})`
      : "");
  return { message, why, see: printPodRow(e.podRow) };
}

function failedScheduling(e: EventOf<"FailedScheduling">): Prose {
  const zones = (e.volumes ?? [])
    .filter((v) => v.zone !== undefined)
    .map((v) => `${v.claim}'s volume is in zone ${v.zone}`);
  const conflict = e.filtered.some((f) => f.reason === "VolumeNodeAffinityConflict") && zones.length > 0;
  return {
    message: `${podName(e.object)} cannot be scheduled: ${fitErrorMessage(e)}`,
    why: e.preFilter
      ? "the VolumeBinding plugin turns the pod away before any node is filtered; it is tried again when claims, volumes or nodes change, after its backoff"
      : `no node passes the scheduler's filters${conflict ? ` (${zones.join("; ")}, and a volume cannot leave its zone)` : ""}; it is tried again when nodes or pods change, after its backoff`,
    see: printPodRow(e.podRow),
  };
}

function provisioned(e: EventOf<"ProvisioningSucceeded">): Prose {
  const claim = claimName(e.object);
  const where = e.zone !== undefined ? ` in zone ${e.zone}` : "";
  const pinned =
    e.zone !== undefined
      ? `; the volume's node affinity (topology.kubernetes.io/zone In [${e.zone}]) keeps every pod of the claim in zone ${e.zone}`
      : "; the nodes have no zone label, so the volume can be reached from any node";
  const mode = e.selectedNode
    ? `StorageClass ${e.storageClass} binds WaitForFirstConsumer: the volume is created where the scheduler put the first pod that mounts the claim (${e.selectedNode}, annotation volume.kubernetes.io/selected-node)`
    : `StorageClass ${e.storageClass} binds Immediate: the volume is created with the claim, in the zone the external provisioner picks from the claim's name (the nodes' zones, sorted, shifted by a hash of the StatefulSet name plus the ordinal)`;
  const assumed = e.assumedClass
    ? " (the scenario declares no default StorageClass, so the managed clouds' default is assumed: WaitForFirstConsumer, zonal disks)"
    : "";
  return {
    message: `external provisioner creates volume ${e.volume} for ${claim}${where}; the PV controller binds them`,
    why: `${mode}${assumed}${pinned}`,
    see: `$ kubectl describe pvc ${podName(e.object)}\n  Normal  ProvisioningSucceeded  Successfully provisioned volume ${e.volume}`,
  };
}

function claimBound(e: EventOf<"ClaimBound">): Prose {
  return {
    message: `PV controller binds ${claimName(e.object)} to volume ${e.volume}`,
    why: "the scheduler chose a node the existing volume can be reached from (VolumeBinding PreBind: the smallest matching Available volume)",
  };
}

function claimPending(e: EventOf<"ClaimPending">): Prose {
  const claim = claimName(e.object);
  const text =
    e.cause === "NoStorageClass"
      ? "FailedBinding: no persistent volumes available for this claim and no storage class is set"
      : e.cause === "StorageClassNotFound"
        ? `ProvisioningFailed: storageclass.storage.k8s.io "${e.storageClass}" not found`
        : `ExternalProvisioning: Waiting for a volume to be created either by the external provisioner '${e.provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`;
  return {
    message: `${claim} stays Pending: no volume matches it and none is provisioned`,
    why: `the PV controller binds Immediate claims when they are created; pods that mount ${claim} stay Pending ("pod has unbound immediate PersistentVolumeClaims")`,
    see: `$ kubectl describe pvc ${podName(e.object)}\n  ${text}`,
  };
}

export const SCHEDULING_PRINTERS: Printers<keyof SchedulingEventFields> = {
  PodScheduled: scheduled,
  FailedScheduling: failedScheduling,
  ProvisioningSucceeded: provisioned,
  ClaimBound: claimBound,
  ClaimPending: claimPending,
};
