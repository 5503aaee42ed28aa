// `faultline simulate FILE [--seed N] [--json] [--report FILE] [--vary KEY=V1,V2] [--max-events N]`:
// load, check the work against the budget (src/run/budget.ts), run, print, write the report. What
// only some runs use (--redact, --dump-at, --vary, --report, the levers of a run with callers) is
// imported when used: a plain run does not pay for loading it.

import { existsSync } from "node:fs";
import type { Command } from "commander";
import { EventBudgetExceeded } from "../engine/engine.ts";
import { UnsupportedFault } from "../faults/faults.ts";
import { formatDuration, formatLoadError, LoadError, loadScenarioFile } from "../load/index.ts";
import { formatBrief } from "../report/brief.ts";
import { escapeJsonControls } from "../report/escape.ts";
import { jsonChunks } from "../report/json.ts";
import { type ReportInclude, redactForReport } from "../report/privacy.ts";
import { timelineChunks } from "../report/text.ts";
import { type Budget, count, DEFAULT_BUDGET, estimateWork, overBudget } from "../run/budget.ts";
import { type PullLevers, type SimulationResult, simulate } from "../run/simulate.ts";
import type { Scenario } from "../scenario/types.ts";
import { PROFILE_NAMES } from "../scenario/types.ts";
import type { VariantRun } from "../whatif/index.ts";
import { durationFlag } from "./duration-flag.ts";
import { EXIT_BAD_INPUT, type Io, UsageError, writeChunks } from "./io.ts";
import { type Progress, progressLine } from "./progress.ts";
import { checkReportPath, reportIncludeOf, writeReportFile } from "./report-file.ts";

interface Options {
  seed?: string;
  json?: boolean;
  brief?: boolean;
  allLeases?: boolean;
  report?: string;
  reportInclude?: string;
  vary?: string;
  maxEvents?: string;
  maxRequests?: string;
  cluster?: string;
  dumpAt?: string;
  redact?: boolean;
  kubernetesVersion?: string;
  profile?: string;
  /** commander's --no-levers: false when given */
  levers?: boolean;
}

const PROFILE_HELP = `a named set of settings, over the scenario's profile and the platform a dump's nodes name (${PROFILE_NAMES.join(", ")})`;

export function registerSimulateCommand(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command("simulate")
    .description("simulate a scenario file and print what the cluster does, second by second")
    .argument("[file]", "scenario file (YAML); optional with --cluster")
    .option(
      "--cluster <dump>",
      "start from a dump of a live cluster (kubectl get nodes,pods,… -A -o yaml or json; a file, a folder, or - for the standard input) instead of the scenario's nodes and manifests",
    )
    .option(
      "--dump-at <time>",
      "print the cluster at this time of the run as kubectl get -o yaml prints a List (with --json: -o json)",
    )
    .option(
      "--kubernetes-version <v>",
      "the control plane's Kubernetes version (e.g. 1.31), over the scenario's kubernetesVersion and a dump's kubelets'",
    )
    .option("--profile <name>", PROFILE_HELP)
    .option(
      "--redact",
      "replace the names of namespaces, nodes, workloads, pods, Services, claims and volumes with stable pseudonyms in every output (to share a run of a real cluster)",
    )
    .option("--seed <n>", "run with this random seed instead of the scenario's `seed`")
    .option("--json", "print the machine-readable result")
    .option(
      "--brief",
      "print one screen (at most 15 lines): what happened, when, what it cost, what to do next",
    )
    .option(
      "--no-levers",
      "with callers in the scenario, do not rerun it with each lever pulled (the levers' runs cost one run each)",
    )
    .option("--all-leases", "show every Lease renewal in the timeline (with --json: as events)")
    .option("--report <file>", "also write the HTML report (one self-contained page) to this file")
    .option(
      "--report-include <what>",
      "keep in the report what it leaves out by default: annotations (their values), commands (exec probes and hooks), or both: annotations,commands",
    )
    .option("--vary <key=values>", "run variants side by side, e.g. externalTrafficPolicy=Local,Cluster")
    .option(
      "--max-events <n>",
      `engine events one run may take (default ${count(DEFAULT_BUDGET.maxEvents)}); a larger scenario is refused before it runs`,
    )
    .option(
      "--max-requests <n>",
      `simulated requests one run may send, retries included (default ${count(DEFAULT_BUDGET.maxRequests)})`,
    )
    .action((file: string | undefined, opts: Options) =>
      simulateCommand(io, setExit, file, opts, program.version() ?? "0.0.0"),
    );
}

