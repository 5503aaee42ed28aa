// `faultline detector …`: φ values, thresholds, detector comparison and the heartbeat-system simulation.
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import {
  AKKA_CLUSTER_DEFAULTS,
  type AnalysisDetector,
  compareDetectors,
  type DetectorAnalysis,
  empiricalGaps,
  exponentialGaps,
  exponentialPhi,
  exponentialSilenceFor,
  formatDuration,
  type GapDistribution,
  heartbeatMessagesPerSecond,
  lognormalGaps,
  normalGaps,
  parseDuration,
  parseGaps,
  phi,
  phiNormalSilenceFor,
  pickThreshold,
  runScenario,
  SCENARIOS,
  type ScenarioName,
  type ScenarioOptions,
  type ScenarioReport,
  type Topology,
  withPauseTail,
} from "../detectors/index.ts";
import { detectorPayload, writeHtmlReport } from "../report/html.ts";
import { type Io, UsageError } from "./io.ts";

// ---- parsing helpers -------------------------------------------------------------------------------------

function wrap<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`${what}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function duration(flag: string, text: string): number {
  return wrap(flag, () => parseDuration(text));
}

function durations(flag: string, text: string): number[] {
  return text.split(",").map((t) => duration(flag, t));
}

function positive(flag: string, text: string): number {
  const v = Number(text);
  if (!(v > 0) || !Number.isFinite(v) || text.trim() === "")
    throw new UsageError(`${flag}: expected a number > 0, got "${text}"`);
  return v;
}

function numbers(flag: string, text: string): number[] {
  return text.split(",").map((t) => positive(flag, t));
}

function integer(flag: string, text: string, min: number): number {
  const v = Number(text);
  if (!Number.isInteger(v) || v < min)
    throw new UsageError(`${flag}: expected an integer >= ${min}, got "${text}"`);
  return v;
}

function topology(text: string): Topology {
  if (text === "all-to-all" || text === "lease") return { kind: text };
  const m = /^watchers:(\d+)$/.exec(text);
  if (m) return { kind: "watchers", k: integer("--topology", m[1]!, 1) };
  throw new UsageError(`--topology: expected all-to-all, lease or watchers:K, got "${text}"`);
}

/** JSON with ±Infinity spelled out (JSON has no representation for it). */
function toJson(value: unknown): string {
  return `${JSON.stringify(
    value,
    (_k, v: unknown) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v),
    2,
  )}\n`;
}

function num(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return "0";
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString("en-US");
  if (Math.abs(v) < 0.001) return v.toExponential(2);
  return String(Number(v.toPrecision(digits)));
}

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  return `${[line(headers), ...rows.map(line)].join("\n")}\n`;
}

// ---- gap distribution flags ------------------------------------------------------------------------------

interface DistFlags {
  meanGap: string;
  dist: string;
  jitter?: string;
  sigma?: string;
  tail?: string;
  gapsFile?: string;
}

function addDistOptions(cmd: Command): Command {
  return cmd
    .option("--mean-gap <duration>", "mean gap between heartbeats", "1s")
    .option("--dist <kind>", "gap distribution: normal, exponential or lognormal", "normal")
    .option("--jitter <duration>", "standard deviation of normal gaps (default: 10% of the mean gap)")
    .option("--sigma <number>", "log-space sigma of lognormal gaps", "0.25")
    .option(
      "--tail <T:P[:scale]>",
      "GC-pause tail: P(gap > T) = P, excess exponential with mean scale (default 1s)",
    )
    .option("--gaps-file <path>", "measured gaps, one per line (ms, or with ms/s suffix)");
}

function buildDistribution(f: DistFlags): GapDistribution {
  if (f.gapsFile !== undefined) {
    const path = f.gapsFile;
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      throw new UsageError(`--gaps-file: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const gaps = wrap("--gaps-file", () => parseGaps(text));
    return wrap("--gaps-file", () => empiricalGaps(gaps, path));
  }
  const mean = duration("--mean-gap", f.meanGap);
  let base: GapDistribution;
  if (f.dist === "normal") {
    // faultline choice: a regular beat with 10% jitter when --jitter is not given.
    const sd = f.jitter !== undefined ? duration("--jitter", f.jitter) : mean / 10;
    base = wrap("--jitter", () => normalGaps(mean, sd));
  } else if (f.dist === "exponential") {
    base = wrap("--mean-gap", () => exponentialGaps(mean));
  } else if (f.dist === "lognormal") {
    base = wrap("--sigma", () => lognormalGaps(mean, positive("--sigma", f.sigma ?? "0.25")));
  } else {
    throw new UsageError(`--dist: expected normal, exponential or lognormal, got "${f.dist}"`);
  }
  if (f.tail === undefined) return base;
  const parts = f.tail.split(":");
  if (parts.length < 2 || parts.length > 3)
    throw new UsageError(`--tail: expected T:P[:scale], got "${f.tail}"`);
  const t = duration("--tail", parts[0]!);
  const p = Number(parts[1]);
  if (!(p > 0 && p < 1)) throw new UsageError(`--tail: probability must be in (0, 1), got "${parts[1]}"`);
  // faultline choice: GC pauses beyond T spread with a 1 s mean excess unless :scale is given.
  const scale = parts[2] !== undefined ? duration("--tail", parts[2]) : 1000;
  return wrap("--tail", () => withPauseTail(base, t, p, scale));
}

