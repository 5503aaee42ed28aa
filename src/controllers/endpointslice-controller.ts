// The EndpointSlice controller (pkg/controller/endpointslice; conditions from
// staging/src/k8s.io/endpointslice/utils.go): one endpoint per pod that matches a Service's
// selector and has an IP, terminating pods included (KEP-1672); endpoints-updates-batch-period 0,
// so pod changes are reflected at once. A Service with `trafficDistribution` gets its ready
// endpoints' hints (staging/src/k8s.io/endpointslice/trafficdist/trafficdist.go preferCloseHeuristic):
// `forZones` the endpoint's zone (podToEndpoint's `zone`, the node's topology.kubernetes.io/zone),
// and for PreferSameNode also `forNodes` its node. The controller leaves an endpoint that is not
// ready with the hints it had; kube-proxy reads hints only on ready endpoints (pkg/proxy/topology.go),
// so here one that is not ready has none. `zone` is written only for such Services (no other model
// reads it).

import type { Cluster } from "../cluster/context.ts";
import { ref } from "../cluster/store.ts";
import { LABEL_ZONE, matchesMap } from "../kubernetes/labels.ts";
import type { Endpoint, EndpointSlice, Pod, Service } from "../kubernetes/objects.ts";
import type { EndpointView } from "../trace/control-plane-events.ts";

export class EndpointSliceController {
  /**
   * The Services selecting the pods of each labels object (labels do not change here), with the
   * namespace they were found for: the pods of one template share theirs (pod-template.ts), so one
   * entry serves them all. Cleared when Services change.
   */
  private selecting = new WeakMap<
    Record<string, string>,
    { namespace: string | undefined; list: Service[] }
  >();
  /** The same by namespace and labels (in their order): pods with labels of their own, equal ones. */
  private byLabels = new Map<string, Service[]>();
  /** Each Service's slice, found or created once (slices are never deleted). */
  private slices = new Map<Service, EndpointSlice>();
  /** Each slice's endpoints by pod name, so a pod change costs no scan of the slice. */
  private index = new Map<EndpointSlice, Map<string, Endpoint>>();

  constructor(private readonly cluster: Cluster) {
    cluster.store.watch("Pod", (type, pod) => {
      for (const svc of this.servicesFor(pod)) this.syncEndpoint(svc, pod, type === "DELETED");
    });
    cluster.store.watch("Service", () => {
      this.selecting = new WeakMap();
      this.byLabels.clear();
    });
  }

  /** The node's topology.kubernetes.io/zone (podToEndpoint, endpointslice/utils.go). */
  private zoneOf(node: string): string | undefined {
    return this.cluster.store.get("Node", node)?.metadata.labels?.[LABEL_ZONE];
  }

  private servicesFor(pod: Pod): Service[] {
    const labels = pod.metadata.labels ?? NO_LABELS;
    const namespace = pod.metadata.namespace;
    const cached = this.selecting.get(labels);
    if (cached?.namespace === namespace) return cached.list;
    let same = `${namespace}\n`;
    for (const k in labels) same += `${k}=${labels[k]}\n`;
    let list = this.byLabels.get(same);
    if (!list) {
      list = this.cluster.store
        .list("Service")
        .filter(
          (s) => s.metadata.namespace === namespace && matchesMap(s.spec.selector, pod.metadata.labels),
        );
      this.byLabels.set(same, list);
    }
    this.selecting.set(labels, { namespace, list });
    return list;
  }

  /**
   * Pods that started together without a write each (the warm-up's bulk start, kubelet/bulk-start.ts),
   * in start order: what their watch events would have done, each slice written once.
   */
  podsStarted(pods: readonly Pod[]): void {
    const written = new Set<EndpointSlice>();
    for (const pod of pods)
      for (const svc of this.servicesFor(pod)) this.syncEndpoint(svc, pod, false, written);
    for (const slice of written) this.cluster.store.update(slice);
  }

  private endpointsByPod(slice: EndpointSlice): Map<string, Endpoint> {
    let m = this.index.get(slice);
    if (!m) {
      m = new Map(slice.endpoints.map((e) => [e.targetRef.name, e]));
      this.index.set(slice, m);
    }
    return m;
  }

  /** The slice for a Service, created on first use. */
  slice(svc: Service): EndpointSlice {
    let slice = this.slices.get(svc);
    if (slice) return slice;
    const key = `${svc.metadata.namespace}/${svc.metadata.name}`;
    slice = this.cluster.store.get("EndpointSlice", key);
    if (!slice) {
      slice = this.cluster.store.create<EndpointSlice>({
        kind: "EndpointSlice",
        metadata: {
          name: svc.metadata.name,
          namespace: svc.metadata.namespace,
          labels: { "kubernetes.io/service-name": svc.metadata.name },
        },
        service: key,
        endpoints: [],
      });
    }
    this.slices.set(svc, slice);
    return slice;
  }

