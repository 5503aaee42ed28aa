// `faultline detector threshold`: the silence at which each φ threshold is reached, for each learned mean
// gap; or, with --max-false-per-node-day, the lowest threshold (and timeout) within a false-suspicion budget.

import type { Command } from "commander";
import { exponentialSilenceFor, pickThreshold } from "../../detectors/index.ts";
import { normalSilenceFor } from "../../detectors/phi.ts";
import { picksJson, picksText, type ThresholdPick } from "../../report/detector/analysis.ts";
import { type ThresholdRow, thresholdGridJson, thresholdGridText } from "../../report/detector/grid.ts";
import { type Io, UsageError } from "../io.ts";
import { DURATION_HELP } from "./duration.ts";
import {
  type AkkaFlags,
  addAkkaOptions,
  addDistOptions,
  addModelGridOptions,
  akkaSettings,
  buildDistribution,
  type DistFlags,
  list,
  meanGaps,
  modelGrid,
  nonNegative,
  normalModel,
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
  ).action((opts: Flags, command: Command) => {
    const { pause, minStd } = akkaSettings(opts);
    if (opts.maxFalsePerNodeDay === undefined) {
      // The grid reads only --mean-gap: a distribution flag given here would be silently ignored.
      refuseGiven(
        command,
        ["dist", "jitter", "sigma", "tail", "gapsFile"],
        "describes the gaps for --max-false-per-node-day; without it the grid reads only --mean-gap",
      );
    } else {
      refuseGiven(
        command,
        ["phi", "std"],
        "is for the grid; --max-false-per-node-day picks the threshold itself",
      );
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
    const means = meanGaps(opts.meanGap);
    const model = normalModel(opts);
    const rows = modelGrid(
      "--mean-gap × --phi",
      means,
      thresholds,
      (mean, threshold): ThresholdRow => ({
        meanGapMs: mean,
        threshold,
        silenceExponentialMs: exponentialSilenceFor(threshold, mean),
        // Unchecked: --min-std 0 without --std is a deviation of 0, φ a step at the mean (the silence).
        silenceNormalMs: normalSilenceFor(threshold, mean + model.pause, Math.max(model.std, model.minStd)),
      }),
    );
    io.out(opts.json ? thresholdGridJson(rows, model) : thresholdGridText(rows));
    setExit(0);
  });
}

/** A UsageError naming the first of `names` (option keys) given on the command line: it would be ignored. */
function refuseGiven(command: Command, names: string[], why: string): void {
  const given = names.find((name) => command.getOptionValueSource(name) === "cli");
  if (given !== undefined)
    throw new UsageError(`--${given.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${why}`);
}
