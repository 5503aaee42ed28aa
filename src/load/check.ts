// Small validators over plain values with a path, throwing a positioned LoadError on the first
// problem. Hand-written rather than a schema library: every message names the field and what
// would be valid, and unknown fields point at their key with a "did you mean" suggestion.

import type { LoadErrorCode } from "./errors.ts";
import type { Path, SourceDoc } from "./source.ts";
import { parseDuration, parseQuantity, UnitError } from "./units.ts";

export type Obj = Record<string, unknown>;

export function fail(
  src: SourceDoc,
  path: Path,
  code: LoadErrorCode,
  message: string,
  target: "key" | "value" = "value",
): never {
  throw src.error(code, path, message, target);
}

/** A value as the user wrote it, for messages. */
export function show(v: unknown): string {
  if (v === null || v === undefined) return "an empty value";
  if (typeof v === "string") return JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a mapping";
  return String(v);
}

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function obj(src: SourceDoc, path: Path, v: unknown, what = "a mapping"): Obj {
  if (!isObj(v)) fail(src, path, "invalid-type", `${show(v)} is not ${what}`);
  return v;
}

export function list(src: SourceDoc, path: Path, v: unknown, what = "a list"): unknown[] {
  if (!Array.isArray(v)) fail(src, path, "invalid-type", `${show(v)} is not ${what}`);
  return v;
}

/** Rejects keys not in `known`, pointing at the key, with kubectl's wording and a suggestion. */
export function knownFields(
  src: SourceDoc,
  path: Path,
  o: Obj,
  known: readonly string[],
  type?: string,
): void {
  for (const key of Object.keys(o)) {
    if (known.includes(key)) continue;
    const near = closest(key, known);
    const hint = near ? ` (did you mean "${near}"?)` : "";
    fail(
      src,
      [...path, key],
      "unknown-field",
      `unknown field "${key}"${type ? ` in ${type}` : ""}${hint}`,
      "key",
    );
  }
}

export function required(src: SourceDoc, path: Path, o: Obj, key: string, type?: string): unknown {
  const v = o[key];
  if (v === undefined || v === null) {
    fail(src, [...path, key], "missing-field", `missing required field "${key}"${type ? ` in ${type}` : ""}`);
  }
  return v;
}

export function str(src: SourceDoc, path: Path, v: unknown): string {
  if (typeof v !== "string") fail(src, path, "invalid-type", `${show(v)} is not a string`);
  return v;
}

export function optStr(src: SourceDoc, path: Path, v: unknown): string | undefined {
  return v === undefined || v === null ? undefined : str(src, path, v);
}

export function bool(src: SourceDoc, path: Path, v: unknown): boolean {
  if (typeof v !== "boolean") fail(src, path, "invalid-type", `${show(v)} is not a boolean (true or false)`);
  return v;
}

export function optBool(src: SourceDoc, path: Path, v: unknown): boolean | undefined {
  return v === undefined || v === null ? undefined : bool(src, path, v);
}

export interface Range {
  min?: number;
  /** How to print `min` in a message ("1ms"). */
  minText?: string;
  max?: number;
  /** How to print `max` in a message ("7 days"). */
  maxText?: string;
}

function inRange(src: SourceDoc, path: Path, n: number, range: Range, raw: unknown): number {
  if (range.min !== undefined && n < range.min) {
    fail(src, path, "invalid-value", `${show(raw)} is too small: must be at least ${range.min}`);
  }
  if (range.max !== undefined && n > range.max) {
    fail(src, path, "invalid-value", `${show(raw)} is too large: must be at most ${range.max}`);
  }
  return n;
}

export function int(src: SourceDoc, path: Path, v: unknown, range: Range = {}): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v)) {
    fail(src, path, "invalid-type", `${show(v)} is not an integer`);
  }
  return inRange(src, path, v, range, v);
}

export function optInt(src: SourceDoc, path: Path, v: unknown, range: Range = {}): number | undefined {
  return v === undefined || v === null ? undefined : int(src, path, v, range);
}

export function num(src: SourceDoc, path: Path, v: unknown, range: Range = {}): number {
  if (typeof v !== "number" || !Number.isFinite(v))
    fail(src, path, "invalid-type", `${show(v)} is not a number`);
  return inRange(src, path, v, range, v);
}

export function oneOf<T extends string>(src: SourceDoc, path: Path, v: unknown, values: readonly T[]): T {
  if (typeof v !== "string" || !(values as readonly string[]).includes(v)) {
    const near = typeof v === "string" ? closest(v, values) : undefined;
    const hint = near ? `; did you mean "${near}"?` : "";
    fail(
      src,
      path,
      "invalid-value",
      `${show(v)} is not one of ${values.map((x) => JSON.stringify(x)).join(", ")}${hint}`,
    );
  }
  return v as T;
}

