// The EndpointSlice controller (pkg/controller/endpointslice; conditions from
// staging/src/k8s.io/endpointslice/utils.go): one endpoint per pod that matches a Service's
// selector and has an IP, terminating pods included (KEP-1672); endpoints-updates-batch-period 0,
// so pod changes are reflected at once.

import type { Context } from "../cluster/context.ts";
import { ref } from "../cluster/store.ts";
import { matchesMap } from "../kubernetes/labels.ts";
import type { Endpoint, EndpointSlice, Pod, Service } from "../kubernetes/objects.ts";

export class EndpointSliceController {
  /** The Services selecting each pod (labels do not change here); cleared when Services change. */
  private selecting = new Map<string, Service[]>();
  /** Each slice's endpoints by pod name, so a pod change costs no scan of the slice. */
  private index = new Map<EndpointSlice, Map<string, Endpoint>>();

  constructor(private readonly ctx: Context) {
    ctx.store.watch("Pod", (type, pod) => {
      for (const svc of this.servicesFor(pod)) this.syncEndpoint(svc, pod, type === "DELETED");
      if (type === "DELETED") this.selecting.delete(pod.metadata.uid!);
    });
    ctx.store.watch("Service", () => this.selecting.clear());
  }

  private servicesFor(pod: Pod): Service[] {
    const uid = pod.metadata.uid!;
    let list = this.selecting.get(uid);
    if (!list) {
      list = this.ctx.store
        .list("Service")
        .filter(
          (s) =>
            s.metadata.namespace === pod.metadata.namespace &&
            matchesMap(s.spec.selector, pod.metadata.labels),
        );
      this.selecting.set(uid, list);
    }
    return list;
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
    const key = `${svc.metadata.namespace}/${svc.metadata.name}`;
    let slice = this.ctx.store.get("EndpointSlice", key);
    if (!slice) {
      slice = this.ctx.store.create<EndpointSlice>({
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
    return slice;
  }

  private syncEndpoint(svc: Service, pod: Pod, deleted: boolean): void {
    const slice = this.slice(svc);
    const byPod = this.endpointsByPod(slice);
    const before = byPod.get(pod.metadata.name);
    // A pod object can be replaced by one with the same name (StatefulSet): compare by name, as the slice does.
    const samePod = deleted
      ? !this.ctx.store.get("Pod", `${pod.metadata.namespace}/${pod.metadata.name}`)
      : true;
    const service = `${svc.metadata.namespace}/${svc.metadata.name}`;
    const common = {
      object: ref(pod),
      service,
      ...(pod.spec.nodeName ? { node: pod.spec.nodeName } : {}),
    } as const;
    if (!samePod) return;
    if (deleted || !member(pod)) {
      if (!before) return;
      slice.endpoints.splice(slice.endpoints.indexOf(before), 1);
      byPod.delete(pod.metadata.name);
      this.ctx.store.update(slice);
      if (before.conditions.ready)
        this.ctx.trace.emit({
          type: "EndpointNotReady",
          lane: "network",
          ...common,
          message: `${pod.metadata.name} leaves ${service}'s endpoints`,
          why: "the pod is gone",
        });
      this.ctx.trace.emit({
        type: "EndpointRemoved",
        lane: "network",
        ...common,
        message: `EndpointSlice ${svc.metadata.name} drops ${pod.metadata.name} (${before.addresses[0]})`,
        why: deleted ? "the pod object was removed from the API" : "the pod has no IP or has finished",
      });
      return;
    }
    const after = endpointFor(svc, pod);
    if (before && sameConditions(before, after)) return;
    const wasReady = before?.conditions.ready ?? false;
    if (before) Object.assign(before, after);
    else {
      slice.endpoints.push(after);
      byPod.set(pod.metadata.name, after);
    }
    this.ctx.store.update(slice);
    const c = after.conditions;
    if (c.ready !== wasReady) {
      const see = `$ kubectl get endpointslice -l kubernetes.io/service-name=${svc.metadata.name} -o yaml\n  - addresses: ["${after.addresses[0]}"]\n    conditions: {ready: ${c.ready}, serving: ${c.serving}, terminating: ${c.terminating}}\n    nodeName: ${after.nodeName ?? ""}`;
      this.ctx.trace.emit({
        type: c.ready ? "EndpointReady" : "EndpointNotReady",
        lane: "network",
        ...common,
        message: c.ready
          ? `${pod.metadata.name} (${after.addresses[0]}) is a ready endpoint of ${service}: Services route new requests to it`
          : `${pod.metadata.name} (${after.addresses[0]}) is no longer a ready endpoint of ${service}: new requests stop going to it`,
        why: c.ready
          ? "its pod is Ready and not terminating (ready = serving && !terminating)"
          : c.terminating
            ? "its pod is terminating (deletionTimestamp set): ready is never true for a terminating pod"
            : "its pod's Ready condition is False (serving = Ready)",
        see,
      });
    }
  }
}

/** ShouldPodBeInEndpoints(pod, includeTerminating=true): not terminal, has an IP. */
function member(pod: Pod): boolean {
  return pod.status.phase !== "Succeeded" && pod.status.phase !== "Failed" && pod.status.podIP !== undefined;
}

export function endpointFor(svc: Service, pod: Pod): Endpoint {
  const serving = pod.status.conditions.find((c) => c.type === "Ready")?.status === "True";
  const terminating = pod.metadata.deletionTimestamp !== undefined;
  return {
    addresses: [pod.status.podIP ?? ""],
    conditions: {
      ready: svc.spec.publishNotReadyAddresses === true || (serving && !terminating),
      serving,
      terminating,
    },
    ...(pod.spec.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    targetRef: { kind: "Pod", namespace: pod.metadata.namespace, name: pod.metadata.name },
  };
}

function sameConditions(a: Endpoint, b: Endpoint): boolean {
  return (
    a.conditions.ready === b.conditions.ready &&
    a.conditions.serving === b.conditions.serving &&
    a.conditions.terminating === b.conditions.terminating &&
    a.addresses[0] === b.addresses[0]
  );
}