// ---- commands --------------------------------------------------------------------------------------------

interface AkkaFlags {
  pause: string;
  minStd: string;
  std?: string;
}

function addAkkaOptions(cmd: Command): Command {
  return cmd
    .option(
      "--pause <duration>",
      "Akka acceptable-heartbeat-pause (akka-cluster reference.conf: 3 s)",
      `${AKKA_CLUSTER_DEFAULTS.acceptableHeartbeatPauseMs}ms`,
    )
    .option(
      "--min-std <duration>",
      "Akka min-std-deviation (akka-cluster reference.conf: 100 ms)",
      `${AKKA_CLUSTER_DEFAULTS.minStdDeviationMs}ms`,
    );
}

/** Akka's acceptable pause and min-std floor, parsed from their flags. */
function akkaSettings(opts: AkkaFlags): { pause: number; minStd: number } {
  return { pause: duration("--pause", opts.pause), minStd: duration("--min-std", opts.minStd) };
}

/** `--std` (the normal model's learned deviation) and `--json`, for the commands that print a φ model grid. */
function addModelGridOptions(cmd: Command): Command {
  return cmd
    .option(
      "--std <duration>",
      "learned standard deviation for the normal model (default: the min-std floor)",
    )
    .option("--json", "print JSON");
}

function learnedStd(opts: AkkaFlags): number {
  return opts.std !== undefined ? duration("--std", opts.std) : 0;
}

/** One row for each learned mean gap and each value (a silence, a threshold), mean gaps outermost. */
function modelGrid<R>(means: number[], values: number[], row: (mean: number, value: number) => R): R[] {
  return means.flatMap((mean) => values.map((value) => row(mean, value)));
}

/** The grid as JSON with the normal model's settings, or as a table. */
function printModelGrid<R>(
  io: Io,
  json: boolean | undefined,
  s: { pause: number; minStd: number; std: number },
  rows: R[],
  headers: string[],
  cells: (row: R) => string[],
): void {
  if (json) {
    io.out(
      toJson({
        acceptableHeartbeatPauseMs: s.pause,
        minStdDeviationMs: s.minStd,
        stdDeviationMs: s.std,
        rows,
      }),
    );
  } else {
    io.out(table(headers, rows.map(cells)));
  }
}

function analysisRows(rows: DetectorAnalysis[]): string[][] {
  return rows.map((a) => [
    a.label,
    formatDuration(a.suspectAfterMs),
    formatDuration(a.detection.meanMs),
    formatDuration(a.detection.p99Ms),
    num(a.falseSuspicionsPerNodePerDay),
    num(a.falseSuspicionsPerClusterPerDay),
  ]);
}

const ANALYSIS_HEADERS = [
  "detector",
  "suspects after",
  "detect mean",
  "detect p99",
  "false/node/day",
  "false/cluster/day",
];

