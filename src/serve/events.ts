// The timeline's events as the Events a real cluster records, with Kubernetes' own reasons,
// messages and sources (each cites the component that records it). Only what a Kubernetes
// component would record becomes an Event: a taint, a zone state, an endpoint change or a fault
// has none (event-objects.ts writes the Event objects and merges repeats). Words come from the
// event's fields; where a field is missing (FailedScheduling's diagnosis), from proseOf(e).

import type { Context } from "../cluster/context.ts";
import { minor } from "../kubernetes/defaults.ts";
import { proseOf } from "../report/messages/index.ts";
import type { TraceEvent } from "../trace/events.ts";
import type { ObjectReferenceJ } from "./api-types.ts";
import { uuidOf } from "./convert-meta.ts";
import { cap, containerRef, nodeRef, podRef } from "./event-refs.ts";
import { one, type Recorded, type Source } from "./recorded.ts";

export type { Recorded } from "./recorded.ts";

/** The Created/Started messages: PR #73892 (1.15) "Created container X"; PR #130471 (≈1.33) "Created container: X"; PR #134043 (1.35) no name. */
function containerVerb(verb: "Created" | "Started", container: string, version: number): string {
  if (version >= 35) return `${verb} container`;
  if (version >= 33) return `${verb} container: ${container}`;
  return `${verb} container ${container}`;
}

/**
 * A failed probe's output as the prober writes it (pkg/probe/http, tcp, grpc, exec), from what the
 * connection meets at that instant (the model's data plane): a hung process times out, a stopped
 * one refuses; one that answers but fails answers 503 (the model's failing health endpoint, prober.ts).
 */
function probeOutput(ctx: Context, e: Extract<TraceEvent, { type: "ProbeFailed" }>): string {
  const pod = ctx.store.get("Pod", e.object.slice("Pod/".length));
  const container = pod?.spec.containers.find((c) => c.name === e.container);
  const probe = container?.[`${e.probe}Probe` as "livenessProbe"];
  const ip = pod?.status.podIP ?? "";
  const state = pod?.spec.nodeName && ip ? ctx.machines.appState(pod.spec.nodeName, ip) : "absent";
  const timeout = probe?.timeoutSeconds ?? 1;
  if (probe?.httpGet) {
    const port = probe.httpGet.port;
    const url = `${(probe.httpGet.scheme ?? "HTTP").toLowerCase()}://${ip}:${port}${probe.httpGet.path ?? ""}`;
    if (state === "hung")
      return `Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`;
    if (state === "serving") return "HTTP probe failed with statuscode: 503";
    return `Get "${url}": dial tcp ${ip}:${port}: connect: connection refused`;
  }
  if (probe?.tcpSocket) {
    const addr = `${ip}:${probe.tcpSocket.port}`;
    return state === "hung" || state === "serving"
      ? `dial tcp ${addr}: i/o timeout`
      : `dial tcp ${addr}: connect: connection refused`;
  }
  if (probe?.grpc) {
    const addr = `${ip}:${probe.grpc.port}`;
    if (state === "serving") return 'service unhealthy (responded with "NOT_SERVING")';
    return `timeout: failed to connect service "${addr}" within ${timeout}s`;
  }
  if (probe?.exec && state === "hung") return `command "${probe.exec.command.join(" ")}" timed out`;
  // An exec probe's output is what its command printed, which the model does not know.
  return "";
}

const NODE_CONTROLLER: Source = { component: "node-controller" };
/** The cloud controller manager's recorder (k8s.io/cloud-provider node_lifecycle_controller.go Run). */
const CLOUD_NODE_LIFECYCLE: Source = { component: "cloud-node-lifecycle-controller" };

/** The Events one trace event stands for, at the moment it happened (the store as it is then). */
export function recordedFor(ctx: Context, e: TraceEvent): Recorded[] {
  return nodeRecorded(ctx, e) ?? controllerRecorded(ctx, e) ?? kubeletRecorded(ctx, e) ?? [];
}

const kubelet = (host: string | undefined): Source => ({ component: "kubelet", ...(host ? { host } : {}) });

/** RemovingNode (node lifecycle controller), after the cloud's DeletingNode when the cloud deleted it. */
function nodeDeleted(ctx: Context, t: number, name: string, byCloud: boolean): Recorded[] {
  const ref = nodeRef(ctx, name, "controller");
  const removing = one(
    t,
    ref,
    "Normal",
    "RemovingNode",
    `Node ${name} event: Removing Node ${name} from Controller`,
    NODE_CONTROLLER,
  );
  if (!byCloud) return removing;
  // The cloud's controller records DeletingNode before its delete (cloud-provider node_lifecycle_controller.go).
  const reason = `Deleting node ${name} because it does not exist in the cloud provider`;
  return [...one(t, ref, "Normal", "DeletingNode", reason, CLOUD_NODE_LIFECYCLE), ...removing];
}