/** The flags read before anything is loaded, each mistake a usage error (in the order they are checked). */
function readFlags(file: string | undefined, opts: Options) {
  if (file === undefined && opts.cluster === undefined)
    throw new UsageError("simulate needs a scenario file, or --cluster DUMP");
  if (opts.cluster !== undefined && opts.cluster !== "-" && !existsSync(opts.cluster))
    throw new UsageError(`--cluster: ${opts.cluster}: no such file or folder`);
  const dumpTime = opts.dumpAt === undefined ? undefined : parseDumpAt(opts.dumpAt);
  if (dumpTime !== undefined && (opts.vary !== undefined || opts.report !== undefined))
    throw new UsageError("--dump-at prints the cluster of one run: leave out --vary and --report");
  if (opts.brief && (opts.json || opts.vary !== undefined || dumpTime !== undefined))
    throw new UsageError("--brief is the one-screen text of one run: leave out --json, --vary and --dump-at");
  const seed = parseSeed(opts.seed);
  const budget: Budget = {
    maxEvents: parseCount("--max-events", opts.maxEvents) ?? DEFAULT_BUDGET.maxEvents,
    maxRequests: parseCount("--max-requests", opts.maxRequests) ?? DEFAULT_BUDGET.maxRequests,
  };
  const include = reportIncludeOf(opts);
  return { dumpTime, seed, budget, include };
}

type Flags = ReturnType<typeof readFlags>;
type WhatIfModule = typeof import("../whatif/index.ts");

/** The scenario as loaded (and redacted with --redact), with the name the outputs give its file. */
async function loadForRun(file: string | undefined, opts: Options, shown: string) {
  let scenario = loadScenarioFile(file, {
    ...(opts.cluster === undefined ? {} : { cluster: opts.cluster }),
    ...(opts.kubernetesVersion === undefined ? {} : { kubernetesVersion: opts.kubernetesVersion }),
    ...(opts.profile === undefined ? {} : { profile: opts.profile }),
  });
  if (opts.report !== undefined)
    checkReportPath(opts.report, [shown, ...new Set(scenario.manifests.map((m) => m.pos.file))]);
  /** --redact's pseudonyms, for what the command line names (a file, a --vary key's workload). */
  let rename = (text: string) => text;
  if (opts.redact) {
    const { redactScenario } = await import("../load/redact.ts");
    const redacted = redactScenario(scenario);
    scenario = redacted.scenario;
    rename = redacted.rename;
  }
  return { scenario, rename, shown: rename(shown) };
}

async function simulateCommand(
  io: Io,
  setExit: (code: number) => void,
  file: string | undefined,
  opts: Options,
  version: string,
): Promise<void> {
  const flags = readFlags(file, opts);
  const { budget, include, seed } = flags;
  let shown = file ?? opts.cluster!;
  let whatif: WhatIfModule | undefined;
  try {
    const loaded = await loadForRun(file, opts, shown);
    const { scenario } = loaded;
    shown = loaded.shown;
    // The levers rerun a scenario with callers; the --vary variants never pull them.
    whatif = scenario.traffic || opts.vary !== undefined ? await import("../whatif/index.ts") : undefined;
    const runner = new Runner(
      io,
      shown,
      budget,
      seed,
      opts.levers === false ? undefined : whatif?.pullLevers,
    );
    if (flags.dumpTime !== undefined) return await printDumpAt(io, runner, scenario, flags, opts, shown);
    if (whatif && opts.vary !== undefined)
      return await runVariants(io, runner, whatif, { ...loaded, shown }, flags, { ...opts, version });
    runner.check(scenario);
    const result = runner.run(scenario, scenario.name, true);
    const allLeases = opts.allLeases ?? false;
    if (opts.json) writeChunks(io, jsonChunks(result, scenario, { allLeases, version }), "json");
    else if (opts.brief) io.out(formatBrief(result));
    else writeChunks(io, timelineChunks(result, scenario, { allLeases }), "text");
    if (opts.report !== undefined)
      await writeReport(io, opts.report, scenario, [{ variant: "", result }], include, budget);
  } catch (error) {
    if (error instanceof LoadError) {
      io.err(`${formatLoadError(error)}\n`);
      setExit(EXIT_BAD_INPUT);
      return;
    }
    if (error instanceof UnsupportedFault) throw new UsageError(`${shown}: ${error.message}`);
    if (whatif && error instanceof whatif.VaryError) throw new UsageError(error.message);
    throw error;
  }
}

/** --dump-at: the cluster at that time of the run, as kubectl get -o yaml (or json) prints a List. */
async function printDumpAt(
  io: Io,
  runner: Runner,
  scenario: Scenario,
  flags: Flags,
  opts: Options,
  shown: string,
): Promise<void> {
  const dumpTime = flags.dumpTime!;
  if (dumpTime > scenario.duration)
    throw new UsageError(
      `--dump-at ${opts.dumpAt}: after the end of the scenario (${formatDuration(scenario.duration)})`,
    );
  runner.check(scenario);
  const { dumpAt, formatDump } = await import("../serve/dump.ts");
  const items = dumpAt(scenario, dumpTime, {
    ...(flags.seed === undefined ? {} : { seed: flags.seed }),
    maxEvents: flags.budget.maxEvents,
  });
  print(io, shown, () => formatDump(items, opts.json ? "json" : "yaml"), opts.json);
}

