// A scenario from its source with patches applied: each patch is set in the parsed YAML (the scenario
// file's document, or a manifest object's) before validation, so that a variant is loaded exactly as
// a file is, with the same rules, defaults and messages. An error about a patched value names the
// patch instead of a line (`--vary controlPlane.nodeMonitorPeriod=-1s: "-1s" is negative: …`); any
// other error a patch causes keeps its position and says which patches were applied. Pure: the
// HTML report runs it in the browser.

import type { ManifestFile, Patch, Scenario, ScenarioOrigin, ScenarioSource } from "../scenario/types.ts";
import { LoadError } from "./errors.ts";
import type { ReadManifest } from "./scenario/manifests.ts";
import { parseScenarioWith } from "./scenario/parse.ts";
import { type DocEdit, formatPath, type Path, PathError, parseYamlFile, type SourceDoc } from "./source.ts";

/**
 * A scenario loaded from its source with `patches` applied in order (a later one wins on the same
 * field). The files it names come from `source.manifests`, or from `readManifest` when given (they
 * are then recorded in `source.manifests`).
 */
export function loadScenarioSource(
  source: ScenarioSource,
  patches: readonly Patch[] = [],
  readManifest?: ReadManifest,
): Scenario {
  const read: ReadManifest = readManifest
    ? (entry, maxBytes) => {
        const files = readManifest(entry, maxBytes);
        if (files !== undefined) source.manifests[entry] = files;
        return files;
      }
    : (entry) => (Object.hasOwn(source.manifests, entry) ? source.manifests[entry] : undefined);
  const patcher = new Patcher(patches);
  let scenario: Scenario;
  try {
    scenario = parseScenarioWith(source.text, source.file, read, patcher.transform);
    patcher.checkAllApplied();
  } catch (e) {
    throw e instanceof LoadError ? patcher.relabel(e) : e;
  }
  scenario.origin = { source, patches: [...patches] };
  return scenario;
}

/**
 * The files a patched scenario was loaded from, as YAML with its patches set (the same transform the
 * load applies): the scenario file first, then each manifest file. The HTML report's what-if exports
 * them, so that the run can be made again from files.
 */
export function patchedFiles(origin: ScenarioOrigin): ManifestFile[] {
  const patcher = new Patcher(origin.patches);
  const one = (f: ManifestFile, role: "scenario" | "manifest"): ManifestFile => ({
    file: f.file,
    text: parseYamlFile(f.text, f.file)
      .map((d, i) => {
        const t = patcher.transform(d, role).text();
        return i === 0 || t.startsWith("---") ? t : `---\n${t}`;
      })
      .join(""),
  });
  const { source } = origin;
  return [
    one({ file: source.file, text: source.text }, "scenario"),
    ...Object.values(source.manifests).flatMap((files) => files.map((f) => one(f, "manifest"))),
  ];
}

/** How a patch is named in messages. */
export function patchLabel(p: Patch): string {
  if (p.label !== undefined) return p.label;
  const value = p.text ?? (typeof p.value === "string" ? p.value : JSON.stringify(p.value ?? null));
  return `${p.object ? `${p.object} ` : ""}${p.path}=${value}`;
}

/** A path segment as written: a key, an index, or `[field=value]` (the list element whose field is value). */
type Segment = string | number | { field: string; equals: string };

/** `a.b[0].c[name=web]["x/y"]` → segments. Throws PatchSyntaxError. */
export function parsePatchPath(text: string): Segment[] {
  const out: Segment[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new PatchSyntaxError(`${JSON.stringify(text)} is not a field path (${why})`);
  };
  if (text === "") fail("it is empty");
  while (i < text.length) {
    if (text[i] === "[") {
      if (text[i + 1] === '"') {
        // A JSON string: ["app.kubernetes.io/name"]
        let j = i + 2;
        while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
        if (text[j + 1] !== "]") fail(`an unclosed [" at ${i}`);
        out.push(JSON.parse(text.slice(i + 1, j + 1)) as string);
        i = j + 2;
      } else {
        const end = text.indexOf("]", i);
        if (end < 0) fail(`an unclosed [ at ${i}`);
        const inner = text.slice(i + 1, end);
        const eq = inner.indexOf("=");
        if (/^\d+$/.test(inner)) out.push(Number(inner));
        else if (eq > 0) out.push({ field: inner.slice(0, eq), equals: inner.slice(eq + 1) });
        else fail(`[${inner}] is neither an index nor [field=value]`);
        i = end + 1;
      }
      if (i < text.length && text[i] !== "." && text[i] !== "[") fail(`a "." or "[" is missing at ${i}`);
      if (text[i] === ".") i++;
      continue;
    }
    let j = i;
    while (j < text.length && text[j] !== "." && text[j] !== "[") j++;
    if (j === i) fail(`an empty field name at ${i}`);
    out.push(text.slice(i, j));
    i = j;
    if (text[i] === ".") {
      i++;
      if (i === text.length) fail("it ends with a dot");
    }
  }
  return out;
}

export class PatchSyntaxError extends Error {}

interface Applied {
  label: string;
  file: string;
  /** formatPath of the document path set */
  path: string;
  /** the shallowest field the patch added (`path` itself when its parents were there): errors under it are the patch's */
  root: string;
}

/** Applies the patches to each document as load/ parses it, and remembers where, to name them in errors. */
class Patcher {
  private readonly applied: Applied[] = [];
  private readonly matched = new Set<Patch>();
  private readonly labels: string[];
  /** Each patch's object identity (`Kind/namespace/name`), worked out once for every document. */
  private readonly ids: Map<Patch, string>;