/** What the node lifecycle controller and a node's kubelet record of the node itself. */
function nodeRecorded(ctx: Context, e: TraceEvent): Recorded[] | undefined {
  const t = e.t;
  const name = e.object.slice(e.object.lastIndexOf("/") + 1);
  switch (e.type) {
    case "NodeNotReady":
      // RecordNodeStatusChange (pkg/controller/util/node/controller_utils.go), node lifecycle controller.
      return one(
        t,
        nodeRef(ctx, name, "controller"),
        "Normal",
        "NodeNotReady",
        `Node ${name} status is now: NodeNotReady`,
        NODE_CONTROLLER,
      );
    case "NodeReady":
    case "KubeletNodeNotReady": {
      // The kubelet's ReadyCondition setter (pkg/kubelet/nodestatus/setters.go) records NodeReady, or
      // NodeNotReady when Ready turns False, as "Node <name> status is now: <reason>".
      const reason = e.type === "NodeReady" ? "NodeReady" : "NodeNotReady";
      return one(
        t,
        nodeRef(ctx, name, "kubelet"),
        "Normal",
        reason,
        `Node ${name} status is now: ${reason}`,
        kubelet(name),
      );
    }
    case "NodeRegistered":
      // The node lifecycle controller records RegisteredNode when it first sees a node (monitorNodeHealth).
      return one(
        t,
        nodeRef(ctx, name, "controller"),
        "Normal",
        "RegisteredNode",
        `Node ${name} event: Registered Node ${name} in Controller`,
        NODE_CONTROLLER,
      );
    case "NodeDeleted":
      return nodeDeleted(ctx, t, name, e.by === "cloud-node-lifecycle-controller");
    case "FaultInjected":
      // A kubelet that starts records "Starting kubelet." (kubelet.go initializeModules).
      if ((e.do === "kubelet-start" || e.do === "power-on") && e.node) {
        return one(
          t,
          nodeRef(ctx, e.node, "kubelet"),
          "Normal",
          "Starting",
          "Starting kubelet.",
          kubelet(e.node),
        );
      }
      return [];
    case "NodeAutoRepair":
      // AKS records NodeRebootStart from the aks-auto-repair source (azure-aks-docs node-auto-repair.md).
      return e.event
        ? one(t, nodeRef(ctx, name, "controller"), "Normal", e.event.reason, e.event.message, {
            component: e.event.source,
          })
        : [];
    default:
      return undefined;
  }
}

