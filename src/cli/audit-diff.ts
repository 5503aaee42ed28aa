// `faultline audit diff BASE.json HEAD.json`: two `audit --json` outputs (a change's base and head)
// → the Markdown a pull request's comment shows (audit/diff.ts). Each file is checked to be an audit
// output of this format version, else one line says what it is not (exit 2).

import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { formatDiff } from "../audit/diff.ts";
import type { AuditJson } from "../audit/types.ts";
import { FORMAT_VERSION } from "../report/contract.ts";
import { type Io, UsageError } from "./io.ts";

export function registerAuditDiff(cmd: Command, io: Io, setExit: (code: number) => void): void {
  cmd
    .command("diff")
    .description(
      "what a change does to failures: two `audit --json` outputs (base, head) → Markdown for a pull request",
    )
    .argument("<base>", "the base's audit --json")
    .argument("<head>", "the head's audit --json")
    .action((base: string, head: string) => {
      io.out(formatDiff(readAuditJson(base), readAuditJson(head)));
      setExit(0);
    });
}

/** An `audit --json` output of this format version, or one line saying what it is not. */
function readAuditJson(file: string): AuditJson {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new UsageError(`audit diff: ${file}: ${(e as Error).message.split("\n")[0]}`);
  }
  const v = value as Partial<AuditJson> | null;
  if (!v || typeof v !== "object" || !Array.isArray(v.findings) || !Array.isArray(v.runs))
    throw new UsageError(`audit diff: ${file}: not the output of faultline audit --json`);
  if (v.formatVersion !== FORMAT_VERSION)
    throw new UsageError(
      `audit diff: ${file}: format version ${String(v.formatVersion)}, this faultline reads ${FORMAT_VERSION}: rerun its audit with this version`,
    );
  return v as AuditJson;
}
