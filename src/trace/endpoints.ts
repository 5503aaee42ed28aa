// Each Service's ready endpoints, replayed from the state at t=0 (the result's `initial`, read from the
// EndpointSlices after the warm-up) through the run's endpoint events: EndpointReady adds the pod,
// EndpointNotReady (the pod's Ready condition went False, or it left the slice while ready) and
// EndpointRemoved take it out (the endpointslice controller's events, controllers/endpointslice*).
// One replay for every reader: the page, the audit, `faultline probes`.

import type { TraceEvent } from "./events.ts";
import type { InitialState } from "./result.ts";

/** Per Service `<ns>/<name>`: the pods `<ns>/<name>` whose endpoint is ready. */
export type ReadyEndpoints = Map<string, Set<string>>;

/** Ready endpoints at t=0. */
export function initialReadyEndpoints(initial: InitialState): ReadyEndpoints {
  const out: ReadyEndpoints = new Map();
  for (const s of initial.endpoints)
    out.set(s.service, new Set(s.pods.filter((p) => p.ready).map((p) => p.pod)));
  return out;
}

/** What an endpoint event says: this Service's endpoint for this pod (`<ns>/<name>`) is ready or not. */
export function endpointChange(e: TraceEvent): { service: string; pod: string; ready: boolean } | undefined {
  if (e.type !== "EndpointReady" && e.type !== "EndpointNotReady" && e.type !== "EndpointRemoved")
    return undefined;
  const pod = e.object.startsWith("Pod/") ? e.object.slice(4) : e.object;
  return { service: e.service, pod, ready: e.type === "EndpointReady" };
}

/** Applies one event; true when it changed the Service's ready endpoints. */
export function applyEndpointEvent(ready: ReadyEndpoints, e: TraceEvent): boolean {
  const c = endpointChange(e);
  if (!c) return false;
  const pods = ready.get(c.service);
  if (!c.ready) return pods?.delete(c.pod) ?? false;
  if (!pods) {
    ready.set(c.service, new Set([c.pod]));
    return true;
  }
  if (pods.has(c.pod)) return false;
  pods.add(c.pod);
  return true;
}
