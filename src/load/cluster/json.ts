// A cluster dump in JSON (`kubectl get … -o json`), read with JSON.parse: on a dump of 30,000 pods
// the YAML reader (which keeps every node's position) takes seconds per 10 MB, JSON.parse a fraction
// of a second. The position of a top-level `items` element comes, when a message first needs it,
// from the layout of pretty-printed JSON, or from a scan of the text as far as that element; any
// other position (an error inside an object) parses the text as YAML (JSON is YAML) on demand.

import { type Document, LineCounter, parseAllDocuments } from "yaml";
import { LoadError } from "../errors.ts";
import { type KnownPositions, type Position, SourceDoc } from "../source.ts";
import { firstJsonProblem } from "./json-scan.ts";

/** The text as one JSON document, or undefined when it does not look like JSON (it is YAML then). */
export function parseJsonDump(text: string, file: string): SourceDoc | undefined {
  const start = text.search(/\S/);
  if (start < 0 || (text[start] !== "{" && text[start] !== "[")) return undefined;
  // A UTF-8 byte order mark is read past, as kubectl reads files (cli-runtime pkg/resource/visitor.go,
  // FileVisitor.Visit: unicode.BOMOverride) and as the YAML parser reads a scenario.
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let value: unknown;
  try {
    value = JSON.parse(bom ? text.slice(1) : text);
  } catch (e) {
    const found = firstJsonProblem(text, bom);
    const message = found?.message ?? (e instanceof Error ? e.message : String(e));
    const { line, col } = positionOf(text, found?.offset ?? text.length);
    throw new LoadError("yaml-syntax", file, line, col, "", `invalid JSON: ${message}`);
  }
  // JSON.parse keeps the last of two equal keys; the API server's strict decoding refuses them.
  const duplicate = firstJsonProblem(text, bom);
  if (duplicate) {
    const { line, col } = positionOf(text, duplicate.offset);
    throw new LoadError("duplicate-key", file, line, col, "", duplicate.message);
  }
  const lineCounter = new LineCounter();
  const parse = (): Document =>
    parseAllDocuments(text, { lineCounter, prettyErrors: false })[0] as unknown as Document;
  const items = isList(value) ? value.items.length : 0;
  return new SourceDoc(file, parse, lineCounter, value, new LaidOutItems(text, items));
}

function isList(v: unknown): v is { items: unknown[] } {
  return typeof v === "object" && v !== null && Array.isArray((v as { items?: unknown }).items);
}

/**
 * Item positions from the layout of pretty-printed JSON (kubectl's, jq's, JSON.stringify's), with
 * the scan below to fall back on: with `"items": [` indented by u, each element of that list opens
 * a line of its own indented by 2u (`{` alone), the one before it being `"items": [` or the previous
 * element's `},` at the same indent. Lines are walked newline to newline (a string search) rather
 * than character by character; at the first line that does not fit, the scan takes over.
 */
class LaidOutItems implements KnownPositions {
  private readonly found: Position[] = [];
  private line = 1;
  private from = 0;
  private fallback: ItemPositions | undefined;

