// Pods, their owners and the Services' ready endpoints, derived from the trace and the manifests (and
// cached per result).

import { matchesMap } from "../../../kubernetes/labels.ts";
import type { KubeObject } from "../../../kubernetes/objects.ts";
import type { Scenario } from "../../../scenario/types.ts";
import type { TraceEvent } from "../../../trace/events.ts";
import type { ReportResult } from "./payload.ts";

export function isPod(object: string): boolean {
  return object.startsWith("Pod/");
}

const WORKLOAD_KINDS = new Set(["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Pod"]);

interface Workload {
  kind: string;
  namespace: string;
  name: string;
  labels: Record<string, string>;
  object: KubeObject;
}

export function workloads(scenario: Scenario): Workload[] {
  const out: Workload[] = [];
  for (const m of scenario.manifests) {
    if (!WORKLOAD_KINDS.has(m.kind)) continue;
    const o = m.object as KubeObject & {
      spec?: { template?: { metadata?: { labels?: Record<string, string> } } };
    };
    const labels = m.kind === "Pod" ? (o.metadata.labels ?? {}) : (o.spec?.template?.metadata?.labels ?? {});
    out.push({
      kind: m.kind,
      namespace: o.metadata.namespace ?? "default",
      name: o.metadata.name,
      labels,
      object: m.object,
    });
  }
  return out;
}

interface Derived {
  scenario: Scenario;
  owners?: Map<string, string>;
  initialPods?: string[];
  initialReady?: Set<string>;
}
const derived = new WeakMap<object, Derived>();

function cacheOf(result: ReportResult, scenario: Scenario): Derived {
  let d = derived.get(result);
  if (!d || d.scenario !== scenario) {
    d = { scenario };
    derived.set(result, d);
  }
  return d;
}

/** Every pod the run mentions (events and final state), mapped to `Kind/<ns>/<name>` of its workload. */
export function podOwners(result: ReportResult, scenario: Scenario): Map<string, string> {
  const cache = cacheOf(result, scenario);
  if (cache.owners) return cache.owners;
  const out = new Map<string, string>();
  for (const e of result.events) if (e.type === "PodCreated") out.set(e.object, e.owner);
  // Generated names: `<deploy>-<hash>-<suffix>`, `<sts>-<i>` or `<ds>-<suffix>`, or the bare Pod's own name.
  const byName = new Map<string, Map<string, Workload>>();
  for (const w of workloads(scenario)) {
    const k = `${w.namespace}/${w.name}`;
    const m = byName.get(k) ?? new Map<string, Workload>();
    m.set(w.kind, w);
    byName.set(k, m);
  }
  const set = (pod: string, w: Workload | undefined): boolean => {
    if (w) out.set(pod, `${w.kind}/${w.namespace}/${w.name}`);
    return w !== undefined;
  };
  const guess = (pod: string) => {
    if (out.has(pod)) return;
    const slash = pod.indexOf("/", 4);
    const ns = pod.slice(4, slash);
    const name = pod.slice(slash + 1);
    const d1 = name.lastIndexOf("-");
    if (d1 > 0) {
      const d2 = name.lastIndexOf("-", d1 - 1);
      if (d2 > 0 && set(pod, byName.get(`${ns}/${name.slice(0, d2)}`)?.get("Deployment"))) return;
      const one = byName.get(`${ns}/${name.slice(0, d1)}`);
      if (one && set(pod, one.get("StatefulSet") ?? one.get("DaemonSet") ?? one.get("ReplicaSet"))) return;
    }
    set(pod, byName.get(`${ns}/${name}`)?.get("Pod"));
  };
  for (const e of result.events) if (isPod(e.object)) guess(e.object);
  for (const p of result.summary.pods) guess(`Pod/${p.pod}`);
  cache.owners = out;
  return out;
}

