// `faultline detector phi`: the suspicion level after each silence, for each learned mean gap, under
// Cassandra's exponential model and Akka's normal one.

import type { Command } from "commander";
import { exponentialPhi } from "../../detectors/index.ts";
import { phiNormal } from "../../detectors/phi.ts";
import { type PhiRow, phiGridJson, phiGridText } from "../../report/detector/grid.ts";
import type { Io } from "../io.ts";
import { DURATION_HELP, duration } from "./duration.ts";
import {
  type AkkaFlags,
  addAkkaOptions,
  addModelGridOptions,
  list,
  meanGaps,
  modelGrid,
  normalModel,
} from "./flags.ts";

export function registerPhiCommand(detector: Command, io: Io, setExit: (code: number) => void): void {
  addAkkaOptions(
    addModelGridOptions(
      detector
        .command("phi")
        .description(
          "suspicion level after a silence, for each mean gap (exponential and Akka normal models)",
        )
        .requiredOption("--silence <durations>", "time since the last heartbeat, comma-separated, e.g. 2s,6s")
        .option("--mean-gap <durations>", "mean gap(s) the detector has learned, comma-separated", "1s")
        .addHelpText("after", DURATION_HELP),
    ),
  ).action((opts: AkkaFlags & { silence: string; meanGap: string; json?: boolean }) => {
    const silences = list("--silence", opts.silence, (f, t) => duration(f, t));
    const means = meanGaps(opts.meanGap);
    const model = normalModel(opts);
    const rows = modelGrid(
      "--mean-gap × --silence",
      means,
      silences,
      (mean, silence): PhiRow => ({
        meanGapMs: mean,
        silenceMs: silence,
        phiExponential: exponentialPhi(silence, mean),
        // Unchecked: with --min-std 0 and no --std the grid shows why φ is undefined (NaN) or ∞, as Akka's
        // formula gives, where the library's phi refuses a zero deviation.
        phiNormal: phiNormal(silence, mean + model.pause, Math.max(model.std, model.minStd)),
      }),
    );
    io.out(opts.json ? phiGridJson(rows, model) : phiGridText(rows, model));
    setExit(0);
  });
}