function describeDist(dist: GapDistribution): string {
  return `gaps: ${dist.label}\n  mean gap ${formatDuration(dist.meanMs)} · ${num(86_400_000 / dist.meanMs)} beats per node per day\n`;
}

export function registerDetectorCommands(program: Command, io: Io, setExit: (code: number) => void): void {
  const detector = program
    .command("detector")
    .description("heartbeat failure detectors: phi values, thresholds, comparisons, simulation");

  // detector phi
  addAkkaOptions(
    addModelGridOptions(
      detector
        .command("phi")
        .description(
          "suspicion level after a silence, for each mean gap (exponential and Akka normal models)",
        )
        .requiredOption("--silence <durations>", "time since the last heartbeat, comma-separated")
        .option("--mean-gap <durations>", "mean gap(s) the detector has learned, comma-separated", "1s"),
    ),
  ).action((opts: AkkaFlags & { silence: string; meanGap: string; json?: boolean }) => {
    const silences = durations("--silence", opts.silence);
    const means = durations("--mean-gap", opts.meanGap);
    const { pause, minStd } = akkaSettings(opts);
    const std = learnedStd(opts);
    const rows = modelGrid(means, silences, (mean, silence) => ({
      meanGapMs: mean,
      silenceMs: silence,
      phiExponential: exponentialPhi(silence, mean),
      phiNormal: phi(silence, mean + pause, Math.max(std, minStd)),
    }));
    printModelGrid(
      io,
      opts.json,
      { pause, minStd, std },
      rows,
      ["mean gap", "silence", "phi exponential", "phi normal (akka)"],
      (r) => [
        formatDuration(r.meanGapMs),
        formatDuration(r.silenceMs),
        r.phiExponential.toFixed(2),
        r.phiNormal.toFixed(2),
      ],
    );
    if (!opts.json) {
      io.out(
        `exponential: phi = t / (mean · ln 10) (Cassandra); normal: Akka's formula with acceptable pause ${formatDuration(pause)}, sd max(${formatDuration(std)}, ${formatDuration(minStd)})\n`,
      );
    }
    setExit(0);
  });

  // detector threshold
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
            "pick the lowest threshold with at most this many false suspicions",
          ),
      ),
    ),
  ).action((opts: DistFlags & AkkaFlags & { phi: string; maxFalsePerNodeDay?: string; json?: boolean }) => {
    const { pause, minStd } = akkaSettings(opts);
    if (opts.maxFalsePerNodeDay !== undefined) {
      const target = Number(opts.maxFalsePerNodeDay);
      if (!(target >= 0)) throw new UsageError(`--max-false-per-node-day: expected a number >= 0`);
      const dist = buildDistribution(opts);
      const picks = [
        { family: "fixed timeout", r: pickThreshold(dist, { kind: "fixed" }, target) },
        { family: "phi exponential", r: pickThreshold(dist, { kind: "phi-exponential" }, target) },
        {
          family: "phi normal (akka)",
          r: pickThreshold(
            dist,
            { kind: "phi-normal", acceptableHeartbeatPauseMs: pause, minStdDeviationMs: minStd },
            target,
          ),
        },
      ];
      if (opts.json) {
        io.out(
          toJson({
            distribution: dist.label,
            meanGapMs: dist.meanMs,
            maxFalsePerNodePerDay: target,
            picks: picks.map((p) => ({
              family: p.family,
              value: p.r?.value ?? null,
              analysis: p.r?.analysis ?? null,
            })),
          }),
        );
      } else {
        io.out(describeDist(dist));
        io.out(`budget: at most ${target} false suspicions per node per day\n\n`);
        io.out(
          table(
            ["family", "pick", ...ANALYSIS_HEADERS.slice(1)],
            picks.map((p) =>
              p.r === undefined
                ? [
                    p.family,
                    p.family.startsWith("phi normal") ? "none (raise --pause)" : "none in range",
                    "",
                    "",
                    "",
                    "",
                    "",
                  ]
                : [
                    p.family,
                    p.family === "fixed timeout" ? formatDuration(p.r.value) : String(p.r.value),
                    ...analysisRows([p.r.analysis])[0]!.slice(1),
                  ],
            ),
          ),
        );
      }
      setExit(0);
      return;
    }
    const thresholds = numbers("--phi", opts.phi);
    const means = durations("--mean-gap", opts.meanGap);
    const std = learnedStd(opts);
    const rows = modelGrid(means, thresholds, (mean, threshold) => ({
      meanGapMs: mean,
      threshold,
      silenceExponentialMs: exponentialSilenceFor(threshold, mean),
      silenceNormalMs: phiNormalSilenceFor(threshold, mean + pause, Math.max(std, minStd)),
    }));
    printModelGrid(
      io,
      opts.json,
      { pause, minStd, std },
      rows,
      ["mean gap", "phi", "silence (exponential)", "silence (normal, akka)"],
      (r) => [
        formatDuration(r.meanGapMs),
        String(r.threshold),
        formatDuration(r.silenceExponentialMs),
        formatDuration(r.silenceNormalMs),
      ],
    );
    setExit(0);
  });

  // detector compare
  addAkkaOptions(
    addDistOptions(
      detector
        .command("compare")
        .description(
          "time to detect a crash and false suspicions per node and per cluster per day, per detector",
        )
        .option("--nodes <n>", "nodes in the cluster", "1")
        .option("--watchers <k>", "monitors per node (default: nodes − 1)")
        .option("--timeout <durations>", "fixed timeouts, comma-separated")
        .option("--phi <thresholds>", "phi thresholds, comma-separated")
        .option("--models <list>", "phi models: exponential, normal or both", "exponential,normal")
        .option("--json", "print JSON")
        .option("--report <file>", "also write an HTML report: phi against silence, thresholds marked"),
    ),
  ).action(
    async (
      opts: DistFlags &
        AkkaFlags & {
          nodes: string;
          watchers?: string;
          timeout?: string;
          phi?: string;
          models: string;
          json?: boolean;
          report?: string;
        },
    ) => {
      const dist = buildDistribution(opts);
      const nodes = integer("--nodes", opts.nodes, 1);
      const watchers =
        opts.watchers !== undefined ? integer("--watchers", opts.watchers, 1) : Math.max(1, nodes - 1);
      const { pause, minStd } = akkaSettings(opts);
      const models = opts.models.split(",");
      for (const m of models) {
        if (m !== "exponential" && m !== "normal") throw new UsageError(`--models: unknown model "${m}"`);
      }
      const detectors: AnalysisDetector[] = [];
      for (const t of opts.timeout !== undefined ? durations("--timeout", opts.timeout) : []) {
        detectors.push({ kind: "fixed", timeoutMs: t });
      }
      const thresholds = opts.phi !== undefined ? numbers("--phi", opts.phi) : [];
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
      const rows = compareDetectors(dist, detectors, { nodes, watchersPerNode: watchers });
      const interval = dist.meanMs;
      const traffic = {
        allToAll: heartbeatMessagesPerSecond({ kind: "all-to-all" }, nodes, interval),
        watchers: heartbeatMessagesPerSecond({ kind: "watchers", k: watchers }, nodes, interval),
        lease: heartbeatMessagesPerSecond({ kind: "lease" }, nodes, interval),
      };
      if (opts.json) {
        io.out(
          toJson({
            distribution: dist.label,
            meanGapMs: dist.meanMs,
            nodes,
            watchersPerNode: watchers,
            messagesPerSecond: traffic,
            detectors: rows,
          }),
        );
      } else {
        io.out(describeDist(dist));
        io.out(
          `  cluster: ${nodes} node(s), each watched by ${watchers} · liveness messages/s: all-to-all ${num(traffic.allToAll)}, ${watchers} watchers ${num(traffic.watchers)}, lease store ${num(traffic.lease)}\n\n`,
        );
        io.out(table(ANALYSIS_HEADERS, analysisRows(rows)));
        io.out(
          "\nfalse/cluster/day counts a node's pause once (all its watchers suspect it together); × watchers for peer-level suspicions.\n",
        );
      }
      if (opts.report !== undefined) {
        const bytes = await writeHtmlReport(
          opts.report,
          detectorPayload({
            distribution: dist.label,
            meanGapMs: dist.meanMs,
            nodes,
            watchersPerNode: watchers,
            detectors: rows,
          }),
        );
        io.err(`faultline: report written to ${opts.report} (${Math.ceil(bytes / 1024)} KiB)\n`);
      }
      setExit(0);
    },
  );

  // detector simulate
  detector
    .command("simulate")
    .description(`heartbeat-system simulation: ${SCENARIOS.join(", ")}`)
    .option("--scenario <name>", `one of ${SCENARIOS.join(", ")}`, "gc-pause")
    .option("--nodes <n>", "nodes (default 100; 1000 for cost)")
    .option("--topology <t>", "all-to-all, lease or watchers:K (default all-to-all; cost compares all three)")
    .option("--duration <duration>", "simulated time (default 2m; 3s for cost)")
    .option(
      "--interval <duration>",
      "heartbeat interval (akka-cluster reference.conf heartbeat-interval: 1 s)",
    )
    .option("--loss <p>", "packet loss probability", "0")
    .option("--seed <n>", "PRNG seed", "1")
    .option("--json", "print JSON")
    .action(
      (opts: {
        scenario: string;
        nodes?: string;
        topology?: string;
        duration?: string;
        interval?: string;
        loss: string;
        seed: string;
        json?: boolean;
      }) => {
        if (!(SCENARIOS as readonly string[]).includes(opts.scenario)) {
          throw new UsageError(`--scenario: expected one of ${SCENARIOS.join(", ")}, got "${opts.scenario}"`);
        }
        const o: ScenarioOptions = { seed: integer("--seed", opts.seed, 0) };
        if (opts.nodes !== undefined) o.nodes = integer("--nodes", opts.nodes, 2);
        if (opts.topology !== undefined) o.topology = topology(opts.topology);
        if (opts.duration !== undefined) o.durationMs = duration("--duration", opts.duration);
        if (opts.interval !== undefined) o.heartbeatIntervalMs = duration("--interval", opts.interval);
        const loss = Number(opts.loss);
        if (!(loss >= 0 && loss < 1))
          throw new UsageError(`--loss: expected a probability in [0, 1), got "${opts.loss}"`);
        o.lossProbability = loss;
        const report = wrap("simulate", () => runScenario(opts.scenario as ScenarioName, o));
        io.out(opts.json ? toJson(report) : renderScenario(report));
        setExit(0);
      },
    );
}

