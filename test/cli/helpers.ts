// Running the command line in tests: in-process through main(argv, io) with buffers (fast), or as a
// real process from the source tree (test/cli/bin.ts) where the process's streams matter.

import { spawn } from "node:child_process";
import { main } from "../../src/cli/main.ts";

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

export async function cli(argv: string[], progress?: (line: string | undefined) => void): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    out: (s) => out.push(s),
    err: (s) => err.push(s),
    ...(progress ? { progress } : {}),
  });
  return { code, out: out.join(""), err: err.join("") };
}

/** `node --import tsx test/cli/bin.ts …` in a shell, so pipes and redirections are real. */
export function shell(command: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", command], {
      cwd: process.cwd(),
      env: { ...process.env, FAULTLINE_DEBUG: "" },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      err += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, out, err }));
  });
}

export const FAULTLINE = "node --import tsx test/cli/bin.ts";

/** One line on stderr, no stack frame. */
export function oneLine(err: string): boolean {
  return err.trim().split("\n").length === 1 && !/^\s+at /m.test(err);
}
