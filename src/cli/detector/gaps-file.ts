// `--gaps-file`: measured gaps between heartbeats, read as the scenario loader reads its files: a regular
// file only (a FIFO, /dev/zero or a folder is a one-line error, and opening never blocks), at most
// MAX_FILE_BYTES (16 MiB, load/source.ts), streamed in chunks so the text is never held whole. Errors name
// the file, line and column.
//
// Format: gaps separated by whitespace, commas or semicolons, `#` starts a comment. Each gap is a duration
// with its unit (980ms, 1.02s; load/units.ts `parseDuration`), or a bare number once the file has said its
// unit on a line of its own: `# unit: ms` (or s, us, µs). A bare number without a declared unit is refused:
// scenario files read bare numbers as seconds, and measurement tools usually write milliseconds.

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { MAX_TIME_MS } from "../../detectors/index.ts";
import { MAX_FILE_BYTES } from "../../load/source.ts";
import { UnitError } from "../../load/units.ts";
import { UsageError } from "../io.ts";
import { durationMs } from "./duration.ts";

const CHUNK_BYTES = 1 << 20;
const UNIT_LINE = /^\s*#\s*unit\s*:\s*(\S+)\s*$/i;
const BARE = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;
/** Milliseconds per unit a file may declare for its bare numbers. */
const DECLARED_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000 };

/** The gaps (ms) in `path`; a UsageError (exit 2) for anything but a readable regular file of gaps. */
export function readGapsFile(path: string): number[] {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO with no writer returns at once (then fstat refuses it) instead of waiting.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw new UsageError(`--gaps-file: ${path}: ${reason(e)}`);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new UsageError(`--gaps-file: ${path} is a folder, not a file of gaps`);
    if (!stat.isFile())
      throw new UsageError(`--gaps-file: ${path} is not a regular file (a device, FIFO or socket)`);
    if (stat.size > MAX_FILE_BYTES) throw tooLarge(path, stat.size);
    return parse(path, fd);
  } finally {
    closeSync(fd);
  }
}

function tooLarge(path: string, bytes: number): UsageError {
  return new UsageError(
    `--gaps-file: ${path} is ${(bytes / 1024 / 1024).toFixed(1)} MiB; files larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB are refused (sample the gaps, or give their distribution with --mean-gap, --dist and --tail)`,
  );
}

/** Reads and parses chunk by chunk; the file may not grow past the limit while it is read. */
function parse(path: string, fd: number): number[] {
  const gaps: number[] = [];
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const buffer = Buffer.alloc(CHUNK_BYTES);
  let unitMs: number | undefined;
  let rest = "";
  let lineNo = 0;
  let total = 0;
  const line = (text: string): void => {
    lineNo++;
    const declared = UNIT_LINE.exec(text);
    if (declared) {
      const u = DECLARED_UNITS[declared[1]!];
      if (u === undefined) {
        throw new UsageError(`${path}:${lineNo}:1: unknown unit "${declared[1]}" (ns, us, ms or s)`);
      }
      unitMs = u;
      return;
    }
    const hash = text.indexOf("#");
    const body = hash < 0 ? text : text.slice(0, hash);
    const tokens = /[^\s,;]+/g;
    for (let m = tokens.exec(body); m !== null; m = tokens.exec(body)) {
      gaps.push(gap(path, lineNo, m.index + 1, m[0], unitMs));
    }
  };
  for (;;) {
    const n = readSync(fd, buffer, 0, CHUNK_BYTES, null);
    total += n;
    if (total > MAX_FILE_BYTES) throw tooLarge(path, total);
    let text: string;
    try {
      text = decoder.decode(buffer.subarray(0, n), { stream: n > 0 });
    } catch {
      throw new UsageError(
        `${path}: not valid UTF-8 text (within its first ${total.toLocaleString("en-US")} bytes)`,
      );
    }
    const lines = (rest + text).split(/\r?\n/);
    rest = lines.pop()!;
    for (const l of lines) line(l);
    if (n === 0) break;
  }
  if (rest !== "") line(rest);
  if (gaps.length === 0) throw new UsageError(`--gaps-file: ${path} holds no gaps`);
  return gaps;
}

/** One gap token, in ms. */
function gap(path: string, lineNo: number, col: number, token: string, unitMs: number | undefined): number {
  const at = `${path}:${lineNo}:${col}`;
  if (BARE.test(token)) {
    if (unitMs === undefined) {
      throw new UsageError(
        `${at}: "${token}" needs a unit (e.g. ${token}ms), or say the file's unit once with a line "# unit: ms"`,
      );
    }
    const v = Number(token) * unitMs;
    if (!(v >= 0 && v < Number.POSITIVE_INFINITY))
      throw new UsageError(`${at}: "${token}" is not a gap >= 0`);
    return withinLimit(at, token, v);
  }
  let ms: number;
  try {
    ms = durationMs(token);
  } catch (e) {
    if (e instanceof UnitError) throw new UsageError(`${at}: "${token}" is not a gap: ${e.message}`);
    throw e;
  }
  if (!(ms >= 0) || !Number.isFinite(ms)) throw new UsageError(`${at}: "${token}" is not a gap >= 0`);
  return withinLimit(at, token, ms);
}

/**
 * The detectors take times and gaps up to MAX_TIME_MS (2^53 µs, about 285 years: a time in ms kept
 * exact to the microsecond, detectors/validate.ts); a longer gap is refused where it stands.
 */
function withinLimit(at: string, token: string, ms: number): number {
  if (ms > MAX_TIME_MS)
    throw new UsageError(
      `${at}: "${token}" is longer than 285 years (${MAX_TIME_MS} ms), the longest gap the detectors take`,
    );
  return ms;
}

function reason(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES") return "permission denied";
  return e instanceof Error ? e.message : String(e);
}