  constructor(
    private readonly text: string,
    private readonly count: number,
  ) {
    const head = /\n( +)"items": \[\r?\n( +)\{/.exec(text);
    if (!head || head[2]!.length !== 2 * head[1]!.length) this.fallback = new ItemPositions(text);
    else this.indent = head[2]!;
  }

  private indent = "";

  get(path: string): Position | undefined {
    if (this.fallback) return this.fallback.get(path);
    const m = ITEM_PATH.exec(path);
    const n = m ? Number(m[1]) : -1;
    if (n < 0 || n >= this.count) return undefined;
    const { text, indent } = this;
    const open = `${indent}{`;
    const close = `${indent}},`;
    while (this.found.length <= n) {
      let i = text.indexOf("\n", this.from);
      for (; i >= 0 && !text.startsWith(open, i + 1); i = text.indexOf("\n", i + 1)) this.line++;
      const after = i < 0 ? -1 : text.charCodeAt(i + 1 + open.length);
      const before =
        this.found.length === 0
          ? /"items": \[\r?$/.test(text.slice(Math.max(0, i - 16), i))
          : text.slice(i - close.length, i).replace(/\r$/, "") === close ||
            text.slice(i - close.length - 1, i - 1) === close;
      if (i < 0 || !before || (after !== NEWLINE && after !== 13)) {
        this.fallback = new ItemPositions(text);
        return this.fallback.get(path);
      }
      this.line++;
      this.found.push({ line: this.line, col: indent.length + 1 });
      this.from = i + 1;
    }
    return this.found[n];
  }
}

/** 1-based line and column of a character offset. */
function positionOf(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, col: offset - lineStart + 1 };
}

const QUOTE = 34;
const BACKSLASH = 92;
const NEWLINE = 10;
const ITEM_PATH = /^items\[(\d+)\]$/;

/**
 * `items[i]` → where element i of the root object's `items` list begins (valid JSON only), found by
 * scanning the text only as far as element i: a load that shows no position scans none of it.
 */
class ItemPositions implements KnownPositions {
  private readonly found: Position[] = [];
  private i = 0;
  private depth = 0;
  private line = 1;
  private lineStart = 0;
  private lastString = "";
  private key = "";
  private inItems = false;
  private expectItem = false;

  constructor(private readonly text: string) {}

  get(path: string): Position | undefined {
    const m = ITEM_PATH.exec(path);
    if (!m) return undefined;
    const n = Number(m[1]);
    while (this.found.length <= n && this.i < this.text.length) this.scanToNextItem();
    return this.found[n];
  }

  /** Scans on until one more item is found or the text ends (locals: this loop reads 100s of MB). */
  private scanToNextItem(): void {
    const text = this.text;
    const end = text.length;
    let { i, depth, line, lineStart, lastString, key, inItems, expectItem } = this;
    let found: Position | undefined;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === NEWLINE) {
        line++;
        lineStart = i + 1;
        // The indentation of pretty-printed JSON (most of kubectl's output), in a tighter loop.
        while (text.charCodeAt(i + 1) === 32) i++;
        continue;
      }
      if (c <= 32) continue;
      if (c === QUOTE) {
        let close = text.indexOf('"', i + 1);
        while (close > 0 && isEscaped(text, close)) close = text.indexOf('"', close + 1);
        if (close < 0) close = end;
        if (inItems && depth === 2 && expectItem) {
          found = { line, col: i - lineStart + 1 };
          expectItem = false;
        }
        if (depth === 1) lastString = text.slice(i + 1, close);
        i = close;
        if (found) break;
        continue;
      }
      if (c === 58 /* : */) {
        if (depth === 1) key = lastString;
        continue;
      }
      if (c === 44 /* , */) {
        if (inItems && depth === 2) expectItem = true;
        continue;
      }
      if (inItems && depth === 2 && expectItem && c !== 93) {
        found = { line, col: i - lineStart + 1 };
        expectItem = false;
      }
      if (c === 123 /* { */ || c === 91 /* [ */) {
        depth++;
        if (depth === 2 && c === 91 && key === "items") {
          inItems = true;
          expectItem = true;
        }
      } else if (c === 125 /* } */ || c === 93 /* ] */) {
        depth--;
        if (depth === 1) inItems = false;
      }
      if (found) break;
    }
    if (found) {
      this.found.push(found);
      i++;
    }
    Object.assign(this, { i, depth, line, lineStart, lastString, key, inItems, expectItem });
  }
}

/** Whether the quote at `at` is escaped (an odd number of backslashes before it). */
function isEscaped(text: string, at: number): boolean {
  let n = 0;
  for (let j = at - 1; j >= 0 && text.charCodeAt(j) === BACKSLASH; j--) n++;
  return n % 2 === 1;
}