/** What the controllers and kube-scheduler record on a pod (evictions, deletes, binding, volumes). */
function controllerRecorded(ctx: Context, e: TraceEvent): Recorded[] | undefined {
  const v = minor(ctx.version);
  const t = e.t;
  const name = e.object.slice(e.object.lastIndexOf("/") + 1);
  const ns = e.object.split("/")[1] ?? "";
  switch (e.type) {
    case "PodNotReady":
      // MarkPodsNotReady (controller_utils.go) records NodeNotReady on each pod it marks.
      if (e.by !== "node-lifecycle-controller") return [];
      return one(t, podRef(ctx, e.object), "Warning", "NodeNotReady", "Node is not ready", NODE_CONTROLLER);
    case "PodEvicted":
      if (e.by === "taint-eviction-controller")
        return taintEviction(ctx, t, e.object, "Marking for deletion", v);
      if (e.by === "replicaset-controller") return replicaSetDelete(ctx, t, ns, e.replicaSet, name);
      // preemption.go PreemptPod: Eventf(victim, preemptor, Normal, "Preempted", "Preempting", …)
      if (e.by === "scheduler") {
        const uid = podRef(ctx, `Pod/${e.preemptor}`)?.uid ?? e.preemptor;
        const message = `Preempted by pod ${uid} on node ${e.node}`;
        return scheduler(podRef(ctx, e.object), t, "Normal", "Preempted", message, "Preempting");
      }
      // `kubectl drain` evicts through the Eviction API, which records no Event.
      return [];
    case "EvictionCancelled":
      return taintEviction(ctx, t, e.object, "Cancelling deletion of", v);
    case "PodDeleted":
      // A ReplicaSet's delete of a pod no node runs removes it at once (no PodEvicted before).
      if (e.by === "replicaset-controller") return replicaSetDelete(ctx, t, ns, e.replicaSet, name);
      return [];
    case "PodCreated":
      return podCreated(ctx, e);
    case "PodScheduled":
      // kube-scheduler records through events.k8s.io/v1 (schedule_one.go): reason Scheduled, action Binding.
      return scheduler(
        podRef(ctx, e.object),
        t,
        "Normal",
        "Scheduled",
        `Successfully assigned ${ns}/${name} to ${e.node}`,
        "Binding",
      );
    case "FailedScheduling":
      return scheduler(
        podRef(ctx, e.object),
        t,
        "Warning",
        "FailedScheduling",
        proseOf(e).message,
        "Scheduling",
      );
    case "VolumeAttached": {
      // The attach/detach controller's reconciler records on each pod that uses the volume.
      const [claimNs = "", podName = ""] = [e.claim.split("/")[0], e.pod.split("/").at(-1)];
      const message = `AttachVolume.Attach succeeded for volume "${volumeOf(ctx, e.claim)}" `;
      return one(
        t,
        podRef(ctx, `Pod/${claimNs}/${podName}`),
        "Normal",
        "SuccessfulAttachVolume",
        message,
        ATTACH_DETACH,
      );
    }
    case "FailedAttachVolume": {
      const volume = volumeOf(ctx, e.claim);
      const message =
        e.prefix === "Waiting for detach"
          ? `Waiting for detach for volume "${volume}" Volume is already exclusively attached to one node, waiting on detach before it can be attached to another node`
          : `Multi-Attach error for volume "${volume}" Volume is already exclusively attached to one node and can't be attached to another`;
      return one(t, podRef(ctx, e.object), "Warning", "FailedAttachVolume", message, ATTACH_DETACH);
    }
    default:
      return undefined;
  }
}

/** What a pod's kubelet records of its containers (starts, kills, probes, back-off). */
function kubeletRecorded(ctx: Context, e: TraceEvent): Recorded[] | undefined {
  const v = minor(ctx.version);
  const t = e.t;
  const name = e.object.slice(e.object.lastIndexOf("/") + 1);
  const ns = e.object.split("/")[1] ?? "";
  switch (e.type) {
    case "ContainerStarted": {
      // startContainer (pkg/kubelet/kuberuntime/kuberuntime_container.go): Created, then Started.
      const ref = containerRef(ctx, e.object, e.container);
      return [
        ...one(t, ref, "Normal", "Created", containerVerb("Created", e.container, v), kubelet(e.node)),
        ...one(t, ref, "Normal", "Started", containerVerb("Started", e.container, v), kubelet(e.node)),
      ];
    }
    case "ContainerKilled": {
      // killContainer: "Container X failed liveness probe, will be restarted" (computePodActions) or "Stopping container X".
      const message = e.probe
        ? `Container ${e.container} failed ${e.probe} probe, will be restarted`
        : `Stopping container ${e.container}`;
      return one(t, containerRef(ctx, e.object, e.container), "Normal", "Killing", message, kubelet(e.node));
    }
    case "ProbeFailed":
      // The prober records Unhealthy on every failed result (pkg/kubelet/prober/prober.go): "<Probe> probe failed: <output>".
      return one(
        t,
        containerRef(ctx, e.object, e.container),
        "Warning",
        "Unhealthy",
        `${cap(e.probe)} probe failed: ${probeOutput(ctx, e)}`,
        kubelet(e.node),
      );
    case "BackOff": {
      // doBackOff (kuberuntime_manager.go): "Back-off restarting failed container X in pod name_namespace(uid)".
      const ref = containerRef(ctx, e.object, e.container);
      const message = `Back-off restarting failed container ${e.container} in pod ${name}_${ns}(${ref?.uid ?? ""})`;
      return one(t, ref, "Warning", "BackOff", message, kubelet(e.node));
    }
    case "NodeShutdownStarted": // the shutdown manager (nodeshutdown_manager_linux.go), kubeletevents.NodeShutdown
      return one(t, nodeRef(ctx, name, "kubelet"), "Normal", "NodeShutdown", SHUTDOWN_SEEN, kubelet(e.node));
    case "PodRejected": // rejectPod (kubelet.go): a Warning with Admit's reason and message
      return one(
        t,
        podRef(ctx, e.object),
        "Warning",
        e.reason,
        e.message.slice(REJECTED.length),
        kubelet(e.node),
      );
    default:
      return undefined;
  }
}

