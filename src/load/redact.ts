// --redact (privacy): the names of namespaces, nodes, workloads, pods, Services, claims and
// volumes replaced by stable pseudonyms (`ns-1`, `node-3`, `deploy-2`…) so that a run of a real
// cluster's dump can be shared in a bug report. The scenario's source (its file and every file it
// read) is rewritten with the pseudonyms and loaded again, so that everything after it (the run, the
// text and JSON outputs, the HTML report and its what-if, --dump-at) only ever sees the pseudonyms,
// consistently. A name made from another (a ReplicaSet's and its pods' from the Deployment's, a
// StatefulSet's pods' and claims' from the StatefulSet's) keeps that form: its part that is the
// other's name is replaced, so the controllers still find what they made. Pseudonyms are numbered
// in the order the names first appear in the loaded scenario: the same input gives the same ones.

import { parseAllDocuments, stringify } from "yaml";
import type { ManifestKind } from "../kubernetes/objects.ts";
import type { Scenario, ScenarioSource } from "../scenario/types.ts";
import { BUILTIN_NAMESPACES } from "./manifest/references.ts";
import { loadScenarioSource } from "./patch.ts";

/** The pseudonym's stem per kind (a recording's --redact uses the same: record/redact.ts). */
export const STEM: Partial<Record<ManifestKind, string>> = {
  Deployment: "deploy",
  ReplicaSet: "rs",
  StatefulSet: "sts",
  DaemonSet: "ds",
  Pod: "pod",
  Service: "svc",
  PersistentVolumeClaim: "pvc",
  PersistentVolume: "pv",
  PodDisruptionBudget: "pdb",
};

/** Fields whose values are Kubernetes' own words, never a user's name: left as they are. */
const KUBERNETES_WORDS = new Set([
  "apiVersion",
  "kind",
  "key",
  "topologyKey",
  "operator",
  "effect",
  "schedulerName",
  "type",
]);

export interface Redacted {
  scenario: Scenario;
  /** The pseudonyms put into any text (a file name a message shows). */
  rename: (s: string) => string;
}

/** The scenario loaded again from its source with every name replaced by its pseudonym. */
export function redactScenario(scenario: Scenario): Redacted {
  const origin = scenario.origin;
  if (!origin) throw new Error(`scenario "${scenario.name}" has no source to redact`);
  const rename = renamer(pseudonyms(scenario));
  const source: ScenarioSource = {
    file: rename(origin.source.file),
    text: rewrite(origin.source.text, (v) => walk(v, rename, true)),
    manifests: Object.fromEntries(
      Object.entries(origin.source.manifests).map(([entry, files]) => [
        rename(entry),
        files.map((f) => ({ file: rename(f.file), text: rewrite(f.text, (v) => walk(v, rename)) })),
      ]),
    ),
  };
  const patches = origin.patches.map((p) => ({
    ...p,
    value: walk(p.value, rename),
    ...(p.label === undefined ? {} : { label: rename(p.label) }),
    ...(p.object === undefined ? {} : { object: rename(p.object) }),
  }));
  return { scenario: loadScenarioSource(source, patches), rename };
}

/** Each name → its pseudonym, in order of first appearance; names made from another are left to it. */
function pseudonyms(scenario: Scenario): Map<string, string> {
  const found: [string, string][] = [];
  const seen = new Set<string>();
  const add = (name: string | undefined, stem: string) => {
    if (name === undefined || name === "" || seen.has(name)) return;
    seen.add(name);
    found.push([name, stem]);
  };
  for (const n of scenario.nodes) add(n.name, "node");
  for (const { kind, object } of scenario.manifests) {
    const ns = object.metadata.namespace;
    // Every cluster's namespaces are not the user's names.
    if (ns !== undefined && !BUILTIN_NAMESPACES.includes(ns)) add(ns, "ns");
    const stem = STEM[kind];
    if (stem) add(object.metadata.name, stem);
  }
  // Shorter names first, so that a name made from one (`web-7d9f…`, `data-db-0`) is seen to be.
  const order = found.map((f, i) => ({ f, i })).sort((a, b) => a.f[0].length - b.f[0].length || a.i - b.i);
  const own: { name: string; stem: string; at: number }[] = [];
  for (const { f, i } of order) {
    const [name, stem] = f;
    const made = own.some((o) => name.startsWith(`${o.name}-`) || name.includes(`-${o.name}-`));
    if (!made) own.push({ name, stem, at: i });
  }
  own.sort((a, b) => a.at - b.at);
  const counts = new Map<string, number>();
  const out = new Map<string, string>();
  for (const { name, stem } of own) {
    const n = (counts.get(stem) ?? 0) + 1;
    counts.set(stem, n);
    out.set(name, `${stem}-${n}`);
  }
  return out;
}

/** Replaces each name where it stands as a whole (not inside a longer word), the longest first. */
function renamer(names: ReadonlyMap<string, string>): (s: string) => string {
  if (names.size === 0) return (s) => s;
  const alternatives = [...names.keys()]
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const re = new RegExp(`(?<![A-Za-z0-9])(?:${alternatives.join("|")})(?![A-Za-z0-9])`, "g");
  return (s) => s.replace(re, (m) => names.get(m) ?? m);
}

/** Every string of a value renamed, but Kubernetes' own words; keys stay, but the scenario's `behaviour` workloads. */
function walk(v: unknown, rename: (s: string) => string, scenarioRoot = false): unknown {
  if (typeof v === "string") return rename(v);
  if (Array.isArray(v)) return v.map((x) => walk(x, rename));
  if (typeof v !== "object" || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (KUBERNETES_WORDS.has(k) && typeof x === "string") out[k] = x;
    else if (scenarioRoot && k === "behaviour" && typeof x === "object" && x !== null && !Array.isArray(x))
      out[k] = Object.fromEntries(Object.entries(x).map(([w, b]) => [rename(w), walk(b, rename)]));
    else out[k] = walk(x, rename);
  }
  return out;
}

/** Each document of a file through `f`, written again: JSON stays JSON (the dump's fast form), YAML YAML. */
function rewrite(text: string, f: (value: unknown) => unknown): string {
  if (/^\s*[{[]/.test(text)) {
    try {
      return JSON.stringify(f(JSON.parse(text)), null, 2);
    } catch {
      // Not JSON after all: read as YAML below.
    }
  }
  const out: string[] = [];
  for (const doc of parseAllDocuments(text)) {
    // Not loadable: the load before this one would have said so.
    if (doc.errors.length > 0) return text;
    const value = f(doc.toJS({ maxAliasCount: 100 }));
    if (value !== undefined && value !== null) out.push(stringify(value));
  }
  return out.join("---\n");
}