export function optOneOf<T extends string>(
  src: SourceDoc,
  path: Path,
  v: unknown,
  values: readonly T[],
): T | undefined {
  return v === undefined || v === null ? undefined : oneOf(src, path, v, values);
}

export const DURATION_HINT = "use Go-style like 10s, 1m30s, 500ms, or seconds as a number";

/** Seconds, from a Go-style duration or a number. */
export function duration(src: SourceDoc, path: Path, v: unknown, range: Range = { min: 0 }): number {
  if (typeof v !== "string" && typeof v !== "number") {
    fail(src, path, "invalid-duration", `${show(v)} is not a duration (${DURATION_HINT})`);
  }
  let seconds: number;
  try {
    seconds = parseDuration(v);
  } catch (e) {
    let why = e instanceof UnitError && e.message.startsWith("unknown unit") ? `${e.message}; ` : "";
    const days = typeof v === "string" ? /^(\d+(?:\.\d+)?)d$/.exec(v.trim()) : null;
    if (days) why = `Go durations have no days: write ${Number(days[1]) * 24}h; `;
    fail(src, path, "invalid-duration", `${show(v)} is not a duration (${why}${DURATION_HINT})`);
  }
  if (range.min !== undefined && seconds < range.min) {
    const what = seconds < 0 ? "negative" : "too short";
    fail(
      src,
      path,
      "invalid-duration",
      `${show(v)} is ${what}: must be at least ${range.minText ?? `${range.min}s`}`,
    );
  }
  if (range.max !== undefined && seconds > range.max) {
    fail(
      src,
      path,
      "invalid-duration",
      `${show(v)} is too long: must be at most ${range.maxText ?? `${range.max}s`}`,
    );
  }
  return seconds;
}

export const QUANTITY_HINT =
  'use a Kubernetes quantity like "500m", "2", "512Mi", "16Gi" or "1G" (suffixes Ki Mi Gi Ti Pi Ei, k M G T P E, m)';

/** A Kubernetes quantity (never negative). */
export function quantity(src: SourceDoc, path: Path, v: unknown): number {
  if (typeof v !== "string" && typeof v !== "number") {
    fail(src, path, "invalid-quantity", `${show(v)} is not a quantity (${QUANTITY_HINT})`);
  }
  let n: number;
  try {
    n = parseQuantity(v);
  } catch {
    const unit = typeof v === "string" ? /^[+-]?[\d.]+\s*([A-Za-z]+)$/.exec(v)?.[1] : undefined;
    const why = unit ? `unknown unit "${unit}"; ` : "";
    fail(src, path, "invalid-quantity", `${show(v)} is not a quantity (${why}${QUANTITY_HINT})`);
  }
  if (n < 0) fail(src, path, "invalid-quantity", `${show(v)} is negative: a quantity must be at least 0`);
  if (n > MAX_QUANTITY)
    fail(
      src,
      path,
      "invalid-quantity",
      `${show(v)} is too large: a quantity is at most 2^63-1 (9223372036854775807), as resource.Quantity holds it`,
    );
  return n;
}

/**
 * resource.Quantity (apimachinery pkg/api/resource/quantity.go): "no quantity may represent a number
 * greater than 2^63-1 in magnitude"; its Value and MilliValue, which the scheduler and the kubelet
 * read, are int64 and overflow beyond it.
 */
export const MAX_QUANTITY = 2 ** 63 - 1;

/** Labels, annotations, nodeSelector: a map of strings to strings. */
export function stringMap(src: SourceDoc, path: Path, v: unknown): Record<string, string> {
  const o = obj(src, path, v);
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(o)) {
    if (typeof val !== "string") {
      const quoted = typeof val === "number" || typeof val === "boolean";
      fail(
        src,
        [...path, k],
        "invalid-type",
        `${show(val)} is not a string${quoted ? ` (quote it: "${String(val)}")` : ""}`,
      );
    }
    out[k] = val;
  }
  return out;
}

/** The closest candidate within a small edit distance, for "did you mean". */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const d = c.toLowerCase() === lower ? 0 : editDistance(lower, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  const limit = Math.max(2, Math.floor(word.length / 3));
  if (bestDistance <= limit) return best;
  // A truncated word ("NoExec", "readiness") names the one candidate it begins.
  if (word.length >= 3) {
    const prefixed = candidates.filter((c) => c.toLowerCase().startsWith(lower));
    if (prefixed.length === 1) return prefixed[0];
  }
  return undefined;
}

/** Damerau-Levenshtein (optimal string alignment): a swapped pair of letters costs 1. */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(
        d[(i - 1) * cols + j]! + 1,
        d[i * cols + j - 1]! + 1,
        d[(i - 1) * cols + j - 1]! + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, d[(i - 2) * cols + j - 2]! + 1);
      }
      d[i * cols + j] = v;
    }
  }
  return d[rows * cols - 1]!;
}