  constructor(private readonly patches: readonly Patch[]) {
    this.labels = [...new Set(patches.map(patchLabel))];
    this.ids = new Map(patches.flatMap((p) => (p.object === undefined ? [] : [[p, objectId(p)]])));
  }

  transform = (doc: SourceDoc, role: "scenario" | "manifest"): SourceDoc => {
    let current = doc;
    for (const patch of this.patches) {
      const targets: Path[] = [];
      if (patch.object === undefined) {
        if (role === "scenario") targets.push([]);
      } else {
        const id = this.ids.get(patch)!;
        const roots =
          role === "scenario"
            ? listOf(current.value, "manifests").map((v, i) => ({ value: v, path: ["manifests", i] }))
            : [{ value: current.value, path: [] as Path }];
        for (const root of roots) targets.push(...objectsIn(root.value, root.path, id));
      }
      for (const base of targets) {
        this.matched.add(patch);
        // The document is copied once, at its first patch; the next ones edit that copy.
        current = this.apply(current, patch, base, current !== doc);
      }
    }
    return current;
  };

  private apply(doc: SourceDoc, patch: Patch, base: Path, own: boolean): SourceDoc {
    const label = patchLabel(patch);
    let segments: Segment[];
    try {
      segments = parsePatchPath(patch.path);
    } catch (e) {
      throw patchError(label, (e as Error).message);
    }
    const path = resolve(doc.value, base, segments, label);
    const edit: DocEdit = { path, value: patch.value };
    if (patch.text !== undefined) edit.text = patch.text;
    try {
      const edited = doc.withEdits([edit], own);
      // Errors under the patched field, or under the first mapping the patch had to create, are its.
      this.applied.push({
        label,
        file: doc.file,
        path: formatPath(path),
        root: formatPath(path.slice(0, firstMissing(doc.value, path) + 1)),
      });
      return edited;
    } catch (e) {
      if (e instanceof PathError) throw patchError(label, e.message);
      throw e;
    }
  }

  /** A patch of a manifest object that no document holds is a mistake, not a no-op. */
  checkAllApplied(): void {
    for (const p of this.patches) {
      if (p.object === undefined || this.matched.has(p)) continue;
      const [kind, namespace, name] = splitId(p.object);
      throw patchError(patchLabel(p), `no ${kind} "${namespace}/${name}" in the manifests`);
    }
  }

  /** An error about a patched value names the patch; any other says which patches were applied. */
  relabel(e: LoadError): LoadError {
    if (this.patches.length === 0 || this.labels.includes(e.file)) return e;
    const hit = this.applied.find(
      (a) =>
        a.file === e.file &&
        (e.path === a.root || e.path.startsWith(`${a.root}.`) || e.path.startsWith(`${a.root}[`)),
    );
    if (hit) return new LoadError(e.code, hit.label, 0, 0, e.path === hit.path ? "" : e.path, e.detail);
    return new LoadError(
      e.code,
      e.file,
      e.line,
      e.col,
      e.path,
      `${e.detail} (with ${this.labels.join(", ")})`,
    );
  }
}

function patchError(label: string, detail: string): LoadError {
  return new LoadError("invalid-value", label, 0, 0, "", detail);
}

/** `Kind/namespace/name` or `Kind/name` (namespace default) → [kind, namespace, name]. */
function splitId(id: string): [string, string, string] {
  const parts = id.split("/");
  if (parts.length === 2) return [parts[0]!, "default", parts[1]!];
  if (parts.length === 3) return [parts[0]!, parts[1]!, parts[2]!];
  return [id, "default", ""];
}

function objectId(p: Patch): string {
  return splitId(p.object ?? "").join("/");
}

function listOf(value: unknown, key: string): unknown[] {
  const v = isRecord(value) ? value[key] : undefined;
  return Array.isArray(v) ? v : [];
}

/** The paths of the objects with identity `id` in a manifest value (an object, or a List's items). */
function objectsIn(value: unknown, path: Path, id: string): Path[] {
  if (!isRecord(value)) return [];
  if (typeof value.kind === "string" && value.kind.endsWith("List") && Array.isArray(value.items)) {
    return value.items.flatMap((item, i) => objectsIn(item, [...path, "items", i], id));
  }
  const meta = isRecord(value.metadata) ? value.metadata : {};
  const namespace = typeof meta.namespace === "string" ? meta.namespace : "default";
  return `${String(value.kind)}/${namespace}/${String(meta.name)}` === id ? [path] : [];
}

/** Segments → a document path, resolving `[field=value]` against the document as it is. */
function resolve(root: unknown, base: Path, segments: Segment[], label: string): Path {
  const out: (string | number)[] = [...base];
  let value: unknown = base.reduce<unknown>(
    (v, k) => (isRecord(v) || Array.isArray(v) ? (v as never)[k] : undefined),
    root,
  );
  for (const seg of segments) {
    if (typeof seg === "object") {
      const items = Array.isArray(value) ? value : [];
      const index = items.findIndex((x) => isRecord(x) && x[seg.field] === seg.equals);
      if (index < 0) {
        throw patchError(
          label,
          `${formatPath(out) || "the document"} has no element with ${seg.field} ${JSON.stringify(seg.equals)}`,
        );
      }
      out.push(index);
      value = items[index];
      continue;
    }
    out.push(seg);
    value =
      isRecord(value) || Array.isArray(value) ? (value as Record<string | number, unknown>)[seg] : undefined;
  }
  return out;
}

/** The index of the first segment of `path` that `root` does not have (the last one if it has them all). */
function firstMissing(root: unknown, path: Path): number {
  let value = root;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    const next =
      isRecord(value) || Array.isArray(value) ? (value as Record<string | number, unknown>)[seg] : undefined;
    if (next === undefined) return i;
    value = next;
  }
  return path.length - 1;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
