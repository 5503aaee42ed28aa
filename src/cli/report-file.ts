// Where `--report FILE` may write: checked before the run (a missing folder, a folder, a FIFO, the
// scenario or one of its manifests, a file that cannot be opened for writing), and written with
// every failure turned into one located line (exit 2), never an internal error.

import { closeSync, fstatSync, openSync, realpathSync, type Stats, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { parseReportInclude, type ReportInclude } from "../report/privacy.ts";
import { systemMessage, UsageError } from "./io.ts";

/**
 * Throws a UsageError naming `--report PATH` when the report cannot be written there. `inputs` are
 * the files the run reads: the scenario first when `scenarioFirst`, then the manifests.
 */
export function checkReportPath(path: string, inputs: readonly string[], scenarioFirst = true): void {
  const fail = (why: string): never => {
    throw new UsageError(`--report ${path}: ${why}`);
  };
  if (path === "") fail("an empty file name");
  // Every command that takes --report prints its text (or JSON) on standard output, so the page cannot
  // go there too; and `-` means standard input elsewhere (audit -, --cluster -), never a file named "-".
  if (path === "-")
    fail("standard output already carries the text; give the page a file name, e.g. report.html");
  const dir = dirname(path);
  const dirStat = statOrUndefined(dir);
  if (!dirStat) fail(`no folder ${dir} (create it first)`);
  if (!dirStat!.isDirectory()) fail(`${dir} is not a folder`);
  const target = statOrUndefined(path);
  if (target?.isDirectory()) fail("is a folder; give a file name, e.g. report.html");
  // /dev/stdout, /dev/fd/1, /proc/self/fd/1, or the file standard output is redirected to: the page
  // would be mixed into the text.
  const stdout = fstatOrUndefined(1);
  if (target && stdout && target.dev === stdout.dev && target.ino === stdout.ino)
    fail("is standard output, where the text goes; give the page a file of its own, e.g. report.html");
  if (target && (target.isFIFO() || target.isSocket())) fail("is a pipe or socket, not a file");
  const where = canonical(path);
  for (const input of inputs) {
    if (canonical(input) === where)
      fail(
        `is ${scenarioFirst && input === inputs[0] ? "the scenario file itself" : `${input}, a file this run reads`}; choose another name`,
      );
  }
  if (target?.isFile()) {
    // Opened for writing without truncating it: the run's output must not cost the old report yet.
    try {
      closeSync(openSync(path, "r+"));
    } catch (error) {
      fail(`cannot write: ${systemMessage(error)}`);
    }
  }
}

/** Runs `write` (which writes the report); a file-system failure becomes one located line. */
export async function writeReportFile<T>(path: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === "string" && /^E[A-Z]+$/.test(code))
      throw new UsageError(`--report ${path}: cannot write: ${systemMessage(error)}`);
    if (error instanceof RangeError && /string length/i.test(error.message))
      throw new UsageError(`--report ${path}: the run is too large for one page; shorten the scenario`);
    throw error;
  }
}

function fstatOrUndefined(fd: number): Stats | undefined {
  try {
    return fstatSync(fd);
  } catch {
    return undefined;
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The real path of a file, or of its folder joined with its name when the file does not exist yet. */
function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return resolve(realpathSync(dirname(path)), basename(path));
    } catch {
      return resolve(path);
    }
  }
}

/** `--report-include`, with `--report` only. */
export function reportIncludeOf(opts: { report?: string; reportInclude?: string }): Set<ReportInclude> {
  let include: Set<ReportInclude>;
  try {
    include = parseReportInclude(opts.reportInclude);
  } catch (e) {
    throw new UsageError(`--report-include: ${(e as Error).message}`);
  }
  if (opts.reportInclude !== undefined && opts.report === undefined)
    throw new UsageError("--report-include goes with --report");
  return include;
}
