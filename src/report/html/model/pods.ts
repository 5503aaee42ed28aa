// Pods, their owners and the Services' ready endpoints, as the result carries them: the state at
// t=0 (`initial`: each pod with its owner, each Service's endpoints) and the run's events (PodCreated
// with its owner, the endpoint events replayed by trace/endpoints.ts). Cached per result.

import type { Scenario } from "../../../scenario/types.ts";
import { endpointChange } from "../../../trace/endpoints.ts";
import type { TraceEvent } from "../../../trace/events.ts";
import { type DeclaredWorkload, workloadsOf } from "../../../trace/workloads.ts";
import type { ReportResult } from "./payload.ts";

export function isPod(object: string): boolean {
  return object.startsWith("Pod/");
}

/** The scenario's workloads (trace/workloads.ts). */
export function workloads(scenario: Scenario): DeclaredWorkload[] {
  return workloadsOf(scenario.manifests);
}

interface Derived {
  owners?: Map<string, string>;
  initialPods?: string[];
  initialReady?: Set<string>;
}
const derived = new WeakMap<object, Derived>();

function cacheOf(result: ReportResult): Derived {
  let d = derived.get(result);
  if (!d) {
    d = {};
    derived.set(result, d);
  }
  return d;
}

/**
 * Every pod of the run (`Pod/<ns>/<name>`) mapped to `Kind/<ns>/<name>` of its workload: the owner
 * the state at t=0 gives each pod there, and PodCreated's for each pod created during the run.
 */
export function podOwners(result: ReportResult): Map<string, string> {
  const cache = cacheOf(result);
  if (cache.owners) return cache.owners;
  const out = new Map<string, string>();
  for (const e of result.events) if (e.type === "PodCreated") out.set(e.object, e.owner);
  const atStart = new Map(result.initial.pods.map((p) => [`Pod/${p.pod}`, p.owner]));
  for (const pod of initialPods(result)) if (!out.has(pod)) out.set(pod, atStart.get(pod)!);
  cache.owners = out;
  return out;
}

/**
 * Pods that existed at t=0 (`Pod/<ns>/<name>`), as the result's `initial` lists them; in the order the
 * run first mentions them (the page's rows), those it never mentions last.
 */
export function initialPods(result: ReportResult): string[] {
  const cache = cacheOf(result);
  if (cache.initialPods) return cache.initialPods;
  const atStart = new Set(result.initial.pods.map((p) => `Pod/${p.pod}`));
  const out: string[] = [];
  const take = (pod: string) => {
    if (!atStart.delete(pod)) return;
    out.push(pod);
  };
  for (const e of result.events) if (isPod(e.object)) take(e.object);
  out.push(...atStart);
  cache.initialPods = out;
  return out;
}

/** Endpoint keys `<ns>/<service>|Pod/<ns>/<pod>` ready just before time t. */
export function readyEndpointsAt(result: ReportResult, t: number): Set<string> {
  const ready = new Set(initialReadyEndpoints(result));
  for (const e of result.events) {
    if (e.t >= t) break;
    applyEndpoint(ready, e);
  }
  return ready;
}

/** Applies one endpoint event to a set of endpoint keys; true when it changed the set. */
export function applyEndpoint(ready: Set<string>, e: TraceEvent): boolean {
  const c = endpointChange(e);
  if (!c) return false;
  const k = `${c.service}|Pod/${c.pod}`;
  if (!c.ready) return ready.delete(k);
  if (ready.has(k)) return false;
  ready.add(k);
  return true;
}

/** Ready endpoint keys at t=0: each Service's EndpointSlice in the result's `initial`. */
export function initialReadyEndpoints(result: ReportResult): Set<string> {
  const cache = cacheOf(result);
  if (cache.initialReady) return cache.initialReady;
  const ready = new Set<string>();
  for (const s of result.initial.endpoints)
    for (const p of s.pods) if (p.ready) ready.add(`${s.service}|Pod/${p.pod}`);
  cache.initialReady = ready;
  return ready;
}
