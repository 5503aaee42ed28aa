// What a command writes to, and the process's side of it. main() passes the process's streams
// (processIo); tests pass buffers. Everything written goes through escapingIo (control characters
// from the user's files never reach the terminal as they are); a closed standard output ends the
// process quietly (guardStreams).

import { escapeControls, escapeJsonControls } from "../report/escape.ts";

export interface Io {
  out(text: string): void;
  /** Text already escaped for its format (JSON's escapes): written without the boundary's escaping. */
  outEscaped?: (text: string) => void;
  err(text: string): void;
  /** A progress line on a terminal, rewritten in place (undefined clears it); absent when stderr is not one. */
  progress?: (line: string | undefined) => void;
}

export const processIo: Io = {
  out: (text) => {
    process.stdout.write(text);
  },
  err: (text) => {
    process.stderr.write(text);
  },
  ...(process.stderr.isTTY
    ? {
        progress: (line: string | undefined) => {
          // Carriage return, the line, erase to its end: one line, rewritten; cleared at the end.
          const width = Math.max(20, (process.stderr.columns || 80) - 1);
          process.stderr.write(`\r${line === undefined ? "" : line.slice(0, width)}\u001b[K`);
        },
      }
    : {}),
};

/** The output boundary: every text written is escaped once here (report/escape.ts). */
export function escapingIo(io: Io): Io {
  const { progress } = io;
  return {
    out: (text) => io.out(escapeControls(text)),
    outEscaped: (text) => io.out(text),
    err: (text) => io.err(escapeControls(text)),
    ...(progress
      ? { progress: (line) => progress(line === undefined ? undefined : escapeControls(line)) }
      : {}),
  };
}

/** How much output one write carries (64 KiB: larger writes measured no faster), never the whole output. */
const WRITE_SIZE = 1 << 16;

/**
 * Output written as it is made, in writes of about 64 KiB, each joined from its pieces once. JSON has
 * its control characters written as JSON escapes (escapeJsonControls) and skips the boundary's scan,
 * which would find none left; text is escaped at the boundary (escapingIo).
 */
export function writeChunks(io: Io, chunks: Iterable<string>, format: "text" | "json"): void {
  const write = format === "json" ? (t: string) => (io.outEscaped ?? io.out)(escapeJsonControls(t)) : io.out;
  let pieces: string[] = [];
  let size = 0;
  for (const chunk of chunks) {
    pieces.push(chunk);
    size += chunk.length;
    if (size < WRITE_SIZE) continue;
    write(pieces.join(""));
    pieces = [];
    size = 0;
  }
  if (size > 0) write(pieces.join(""));
}

/** Exit codes: 0 ok, 1 an internal failure, 2 bad input (a usage error, an invalid file, a budget). */
export const EXIT_INTERNAL = 1;
export const EXIT_BAD_INPUT = 2;
/** Standard output was closed before we finished (`| head`): 128 + SIGPIPE, as a shell reports it. */
export const EXIT_CLOSED_OUTPUT = 141;

/** A user error that ends the command with exit code 2 and this one-line message. */
export class UsageError extends Error {}

let guarded = false;

/**
 * The process's streams: a reader that goes away (`| head -1`: EPIPE) ends the process quietly with
 * 141; any other write failure of standard output (`> /dev/full`: ENOSPC) is one line and exit 2.
 * Without this, Node prints the stream's unhandled 'error' event with a stack.
 */
export function guardStreams(): void {
  if (guarded) return;
  guarded = true;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(EXIT_CLOSED_OUTPUT);
    try {
      process.stderr.write(`faultline: cannot write the output: ${systemMessage(error)}\n`);
    } catch {
      // stderr is gone too: nothing left to tell
    }
    process.exit(EXIT_BAD_INPUT);
  });
  // Nowhere to report a failing stderr: end as a closed pipe does, or keep the status we have.
  process.stderr.on("error", () =>
    process.exit(process.exitCode === undefined ? EXIT_CLOSED_OUTPUT : Number(process.exitCode)),
  );
}

const SYSTEM_ERRORS: Record<string, string> = {
  ENOSPC: "no space left on the device",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EISDIR: "it is a directory",
  ENOENT: "no such file or folder",
  ENOTDIR: "a part of the path is not a folder",
  EROFS: "read-only file system",
  EDQUOT: "disk quota exceeded",
  EFBIG: "file too large",
  EIO: "input/output error",
  EPIPE: "the reader went away",
  EMFILE: "too many open files",
  ENAMETOOLONG: "the name is too long",
  ELOOP: "too many symbolic links",
};

/** A system error as one short phrase with its code: "no space left on the device (ENOSPC)". */
export function systemMessage(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && SYSTEM_ERRORS[code]) return `${SYSTEM_ERRORS[code]} (${code})`;
  const message = error instanceof Error ? error.message : String(error);
  return code ? `${message.split("\n")[0]} (${code})` : message.split("\n")[0]!;
}