/** --vary: one run per value, side by side (and the report of them all with --report). */
async function runVariants(
  io: Io,
  runner: Runner,
  whatif: WhatIfModule,
  loaded: { scenario: Scenario; rename: (text: string) => string; shown: string },
  flags: Flags,
  opts: Options & { version: string },
): Promise<void> {
  const { scenario, rename, shown } = loaded;
  const { applyVariation, formatVariants, parseVary, varyJson } = whatif;
  // A key naming a workload (behaviour.web.bootSeconds) names it as the redacted scenario does.
  const parsed = parseVary(opts.vary!);
  const { values } = parsed;
  const key = parsed.key.replace(/^(behaviour\.)(.+)(\.[^.]+)$/, (_, a, name, b) => a + rename(name) + b);
  const variants = values.map((v) => ({
    label: `${key}=${v}`,
    scenario: applyVariation(scenario, key, v),
  }));
  for (const v of variants) runner.check(v.scenario, v.label);
  const runs: VariantRun[] = variants.map((v, i) => ({
    variant: v.label,
    result: runner.run(v.scenario, `${v.label} (${i + 1} of ${variants.length})`, false),
  }));
  const format = opts.json
    ? () => `${JSON.stringify(varyJson(scenario.name, runs, { key, values }, opts.version), null, 2)}\n`
    : () => formatVariants(scenario.name, runs);
  print(io, shown, format, opts.json);
  if (opts.report !== undefined && runs[0])
    await writeReport(io, opts.report, scenario, runs, flags.include, flags.budget, { key, values });
}

/** Runs within the budget: refused before it starts when the estimate is over, stopped when it goes past. */
class Runner {
  constructor(
    private readonly io: Io,
    private readonly file: string,
    private readonly budget: Budget,
    private readonly seed: number | undefined,
    private readonly levers: PullLevers | undefined,
  ) {}

  check(scenario: Scenario, label?: string): void {
    const over = overBudget(estimateWork(scenario), this.budget);
    if (over) throw new UsageError(`${this.file}${label ? ` (${label})` : ""}: ${over}`);
  }

  /** The levers' runs, each in the run's progress line under its own label. */
  private leversWith(progress: Progress | undefined, label: string): PullLevers | undefined {
    const pull = this.levers;
    if (!pull || !progress) return pull;
    return (scenario, seed, traffic, maxEvents, onProgress) => {
      progress.relabel(`${label}, its levers' runs`);
      return pull(scenario, seed, traffic, maxEvents, onProgress);
    };
  }

  run(scenario: Scenario, label: string, levers: boolean): SimulationResult {
    const estimate = estimateWork(scenario);
    const progress = progressLine(this.io, label, estimate, scenario.duration);
    try {
      return simulate(scenario, {
        ...(this.seed === undefined ? {} : { seed: this.seed }),
        ...(levers && this.levers ? { levers: this.leversWith(progress, label) } : {}),
        engine: {
          maxEvents: this.budget.maxEvents,
          ...(progress ? { onProgress: progress.onProgress } : {}),
        },
      });
    } catch (error) {
      if (error instanceof EventBudgetExceeded)
        throw new UsageError(
          `${this.file}: the run went past its budget of ${count(error.maxEvents)} engine events ${error.at < 0 ? "in the warm-up" : `at t=${formatDuration(Math.round(error.at))}`} (estimated ~${count(estimate.events)} for the whole run); raise it with --max-events ${Math.max(error.maxEvents * 4, Math.ceil(estimate.events * 2))}`,
        );
      throw error;
    } finally {
      progress?.done();
    }
  }
}

/** Prints a formatted result; JSON gets its control characters escaped as JSON escapes. */
function print(io: Io, file: string, format: () => string, json: boolean | undefined): void {
  let text: string;
  try {
    text = format();
  } catch (error) {
    if (error instanceof RangeError && /string length/i.test(error.message))
      throw new UsageError(
        `${file}: the result is too large to print as one text; shorten the scenario${json ? " or leave out --json" : ""}`,
      );
    throw error;
  }
  io.out(json ? escapeJsonControls(text) : text);
}

async function writeReport(
  io: Io,
  path: string,
  scenario: Scenario,
  runs: VariantRun[],
  include: ReadonlySet<ReportInclude>,
  budget: Budget,
  vary?: { key: string; values: string[] },
): Promise<void> {
  const { simulatePayload, writeHtmlReport } = await import("../report/html.ts");
  const safe = redactForReport(
    scenario,
    runs.map((r) => r.result),
    include,
  );
  const payload = simulatePayload(
    safe.scenario,
    safe.results[0]!,
    budget,
    vary?.values.map((value, i) => ({
      label: runs[i]!.variant,
      key: vary.key,
      value,
      result: safe.results[i]!,
    })),
  );
  const bytes = await writeReportFile(path, () => writeHtmlReport(path, payload));
  io.err(`faultline: report written to ${path} (${Math.ceil(bytes / 1024)} KiB)\n`);
}

function parseDumpAt(value: string): number {
  const t = durationFlag("--dump-at", value);
  if (t < 0) throw new UsageError(`--dump-at: "${value}" is before the start of the run`);
  return t;
}

export function parseSeed(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) > 0xffffffff)
    throw new UsageError(`--seed: "${value}" is not a whole number from 0 to 4294967295`);
  return Number(value);
}

export function parseCount(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.replace(/_/g, ""));
  if (!/^[\d_]+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`${flag}: "${value}" is not a whole number of at least 1`);
  return n;
}
