// The machine-readable result (the JSON contract in README.md): one object, stable key order. Each
// event keeps its fields and gains `message`, `why` and `see` for people, written from them.

import type { SimulationResult } from "../simulate.ts";
import type { TraceEvent } from "../trace/events.ts";
import { proseOf } from "./messages/index.ts";

/** An event as the JSON prints it: its fields, then the prose written from them. */
export function eventJson(e: TraceEvent): Record<string, unknown> {
  const { message: _m, why: _w, see: _s, ...fields } = e;
  return { ...fields, ...proseOf(e) };
}

export function formatJson(result: SimulationResult): string {
  return `${JSON.stringify({ scenario: result.scenario, kubernetesVersion: result.kubernetesVersion, seed: result.seed, events: result.events.map(eventJson), summary: result.summary, ...(result.traffic ? { traffic: result.traffic } : {}) }, null, 2)}\n`;
}
