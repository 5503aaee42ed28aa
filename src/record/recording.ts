// A recording: what `faultline record` wrote while it watched a live cluster, as JSON
// lines. The first line is a header, the second the cluster's dump in the `--cluster` format (a
// List, as `kubectl get … -A -o json` prints it), then one line per change a watch delivered, per
// request of the traffic probe, per watch restart, and a last line saying why it ended. Each change
// carries the server's own time where the object has one (a Lease's renewTime, a condition's
// lastTransitionTime, a deletion, an Event's time), the watch's resourceVersion and the local time
// it was received: comparisons read the server's times, the local one only where nothing else says.

/** The kinds the recorder watches, each as the API serves its list and watch (read verbs only). */
export const WATCHED = [
  { resource: "nodes", kind: "Node", path: "/api/v1/nodes" },
  {
    resource: "leases",
    kind: "Lease",
    path: "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases",
  },
  { resource: "pods", kind: "Pod", path: "/api/v1/pods" },
  { resource: "endpointslices", kind: "EndpointSlice", path: "/apis/discovery.k8s.io/v1/endpointslices" },
  { resource: "persistentvolumes", kind: "PersistentVolume", path: "/api/v1/persistentvolumes" },
  {
    resource: "volumeattachments",
    kind: "VolumeAttachment",
    path: "/apis/storage.k8s.io/v1/volumeattachments",
  },
  { resource: "events", kind: "Event", path: "/api/v1/events" },
] as const;

/**
 * Listed once more for the dump only (what the models start from, as the README's
 * `kubectl get … -A -o json` names them): never watched.
 */
export const DUMPED = [
  { resource: "deployments", kind: "Deployment", path: "/apis/apps/v1/deployments" },
  { resource: "replicasets", kind: "ReplicaSet", path: "/apis/apps/v1/replicasets" },
  { resource: "statefulsets", kind: "StatefulSet", path: "/apis/apps/v1/statefulsets" },
  { resource: "daemonsets", kind: "DaemonSet", path: "/apis/apps/v1/daemonsets" },
  { resource: "services", kind: "Service", path: "/api/v1/services" },
  {
    resource: "poddisruptionbudgets",
    kind: "PodDisruptionBudget",
    path: "/apis/policy/v1/poddisruptionbudgets",
  },
  {
    resource: "persistentvolumeclaims",
    kind: "PersistentVolumeClaim",
    path: "/api/v1/persistentvolumeclaims",
  },
  { resource: "storageclasses", kind: "StorageClass", path: "/apis/storage.k8s.io/v1/storageclasses" },
] as const;

export type WatchedResource = (typeof WATCHED)[number]["resource"];

export const RECORDING_VERSION = 1;

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    deletionGracePeriodSeconds?: number;
    ownerReferences?: { kind?: string; name?: string; uid?: string }[];
    annotations?: Record<string, string>;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

export type RecordLine =
  | {
      kind: "header";
      version: number;
      /** the kubeconfig context, or "in-cluster" */
      context: string;
      server: string;
      /** local wall time the recording started (RFC 3339 with milliseconds) */
      startedAt: string;
      watched: string[];
      /** kinds the server answered 404 for: neither dumped nor watched */
      notServed?: string[];
      probe?: { url: string; rate: number; clients: number };
      redacted?: boolean;
    }
  | { kind: "dump"; list: { apiVersion: "v1"; kind: "List"; items: KubeObject[] } }
  | {
      kind: "change";
      resource: WatchedResource;
      /** ADDED, MODIFIED, DELETED (BOOKMARK and ERROR are not changes) */
      type: string;
      /** the object's metadata.resourceVersion as the watch delivered it */
      rv: string;
      /** the server's own time of this change, where the object has one (see serverTime) */
      serverTime?: string;
      /** what serverTime is */
      serverTimeFrom?: string;
      /** local wall time the event was received */
      receivedAt: string;
      object: KubeObject;
    }
  | {
      kind: "watch";
      resource: WatchedResource;
      what: "restarted" | "relisted" | "error";
      at: string;
      detail?: string;
    }
  | {
      kind: "request";
      client: number;
      /** local wall time the request was sent */
      sentAt: string;
      /** "ok" (a 2xx or 3xx), "http 503", "error ECONNREFUSED", "timeout" */
      outcome: string;
      latencyMs: number;
    }
  | { kind: "end"; at: string; reason: "duration" | "size" | "signal" | "error"; detail?: string };