function renderScenario(r: ScenarioReport): string {
  let out = `scenario ${r.scenario}: ${r.description}\n`;
  for (const run of r.runs) {
    const res = run.result;
    out += `\n== ${run.label} (${res.nodes} nodes, ${res.topology}, ${formatDuration(res.durationMs)}, seed ${res.seed})\n`;
    out += `messages: ${num(res.messages.perSecond)}/s (${num(res.messages.sent)} sent, ${num(res.messages.lost)} lost)`;
    out +=
      res.selfPausesNoticed > 0
        ? ` · self-pauses noticed ${res.selfPausesNoticed}, checks skipped ${res.skippedChecks}\n`
        : "\n";
    if (res.detectors.length === 0) continue;
    out += table(
      [
        "detector",
        "false susp.",
        "nodes wrongly suspected",
        "worst accuser",
        "crash detect mean/p99/max",
        "stall detect",
      ],
      res.detectors.map((d) => {
        const acc = d.topAccusers[0];
        const sus = d.topSuspects[0];
        const c = d.crashDetection;
        const s = d.stallDetection;
        return [
          d.label,
          String(d.falseSuspicions),
          sus === undefined ? "0" : `${d.falselySuspectedNodes.length} (node ${sus.node} by ${sus.monitors})`,
          acc === undefined ? "-" : `node ${acc.monitor} → ${acc.targets}`,
          c.expected === 0
            ? "-"
            : c.delay === null
              ? `0/${c.expected}`
              : `${c.detected}/${c.expected}: ${formatDuration(c.delay.meanMs)}/${formatDuration(c.delay.p99Ms)}/${formatDuration(c.delay.maxMs)}`,
          s.expected === 0
            ? "-"
            : s.delay === null
              ? `0/${s.expected}`
              : `${s.detected}/${s.expected} after ${formatDuration(s.delay.meanMs)}`,
        ];
      }),
    );
  }
  return out;
}
