// `faultline detector threshold`: the silence at which each φ threshold is reached, for each learned mean
// gap; or, with --max-false-per-node-day, the lowest threshold (and timeout) within a false-suspicion budget.

import type { Command } from "commander";
import { exponentialSilenceFor, phiNormalSilenceFor, pickThreshold } from "../../detectors/index.ts";
import { picksJson, picksText, type ThresholdPick } from "../../report/detector/analysis.ts";
import { type ThresholdRow, thresholdGridJson, thresholdGridText } from "../../report/detector/grid.ts";
import type { Io } from "../io.ts";
import {
  type AkkaFlags,
  addAkkaOptions,
  addDistOptions,
  addModelGridOptions,
  akkaSettings,
  buildDistribution,
  type DistFlags,
  DURATION_HELP,
  duration,
  learnedStd,
  list,
  MORE_THAN_ZERO,
  modelGrid,
  nonNegative,
  phiThreshold,
} from "./flags.ts";

type Flags = DistFlags & AkkaFlags & { phi: string; maxFalsePerNodeDay?: string; json?: boolean };

export function registerThresholdCommand(detector: Command, io: Io, setExit: (code: number) => void): void {
  addAkkaOptions(
    addDistOptions(
      addModelGridOptions(
        detector
          .command("threshold")
          .description(
            "silence needed to reach each phi threshold; or the lowest threshold meeting a false-suspicion budget",
          )
          .option("--phi <thresholds>", "phi thresholds, comma-separated", "2,8")
          .option(
            "--max-false-per-node-day <rate>",
            "pick the lowest threshold with at most this many false suspicions per node per day",
          )
          .addHelpText("after", DURATION_HELP),
      ),
    ),
  ).action((opts: Flags) => {
    const { pause, minStd } = akkaSettings(opts);
    if (opts.maxFalsePerNodeDay !== undefined) {
      const budget = nonNegative("--max-false-per-node-day", opts.maxFalsePerNodeDay);
      const dist = buildDistribution(opts);
      const normal = {
        kind: "phi-normal" as const,
        acceptableHeartbeatPauseMs: pause,
        minStdDeviationMs: minStd,
      };
      const picks: ThresholdPick[] = [
        { family: "fixed timeout", pick: pickThreshold(dist, { kind: "fixed" }, budget) },
        { family: "phi exponential", pick: pickThreshold(dist, { kind: "phi-exponential" }, budget) },
        { family: "phi normal (akka)", pick: pickThreshold(dist, normal, budget) },
      ];
      io.out(opts.json ? picksJson(dist, budget, picks) : picksText(dist, budget, picks));
      setExit(0);
      return;
    }
    const thresholds = list("--phi", opts.phi, phiThreshold);
    const means = list("--mean-gap", opts.meanGap, (f, t) => duration(f, t, MORE_THAN_ZERO));
    const model = { pause, minStd, std: learnedStd(opts) };
    const rows = modelGrid(
      "--mean-gap × --phi",
      means,
      thresholds,
      (mean, threshold): ThresholdRow => ({
        meanGapMs: mean,
        threshold,
        silenceExponentialMs: exponentialSilenceFor(threshold, mean),
        silenceNormalMs: phiNormalSilenceFor(threshold, mean + pause, Math.max(model.std, minStd)),
      }),
    );
    io.out(opts.json ? thresholdGridJson(rows, model) : thresholdGridText(rows));
    setExit(0);
  });
}
