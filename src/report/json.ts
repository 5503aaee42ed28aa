// The machine-readable result (the JSON contract in README.md): one object, stable key order. Each
// event keeps its fields and gains `message`, `why` and `see` for people, written from them.

import type { Scenario } from "../scenario/types.ts";
import type { SimulationResult } from "../simulate.ts";
import type { TraceEvent } from "../trace/events.ts";
import { proseOf } from "./messages/index.ts";

/** An event as the JSON prints it: its fields, then the prose written from them. */
export function eventJson(e: TraceEvent): Record<string, unknown> {
  const { message: _m, why: _w, see: _s, ...fields } = e;
  return { ...fields, ...proseOf(e) };
}

/** `scenario` adds `notModelled`, the valid fields the models do not read, when there are any. */
export function formatJson(result: SimulationResult, scenario?: Pick<Scenario, "notModelled">): string {
  const notModelled = scenario?.notModelled.length ? { notModelled: scenario.notModelled } : {};
  return `${JSON.stringify({ scenario: result.scenario, kubernetesVersion: result.kubernetesVersion, seed: result.seed, ...notModelled, events: result.events.map(eventJson), summary: result.summary, ...(result.traffic ? { traffic: result.traffic } : {}) }, null, 2)}\n`;
}
