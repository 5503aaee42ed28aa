// `faultline detector …`: heartbeat failure detectors. One file per subcommand (phi, threshold, compare,
// simulate); the flags they share in flags.ts, the gaps file in gaps-file.ts; the printers in
// src/report/detector/.

import type { Command } from "commander";
import type { Io } from "../io.ts";
import { registerCompareCommand } from "./compare.ts";
import { DURATION_HELP } from "./duration.ts";
import { registerPhiCommand } from "./phi.ts";
import { registerSimulateCommand } from "./simulate.ts";
import { registerThresholdCommand } from "./threshold.ts";

export function registerDetectorCommands(program: Command, io: Io, setExit: (code: number) => void): void {
  const detector = program
    .command("detector")
    .description("heartbeat failure detectors: phi values, thresholds, comparisons, simulation")
    .addHelpText("after", DURATION_HELP);
  registerPhiCommand(detector, io, setExit);
  registerThresholdCommand(detector, io, setExit);
  registerCompareCommand(detector, io, setExit);
  registerSimulateCommand(detector, io, setExit);
}
