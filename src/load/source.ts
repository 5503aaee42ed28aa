// YAML text → documents that remember where each value came from. Validation works on the plain
// JavaScript value of a document and names a field by its path; `locate` maps the path back to the
// YAML node (the key or the value), falling back to the nearest parent that exists.

import {
  type Document,
  isAlias,
  isCollection,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseAllDocuments,
} from "yaml";
import { LoadError, type LoadErrorCode } from "./errors.ts";

export type PathSegment = string | number;
export type Path = readonly PathSegment[];

/** Files (scenario or manifest) larger than this are refused before parsing. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `timeline[2].at`, `metadata.labels["app.kubernetes.io/name"]`. */
export function formatPath(path: Path): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (PLAIN_KEY.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

export interface Position {
  line: number;
  col: number;
}

/** Positions found without a YAML document, by formatted path (json.ts finds a dump's items on demand). */
export interface KnownPositions {
  get(path: string): Position | undefined;
}

/**
 * The position of `path` in `src`, found when first read: a large dump's objects each keep one, and
 * most are never shown (finding them all would cost a scan of the whole text).
 */
export function lazyPosition(
  src: SourceDoc,
  path: Path,
  target: "key" | "value" = "value",
): Position & { file: string } {
  let at: Position | undefined;
  const get = (): Position => {
    at ??= src.locate(path, target);
    return at;
  };
  return {
    file: src.file,
    get line() {
      return get().line;
    },
    get col() {
      return get().col;
    },
  };
}

/** One YAML document of a file, its JavaScript value and the means to point into it. */
export class SourceDoc {
  readonly file: string;
  readonly value: unknown;
  private readonly lineCounter: LineCounter;
  private parsed: Document | (() => Document);
  /** Positions known without the YAML document (a large JSON file's items), by formatted path. */
  private readonly known: KnownPositions;
  /**
   * The parsed document itself when this is a file's document as written, read through
   * parseYamlFile's shared values: the same object for every parse of the same text, by which
   * load/manifest/kept.ts keeps what the document was collected into. Undefined for an edited copy.
   */
  readonly kept: object | undefined;

  /**
   * `doc` may be a function that parses the document (with `lineCounter`) on first use: a value read
   * by a faster reader (JSON.parse) only pays for the YAML document when a message needs a position
   * that `known` does not hold.
   */
  constructor(
    file: string,
    doc: Document | (() => Document),
    lineCounter: LineCounter,
    value: unknown,
    known: KnownPositions = new Map(),
    kept?: object,
  ) {
    this.file = file;
    this.parsed = doc;
    this.lineCounter = lineCounter;
    this.value = value;
    this.known = known;
    this.kept = kept;
  }

  private get doc(): Document {
    if (typeof this.parsed === "function") this.parsed = this.parsed();
    return this.parsed;
  }

  /** The position of the value at `path` (or of its key, for an unknown or misplaced field). */
  locate(path: Path, target: "key" | "value" = "value", exact = false): Position {
    if (target === "value") {
      const known = this.known.get(formatPath(path));
      if (known) return known;
    }
    // Before the YAML document is parsed, a note's position is its object's (parsing a 100 MB dump
    // for a "not modelled" line would cost more than the whole load); errors parse it (`exact`).
    if (!exact && typeof this.parsed === "function") {
      for (let n = path.length - 1; n > 0; n--) {
        const known = this.known.get(formatPath(path.slice(0, n)));
        if (known) return known;
      }
    }
    let node: unknown = this.doc.contents;
    let best: Node | undefined = node as Node | undefined;
    for (let i = 0; i < path.length; i++) {
      node = this.deref(node);
      const seg = path[i]!;
      let next: unknown;
      let keyNode: unknown;
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && keyText(p.key) === String(seg));
        if (pair) {
          keyNode = pair.key;
          next = pair.value ?? undefined;
          if (next === undefined || (i === path.length - 1 && target === "key")) next = keyNode;
        }
      } else if (isSeq(node) && typeof seg === "number") {
        next = node.items[seg];
      }
      if (next === undefined || next === null) break;
      node = next;
      if (hasRange(node)) best = node;
    }
    const offset = best && hasRange(best) ? best.range![0] : 0;
    const { line, col } = this.lineCounter.linePos(offset);
    return { line, col };
  }

  /** The scalar's source text as written (e.g. "1.30" for a YAML float read as 1.3). */
  sourceText(path: Path): string | undefined {
    let node: unknown = this.doc.contents;
    for (const seg of path) {
      node = this.deref(node);
      if (isMap(node)) node = node.items.find((p) => isPair(p) && keyText(p.key) === String(seg))?.value;
      else if (isSeq(node) && typeof seg === "number") node = node.items[seg];
      else return undefined;
    }
    node = this.deref(node);
    return isScalar(node) && typeof node.source === "string" ? node.source : undefined;
  }

  /**
   * A copy with each edit applied in order (a value set at its path, creating the mappings on the way;
   * `undefined` removes the field), read again. Untouched nodes keep their positions; an edited value
   * has none, so errors about it point at its nearest parent (whatif/ names the patch instead).
   * Throws PathError when a path runs through a value that is not a mapping or list. With `inPlace`
   * (this is a copy only its caller holds: an earlier withEdits' result) the document is edited as it
   * is instead of copied again, and this SourceDoc must not be used after.
   */
  withEdits(edits: readonly DocEdit[], inPlace = false): SourceDoc {
    const doc = inPlace ? this.doc : this.doc.clone();
    for (const { path, value, text } of edits) {
      const parent = path.slice(0, -1);
      const holder = parent.length === 0 ? doc.contents : doc.getIn(parent, true);
      if (parent.length > 0 && holder !== undefined && !isCollection(holder)) {
        throw new PathError(`${formatPath(parent)} is ${describeNode(holder)}, not a mapping or list`);
      }
      if (value === undefined) {
        // Removing a field that is not there leaves the document as it is.
        if (holder !== undefined) doc.deleteIn(path);
        continue;
      }
      const node = doc.createNode(value);
      if (text !== undefined && isScalar(node)) node.source = text;
      try {
        doc.setIn(path, node);
      } catch (e) {
        throw new PathError(`cannot set ${formatPath(path)}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return new SourceDoc(this.file, doc, this.lineCounter, doc.toJS({ maxAliasCount: 100 }));
  }

  /** The document as YAML text again (comments kept; a patched field as set): the what-if's export. */
  text(): string {
    return this.doc.toString();
  }

  error(code: LoadErrorCode, path: Path, message: string, target: "key" | "value" = "value"): LoadError {
    const { line, col } = this.locate(path, target, true);
    return new LoadError(code, this.file, line, col, formatPath(path), message);
  }

  private deref(node: unknown): unknown {
    return isAlias(node) ? node.resolve(this.doc) : node;
  }
}

/** One change to a parsed document: SourceDoc.withEdits. */
export interface DocEdit {
  path: Path;
  value: unknown;
  /** The scalar's source text, as sourceText() reads it back. */
  text?: string;
}

/** A path that runs through a scalar, or past the end of a list. */
export class PathError extends Error {}

/**
 * Edits a parsed document before it is validated (whatif/'s patches): `role` says whether it is the
 * scenario file's document or a manifest file's.
 */
export type DocTransform = (doc: SourceDoc, role: "scenario" | "manifest") => SourceDoc;

function describeNode(node: unknown): string {
  if (isScalar(node)) return node.value === null ? "empty" : `the value ${JSON.stringify(node.value)}`;
  return "not a collection";
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return undefined;
}

function hasRange(node: unknown): node is Node {
  return typeof node === "object" && node !== null && Array.isArray((node as Node).range);
}

/**
 * A file's parsed YAML documents, kept for the next parse of the same text: a variant (whatif/,
 * the audit's experiments and fixes) loads its scenario's files again, and parsing them is most of
 * that load (0.26–0.45 s for 500 KB of manifests). A document is never changed once parsed
 * (withEdits edits a clone); each load gets a copy of the values (structuredClone, 8–18 ms for those
 * 500 KB against 13–31 ms for reading them out of the documents again), so no load sees another's;
 * a reader that only reads them (`shared`) gets the kept values themselves, and each document's
 * identity (SourceDoc.kept).
 */
interface Parsed {
  file: string;
  text: string;
  lineCounter: LineCounter;
  docs: Document[];
  values: unknown[];
}

/** The files kept, most recently parsed first. */
const parsedFiles: Parsed[] = [];
/** Characters of text whose documents are kept: a document takes about 32 bytes of heap per character. */
const PARSED_MAX_CHARS = 4 * 1024 * 1024;

function remember(entry: Parsed): void {
  parsedFiles.unshift(entry);
  let chars = 0;
  for (let i = 0; i < parsedFiles.length; i++) {
    chars += parsedFiles[i]!.text.length;
    if (chars > PARSED_MAX_CHARS) {
      parsedFiles.length = i;
      break;
    }
  }
}

/**
 * Parse every document of a YAML (or JSON) file. Empty documents are skipped. The first syntax error
 * becomes a LoadError at its position; so does alias expansion beyond yaml's resource-exhaustion guard.
 * With `shared`, the values are the ones kept for the next parse of the same text (no copy): the
 * caller must not change them, and each document carries its identity (SourceDoc.kept).
 */
export function parseYamlFile(
  text: string,
  file: string,
  maxBytes = MAX_FILE_BYTES,
  shared = false,
): SourceDoc[] {
  if (text.length > maxBytes) {
    throw new LoadError(
      "file-too-large",
      file,
      0,
      0,
      "",
      `file is larger than ${maxBytes / 1024 / 1024} MiB; faultline refuses it`,
    );
  }
  const at = parsedFiles.findIndex((p) => p.file === file && p.text === text);
  if (at >= 0) {
    const kept = parsedFiles.splice(at, 1)[0]!;
    parsedFiles.unshift(kept);
    const values = shared ? kept.values : structuredClone(kept.values);
    return kept.docs.map(
      (doc, i) => new SourceDoc(file, doc, kept.lineCounter, values[i], undefined, shared ? doc : undefined),
    );
  }
  const lineCounter = new LineCounter();
  // merge: `<<: *anchor` keys, which Kubernetes' own YAML reader (go-yaml, YAML 1.1) accepts.
  const parsed = parseAllDocuments(text, { lineCounter, prettyErrors: false, merge: true });
  const docs = Array.isArray(parsed) ? parsed : [];
  const out: SourceDoc[] = [];
  const kept: Document[] = [];
  // A document's identity is given only where its values are the ones kept for the next parse.
  const keeps = shared && text.length <= PARSED_MAX_CHARS;
  for (const doc of docs) {
    const err = doc.errors[0];
    if (err) {
      const { line, col } = lineCounter.linePos(err.pos[0]);
      throw new LoadError("yaml-syntax", file, line, col, "", `invalid YAML: ${err.message} (${err.code})`);
    }
    if (doc.contents === null) continue;
    const contents = doc.contents as unknown;
    if (isScalar(contents) && contents.value === null) continue;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (e) {
      const { line, col } = lineCounter.linePos(hasRange(contents) ? contents.range![0] : 0);
      const message = e instanceof Error ? e.message : String(e);
      throw new LoadError("yaml-syntax", file, line, col, "", `invalid YAML: ${message}`);
    }
    out.push(new SourceDoc(file, doc, lineCounter, value, undefined, keeps ? doc : undefined));
    kept.push(doc);
  }
  if (text.length <= PARSED_MAX_CHARS) {
    const values = out.map((d) => d.value);
    remember({ file, text, lineCounter, docs: kept, values: shared ? values : structuredClone(values) });
  }
  return out;
}
