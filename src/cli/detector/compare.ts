// `faultline detector compare`: for fixed timeouts and φ thresholds (exponential and Akka's normal model), the
// silence that triggers each, the time to detect a crash and the false suspicions per node and per cluster per
// day, for a gap distribution or measured gaps; with --report, also the HTML page of φ against silence.

import { realpathSync } from "node:fs";
import type { Command } from "commander";
import {
  type AnalysisDetector,
  compareDetectors,
  heartbeatMessagesPerSecond,
} from "../../detectors/index.ts";
import { type Comparison, comparisonJson, comparisonText } from "../../report/detector/analysis.ts";
import { detectorPayload, writeHtmlReport } from "../../report/html.ts";
import { type Io, UsageError } from "../io.ts";
import { checkReportPath, writeReportFile } from "../report-file.ts";
import { DURATION_HELP, duration, MORE_THAN_ZERO } from "./duration.ts";
import {
  type AkkaFlags,
  addAkkaOptions,
  addDistOptions,
  akkaSettings,
  buildDistribution,
  type DistFlags,
  integer,
  list,
  phiThreshold,
} from "./flags.ts";

/** The most detectors one comparison analyses (each φ model × threshold, each timeout). */
const MAX_DETECTORS = 100;
/** The most nodes: the analysis only multiplies by it, but a million is past any cluster. */
const MAX_NODES = 1_000_000;

type Flags = DistFlags &
  AkkaFlags & {
    nodes: string;
    watchers?: string;
    timeout?: string;
    phi?: string;
    models: string;
    json?: boolean;
    report?: string;
  };

export function registerCompareCommand(detector: Command, io: Io, setExit: (code: number) => void): void {
  addAkkaOptions(
    addDistOptions(
      detector
        .command("compare")
        .description(
          "time to detect a crash and false suspicions per node and per cluster per day, per detector",
        )
        .option("--nodes <n>", "nodes in the cluster", "1")
        .option("--watchers <k>", "monitors per node (default: nodes − 1)")
        .option("--timeout <durations>", "fixed timeouts, comma-separated, e.g. 5s,10s")
        .option("--phi <thresholds>", "phi thresholds, comma-separated, e.g. 2,8")
        .option("--models <list>", "phi models: exponential, normal or both", "exponential,normal")
        .option("--json", "print JSON")
        .option("--report <file>", "also write an HTML report: phi against silence, thresholds marked")
        .addHelpText("after", DURATION_HELP),
    ),
  ).action(async (opts: Flags, command: Command) => {
    if (opts.report !== undefined) checkReportPath(opts.report, []);
    if (opts.report !== undefined && opts.gapsFile !== undefined && sameFile(opts.report, opts.gapsFile)) {
      throw new UsageError(`--report ${opts.report}: is the gaps file; choose another name`);
    }
    const dist = buildDistribution(opts);
    const nodes = integer("--nodes", opts.nodes, 1, MAX_NODES);
    const watchers =
      opts.watchers !== undefined
        ? integer("--watchers", opts.watchers, 1, MAX_NODES)
        : Math.max(1, nodes - 1);
    const { pause, minStd } = akkaSettings(opts);
    const models = opts.models.split(",");
    for (const m of models) {
      if (m !== "exponential" && m !== "normal") throw new UsageError(`--models: unknown model "${m}"`);
    }
    const detectors: AnalysisDetector[] = [];
    const timeouts =
      opts.timeout !== undefined
        ? list("--timeout", opts.timeout, (f, t) => duration(f, t, MORE_THAN_ZERO))
        : [];
    for (const t of timeouts) detectors.push({ kind: "fixed", timeoutMs: t });
    const thresholds = opts.phi !== undefined ? list("--phi", opts.phi, phiThreshold) : [];
    if (thresholds.length === 0 && command.getOptionValueSource("models") === "cli") {
      throw new UsageError("--models chooses the models of the --phi thresholds; give --phi too");
    }
    if (models.includes("exponential")) {
      for (const th of thresholds) detectors.push({ kind: "phi-exponential", threshold: th });
    }
    if (models.includes("normal")) {
      for (const th of thresholds) {
        detectors.push({
          kind: "phi-normal",
          threshold: th,
          acceptableHeartbeatPauseMs: pause,
          minStdDeviationMs: minStd,
        });
      }
    }
    if (detectors.length === 0) throw new UsageError("give at least one --timeout or --phi");
    if (detectors.length > MAX_DETECTORS) {
      throw new UsageError(
        `--timeout, --phi × --models: ${detectors.length} detectors to compare; at most ${MAX_DETECTORS}`,
      );
    }
    const interval = dist.meanMs;
    const comparison: Comparison = {
      dist,
      nodes,
      watchersPerNode: watchers,
      messagesPerSecond: {
        allToAll: heartbeatMessagesPerSecond({ kind: "all-to-all" }, nodes, interval),
        watchers: heartbeatMessagesPerSecond({ kind: "watchers", k: watchers }, nodes, interval),
        lease: heartbeatMessagesPerSecond({ kind: "lease" }, nodes, interval),
      },
      detectors: compareDetectors(dist, detectors, { nodes, watchersPerNode: watchers }),
    };
    io.out(opts.json ? comparisonJson(comparison) : comparisonText(comparison));
    if (opts.report !== undefined) {
      const path = opts.report;
      const bytes = await writeReportFile(path, () =>
        writeHtmlReport(
          path,
          detectorPayload({
            distribution: dist.label,
            meanGapMs: dist.meanMs,
            nodes,
            watchersPerNode: watchers,
            detectors: comparison.detectors,
          }),
        ),
      );
      io.err(`faultline: report written to ${opts.report} (${Math.ceil(bytes / 1024)} KiB)\n`);
    }
    setExit(0);
  });
}

/** Whether two paths name the same existing file. */
function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
