// `faultline compare RECORDING [--fault power-off:NODE@TIME] [--json] [--fit [-o PROFILE]]`: a
// recording of a live cluster (faultline record) against the model run from its dump.

import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import type { Command } from "commander";
import { CompareError, compare, parseFaultFlag } from "../compare/compare.ts";
import { DEFAULT_FIT, fitSettings, profileYaml } from "../compare/fit.ts";
import { compareJson, compareText } from "../compare/format.ts";
import { compareHtml } from "../compare/html.ts";
import { parseRecording, RecordingError } from "../compare/read.ts";
import { formatLoadError, LoadError } from "../load/index.ts";
import { durationFlag } from "./duration-flag.ts";
import { EXIT_BAD_INPUT, type Io, UsageError } from "./io.ts";

interface CompareFlags {
  fault?: string;
  json?: boolean;
  fit?: boolean;
  html?: string;
  output?: string;
  monitorPeriod: string;
  resolution: string;
  seeds: string;
}

export function registerCompareCommand(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command("compare")
    .description(
      "compare a recording (faultline record) with the model run from its dump: each step's observed and predicted time, and whether it lies in the model's spread",
    )
    .argument("<recording>", "a recording written by faultline record (JSON lines)")
    .option(
      "--fault <fault>",
      "the fault, when the recording does not show it: power-off:NODE@TIME (RFC 3339)",
    )
    .option("--json", "print the comparison (or with --fit, the estimates) as JSON")
    .option("--html <file>", "also write the comparison as a page: both timelines on one axis")
    .option("--fit", "estimate the settings the recording implies and write them as a profile")
    .option("-o, --output <file>", "with --fit: the profile file to write", "my-cluster.yaml")
    .option("--monitor-period <time>", "with --fit: the node monitor period to assume", "5s")
    .option("--resolution <time>", "with --fit: the recording's time resolution (1s for metav1.Time)", "1s")
    .option("--seeds <n>", "how many seeds the model runs under (its spread)", "8")
    .action((file: string, opts: CompareFlags) => {
      const seeds = Number(opts.seeds);
      if (!Number.isInteger(seeds) || seeds < 1 || seeds > 100)
        throw new UsageError(`--seeds: "${opts.seeds}" is not a whole number from 1 to 100`);
      const monitorPeriod = durationFlag("--monitor-period", opts.monitorPeriod);
      const resolution = durationFlag("--resolution", opts.resolution);
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (e) {
        throw new UsageError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
      }
      try {
        const rec = parseRecording(text, file);
        const c = compare(rec, {
          ...(opts.fault !== undefined ? { fault: parseFaultFlag(opts.fault) } : {}),
          seeds: Array.from({ length: seeds }, (_, i) => i + 1),
        });
        if (opts.html !== undefined) writeFileSync(opts.html, compareHtml(c));
        if (!opts.fit) {
          io.out(opts.json ? compareJson(c) : compareText(c));
          return;
        }
        const fitOptions = { ...DEFAULT_FIT, monitorPeriod, resolution };
        const estimates = fitSettings(rec, c.fault, c.observedAt, fitOptions);
        const name = basename(opts.output ?? "my-cluster.yaml").replace(/\.ya?ml$/i, "");
        writeFileSync(opts.output ?? "my-cluster.yaml", profileYaml(name, file, estimates, fitOptions));
        if (opts.json) io.out(`${JSON.stringify({ fault: c.fault, estimates }, null, 2)}\n`);
        else {
          const lines = estimates.map(
            (e) => `  ${e.setting.padEnd(40)} ${`${e.value}s ± ${e.uncertainty}s`.padEnd(18)} ${e.how}`,
          );
          io.out(`faultline compare --fit · ${file}\n${lines.join("\n")}\nwrote ${opts.output}\n`);
        }
      } catch (e) {
        if (e instanceof RecordingError) {
          io.err(`${e.format()}\n`);
          setExit(EXIT_BAD_INPUT);
          return;
        }
        if (e instanceof LoadError) {
          io.err(`${file}: its dump: ${formatLoadError(e)}\n`);
          setExit(EXIT_BAD_INPUT);
          return;
        }
        if (e instanceof CompareError) throw new UsageError(e.message);
        throw e;
      }
    });
}
