// `faultline simulate FILE [--seed N] [--json]`.

import type { Command } from "commander";
import { UnsupportedFault } from "../faults/faults.ts";
import { formatLoadError, LoadError, loadScenarioFile } from "../load/index.ts";
import { simulatePayload, writeHtmlReport } from "../report/html.ts";
import { formatJson } from "../report/json.ts";
import { formatTimeline } from "../report/text.ts";
import { simulate } from "../simulate.ts";
import { formatVariants, pullLevers, simulateVariants, VaryError } from "../whatif/index.ts";
import { EXIT_BAD_INPUT, type Io, UsageError } from "./io.ts";

export function registerSimulateCommand(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command("simulate")
    .description("simulate a scenario file and print what the cluster does, second by second")
    .argument("<file>", "scenario file (YAML)")
    .option("--seed <n>", "override the scenario's seed")
    .option("--json", "print the machine-readable result")
    .option("--all-leases", "show every Lease renewal in the timeline")
    .option("--report <file>", "also write the HTML report (one self-contained page) to this file")
    .option("--vary <key=values>", "run variants side by side, e.g. externalTrafficPolicy=Local,Cluster")
    .action(
      async (
        file: string,
        opts: { seed?: string; json?: boolean; allLeases?: boolean; report?: string; vary?: string },
      ) => {
        let seed: number | undefined;
        if (opts.seed !== undefined) {
          if (!/^\d+$/.test(opts.seed) || Number(opts.seed) > 0xffffffff)
            throw new UsageError(`--seed: "${opts.seed}" is not a whole number from 0 to 4294967295`);
          seed = Number(opts.seed);
        }
        try {
          const scenario = loadScenarioFile(file);
          if (opts.vary !== undefined) {
            const runs = simulateVariants(scenario, opts.vary, seed);
            io.out(formatVariants(scenario.name, runs, opts.json ?? false));
            if (opts.report !== undefined && runs[0]) {
              const variants = runs.map((r) => ({ label: r.variant, result: r.result }));
              const bytes = await writeHtmlReport(
                opts.report,
                simulatePayload(scenario, runs[0].result, variants),
              );
              io.err(`faultline: report written to ${opts.report} (${Math.ceil(bytes / 1024)} KiB)\n`);
            }
            return;
          }
          const result = simulate(scenario, { ...(seed === undefined ? {} : { seed }), levers: pullLevers });
          io.out(
            opts.json
              ? formatJson(result, scenario)
              : formatTimeline(result, scenario, { allLeases: opts.allLeases ?? false }),
          );
          if (opts.report !== undefined) {
            const bytes = await writeHtmlReport(opts.report, simulatePayload(scenario, result));
            io.err(`faultline: report written to ${opts.report} (${Math.ceil(bytes / 1024)} KiB)\n`);
          }
        } catch (error) {
          if (error instanceof LoadError) {
            io.err(`${formatLoadError(error)}\n`);
            setExit(EXIT_BAD_INPUT);
            return;
          }
          if (error instanceof UnsupportedFault) throw new UsageError(`${file}: ${error.message}`);
          if (error instanceof VaryError) throw new UsageError(error.message);
          throw error;
        }
      },
    );
}
