// The faultline command: parse arguments, call load → run → report, map errors to exit codes.
// Everything written passes the output boundary (io.ts escapingIo); `runProcess` is the process's
// entry (bin/faultline.js): it guards the streams and catches what nothing else did.

import { createRequire } from "node:module";
import { setFlagsFromString } from "node:v8";
import { Command, CommanderError } from "commander";
import { type Hdr, provideHdr } from "../traffic/hdr.ts";
import { reportInternalError } from "./errors.ts";
import { EXIT_BAD_INPUT, escapingIo, guardStreams, type Io, processIo, UsageError } from "./io.ts";

// hdr-histogram-js is required at a run's first latency histogram (traffic/hdr.ts), not at start-up.
provideHdr(() => createRequire(import.meta.url)("hdr-histogram-js") as Hdr);

type Register = (program: Command, io: Io, setExit: (code: number) => void) => void;

/**
 * Each command and where it is defined, in the order help lists them. Imported when used: a command
 * brings its whole tree of modules (the audit its pool, serve its HTTP server), and `faultline simulate`
 * should not pay for the others' (about 70 ms of a 1,000-node run's start-up).
 */
const COMMANDS: [name: string, load: () => Promise<Register>][] = [
  ["simulate", async () => (await import("./simulate.ts")).registerSimulateCommand],
  ["detector", async () => (await import("./detector/index.ts")).registerDetectorCommands],
  ["probes", async () => (await import("./probes.ts")).registerProbesCommand],
  ["serve", async () => (await import("./serve.ts")).registerServeCommand],
  ["audit", async () => (await import("./audit.ts")).registerAuditCommand],
  ["record", async () => (await import("./record.ts")).registerRecordCommand],
  ["compare", async () => (await import("./compare.ts")).registerCompareCommand],
  ["replay", async () => (await import("./replay.ts")).registerReplayCommand],
];

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
  // A command named first is the only one defined (its help and errors name no other); anything
  // else (help, --version, a mistake) gets them all.
  const named = COMMANDS.filter(([name]) => name === argv[0]);
  for (const [, load] of named.length > 0 ? named : COMMANDS) (await load())(program, io, setExit);

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

/** V8's --heap-growing-percent for the command's process (runProcess). */
export const HEAP_GROWING_PERCENT = 60;

/** The process's entry: guarded streams, the exit code, and no stack for what escaped everything. */
export async function runProcess(argv: string[]): Promise<void> {
  guardStreams();
  // The old generation grows by 1.6× its live size after a full collection, not V8's up to 4×: a long
  // run's cluster state (1,000 nodes and 30,000 pods: about 115 MiB) lives for the whole run while
  // what it posts and delivers every few minutes (node status, watch events) is garbage that outlives
  // the young generation, so with 4× a quiet day of 1,000 nodes peaked at 570 MiB against 230 MiB for
  // its first 15 minutes; with 1.6× it peaks near 300 MiB, and on this machine class every fresh page
  // costs CPU too. The outputs do not depend on it.
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
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