  /** `written`: the slices changed, to be written by the caller (else each change is written at once). */
  private syncEndpoint(svc: Service, pod: Pod, deleted: boolean, written?: Set<EndpointSlice>): void {
    const slice = this.slice(svc);
    const byPod = this.endpointsByPod(slice);
    const before = byPod.get(pod.metadata.name);
    // A pod object can be replaced by one with the same name (StatefulSet): compare by name, as the slice does.
    const samePod = deleted
      ? !this.cluster.store.get("Pod", `${pod.metadata.namespace}/${pod.metadata.name}`)
      : true;
    if (!samePod) return;
    const isMember = !deleted && member(pod);
    // Most pod writes leave its endpoint as it is: compared before anything is built.
    if (before && isMember && unchanged(before, svc, pod)) return;
    const write = (s: EndpointSlice) => (written ? written.add(s) : this.cluster.store.update(s));
    if (!isMember) {
      if (!before) return;
      const common = eventFields(svc, pod);
      slice.endpoints.splice(slice.endpoints.indexOf(before), 1);
      byPod.delete(pod.metadata.name);
      write(slice);
      if (this.cluster.trace.muted) return;
      if (before.conditions.ready)
        this.cluster.trace.emit({
          type: "EndpointNotReady",
          lane: "network",
          ...common,
          endpoint: endpointView(before),
          removed: true,
        });
      this.cluster.trace.emit({
        type: "EndpointRemoved",
        lane: "network",
        ...common,
        address: before.addresses[0] ?? "",
        podDeleted: deleted,
      });
      return;
    }
    const after = endpointFor(svc, pod, (node) => this.zoneOf(node));
    const wasReady = before?.conditions.ready ?? false;
    if (before) {
      delete before.hints;
      Object.assign(before, after);
    } else {
      slice.endpoints.push(after);
      byPod.set(pod.metadata.name, after);
    }
    write(slice);
    if (after.conditions.ready === wasReady || this.cluster.trace.muted) return;
    const common = eventFields(svc, pod);
    const endpoint = endpointView(after);
    if (after.conditions.ready)
      this.cluster.trace.emit({ type: "EndpointReady", lane: "network", ...common, endpoint });
    else
      this.cluster.trace.emit({
        type: "EndpointNotReady",
        lane: "network",
        ...common,
        endpoint,
        removed: false,
      });
  }
}

/** ShouldPodBeInEndpoints(pod, includeTerminating=true): not terminal, has an IP. */
function member(pod: Pod): boolean {
  return pod.status.phase !== "Succeeded" && pod.status.phase !== "Failed" && pod.status.podIP !== undefined;
}

function endpointFor(svc: Service, pod: Pod, zoneOf: (node: string) => string | undefined): Endpoint {
  const serving = servingOf(pod);
  const terminating = pod.metadata.deletionTimestamp !== undefined;
  const ready = readyOf(svc, serving, terminating);
  const node = pod.spec.nodeName;
  const td = svc.spec.trafficDistribution;
  const zone = td && node ? zoneOf(node) : undefined;
  const endpoint: Endpoint = {
    addresses: [pod.status.podIP ?? ""],
    conditions: conditionsOf(ready, serving, terminating),
    ...(node ? { nodeName: node } : {}),
    ...(zone ? { zone } : {}),
    targetRef: { kind: "Pod", namespace: pod.metadata.namespace, name: pod.metadata.name },
  };
  if (td && ready) {
    // preferCloseHeuristic.update: a zone hint when the endpoint has a zone, a node hint for
    // PreferSameNode when it has a node; neither: no hints.
    const forNodes = td === "PreferSameNode" && node ? [{ name: node }] : undefined;
    const forZones = zone ? [{ name: zone }] : undefined;
    if (forZones || forNodes)
      endpoint.hints = { ...(forZones ? { forZones } : {}), ...(forNodes ? { forNodes } : {}) };
  }
  return endpoint;
}

/**
 * An endpoint's conditions: one of eight frozen objects, shared by every endpoint with the same
 * three values instead of one object per pod (48 bytes each). An endpoint's update replaces its
 * conditions (Object.assign of the new endpoint), never writes them in place.
 */
function conditionsOf(ready: boolean, serving: boolean, terminating: boolean): Endpoint["conditions"] {
  return CONDITIONS[(ready ? 4 : 0) + (serving ? 2 : 0) + (terminating ? 1 : 0)]!;
}

const CONDITIONS: readonly Endpoint["conditions"][] = Array.from({ length: 8 }, (_, i) =>
  Object.freeze({ ready: (i & 4) !== 0, serving: (i & 2) !== 0, terminating: (i & 1) !== 0 }),
);

/** The fields every endpoint event of this pod and Service starts with. */
function eventFields(svc: Service, pod: Pod) {
  return {
    object: ref(pod),
    service: `${svc.metadata.namespace}/${svc.metadata.name}`,
    ...(pod.spec.nodeName ? { node: pod.spec.nodeName } : {}),
  } as const;
}

function endpointView(e: Endpoint): EndpointView {
  return {
    address: e.addresses[0] ?? "",
    ready: e.conditions.ready,
    serving: e.conditions.serving,
    terminating: e.conditions.terminating,
    ...(e.nodeName ? { nodeName: e.nodeName } : {}),
  };
}

const NO_LABELS: Record<string, string> = {};

/** An endpoint's serving condition: the pod's Ready condition is True (podutil.IsPodReady). */
function servingOf(pod: Pod): boolean {
  return pod.status.conditions.find((c) => c.type === "Ready")?.status === "True";
}

/** An endpoint's ready condition (podToEndpoint, endpointslice/utils.go): serving and not terminating, or publishNotReadyAddresses. */
function readyOf(svc: Service, serving: boolean, terminating: boolean): boolean {
  return svc.spec.publishNotReadyAddresses === true || (serving && !terminating);
}

/** Whether the endpoint is the one endpointFor(svc, pod) would build now (conditions and address). */
function unchanged(e: Endpoint, svc: Service, pod: Pod): boolean {
  const serving = servingOf(pod);
  const terminating = pod.metadata.deletionTimestamp !== undefined;
  return (
    e.conditions.ready === readyOf(svc, serving, terminating) &&
    e.conditions.serving === serving &&
    e.conditions.terminating === terminating &&
    e.addresses[0] === (pod.status.podIP ?? "")
  );
}
