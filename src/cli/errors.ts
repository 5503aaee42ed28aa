// Mapping load errors to the CLI's output: one line `file:line:col: path: message`, exit code 2,
// never a stack trace.

import { formatLoadError, LoadError } from "../load/core.ts";
import { EXIT_BAD_INPUT, type Io } from "./io.ts";

/** If `error` is a LoadError, prints it on one line and returns EXIT_BAD_INPUT; otherwise undefined. */
export function reportLoadError(error: unknown, io: Io): number | undefined {
  if (!(error instanceof LoadError)) return undefined;
  io.err(`${formatLoadError(error)}\n`);
  return EXIT_BAD_INPUT;
}
