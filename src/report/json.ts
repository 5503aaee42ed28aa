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

/**
 * With the loaded scenario, the JSON adds `ignored` (objects of kinds no model reads) and
 * `notModelled` (valid fields the models do not read), each only if there is any.
 */
export function formatJson(
  result: SimulationResult,
  loaded?: Pick<Scenario, "notModelled" | "ignored">,
): string {
  const { scenario, kubernetesVersion, seed, initial, events, summary, traffic } = result;
  const ignored = (loaded?.ignored ?? []).map(({ kind, apiVersion, name, pos }) => ({
    kind,
    apiVersion,
    name,
    where: `${pos.file}:${pos.line}`,
  }));
  const json = {
    scenario,
    kubernetesVersion,
    seed,
    ...(ignored.length ? { ignored } : {}),
    ...(loaded?.notModelled.length ? { notModelled: loaded.notModelled } : {}),
    initial,
    events: events.map(eventJson),
    summary,
    ...(traffic ? { traffic } : {}),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}
