// --redact for a recording, as `simulate --redact` has it for a dump (src/load/redact.ts): the names
// of namespaces, nodes, workloads, pods, Services, claims and volumes replaced by stable pseudonyms
// (`ns-1`, `node-3`, `deploy-2`…), the same name the same pseudonym in the dump and in every change.
// A name made from another (a ReplicaSet's from its Deployment's, a pod's from its owner's, a
// node's Lease's from the node's) keeps its form: the part that is the other's name is replaced.
// Pseudonyms are numbered in the order the names first appear: the same recording gives the same.

import { BUILTIN_NAMESPACES } from "../load/manifest/references.ts";
import { STEM as KIND_STEM } from "../load/redact.ts";
import type { KubeObject } from "./recording.ts";

/** The stems `simulate --redact` gives (load/redact.ts), and the two kinds a recording adds. */
const STEM: Record<string, string> = { Namespace: "ns", Node: "node", ...KIND_STEM };

/** Namespaces of Kubernetes itself: their names are not the user's. */
const BUILTIN = new Set(BUILTIN_NAMESPACES);

/** Keys whose values are Kubernetes' own words, never a user's name. */
const WORDS = new Set([
  "apiVersion",
  "kind",
  "key",
  "operator",
  "effect",
  "type",
  "status",
  "reason",
  "resource",
]);

export class Redactor {
  private readonly names = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  /** longest first, for derived names */
  private sorted: string[] = [];

  /** Learn the names in a dump's objects (namespaces, nodes, owners before what they own). */
  learn(items: readonly KubeObject[]): void {
    const order = [
      "Namespace",
      "Node",
      "Deployment",
      "StatefulSet",
      "DaemonSet",
      "ReplicaSet",
      "Service",
      "PersistentVolumeClaim",
      "PersistentVolume",
      "PodDisruptionBudget",
      "Pod",
    ];
    for (const kind of order) {
      for (const o of items) {
        const ns = o.metadata?.namespace;
        if (ns !== undefined) this.add("Namespace", ns);
        if (o.kind === kind && o.metadata?.name) this.add(kind, o.metadata.name);
      }
    }
  }

  private add(kind: string, name: string): string {
    if (kind === "Namespace" && BUILTIN.has(name)) return name;
    const known = this.names.get(name);
    if (known) return known;
    // A derived name (owner's name and a suffix) keeps its suffix.
    const owner = this.sorted.find((n) => name.startsWith(`${n}-`));
    let pseudonym: string;
    if (owner) pseudonym = `${this.names.get(owner)}${name.slice(owner.length)}`;
    else {
      const stem = STEM[kind] ?? "name";
      const n = (this.counts.get(stem) ?? 0) + 1;
      this.counts.set(stem, n);
      pseudonym = `${stem}-${n}`;
    }
    this.names.set(name, pseudonym);
    this.sorted = [...this.names.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
    return pseudonym;
  }

  /** A string as redacted: a known name, or one derived from a known name; otherwise itself. */
  string(s: string): string {
    const exact = this.names.get(s);
    if (exact) return exact;
    const owner = this.sorted.find((n) => s.startsWith(`${n}-`) || s.startsWith(`${n}.`));
    return owner ? `${this.names.get(owner)}${s.slice(owner.length)}` : s;
  }

  /** An object with every name replaced (labels' values and annotations included; keys kept). */
  object(o: KubeObject): KubeObject {
    // Objects first seen in a change (a replacement pod) get their pseudonym now.
    if (o.kind && STEM[o.kind] && o.metadata?.name) this.add(o.kind, o.metadata.name);
    return this.value(o, "") as KubeObject;
  }

  private value(v: unknown, key: string): unknown {
    if (typeof v === "string") return WORDS.has(key) ? v : this.string(v);
    if (Array.isArray(v)) return v.map((x) => this.value(x, key));
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = this.value(x, k);
      return out;
    }
    return v;
  }
}