type Cond = { type?: string; status?: string; lastTransitionTime?: string; lastHeartbeatTime?: string };

/** The newest of the given RFC 3339 times (they compare as strings when all are UTC "Z" times). */
function newest(times: (string | undefined)[]): string | undefined {
  let best: string | undefined;
  for (const t of times)
    if (t !== undefined && (best === undefined || Date.parse(t) > Date.parse(best))) best = t;
  return best;
}

/**
 * The server's own time of a change, and which field says it:
 * - Lease: spec.renewTime (metav1.MicroTime the kubelet writes at each renewal,
 *   k8s.io/component-helpers/apimachinery/lease controller.go newLease);
 * - an object being deleted: metadata.deletionTimestamp (the API server sets it to the time of the
 *   DELETE plus the grace period: staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go
 *   BeforeDelete; compare reads it back less deletionGracePeriodSeconds);
 * - Node and Pod: the newest condition lastTransitionTime, or a NoExecute taint's timeAdded (set by
 *   the API server, pkg/registry/core/node/strategy.go), whichever is newer;
 * - Event: eventTime, else lastTimestamp, else firstTimestamp;
 * - EndpointSlice: the endpoints.kubernetes.io/last-change-trigger-time annotation (the time of the
 *   pod change that triggered it, pkg/controller/util/endpoint trigger_time_tracker.go);
 * - anything else: its creationTimestamp on ADDED, nothing after.
 */
export function serverTime(
  resource: WatchedResource,
  type: string,
  o: KubeObject,
): { time: string; from: string } | undefined {
  const m = o.metadata ?? {};
  if (resource === "leases") {
    const t = (o.spec as { renewTime?: string } | undefined)?.renewTime;
    return t ? { time: t, from: "spec.renewTime" } : undefined;
  }
  if (m.deletionTimestamp) return { time: m.deletionTimestamp, from: "metadata.deletionTimestamp" };
  if (resource === "events") {
    const e = o as { eventTime?: string; lastTimestamp?: string; firstTimestamp?: string };
    const t = e.eventTime ?? e.lastTimestamp ?? e.firstTimestamp;
    return t
      ? { time: t, from: e.eventTime ? "eventTime" : e.lastTimestamp ? "lastTimestamp" : "firstTimestamp" }
      : undefined;
  }
  if (resource === "nodes" || resource === "pods") {
    const conds = ((o.status as { conditions?: Cond[] } | undefined)?.conditions ?? []).map(
      (c) => c.lastTransitionTime,
    );
    const taints = ((o.spec as { taints?: { timeAdded?: string }[] } | undefined)?.taints ?? []).map(
      (t) => t.timeAdded,
    );
    const t = newest([...conds, ...taints]);
    return t
      ? { time: t, from: "status.conditions[].lastTransitionTime / spec.taints[].timeAdded" }
      : undefined;
  }
  if (resource === "endpointslices") {
    const t = m.annotations?.["endpoints.kubernetes.io/last-change-trigger-time"];
    if (t) return { time: t, from: "endpoints.kubernetes.io/last-change-trigger-time" };
  }
  if (type === "ADDED" && m.creationTimestamp)
    return { time: m.creationTimestamp, from: "metadata.creationTimestamp" };
  return undefined;
}

/** The change line for one watch event. */
export function changeLine(
  resource: WatchedResource,
  type: string,
  object: KubeObject,
  receivedAt: string,
): RecordLine {
  const st = serverTime(resource, type, object);
  return {
    kind: "change",
    resource,
    type,
    rv: object.metadata?.resourceVersion ?? "",
    ...(st ? { serverTime: st.time, serverTimeFrom: st.from } : {}),
    receivedAt,
    object,
  };
}
