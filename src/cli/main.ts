// The faultline command: parse arguments, call load → run → report, map errors to exit codes.
// Everything written passes the output boundary (io.ts escapingIo); `runProcess` is the process's
// entry (bin/faultline.js): it guards the streams and catches what nothing else did.

import { createRequire } from "node:module";
import { Command, CommanderError } from "commander";
import { registerAuditCommand } from "./audit.ts";
import { registerDetectorCommands } from "./detector/index.ts";
import { reportInternalError } from "./errors.ts";
import { EXIT_BAD_INPUT, escapingIo, guardStreams, type Io, processIo, UsageError } from "./io.ts";
import { registerProbesCommand } from "./probes.ts";
import { registerServeCommand } from "./serve.ts";
import { registerSimulateCommand } from "./simulate.ts";

export async function main(argv: string[], rawIo: Io = processIo): Promise<number> {
  if (rawIo === processIo) guardStreams();
  const io = escapingIo(rawIo);
  let exitCode = 0;
  const program = new Command("faultline")
    .description("What happens if…? Kubernetes failure handling and heartbeat failure detectors, simulated.")
    .version(packageVersion(), "--version", "print faultline's version")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });

  const setExit = (code: number) => {
    exitCode = code;
  };
  registerSimulateCommand(program, io, setExit);
  registerDetectorCommands(program, io, setExit);
  registerProbesCommand(program, io, setExit);
  registerServeCommand(program, io, setExit);
  registerAuditCommand(program, io, setExit);

  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with code 0; usage mistakes with Commander's own message.
      return error.exitCode === 0 ? 0 : EXIT_BAD_INPUT;
    }
    if (error instanceof UsageError) {
      io.err(`faultline: ${error.message}\n`);
      return EXIT_BAD_INPUT;
    }
    return reportInternalError(error, io);
  }
}

/** The process's entry: guarded streams, the exit code, and no stack for what escaped everything. */
export async function runProcess(argv: string[]): Promise<void> {
  guardStreams();
  const fail = (error: unknown) => {
    process.exitCode = reportInternalError(error, escapingIo(processIo));
  };
  process.on("uncaughtException", fail);
  process.on("unhandledRejection", fail);
  process.exitCode = await main(argv);
}

/** The version in package.json (two levels up from src/cli/ or dist/cli/). */
function packageVersion(): string {
  const pkg = createRequire(import.meta.url)("../../package.json") as { version: string };
  return pkg.version;
}
