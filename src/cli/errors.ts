// How the command line reports what went wrong: a load error as one located line (exit 2), and a
// real internal error as one short paragraph that says how to report it (exit 1), with the stack
// only when FAULTLINE_DEBUG=1.

import { formatLoadError, LoadError } from "../load/core.ts";
import { EXIT_BAD_INPUT, EXIT_INTERNAL, type Io } from "./io.ts";

/** If `error` is a LoadError, prints it on one line and returns EXIT_BAD_INPUT; otherwise undefined. */
export function reportLoadError(error: unknown, io: Io): number | undefined {
  if (!(error instanceof LoadError)) return undefined;
  io.err(`${formatLoadError(error)}\n`);
  return EXIT_BAD_INPUT;
}

/** A failure that is faultline's own: what happened, that it is a bug, and how to report it. */
export function reportInternalError(error: unknown, io: Io, env: NodeJS.ProcessEnv = process.env): number {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  io.err(
    `faultline: internal error: ${message.split("\n")[0]}\n` +
      "  This is a bug in faultline, not a problem with your input. Please report it to faultline's\n" +
      "  maintainers with the command you ran, the scenario and its manifests, and `faultline --version`;\n" +
      "  run it again with FAULTLINE_DEBUG=1 to include the stack trace.\n",
  );
  if (env.FAULTLINE_DEBUG === "1" && error instanceof Error && error.stack) io.err(`${error.stack}\n`);
  return EXIT_INTERNAL;
}