/** Pods that existed at t=0: all pods, less those created during the run. */
export function initialPods(result: ReportResult, scenario: Scenario): string[] {
  const cache = cacheOf(result, scenario);
  if (cache.initialPods) return cache.initialPods;
  const created = new Set<string>();
  const all: string[] = [];
  const seen = new Set<string>();
  for (const e of result.events) {
    if (!isPod(e.object)) continue;
    if (e.type === "PodCreated" && !seen.has(e.object)) created.add(e.object);
    if (!seen.has(e.object)) {
      seen.add(e.object);
      all.push(e.object);
    }
  }
  for (const p of result.summary.pods) {
    const k = `Pod/${p.pod}`;
    if (!seen.has(k)) {
      seen.add(k);
      all.push(k);
    }
  }
  cache.initialPods = all.filter((p) => !created.has(p));
  return cache.initialPods;
}

/** Endpoint keys `<ns>/<service>|Pod/<ns>/<pod>` ready at time t (inclusive of events at t only if `before` is false). */
export function readyEndpointsAt(result: ReportResult, scenario: Scenario, t: number): Set<string> {
  const ready = new Set(initialReadyEndpoints(result, scenario));
  for (const e of result.events) {
    if (e.t >= t) break;
    applyEndpoint(ready, e);
  }
  return ready;
}

export function applyEndpoint(ready: Set<string>, e: TraceEvent): boolean {
  if (e.type === "EndpointReady") {
    const k = `${e.service}|${e.object}`;
    if (ready.has(k)) return false;
    ready.add(k);
    return true;
  }
  if (e.type === "EndpointNotReady" || e.type === "EndpointRemoved")
    return ready.delete(`${e.service}|${e.object}`);
  return false;
}

/**
 * Ready endpoints at t=0. An endpoint's first event tells its state before (a NotReady means it was
 * ready); endpoints the run never touches keep their state, which the selector and the final
 * readiness give.
 */
export function initialReadyEndpoints(result: ReportResult, scenario: Scenario): Set<string> {
  const cache = cacheOf(result, scenario);
  if (cache.initialReady) return cache.initialReady;
  const ready = new Set<string>();
  const first = new Map<string, string>();
  for (const e of result.events) {
    if (e.type !== "EndpointReady" && e.type !== "EndpointNotReady" && e.type !== "EndpointRemoved") continue;
    const k = `${e.service}|${e.object}`;
    if (!first.has(k)) first.set(k, e.type);
  }
  for (const [k, type] of first) if (type === "EndpointNotReady") ready.add(k);
  const services = scenario.manifests
    .filter((m) => m.kind === "Service")
    .map((m) => {
      const o = m.object as KubeObject & { spec: { selector?: Record<string, string> } };
      return { key: `${o.metadata.namespace ?? "default"}/${o.metadata.name}`, selector: o.spec.selector };
    });
  const owners = podOwners(result, scenario);
  const labelsOf = new Map(workloads(scenario).map((w) => [`${w.kind}/${w.namespace}/${w.name}`, w.labels]));
  const finalReady = new Map(result.summary.pods.map((p) => [`Pod/${p.pod}`, p.ready]));
  const podReadyEvents = new Set<string>();
  for (const e of result.events)
    if (e.type === "PodReady" || e.type === "PodNotReady") podReadyEvents.add(e.object);
  // Which Services select each workload's pods: workloads × Services, not pods × Services.
  const selecting = new Map<string, string[]>();
  for (const [owner, labels] of labelsOf) {
    const ns = owner.split("/")[1];
    selecting.set(
      owner,
      services.filter((s) => s.key.split("/")[0] === ns && matchesMap(s.selector, labels)).map((s) => s.key),
    );
  }
  for (const pod of initialPods(result, scenario)) {
    for (const svc of selecting.get(owners.get(pod) ?? "") ?? []) {
      const k = `${svc}|${pod}`;
      if (first.has(k)) continue;
      // Untouched endpoint: its state never changed, so it is what the pod's readiness was all along.
      if (!podReadyEvents.has(pod) && finalReady.get(pod) === true) ready.add(k);
    }
  }
  cache.initialReady = ready;
  return ready;
}
