// Where a finding points: file:line:column of a field of a manifest object (or of the object when the
// field is not written), from the manifests' own text. Also the object as written, for the fields the
// models do not keep (an emptyDir volume, a volumeMount's path).

import { MAX_DUMP_BYTES } from "../load/cluster/dump.ts";
import { parseJsonDump } from "../load/cluster/json.ts";
import { parsePatchPath } from "../load/patch.ts";
import { formatPath, type Path, parseYamlFile, type SourceDoc } from "../load/source.ts";
import type { AuditSource, Location } from "./types.ts";

interface Placed {
  doc: SourceDoc;
  path: Path;
  value: Record<string, unknown>;
}

export class Locator {
  private readonly source: AuditSource;
  /** The objects by `Kind/ns/name`, once a finding or a rule first asks (a YAML dump is slow to read). */
  private indexed: Map<string, Placed> | undefined;

  constructor(source: AuditSource) {
    this.source = source;
  }

  private get objects(): Map<string, Placed> {
    if (this.indexed) return this.indexed;
    this.indexed = new Map();
    const seen = new Set<string>();
    for (const files of Object.values(this.source.manifests)) {
      for (const f of files) {
        if (seen.has(f.file)) continue;
        seen.add(f.file);
        // A cluster dump (`--cluster`) may be far larger than a manifest, and JSON: read as the loader does.
        const docs = parseJsonDump(f.text, f.file) ?? parseYamlFile(f.text, f.file, MAX_DUMP_BYTES);
        for (const doc of [docs].flat()) this.index(doc, [], doc.value);
      }
    }
    return this.indexed;
  }

  private index(doc: SourceDoc, path: Path, value: unknown): void {
    if (!isRecord(value)) return;
    if (typeof value.kind === "string" && value.kind.endsWith("List") && Array.isArray(value.items)) {
      value.items.forEach((item, i) => {
        this.index(doc, [...path, "items", i], item);
      });
      return;
    }
    const meta = isRecord(value.metadata) ? value.metadata : {};
    const ns = typeof meta.namespace === "string" ? meta.namespace : "default";
    const id = `${String(value.kind)}/${ns}/${String(meta.name)}`;
    if (!this.objects.has(id)) this.objects.set(id, { doc, path, value });
  }

  /** The object `Kind/ns/name` as written, or undefined (an object added by a fix, or not in a file). */
  raw(id: string): Record<string, unknown> | undefined {
    return this.objects.get(id)?.value;
  }

  /**
   * The position of `field` (dotted, `[name=x]` for a list element by name) in object `id`: the field
   * when it is written, else the object (a field left to its default).
   */
  locate(id: string, field = ""): Location {
    const placed = this.objects.get(id);
    if (!placed) return { file: "", line: 0, col: 0, path: field };
    const path: (string | number)[] = [...placed.path];
    let value: unknown = placed.value;
    const written: (string | number)[] = [];
    const segs = field === "" ? [] : parsePatchPath(field);
    for (const seg of segs) {
      let key: string | number;
      if (typeof seg === "object") {
        const items = Array.isArray(value) ? value : [];
        const i = items.findIndex((x) => isRecord(x) && x[seg.field] === seg.equals);
        if (i < 0) break;
        key = i;
      } else key = seg;
      const next =
        isRecord(value) || Array.isArray(value)
          ? (value as Record<string | number, unknown>)[key]
          : undefined;
      if (next === undefined) break;
      path.push(key);
      written.push(key);
      value = next;
    }
    // A field left to its default is not in the file: the object is what to point at.
    if (written.length < segs.length) {
      const { line, col } = placed.doc.locate(placed.path);
      return { file: placed.doc.file, line, col, path: "" };
    }
    // exact: a JSON dump's field is found in its text (parsed once, on the first finding in it).
    const { line, col } = placed.doc.locate(path, "value", true);
    return { file: placed.doc.file, line, col, path: formatPath(written) };
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
