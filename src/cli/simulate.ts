// `faultline simulate FILE [--seed N] [--json]`.

import type { Command } from "commander";
import { UnsupportedFault } from "../faults/faults.ts";
import { formatLoadError, LoadError, loadScenarioFile } from "../load/index.ts";
import { formatJson } from "../report/json.ts";
import { formatTimeline } from "../report/text.ts";
import { simulate } from "../simulate.ts";
import { EXIT_BAD_INPUT, type Io, UsageError } from "./io.ts";

export function registerSimulateCommand(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command("simulate")
    .description("simulate a scenario file and print what the cluster does, second by second")
    .argument("<file>", "scenario file (YAML)")
    .option("--seed <n>", "override the scenario's seed")
    .option("--json", "print the machine-readable result")
    .option("--all-leases", "show every Lease renewal in the timeline")
    .action((file: string, opts: { seed?: string; json?: boolean; allLeases?: boolean }) => {
      let seed: number | undefined;
      if (opts.seed !== undefined) {
        if (!/^\d+$/.test(opts.seed) || Number(opts.seed) > 0xffffffff)
          throw new UsageError(`--seed: "${opts.seed}" is not a whole number from 0 to 4294967295`);
        seed = Number(opts.seed);
      }
      try {
        const scenario = loadScenarioFile(file);
        const result = simulate(scenario, seed === undefined ? {} : { seed });
        io.out(
          opts.json
            ? formatJson(result)
            : formatTimeline(result, scenario, { allLeases: opts.allLeases ?? false }),
        );
      } catch (error) {
        if (error instanceof LoadError) {
          io.err(`${formatLoadError(error)}\n`);
          setExit(EXIT_BAD_INPUT);
          return;
        }
        if (error instanceof UnsupportedFault) throw new UsageError(`${file}: ${error.message}`);
        throw error;
      }
    });
}
