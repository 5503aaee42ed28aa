// A cluster dump in JSON (`kubectl get … -o json`), read with JSON.parse: on a dump of 30,000 pods
// the YAML reader (which keeps every node's position) takes seconds per 10 MB, JSON.parse a fraction
// of a second. The position of each top-level `items` element comes from one scan of the text; any
// other position (an error inside an object) parses the text as YAML (JSON is YAML) on demand.

import { type Document, LineCounter, parseAllDocuments } from "yaml";
import { LoadError } from "../errors.ts";
import { formatPath, type Position, SourceDoc } from "../source.ts";

/** The text as one JSON document, or undefined when it does not look like JSON (it is YAML then). */
export function parseJsonDump(text: string, file: string): SourceDoc | undefined {
  const start = text.search(/\S/);
  if (start < 0 || (text[start] !== "{" && text[start] !== "[")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const at = /position (\d+)/.exec(message);
    const { line, col } = positionOf(text, at ? Number(at[1]) : text.length);
    throw new LoadError("yaml-syntax", file, line, col, "", `invalid JSON: ${message}`);
  }
  const lineCounter = new LineCounter();
  const parse = (): Document =>
    parseAllDocuments(text, { lineCounter, prettyErrors: false })[0] as unknown as Document;
  return new SourceDoc(file, parse, lineCounter, value, itemPositions(text));
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

/** `items[i]` → where element i of the root object's `items` list begins (valid JSON only). */
function itemPositions(text: string): Map<string, Position> {
  const out = new Map<string, Position>();
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  let lastString = "";
  let key = "";
  let inItems = false;
  let expectItem = false;
  const record = (at: number): void => {
    out.set(formatPath(["items", out.size]), { line, col: at - lineStart + 1 });
    expectItem = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = text.indexOf('"', i + 1);
      while (end > 0 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
      if (inItems && depth === 2 && expectItem) record(i);
      if (depth === 1) lastString = text.slice(i + 1, end);
      i = end;
      continue;
    }
    if (c === NEWLINE) {
      line++;
      lineStart = i + 1;
      continue;
    }
    if (c <= 32) continue;
    if (c === 58 /* : */) {
      if (depth === 1) key = lastString;
      continue;
    }
    if (c === 44 /* , */) {
      if (inItems && depth === 2) expectItem = true;
      continue;
    }
    if (inItems && depth === 2 && expectItem && c !== 93) record(i);
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
  }
  return out;
}

/** Whether the quote at `at` is escaped (an odd number of backslashes before it). */
function isEscaped(text: string, at: number): boolean {
  let n = 0;
  for (let j = at - 1; j >= 0 && text.charCodeAt(j) === BACKSLASH; j--) n++;
  return n % 2 === 1;
}
