// `faultline replay --events EVENTS --cluster DUMP [--audit-log AUDIT]`: an incident's Events (and
// audit log) stand in for a recording: the fault reconstructed, the model run from
// the dump with it, each step observed against predicted, and the audit's fixes against it.

import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { parseAuditLog } from "../compare/audit-log.ts";
import { parseEvents } from "../compare/events.ts";
import { fixesFor } from "../compare/incident-fixes.ts";
import { replay } from "../compare/replay.ts";
import { replayJson, replayText } from "../compare/replay-format.ts";
import { MAX_DUMP_BYTES } from "../load/cluster/dump.ts";
import { parseJsonDump } from "../load/cluster/json.ts";
import { parseYamlFile } from "../load/source.ts";
import type { KubeObject } from "../record/recording.ts";
import type { ManifestFile } from "../scenario/types.ts";
import { readDump } from "./audit-input.ts";
import { reportLoadError } from "./errors.ts";
import { type Io, UsageError } from "./io.ts";

interface ReplayFlags {
  events: string;
  cluster: string;
  auditLog?: string;
  json?: boolean;
  fixes: boolean;
  seeds: string;
  node?: string;
}

function readText(file: string, flag: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`${flag} ${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}

/** The dump's objects (a List's items, or each document), to see where each pod ran. */
function objectsOf(files: ManifestFile[]): KubeObject[] {
  const out: KubeObject[] = [];
  for (const f of files)
    for (const doc of [
      parseJsonDump(f.text, f.file) ?? parseYamlFile(f.text, f.file, MAX_DUMP_BYTES),
    ].flat()) {
      const v = doc.value as { kind?: string; items?: unknown[] } | null;
      if (v && Array.isArray(v.items)) out.push(...(v.items as KubeObject[]));
      else if (v) out.push(v as KubeObject);
    }
  return out;
}

export function registerReplayCommand(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command("replay")
    .description(
      "replay an incident from its Events (kubectl get events -A -o json) and the cluster's dump: the fault reconstructed, each step observed against the model, and the audit's fixes against it",
    )
    .requiredOption(
      "--events <file>",
      "the incident's Events: kubectl get events -A -o json (core/v1 or events.k8s.io/v1)",
    )
    .requiredOption(
      "--cluster <dump>",
      "the cluster as it was: a kubectl get … -A -o json dump (a file or a folder), as simulate --cluster reads it",
    )
    .option(
      "--audit-log <file>",
      "the kube-apiserver audit log (JSON lines of audit.k8s.io/v1 Events): the Lease renewals and the node controller's writes, to the microsecond",
    )
    .option("--node <name>", "the node to follow when several went NotReady (default: the first)")
    .option("--json", "print the replay as JSON")
    .option("--no-fixes", "do not simulate the audit's fixes against the incident")
    .option("--seeds <n>", "how many seeds the model runs under (its spread)", "8")
    .action(async (opts: ReplayFlags) => {
      const seeds = Number(opts.seeds);
      if (!Number.isInteger(seeds) || seeds < 1 || seeds > 100)
        throw new UsageError(`--seeds: "${opts.seeds}" is not a whole number from 1 to 100`);
      try {
        const events = parseEvents(readText(opts.events, "--events"), opts.events);
        const audit =
          opts.auditLog !== undefined
            ? parseAuditLog(readText(opts.auditLog, "--audit-log"), opts.auditLog)
            : undefined;
        const dump = readDump(opts.cluster);
        const r = replay({
          events,
          ...(audit ? { audit } : {}),
          dump: { ...dump, objects: objectsOf(dump.files) },
          seeds: Array.from({ length: seeds }, (_, i) => i + 1),
          ...(opts.node !== undefined ? { node: opts.node } : {}),
        });
        if (opts.fixes) r.fixes = await fixesFor(dump.entry, dump.files, r.fault.node);
        io.out(opts.json ? replayJson(r) : replayText(r, opts.fixes));
      } catch (e) {
        const code = reportLoadError(e, io);
        if (code === undefined) throw e;
        setExit(code);
      }
    });
}
