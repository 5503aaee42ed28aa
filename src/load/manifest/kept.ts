// A manifest document collected once. A variant (whatif/'s --vary values and levers, the audit's
// experiments and fixes, the report's what-ifs) loads its scenario's files again with a few patches,
// and all but the patched documents come back as they were parsed (the same document: SourceDoc.kept).
// What such a document adds to a Collected is kept, and added again to the next load, instead of
// being validated and converted anew: a variant's load costs what its patches touch, not every object
// of the manifests. The loaded objects are shared by the loads, as the runs of an audit's sweep share
// its base scenario's: nothing after collectObjects changes one (the version checks that drop a field,
// scenario/traffic-distribution.ts and scenario/statefulset-max-unavailable.ts, replace the object).

import type { SourceDoc } from "../source.ts";
import { type Collected, collectObjects, emptyCollected } from "./collect.ts";
import type { Reference } from "./references.ts";

/** By parsed document (SourceDoc.kept): what it was collected into, on its own. */
const collected = new WeakMap<object, Collected>();

/** collectObjects of a manifest file's document (its whole value, at path []), kept when it can be. */
export function collectDocument(doc: SourceDoc, out: Collected): void {
  if (doc.kept === undefined) {
    collectObjects(doc, [], doc.value, out);
    return;
  }
  let own = collected.get(doc.kept);
  if (!own) {
    own = emptyCollected();
    // A copy: the document's value is the parse's, shared by every load (parseYamlFile `shared`).
    collectObjects(doc, [], structuredClone(doc.value), own);
    for (const m of own.manifests) frozen(m.object);
    collected.set(doc.kept, own);
  }
  add(doc, own, out);
}

/**
 * `own` added to `out` as collectObjects would have added the document: its objects after those
 * already there (their indices in the not-modelled fields and references shifted by as many), a
 * not-modelled field kept where it first appeared, and a duplicate refused with collectObjects' own
 * message and position.
 */
function add(doc: SourceDoc, own: Collected, out: Collected): void {
  for (const id of own.seen.keys())
    if (out.seen.has(id)) {
      collectObjects(doc, [], structuredClone(doc.value), out);
      return;
    }
  const offset = out.manifests.length;
  for (const m of own.manifests) out.manifests.push(m);
  for (const w of own.where) out.where.push(w);
  for (const i of own.ignored) out.ignored.push(i);
  for (const [id, pos] of own.seen) out.seen.set(id, pos);
  for (const key of own.present) out.present.add(key);
  for (const [field, at] of own.notModelled)
    if (!out.notModelled.has(field)) out.notModelled.set(field, { ...at, object: at.object + offset });
  for (const r of own.references) out.references.push(offset === 0 ? r : shifted(r, offset));
}

/** A reference of the `offset`-th object on, its position still found when first read (references.ts). */
function shifted(r: Reference, offset: number): Reference {
  return {
    target: r.target,
    field: r.field,
    object: r.object + offset,
    get line() {
      return r.line;
    },
    get where() {
      return r.where;
    },
  };
}

/** Frozen to the leaves: a change to a shared object throws where it is made instead of reaching another load. */
function frozen(value: unknown): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) frozen(v);
}
