// Test helpers for the cluster model: build scenarios (from an example, a variant of one, or inline
// YAML), run them, and query the trace.

import { readFileSync } from "node:fs";
import { parse, stringify } from "yaml";
import { loadScenarioFile, parseScenario, readManifestEntry } from "../../src/load/index.ts";
import { formatJson } from "../../src/report/json.ts";
import { type SimulationResult, simulate } from "../../src/run/simulate.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import type { EventOf, EventType, TraceEvent } from "../../src/trace/events.ts";

/** ε, the processing time of one monitor pass (MONITOR_PASS_PROCESSING in src/kubernetes/defaults.ts). */
export const EPS = 0.0001;
/** Trace times are rounded to the microsecond: the slack for comparisons of differences. */
export const US = 1e-6;

/** A scenario from inline YAML; `manifests:` entries that are paths are read relative to examples/. */
export function scenario(yaml: string, file = "examples/inline.yaml"): Scenario {
  return parseScenario(yaml, file, (entry) => readManifestEntry("examples", entry));
}

/**
 * The head of an inline scenario, up to its `manifests:`: Kubernetes 1.32, one minute from the
 * `created` state, one worker per zone (worker-1 in the first).
 */
export function clusterHead(name: string, zones: readonly string[]): string {
  const nodes = zones.map((zone, i) => `  - {name: worker-${i + 1}, zone: ${zone}}\n`).join("");
  return `name: ${name}\nkubernetesVersion: "1.32"\nduration: 1m\nstart: created\nnodes:\n${nodes}`;
}

/** An example file, `examples/<name>`. */
export function example(name: string): Scenario {
  return loadScenarioFile(`examples/${name}`);
}

// biome-ignore lint/suspicious/noExplicitAny: a parsed YAML document, edited freely by tests
export type Doc = Record<string, any>;

/** An example file edited as a YAML document (add controlPlane settings, timeline steps…). */
export function variant(name: string, edit: (doc: Doc) => void): Scenario {
  const doc = parse(readFileSync(`examples/${name}`, "utf8")) as Doc;
  edit(doc);
  return scenario(stringify(doc), `examples/${name}`);
}

export function run(s: Scenario, seed?: number): SimulationResult {
  return simulate(s, seed === undefined ? {} : { seed });
}

/** The cluster as it is at t=0, after the warm-up (pods, their readiness, node taints). */
export function initialState(s: Scenario, seed?: number): SimulationResult["summary"] {
  return run({ ...s, duration: 0, timeline: [] }, seed).summary;
}

/** Events of one type, optionally filtered, in trace order. */
export function eventsOf<K extends EventType>(
  r: SimulationResult | TraceEvent[],
  type: K,
  filter: (e: EventOf<K>) => boolean = () => true,
): EventOf<K>[] {
  const events = Array.isArray(r) ? r : r.events;
  return events.filter((e): e is EventOf<K> => e.type === type && filter(e as EventOf<K>));
}

/** The only event of a type matching the filter; fails the test (throws) if there are none or several. */
export function only<K extends EventType>(
  r: SimulationResult,
  type: K,
  filter: (e: EventOf<K>) => boolean = () => true,
): EventOf<K> {
  const found = eventsOf(r, type, filter);
  if (found.length !== 1)
    throw new Error(
      `expected exactly one ${type} event, found ${found.length}: ${found.map((e) => `${e.t} ${e.object}`).join("; ")}`,
    );
  return found[0]!;
}

/** The first event of a type matching the filter; throws if there is none. */
export function first<K extends EventType>(
  r: SimulationResult,
  type: K,
  filter: (e: EventOf<K>) => boolean = () => true,
): EventOf<K> {
  const found = eventsOf(r, type, filter)[0];
  if (!found) throw new Error(`expected a ${type} event, found none`);
  return found;
}

/** The last event of a type at or before t (matching the filter), or undefined. */
export function lastBefore<K extends EventType>(
  r: SimulationResult,
  type: K,
  t: number,
  filter: (e: EventOf<K>) => boolean = () => true,
): EventOf<K> | undefined {
  const found = eventsOf(r, type, (e) => e.t <= t && filter(e));
  return found[found.length - 1];
}

/** `Pod/<ns>/<name>` → `<ns>/<name>` (other objects: the part after the kind). */
export function nameOf(object: string): string {
  return object.slice(object.indexOf("/") + 1);
}

/** Events whose object is the pod `<ns>/<name>`. */
export const onPod = (pod: string) => (e: TraceEvent) => e.object === `Pod/${pod}`;
/** Events whose object is a pod of a workload named `prefix` (`web` matches web-7c5…-abcde). */
export const podOf = (ns: string, prefix: string) => (e: TraceEvent) =>
  e.object.startsWith(`Pod/${ns}/${prefix}-`);
/** Events whose object is the node `name`. */
export const onNode = (name: string) => (e: TraceEvent) => e.object === `Node/${name}`;

/** A model's shortcut switch, as the models export them for the tests that compare both paths. */
export interface Switch {
  enabled: boolean;
}

/** A run's JSON with every Lease renewal: what the shortcut tests compare, byte for byte. */
export const fullJson = (s: Scenario): string => formatJson(run(s), s, { allLeases: true });

/**
 * The scenario rendered (by default its JSON with every renewal) with the switches on, then with
 * them off: a shortcut's run and the plain one, for a test to compare. The switches are on after.
 */
export function onAndOff(
  s: Scenario,
  switches: readonly Switch[],
  render: (s: Scenario) => string = fullJson,
): { on: string; off: string } {
  try {
    for (const w of switches) w.enabled = true;
    const on = render(s);
    for (const w of switches) w.enabled = false;
    return { on, off: render(s) };
  } finally {
    for (const w of switches) w.enabled = true;
  }
}
