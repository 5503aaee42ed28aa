// Running the audit in tests: through the command line in-process (test/cli/helpers.ts), one worker
// (--jobs 1 runs in this thread), the result parsed; and lookups into it.

import type { AuditResult, Finding } from "../../src/audit/types.ts";
import { cli } from "../cli/helpers.ts";

export interface Audited {
  code: number;
  err: string;
  result: AuditResult;
}

export async function auditJson(args: string[]): Promise<Audited> {
  const r = await cli(["audit", ...args, "--json", "--jobs", "1"]);
  if (r.out === "") throw new Error(`audit printed nothing (exit ${r.code}): ${r.err}`);
  return { code: r.code, err: r.err, result: JSON.parse(r.out) as AuditResult };
}

/** The findings of `rule` whose location is in a file ending with `file`. */
export function findingsOf(result: AuditResult, rule: string, file?: string): Finding[] {
  return result.findings.filter(
    (f) => f.rule === rule && (file === undefined || f.location.file.endsWith(file)),
  );
}

/** The figures a finding's consequence names, as its run measured them. */
export function measured(result: AuditResult, f: Finding) {
  const run = result.runs.find((r) => r.id === f.consequence.run);
  if (!run) return undefined;
  return Object.values(run.services).includes(f.consequence.figures as never)
    ? f.consequence.figures
    : [...Object.values(run.services), ...Object.values(run.workloads)].find(
        (g) => JSON.stringify(g) === JSON.stringify(f.consequence.figures),
      );
}
