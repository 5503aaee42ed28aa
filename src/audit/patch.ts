// The one place the audit turns patches into a scenario: its source with each patch set in the parsed
// YAML, then loaded again through load/, so a fix is validated and defaulted exactly as the user's
// own file would be. whatif/ (variantOf) is the house's way to do this; when it is in main this
// function becomes a call to it, with the same Patch shape.

import { parse, parseAllDocuments, stringify } from "yaml";
import { parseScenario } from "../load/core.ts";
import type { Scenario } from "../scenario/types.ts";
import type { AuditSource, Patch, SourceFile } from "./types.ts";

/** The audit's scenario with `patches` applied, loaded through load/. */
export function variantOf(source: AuditSource, patches: readonly Patch[]): Scenario {
  const own = patches.filter((p) => p.object === undefined);
  const onObjects = patches.filter((p) => p.object !== undefined);
  let text = source.text;
  if (own.length > 0) {
    const doc = parse(text) as Record<string, unknown>;
    for (const p of own) setPath(doc, p.path, p.value);
    text = stringify(doc);
  }
  const manifests: Record<string, SourceFile[]> = {};
  const applied = new Set<Patch>();
  for (const [entry, files] of Object.entries(source.manifests)) {
    manifests[entry] = files.map((f) => patchFile(f, onObjects, applied));
  }
  for (const p of onObjects)
    if (!applied.has(p))
      throw new Error(`audit patch ${p.object} ${p.path}: no such object in the manifests`);
  return parseScenario(text, source.file, (entry) => manifests[entry]);
}

function patchFile(f: SourceFile, patches: readonly Patch[], applied: Set<Patch>): SourceFile {
  if (patches.length === 0) return f;
  const docs = parseAllDocuments(f.text);
  if (!Array.isArray(docs)) return f;
  const values = docs.map((d) => d.toJS({ maxAliasCount: 100 }) as unknown);
  let changed = false;
  for (const p of patches) {
    for (const v of values) {
      for (const target of objectsIn(v, p.object!)) {
        setPath(target, p.path, p.value);
        applied.add(p);
        changed = true;
      }
    }
  }
  if (!changed) return f;
  return {
    file: f.file,
    text: values
      .filter((v) => v != null)
      .map((v) => stringify(v))
      .join("---\n"),
  };
}

/** The objects with identity `Kind/namespace/name` in a document (an object, or a List's items). */
function objectsIn(value: unknown, id: string): Record<string, unknown>[] {
  if (!isRecord(value)) return [];
  if (typeof value.kind === "string" && value.kind.endsWith("List") && Array.isArray(value.items))
    return value.items.flatMap((item) => objectsIn(item, id));
  const meta = isRecord(value.metadata) ? value.metadata : {};
  const ns = typeof meta.namespace === "string" ? meta.namespace : "default";
  return `${String(value.kind)}/${ns}/${String(meta.name)}` === id ? [value] : [];
}

type Segment = string | number | { field: string; equals: string };

/** `a.b[0].c[name=web]["x/y"]` → segments. */
export function parsePath(text: string): Segment[] {
  const out: Segment[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]|\[([^=\]"]+)=([^\]]*)\]|\["((?:[^"\\]|\\.)*)"\]/g;
  for (const m of text.matchAll(re)) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else if (m[3] !== undefined) out.push({ field: m[3], equals: m[4]! });
    else out.push(JSON.parse(`"${m[5]}"`) as string);
  }
  return out;
}

/** Sets (or, with undefined, removes) the value at `path`, creating mappings on the way. */
export function setPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const segs = parsePath(path);
  let node: unknown = root;
  for (let i = 0; i < segs.length - 1; i++) {
    const key = resolveKey(node, segs[i]!, path);
    const container = node as Record<string | number, unknown>;
    if (container[key] == null) container[key] = typeof segs[i + 1] === "number" ? [] : {};
    node = container[key];
  }
  const last = resolveKey(node, segs[segs.length - 1]!, path);
  const container = node as Record<string | number, unknown>;
  if (value === undefined) {
    if (Array.isArray(container) && typeof last === "number") container.splice(last, 1);
    else delete container[last];
  } else container[last] = structuredClone(value);
}

function resolveKey(node: unknown, seg: Segment, path: string): string | number {
  if (typeof seg !== "object") return seg;
  const items = Array.isArray(node) ? node : [];
  const i = items.findIndex((x) => isRecord(x) && x[seg.field] === seg.equals);
  if (i < 0) throw new Error(`audit patch ${path}: no element with ${seg.field} ${seg.equals}`);
  return i;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
