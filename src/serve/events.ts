// The timeline's events as the Events a real cluster records, with Kubernetes' own reasons,
// messages and sources (each cites the component that records it). Only what a Kubernetes
// component would record becomes an Event: a taint, a zone state, an endpoint change or a fault
// has none (event-objects.ts writes the Event objects and merges repeats). Words come from the event's fields; where a field is missing (FailedScheduling's diagnosis), from
// proseOf(e).

import type { Context } from "../cluster/context.ts";
import { minor } from "../kubernetes/defaults.ts";
import { proseOf } from "../report/messages/index.ts";
import type { TraceEvent } from "../trace/events.ts";
import type { ObjectReferenceJ } from "./api-types.ts";
import { uuidOf } from "./convert-meta.ts";

/** One recording of an event by a component, before merging. */
export interface Recorded {
  t: number;
  involved: ObjectReferenceJ;
  type: "Normal" | "Warning";
  reason: string;
  message: string;
  /** core/v1 recorder (client-go tools/record): source component and host */
  source?: { component: string; host?: string };
  /** events.k8s.io/v1 recorder (client-go tools/events), used by kube-scheduler */
  reporting?: { controller: string; action: string };
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function podRef(ctx: Context, object: string, withUid = true): ObjectReferenceJ | undefined {
  const [, namespace, name] = object.split("/") as [string, string, string];
  const pod = ctx.store.get("Pod", `${namespace}/${name}`);
  return {
    apiVersion: "v1",
    kind: "Pod",
    namespace,
    name,
    ...(withUid && pod?.metadata.uid ? { uid: uuidOf(pod.metadata.uid) } : {}),
  };
}

function containerRef(ctx: Context, object: string, container: string): ObjectReferenceJ | undefined {
  const ref = podRef(ctx, object);
  const pod = ctx.store.get("Pod", object.slice("Pod/".length));
  const i = pod?.spec.containers.findIndex((c) => c.name === container) ?? -1;
  // kubecontainer.GenerateContainerRef: the field path of the container in the spec.
  return (
    ref && {
      ...ref,
      fieldPath: i >= 0 ? `spec.containers{${container}}` : `spec.initContainers{${container}}`,
    }
  );
}

/** The node lifecycle controller names the Node with its UID; the kubelet with the node's name as UID (kubelet.go nodeRef). */
function nodeRef(ctx: Context, name: string, by: "controller" | "kubelet"): ObjectReferenceJ {
  const node = ctx.store.get("Node", name);
  const uid = by === "kubelet" ? name : node?.metadata.uid ? uuidOf(node.metadata.uid) : name;
  return { apiVersion: "v1", kind: "Node", name, uid };
}

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

/** The Events one trace event stands for, at the moment it happened (the store as it is then). */
export function recordedFor(ctx: Context, e: TraceEvent): Recorded[] {
  const v = minor(ctx.version);
  const t = e.t;
  const kubelet = (host: string | undefined) => ({ component: "kubelet", ...(host ? { host } : {}) });
  switch (e.type) {
    case "NodeNotReady": {
      // RecordNodeStatusChange (pkg/controller/util/node/controller_utils.go), node lifecycle controller.
      const name = e.object.slice("Node/".length);
      return [
        {
          t,
          involved: nodeRef(ctx, name, "controller"),
          type: "Normal",
          reason: "NodeNotReady",
          message: `Node ${name} status is now: NodeNotReady`,
          source: { component: "node-controller" },
        },
      ];
    }
    case "NodeReady": {
      // The kubelet's ReadyCondition setter (pkg/kubelet/nodestatus/setters.go) records NodeReady.
      const name = e.object.slice("Node/".length);
      return [
        {
          t,
          involved: nodeRef(ctx, name, "kubelet"),
          type: "Normal",
          reason: "NodeReady",
          message: `Node ${name} status is now: NodeReady`,
          source: kubelet(name),
        },
      ];
    }
    case "NodeRegistered": {
      // The node lifecycle controller records RegisteredNode when it first sees a node (monitorNodeHealth).
      const name = e.object.slice("Node/".length);
      return [
        {
          t,
          involved: nodeRef(ctx, name, "controller"),
          type: "Normal",
          reason: "RegisteredNode",
          message: `Node ${name} event: Registered Node ${name} in Controller`,
          source: { component: "node-controller" },
        },
      ];
    }
    case "NodeDeleted": {
      const name = e.object.slice("Node/".length);
      return [
        {
          t,
          involved: nodeRef(ctx, name, "controller"),
          type: "Normal",
          reason: "RemovingNode",
          message: `Node ${name} event: Removing Node ${name} from Controller`,
          source: { component: "node-controller" },
        },
      ];
    }
    case "PodNotReady": {
      // MarkPodsNotReady (controller_utils.go) records NodeNotReady on each pod it marks.
      // Until the node lifecycle controller's events say `by`, its lane tells it from the kubelet's.
      if (e.by !== "node-lifecycle-controller" && !(e.by === undefined && e.lane === "control-plane"))
        return [];
      const ref = podRef(ctx, e.object);
      return ref
        ? [
            {
              t,
              involved: ref,
              type: "Warning",
              reason: "NodeNotReady",
              message: "Node is not ready",
              source: { component: "node-controller" },
            },
          ]
        : [];
    }
    case "PodEvicted":
    case "EvictionCancelled": {
      // emitPodDeletionEvent / emitCancelPodDeletionEvent (pkg/controller/tainteviction/taint_eviction.go):
      // the reference has no UID. From 1.29 the separate taint-eviction-controller records it; before, the
      // taint manager inside the node lifecycle controller ("taint-controller").
      if (e.type === "PodEvicted" && e.reason !== "DeletionByTaintManager") return [];
      const ref = podRef(ctx, e.object, false);
      const [, ns, name] = e.object.split("/");
      const message =
        e.type === "PodEvicted"
          ? `Marking for deletion Pod ${ns}/${name}`
          : `Cancelling deletion of Pod ${ns}/${name}`;
      const component = v >= 29 ? "taint-eviction-controller" : "taint-controller";
      return ref
        ? [
            {
              t,
              involved: ref,
              type: "Normal",
              reason: "TaintManagerEviction",
              message,
              source: { component },
            },
          ]
        : [];
    }
    case "PodCreated":
      return podCreated(ctx, e);
    case "PodScheduled": {
      // kube-scheduler records through events.k8s.io/v1 (schedule_one.go): reason Scheduled, action Binding.
      const ref = podRef(ctx, e.object);
      const [, ns, name] = e.object.split("/");
      return ref
        ? [
            {
              t,
              involved: ref,
              type: "Normal",
              reason: "Scheduled",
              message: `Successfully assigned ${ns}/${name} to ${e.node}`,
              reporting: { controller: "default-scheduler", action: "Binding" },
            },
          ]
        : [];
    }
    case "FailedScheduling": {
      const ref = podRef(ctx, e.object);
      return ref
        ? [
            {
              t,
              involved: ref,
              type: "Warning",
              reason: "FailedScheduling",
              message: proseOf(e).message,
              reporting: { controller: "default-scheduler", action: "Scheduling" },
            },
          ]
        : [];
    }
    case "ContainerStarted": {
      // startContainer (pkg/kubelet/kuberuntime/kuberuntime_container.go): Created, then Started.
      const ref = containerRef(ctx, e.object, e.container);
      if (!ref) return [];
      return [
        {
          t,
          involved: ref,
          type: "Normal",
          reason: "Created",
          message: containerVerb("Created", e.container, v),
          source: kubelet(e.node),
        },
        {
          t,
          involved: ref,
          type: "Normal",
          reason: "Started",
          message: containerVerb("Started", e.container, v),
          source: kubelet(e.node),
        },
      ];
    }
    case "ContainerKilled": {
      // killContainer: "Container X failed liveness probe, will be restarted" (computePodActions) or "Stopping container X".
      const ref = containerRef(ctx, e.object, e.container);
      if (!ref) return [];
      const message = e.probe
        ? `Container ${e.container} failed ${e.probe} probe, will be restarted`
        : `Stopping container ${e.container}`;
      return [{ t, involved: ref, type: "Normal", reason: "Killing", message, source: kubelet(e.node) }];
    }
    case "ProbeFailed": {
      // The prober records Unhealthy on every failed result (pkg/kubelet/prober/prober.go): "<Probe> probe failed: <output>".
      const ref = containerRef(ctx, e.object, e.container);
      if (!ref) return [];
      return [
        {
          t,
          involved: ref,
          type: "Warning",
          reason: "Unhealthy",
          message: `${cap(e.probe)} probe failed: ${probeOutput(ctx, e)}`,
          source: kubelet(e.node),
        },
      ];
    }
    case "BackOff": {
      // doBackOff (kuberuntime_manager.go): "Back-off restarting failed container X in pod name_namespace(uid)".
      const ref = containerRef(ctx, e.object, e.container);
      if (!ref) return [];
      const [, ns, name] = e.object.split("/");
      return [
        {
          t,
          involved: ref,
          type: "Warning",
          reason: "BackOff",
          message: `Back-off restarting failed container ${e.container} in pod ${name}_${ns}(${ref.uid ?? ""})`,
          source: kubelet(e.node),
        },
      ];
    }
    case "VolumeAttached":
      return volumeEvents(ctx, e);
    case "FailedAttachVolume":
      return volumeEvents(ctx, e);
    case "FaultInjected": {
      // A kubelet that starts records "Starting kubelet." (kubelet.go initializeModules).
      if ((e.do === "kubelet-start" || e.do === "power-on") && e.node) {
        return [
          {
            t,
            involved: nodeRef(ctx, e.node, "kubelet"),
            type: "Normal",
            reason: "Starting",
            message: "Starting kubelet.",
            source: kubelet(e.node),
          },
        ];
      }
      return [];
    }
    default:
      return [];
  }
}

function podCreated(ctx: Context, e: Extract<TraceEvent, { type: "PodCreated" }>): Recorded[] {
  const pod = ctx.store.get("Pod", e.object.slice("Pod/".length));
  const owner = pod?.metadata.ownerReferences?.find((o) => o.controller !== false);
  if (!pod || !owner) return [];
  const ns = pod.metadata.namespace;
  const ownerObj = ctx.store.get(owner.kind as "ReplicaSet", `${ns}/${owner.name}`);
  const involved: ObjectReferenceJ = {
    apiVersion: "apps/v1",
    kind: owner.kind,
    namespace: ns,
    name: owner.name,
    ...(ownerObj?.metadata.uid ? { uid: uuidOf(ownerObj.metadata.uid) } : {}),
  };
  const created = (component: string, message: string): Recorded[] => [
    { t: e.t, involved, type: "Normal", reason: "SuccessfulCreate", message, source: { component } },
  ];
  switch (owner.kind) {
    case "ReplicaSet":
      // manageReplicas (pkg/controller/replicaset/replica_set.go) via RealPodControl: "Created pod: X".
      return created("replicaset-controller", `Created pod: ${pod.metadata.name}`);
    case "DaemonSet":
      return created("daemonset-controller", `Created pod: ${pod.metadata.name}`);
    case "StatefulSet":
      // recordPodEvent (pkg/controller/statefulset/stateful_pod_control.go).
      return created(
        "statefulset-controller",
        `create Pod ${pod.metadata.name} in StatefulSet ${owner.name} successful`,
      );
    default:
      return [];
  }
}

/**
 * The attach/detach controller's events on the pods that use a volume (pkg/controller/volume/attachdetach/reconciler):
 * SuccessfulAttachVolume, and FailedAttachVolume while a ReadWriteOnce volume is attached elsewhere
 * (Multi-Attach error; from 1.37 "Waiting for detach", as the model's controller words it).
 */
function volumeEvents(
  ctx: Context,
  e: Extract<TraceEvent, { type: "VolumeAttached" | "FailedAttachVolume" }>,
): Recorded[] {
  const source = { component: "attachdetach-controller" };
  const claimVolume = (ns: string, claimName: string) => {
    const claim = ctx.store.get("PersistentVolumeClaim", `${ns}/${claimName}`);
    return `pvc-${uuidOf(claim?.metadata.uid ?? `PersistentVolumeClaim/${ns}/${claimName}`)}`;
  };
  if (e.type === "FailedAttachVolume") {
    const pod = ctx.store.get("Pod", e.object.slice("Pod/".length));
    const claimName = pod?.spec.volumes?.find((v) => v.persistentVolumeClaim)?.persistentVolumeClaim
      ?.claimName;
    const ref = podRef(ctx, e.object);
    if (!pod || !claimName || !ref) return [];
    const volume = claimVolume(pod.metadata.namespace, claimName);
    const message =
      minor(ctx.version) >= 37
        ? `Waiting for detach for volume "${volume}" Volume is already exclusively attached to one node, waiting on detach before it can be attached to another node`
        : `Multi-Attach error for volume "${volume}" Volume is already exclusively attached to one node and can't be attached to another`;
    return [{ t: e.t, involved: ref, type: "Warning", reason: "FailedAttachVolume", message, source }];
  }
  const [, ns, claimName] = e.object.split("/") as [string, string, string];
  const volume = claimVolume(ns, claimName);
  const out: Recorded[] = [];
  for (const pod of ctx.store.podsOnNode(e.node ?? "")) {
    if (
      !pod.spec.volumes?.some((v) => v.persistentVolumeClaim?.claimName === claimName) ||
      pod.metadata.namespace !== ns
    )
      continue;
    const ref = podRef(ctx, `Pod/${ns}/${pod.metadata.name}`);
    if (ref)
      out.push({
        t: e.t,
        involved: ref,
        type: "Normal",
        reason: "SuccessfulAttachVolume",
        message: `AttachVolume.Attach succeeded for volume "${volume}" `,
        source,
      });
  }
  return out;
}
