// The machine-readable result (the JSON contract in README.md): one object, stable key order: the
// run's identity, the state at t=0, the events, each Lease's renewal times, the state at the end,
// what callers felt. Each event keeps its fields and gains `message`, `why` and `see` for people,
// written from them. Compact, one event per line, and made piece by piece so that a large run is
// written as it is made, never held as one text.

import type { SimulationResult } from "../run/result.ts";
import type { NotModelledField, Scenario } from "../scenario/types.ts";
import type { TraceEvent } from "../trace/events.ts";
import { renewalTimes } from "../trace/lease-renewals.ts";
import { shownEventIndexes, timelineEvents } from "../trace/visible.ts";
import { type Versioned, versioned } from "./contract.ts";
import { type Prose, proseOf } from "./messages/index.ts";

/** `simulate --json` (schemas/simulate.schema.json), in the order its keys are written. */
export interface SimulateJson extends Partial<Versioned> {
  scenario: SimulationResult["scenario"];
  kubernetesVersion: SimulationResult["kubernetesVersion"];
  seed: number;
  /** objects of kinds no model reads */
  ignored?: { kind: string; apiVersion: string; name: string; where: string }[];
  /** valid fields the models do not read */
  notModelled?: NotModelledField[];
  initial: SimulationResult["initial"];
  /** each event's fields, then the prose written from them */
  events: EventJson[];
  /** each node's Lease renewal times (seconds), unless --all-leases made them events */
  leaseRenewals?: Record<string, number[]>;
  summary: SimulationResult["summary"];
  traffic?: SimulationResult["traffic"];
}

/** An event as the JSON prints it. */
export type EventJson = TraceEvent & Prose;

/** An event as the JSON prints it: its fields, then the prose written from them. */
export function eventJson(e: TraceEvent): EventJson {
  return { ...e, ...proseOf(e) };
}

export interface JsonOptions {
  /** every Lease renewal as an event (by default only those followed by silence, as the text shows them) */
  allLeases?: boolean;
  /** faultline's version: with it the JSON starts with formatVersion and faultlineVersion */
  version?: string;
}

/**
 * The JSON in pieces, in order. With the loaded scenario it adds `ignored` (objects of kinds no model
 * reads) and `notModelled` (valid fields the models do not read), each only if there is any. Lease
 * renewals, most of a large run's events, are events only where they stop (trace/visible.ts) unless
 * `allLeases`; every renewal's time is in `leaseRenewals` (node → seconds), so nothing is lost.
 */
export function* jsonChunks(
  result: SimulationResult,
  loaded?: Pick<Scenario, "notModelled" | "ignored">,
  options: JsonOptions = {},
): Generator<string> {
  const { scenario, kubernetesVersion, seed, initial, events, summary, traffic } = result;
  // Objects of kinds no model reads, as the text's "ignored" line lists them.
  const ignored = (loaded?.ignored ?? []).map(({ kind, apiVersion, name, pos }) => ({
    kind,
    apiVersion,
    name,
    where: `${pos.file}:${pos.line}`,
  }));
  const head = JSON.stringify({
    ...(options.version !== undefined ? versioned(options.version) : {}),
    scenario,
    kubernetesVersion,
    seed,
    ...(ignored.length ? { ignored } : {}),
    ...(loaded?.notModelled.length ? { notModelled: loaded.notModelled } : {}),
  });
  yield `${head.slice(0, -1)},"initial":`;
  yield* pieces(initial);
  yield ',"events":[';
  const timeline = timelineEvents(result, options.allLeases ?? false);
  const shown = shownEventIndexes(timeline, summary.duration, options.allLeases, !!result.leases);
  for (let k = 0; k < shown.length; k++)
    yield `${k === 0 ? "" : ","}\n${JSON.stringify(eventJson(timeline[shown[k]!]!))}`;
  yield "\n]";
  if (!options.allLeases) {
    yield ',"leaseRenewals":';
    yield* pieces(result.leases ? renewalTimes(result.leases) : leaseRenewals(events));
  }
  yield ',"summary":';
  yield* pieces(summary);
  if (traffic) yield `,"traffic":${JSON.stringify(traffic)}`;
  yield "}\n";
}

/** How many elements of a long list one piece holds: a piece stays a small string (~40 KB). */
const BATCH = 200;

/**
 * JSON.stringify(record) of a large part of the result (the state at t=0 or at the end, the Lease
 * renewals), in pieces: the same text, each field apart and each long list (every pod, every node)
 * 200 elements at a time. As one text, a 5,000-node run's `initial` and `summary` are tens of MB each,
 * copied again to be written: strings that large go straight to the old generation and bring on the
 * collector's full pass over the whole heap sooner. Plain data: no toJSON, no undefined in lists.
 */
function* pieces(record: object): Generator<string> {
  let sep = "{";
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined) continue;
    yield `${sep}${JSON.stringify(key)}:`;
    sep = ",";
    if (!Array.isArray(value) || value.length <= BATCH) {
      yield JSON.stringify(value);
      continue;
    }
    for (let i = 0; i < value.length; i += BATCH) {
      const batch = JSON.stringify(value.slice(i, i + BATCH));
      yield `${i === 0 ? "[" : ","}${batch.slice(1, -1)}`;
    }
    yield "]";
  }
  yield sep === "{" ? "{}" : "}";
}

/** The whole JSON as one text (the library's call; the CLI writes jsonChunks as they come). */
export function formatJson(
  result: SimulationResult,
  loaded?: Pick<Scenario, "notModelled" | "ignored">,
  options: JsonOptions = {},
): string {
  return [...jsonChunks(result, loaded, options)].join("");
}

/** Each node's Lease renewal times, by node. */
function leaseRenewals(events: readonly TraceEvent[]): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const e of events) {
    if (e.type !== "LeaseRenewed" || !e.node) continue;
    const times = out[e.node] ?? [];
    times.push(e.t);
    out[e.node] = times;
  }
  return out;
}