const SHUTDOWN_SEEN = "Shutdown manager detected shutdown event";
const REJECTED = "Pod was rejected: "; // rejectPod's prefix to the status message, not in the Event
const ATTACH_DETACH: Source = { component: "attachdetach-controller" };

/** The served name of a claim's volume (convert.ts: "pvc-" + the claim's UID). */
function volumeOf(ctx: Context, claim: string): string {
  const c = ctx.store.get("PersistentVolumeClaim", claim);
  return `pvc-${uuidOf(c?.metadata.uid ?? `PersistentVolumeClaim/${claim}`)}`;
}

function scheduler(
  involved: ObjectReferenceJ | undefined,
  t: number,
  type: Recorded["type"],
  reason: string,
  message: string,
  action: string,
): Recorded[] {
  return involved
    ? [{ t, involved, type, reason, message, reporting: { controller: "default-scheduler", action } }]
    : [];
}

/**
 * emitPodDeletionEvent / emitCancelPodDeletionEvent (pkg/controller/tainteviction/taint_eviction.go):
 * the reference has no UID. From 1.29 the separate taint-eviction-controller records it; before, the
 * taint manager inside the node lifecycle controller ("taint-controller").
 */
function taintEviction(ctx: Context, t: number, object: string, verb: string, v: number): Recorded[] {
  const [, ns, name] = object.split("/");
  const source = { component: v >= 29 ? "taint-eviction-controller" : "taint-controller" };
  return one(
    t,
    podRef(ctx, object, false),
    "Normal",
    "TaintManagerEviction",
    `${verb} Pod ${ns}/${name}`,
    source,
  );
}

/** manageReplicas' scale-down through RealPodControl.DeletePod: "Deleted pod: X" on the ReplicaSet. */
function replicaSetDelete(ctx: Context, t: number, ns: string, replicaSet: string, pod: string): Recorded[] {
  const rsName = replicaSet.slice(replicaSet.lastIndexOf("/") + 1);
  const rs = ctx.store.get("ReplicaSet", `${ns}/${rsName}`);
  const involved: ObjectReferenceJ = {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    namespace: ns,
    name: rsName,
    ...(rs?.metadata.uid ? { uid: uuidOf(rs.metadata.uid) } : {}),
  };
  return one(t, involved, "Normal", "SuccessfulDelete", `Deleted pod: ${pod}`, {
    component: "replicaset-controller",
  });
}

function podCreated(ctx: Context, e: Extract<TraceEvent, { type: "PodCreated" }>): Recorded[] {
  const [, ns = "", pod = ""] = e.object.split("/");
  const ownerKind =
    e.by === "replicaset-controller"
      ? "ReplicaSet"
      : e.by === "statefulset-controller"
        ? "StatefulSet"
        : e.by === "job-controller"
          ? "Job"
          : "DaemonSet";
  const ownerRef =
    e.by === "replicaset-controller"
      ? e.replicaSet
      : e.by === "statefulset-controller"
        ? e.statefulSet
        : e.by === "job-controller"
          ? e.job
          : e.daemonSet;
  const ownerName = ownerRef.slice(ownerRef.lastIndexOf("/") + 1);
  const owner = ctx.store.get(ownerKind, `${ns}/${ownerName}`);
  const involved: ObjectReferenceJ = {
    apiVersion: ownerKind === "Job" ? "batch/v1" : "apps/v1",
    kind: ownerKind,
    namespace: ns,
    name: ownerName,
    ...(owner?.metadata.uid ? { uid: uuidOf(owner.metadata.uid) } : {}),
  };
  const created = (component: string, message: string) =>
    one(e.t, involved, "Normal", "SuccessfulCreate", message, { component });
  switch (e.by) {
    case "replicaset-controller":
      // manageReplicas (pkg/controller/replicaset/replica_set.go) via RealPodControl: "Created pod: X".
      return created("replicaset-controller", `Created pod: ${pod}`);
    case "daemonset-controller":
      return created("daemonset-controller", `Created pod: ${pod}`);
    // manageJob (pkg/controller/job/job_controller.go) via RealPodControl: "Created pod: X".
    case "job-controller":
      return created("job-controller", `Created pod: ${pod}`);
    case "statefulset-controller":
      // recordPodEvent (pkg/controller/statefulset/stateful_pod_control.go).
      return created("statefulset-controller", `create Pod ${pod} in StatefulSet ${ownerName} successful`);
  }
}
