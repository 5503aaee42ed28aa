// The player's steps and the per-second series (ready endpoints, pods by phase), from the trace.

import type { Scenario } from "../../../scenario/types.ts";
import { shownEventIndexes, visibleEventIndexes } from "../../../trace/visible.ts";
import type { ReportResult } from "./payload.ts";
import { applyEndpoint, initialPods, initialReadyEndpoints, isPod } from "./pods.ts";

export interface Step {
  t: number;
  /** indexes into result.events */
  events: number[];
}

/** Re-exported: the page and the text timeline show the same events. */
export { visibleEventIndexes };

export function steps(result: ReportResult): Step[] {
  const out: Step[] = [];
  for (const i of shownEventIndexes(result.events, result.summary.duration, false, !!result.leases)) {
    const e = result.events[i]!;
    const last = out[out.length - 1];
    if (last && last.t === e.t) last.events.push(i);
    else out.push({ t: e.t, events: [i] });
  }
  return out;
}

export const PHASES = ["Pending", "Running, not ready", "Running, ready", "Terminating"] as const;
export type Phase = (typeof PHASES)[number];

export interface Series {
  /** seconds 0…duration */
  t: number[];
  readyEndpoints: number[];
  /** one array per PHASES entry */
  phases: number[][];
}

/** Sampled at the end of each second (state after every event up to and including t). */
export function clusterSeries(result: ReportResult, _scenario?: Scenario): Series {
  const duration = Math.ceil(result.summary.duration);
  const n = duration + 1;
  const t = Array.from({ length: n }, (_, i) => i);
  const readyEndpoints = new Array<number>(n).fill(0);
  const phases = PHASES.map(() => new Array<number>(n).fill(0));

  const ready = new Set(initialReadyEndpoints(result));
  const state = new Map<string, number>();
  const count = [0, 0, 0, 0];
  const firstReadiness = new Map<string, string>();
  const firstAny = new Map<string, string>();
  for (const e of result.events) {
    if (!isPod(e.object)) continue;
    if (!firstAny.has(e.object)) firstAny.set(e.object, e.type);
    if ((e.type === "PodReady" || e.type === "PodNotReady") && !firstReadiness.has(e.object))
      firstReadiness.set(e.object, e.type);
  }
  const finalReady = new Map(result.summary.pods.map((p) => [`Pod/${p.pod}`, p]));
  for (const pod of initialPods(result)) {
    let s: number;
    const fa = firstAny.get(pod);
    if (fa === "PodScheduled" || fa === "FailedScheduling") s = 0;
    else {
      const fr = firstReadiness.get(pod);
      const ready0 = fr ? fr === "PodNotReady" : (finalReady.get(pod)?.ready ?? true);
      s = ready0 ? 2 : 1;
    }
    state.set(pod, s);
    count[s]!++;
  }
  const set = (pod: string, s: number | undefined) => {
    const prev = state.get(pod);
    if (prev !== undefined) count[prev]!--;
    if (s === undefined) state.delete(pod);
    else {
      state.set(pod, s);
      count[s]!++;
    }
  };
  let i = 0;
  const events = result.events;
  for (let sec = 0; sec < n; sec++) {
    while (i < events.length && events[i]!.t <= sec) {
      const e = events[i++]!;
      applyEndpoint(ready, e);
      if (!isPod(e.object)) continue;
      const cur = state.get(e.object);
      switch (e.type) {
        case "PodCreated":
          set(e.object, 0);
          break;
        case "PodReady":
          if (cur !== 3) set(e.object, 2);
          break;
        case "ContainerStarted":
        case "PodNotReady":
          if (cur !== 3) set(e.object, 1);
          break;
        case "PodEvicted":
          set(e.object, 3);
          break;
        case "PodDeleted":
          set(e.object, undefined);
          break;
      }
    }
    readyEndpoints[sec] = ready.size;
    for (let p = 0; p < 4; p++) phases[p]![sec] = count[p]!;
  }
  return { t, readyEndpoints, phases };
}
