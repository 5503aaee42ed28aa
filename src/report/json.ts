// The machine-readable result (the JSON contract in README.md): one object, stable key order: the
// run's identity, the state at t=0, the events, the state at the end, what callers felt. Each event
// keeps its fields and gains `message`, `why` and `see` for people, written from them.

import type { Scenario } from "../scenario/types.ts";
import type { TraceEvent } from "../trace/events.ts";
import type { SimulationResult } from "../trace/result.ts";
import { proseOf } from "./messages/index.ts";

/** An event as the JSON prints it: its fields, then the prose written from them. */
export function eventJson(e: TraceEvent): Record<string, unknown> {
  return { ...e, ...proseOf(e) };
}

/** With the loaded scenario, the JSON adds `notModelled` (valid fields the models do not read), if any. */
export function formatJson(result: SimulationResult, loaded?: Pick<Scenario, "notModelled">): string {
  const { scenario, kubernetesVersion, seed, initial, events, summary, traffic } = result;
  const json = {
    scenario,
    kubernetesVersion,
    seed,
    ...(loaded?.notModelled.length ? { notModelled: loaded.notModelled } : {}),
    initial,
    events: events.map(eventJson),
    summary,
    ...(traffic ? { traffic } : {}),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}
