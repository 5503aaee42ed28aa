// `faultline audit [PATH…] [--nodes N --zones a,b,c | --scenario FILE | --cluster DUMP] [--faults …] [--json | --sarif]
// [--report audit.html]`
// and `faultline audit merge FILES…`: read the manifests (files, folders, `-` for stdin), build the
// request, run it (all of it, one shard, or print the Indexed Job that runs it), print the result, and
// exit 1 when a finding is at or above --fail-on. Bad input is one located line and exit 2.

import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { AuditBudgetError, type AuditOptions, audit, NothingToMeasureError } from "../audit/audit.ts";
import { codeQualityOf } from "../audit/code-quality.ts";
import { DEFAULT_DURATION, prepare } from "../audit/inputs.ts";
import { CONFIGMAP_LIMIT, configMapBytes, jobManifests } from "../audit/job.ts";
import { auditPage } from "../audit/page.ts";
import { type PoolRunner, poolRunner } from "../audit/pool.ts";
import { sarifOf } from "../audit/sarif.ts";
import { type AuditRequest, mergeShards, optionsOf, runShard, ShardError } from "../audit/shard.ts";
import { formatAudit } from "../audit/text.ts";
import {
  type AuditJson,
  type AuditResult,
  DEFAULT_FAULTS,
  FAULT_CLASSES,
  SEVERITIES,
  type Severity,
} from "../audit/types.ts";
import { formatLoadError, LoadError } from "../load/core.ts";
import { versioned } from "../report/contract.ts";
import { escapeJsonControls } from "../report/escape.ts";
import { redactTextPage } from "../report/privacy.ts";
import { count, DEFAULT_BUDGET } from "../run/budget.ts";
import { PROFILE_NAMES, SUPPORTED_VERSIONS } from "../scenario/types.ts";
import { registerAuditDiff } from "./audit-diff.ts";
import {
  jobsOf,
  type Options,
  parseFaults,
  parseShard,
  positive,
  readInput,
  severity,
} from "./audit-input.ts";
import { EXIT_BAD_INPUT, type Io, UsageError } from "./io.ts";
import { cpuWithChildren } from "./progress.ts";
import { checkReportPath, reportIncludeOf, writeReportFile } from "./report-file.ts";
import { repositoryPath, sarifPlaces } from "./sarif-places.ts";
import { readShardFiles } from "./shard-files.ts";

const EXIT_FINDINGS = 1;
/** Where the Job's ConfigMap puts a dump read from standard input (`--cluster -`). */
const STDIN_DUMP = "stdin-cluster.yaml";
const DEFAULT_MAX_SWEEP = 200_000_000;
const PROFILE_HELP = `a named set of settings: a managed platform's documented behaviour (${PROFILE_NAMES.join(", ")}); over --scenario's profile and a dump's platform`;

export function registerAuditCommand(program: Command, io: Io, setExit: (code: number) => void): void {
  // faultline's version, as main.ts gave it to the program (for SARIF and the Job's image of faultline).
  const version = () => program.version() ?? "0.0.0";
  const cmd = program
    .command("audit")
    .description(
      "run every single failure (node power-off, zone, drain…) against your manifests and list what hurts which Service, with measured fixes",
    )
    .argument("[paths...]", "manifest files or folders (.yaml, .yml, .json); - reads standard input")
    .option("--nodes <n>", "nodes in the cluster (default 3, sized to fit the manifests)")
    .option("--zones <list>", "zones the nodes are spread over, in turn (default a,b,c)")
    .option("--scenario <file>", "a scenario file whose nodes and settings to use (its timeline is left out)")
    .option(
      "--cluster <dump>",
      "audit a live cluster from its dump (kubectl get nodes,pods,deployments,… -A -o yaml or json; a file, a folder or -): its nodes, its workloads, its pods where they run; PATHs are optional and added to its objects",
    )
    .option(
      "--kubernetes-version <v>",
      `Kubernetes version without --scenario (${SUPPORTED_VERSIONS[0]} to ${SUPPORTED_VERSIONS.at(-1)}; default ${SUPPORTED_VERSIONS.at(-1)})`,
    )
    .option("--profile <name>", PROFILE_HELP)
    .option(
      "--faults <list>",
      `fault classes: ${FAULT_CLASSES.join(",")} (default ${DEFAULT_FAULTS.join(",")}; with a platform's --profile also vm-terminated)`,
    )
    .option(
      "--duration <d>",
      `simulated time per run (default ${DEFAULT_DURATION / 60}m: evictions, replacements and the 6-minute force detach)`,
    )
    .option("--traffic <fields>", "a caller on each Service, e.g. rate=100 or rate=100,timeout=2s,retries=1")
    .option("--json", "print every figure as JSON")
    .option("--sarif", "print the findings as SARIF 2.1.0 (code scanning)")
    .option("--code-quality", "print the findings as a GitLab Code Quality report (CodeClimate JSON)")
    .option(
      "--sarif-root <dir>",
      "the folder SARIF paths are relative to (%SRCROOT%; default: the repository holding the working directory)",
    )
    .option(
      "--stdin-filename <path>",
      "the file standard input (-) came from, for the findings' locations, e.g. the chart's template",
    )
    .option(
      "--report <file>",
      "also write a self-contained HTML page: the Services × faults heat map, each cell opening its run's timeline",
    )
    .option(
      "--report-include <what>",
      "keep in the page what it leaves out by default, as simulate's report does: annotations (their values), commands (exec probes and hooks), or both: annotations,commands",
    )
    .option(
      "--fail-on <severity>",
      "exit 1 when a finding is at least this severe: error, warning or note",
      "error",
    )
    .option(
      "--jobs <n>",
      "worker threads (default: one per core, fewer for a sweep too small to be worth their start)",
    )
    .option(
      "--shard <i/n>",
      "run only the i-th of n slices of the sweep (i from 0) and print it for `audit merge`",
    )
    .option("--emit-job <n>", "print a Kubernetes Indexed Job that runs the sweep in n shards, and exit")
    .option("--max-events <n>", `engine events one run may take (default ${count(DEFAULT_BUDGET.maxEvents)})`)
    .option(
      "--max-requests <n>",
      `simulated requests one run may send (default ${count(DEFAULT_BUDGET.maxRequests)})`,
    )
    .option(
      "--max-sweep-events <n>",
      `engine events the whole audit may take (default ${count(DEFAULT_MAX_SWEEP)})`,
    )
    .action(async (paths: string[], opts: Options) => {
      setExit(await guarded(io, () => runAudit(io, paths, opts, version())));
    });
  registerMerge(cmd, io, setExit, version);
  registerAuditDiff(cmd, io, setExit);
}

/** `audit merge FILES…`. */
function registerMerge(cmd: Command, io: Io, setExit: (code: number) => void, version: () => string): void {
  cmd
    .command("merge")
    .description("combine the outputs of `audit --shard I/N` into the audit's result")
    .argument("<files...>", "shard outputs (JSON)")
    .option("--json", "print every figure as JSON")
    .option("--sarif", "print the findings as SARIF 2.1.0")
    .option("--sarif-root <dir>", "the folder SARIF paths are relative to (default: the repository)")
    .option("--fail-on <severity>", "exit 1 when a finding is at least this severe", "error")
    .option(
      "--jobs <n>",
      "worker threads for the fixes' runs (default: one per core, fewer for too few runs)",
    )
    .action(async (files: string[], _opts: Options, merge: Command) => {
      // `audit`'s own options of the same names are parsed by `audit` when they follow `merge`.
      const opts = merge.optsWithGlobals<Options>();
      setExit(await guarded(io, () => runMerge(io, files, opts, version())));
    });
}

/** Load and budget errors become one line and exit 2; the rest is an internal error. */
async function guarded(io: Io, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof LoadError) {
      io.err(`${formatLoadError(error)}\n`);
      return EXIT_BAD_INPUT;
    }
    if (
      error instanceof AuditBudgetError ||
      error instanceof ShardError ||
      error instanceof NothingToMeasureError
    )
      throw new UsageError(error.message);
    throw error;
  }
}

async function runAudit(io: Io, paths: string[], opts: Options, version: string): Promise<number> {
  const failOn = severity(opts.failOn);
  if (opts.json && opts.sarif) throw new UsageError("--json and --sarif: choose one");
  if (opts.scenario !== undefined && (opts.nodes !== undefined || opts.zones !== undefined))
    throw new UsageError("--scenario brings its own nodes: leave out --nodes and --zones");
  if (opts.scenario !== undefined && opts.kubernetesVersion !== undefined)
    throw new UsageError("--scenario sets its own kubernetesVersion: leave out --kubernetes-version");
  if (opts.cluster !== undefined && (opts.nodes !== undefined || opts.zones !== undefined))
    throw new UsageError("--cluster brings the dump's nodes: leave out --nodes and --zones");
  if (paths.length === 0 && opts.scenario === undefined && opts.cluster === undefined)
    throw new UsageError(
      "audit: name manifest files or folders (or - for standard input), or --scenario FILE, or --cluster DUMP",
    );
  checkSarifOptions(io, paths, opts);
  const shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
  if (shard && (opts.sarif || opts.codeQuality || opts.emitJob !== undefined || opts.report !== undefined))
    throw new UsageError(
      "--shard prints its part of the sweep for `audit merge`: leave out --sarif, --report and --emit-job",
    );
  if (opts.report !== undefined && opts.emitJob !== undefined)
    throw new UsageError("--emit-job prints a Job and runs nothing: leave out --report");
  const request: AuditRequest = {
    input: readInput(paths, opts),
    faults: parseFaults(opts.faults, opts.profile),
    budget: {
      maxEvents: positive("--max-events", opts.maxEvents) ?? DEFAULT_BUDGET.maxEvents,
      maxRequests: positive("--max-requests", opts.maxRequests) ?? DEFAULT_BUDGET.maxRequests,
    },
    maxSweepEvents: positive("--max-sweep-events", opts.maxSweepEvents) ?? DEFAULT_MAX_SWEEP,
  };
  if (opts.emitJob !== undefined) return emitJob(io, paths, opts, request, version);
  const include = reportIncludeOf(opts);
  if (opts.report !== undefined) checkReportPath(opts.report, inputFiles(request), false);
  const progress = progressOf(io);
  const runner = runnerOf(opts);
  const options = {
    ...optionsOf(request, runner, progress.update),
    ...(opts.report !== undefined ? { timelines: true } : {}),
  };
  try {
    if (shard) {
      const out = await runShard(request, shard.index, shard.count, options);
      io.out(escapeJsonControls(`${JSON.stringify(out)}\n`));
      return 0;
    }
    const prepared = prepare(request.input);
    const result = await audit(prepared, options);
    if (opts.report !== undefined) {
      const path = opts.report;
      // The page keeps the secrets simulate's report keeps (report/privacy.ts), from the objects audited.
      const objects = prepared.scenario.manifests.map((m) => m.object);
      const page = auditPage(redactTextPage(result, objects, include));
      await writeReportFile(path, async () => writeFileSync(path, page));
    }
    progress.summary();
    return print(io, withoutTimelines(result), opts, failOn, version);
  } finally {
    await runner.close();
    progress.done();
  }
}

/** `--sarif-root` goes with --sarif, `--stdin-filename` with a `-`; a nameless stdin is said. */
function checkSarifOptions(io: Io, paths: string[], opts: Options): void {
  if ([opts.json, opts.sarif, opts.codeQuality].filter(Boolean).length > 1)
    throw new UsageError("--json, --sarif and --code-quality: choose one");
  if (opts.sarifRoot !== undefined && !opts.sarif && !opts.codeQuality)
    throw new UsageError("--sarif-root goes with --sarif or --code-quality");
  const stdin = paths.includes("-") || opts.cluster === "-";
  if (opts.stdinFilename !== undefined && !stdin)
    throw new UsageError("--stdin-filename names standard input: give - as a PATH or --cluster -");
  if (opts.stdinFilename === "") throw new UsageError("--stdin-filename: the name is empty");
  if (opts.sarif && stdin && opts.stdinFilename === undefined)
    io.err(
      'faultline audit: standard input has no file name, so code scanning cannot place its findings (uri "stdin"): give --stdin-filename PATH\n',
    );
}

/** The timelines are for the page only: the JSON, SARIF and text are the same with or without it. */
function withoutTimelines(r: AuditResult): AuditResult {
  const strip = (runs: AuditResult["runs"]) => runs.map(({ timeline: _t, ...m }) => m);
  return { ...r, runs: strip(r.runs), fixes: strip(r.fixes) };
}

/** Every file the audit reads, for --report's check that it would not overwrite one. */
function inputFiles(request: AuditRequest): string[] {
  const files = request.input.entries.flatMap((e) => (e.entry === "-" ? [] : e.files.map((f) => f.file)));
  const scenario = request.input.scenario;
  if (scenario) {
    files.push(scenario.file);
    for (const fs of Object.values(scenario.manifests)) for (const f of fs) files.push(f.file);
  }
  const dump = request.input.dump;
  if (dump && dump.entry !== "-") for (const f of dump.files) files.push(f.file);
  return files;
}

async function runMerge(io: Io, files: string[], opts: Options, version: string): Promise<number> {
  const failOn = severity(opts.failOn);
  if (opts.json && opts.sarif) throw new UsageError("--json and --sarif: choose one");
  checkSarifOptions(io, [], opts);
  const shards = readShardFiles(files);
  const progress = progressOf(io);
  const runner = runnerOf(opts);
  try {
    return print(io, await mergeShards(shards, runner, progress.update), opts, failOn, version);
  } finally {
    await runner.close();
    progress.done();
  }
}

/** One runner for the command (`--jobs N` exactly, or fitted to the work), closed by its caller. */
function runnerOf(opts: Options): PoolRunner {
  return poolRunner(jobsOf(opts.jobs), opts.jobs === undefined);
}

function print(io: Io, result: AuditResult, opts: Options, failOn: Severity, version: string): number {
  if (opts.json) {
    const json: AuditJson = { ...versioned(version), ...result };
    io.out(escapeJsonControls(`${JSON.stringify(json, null, 2)}\n`));
  } else if (opts.codeQuality) {
    const path = (file: string) => repositoryPath(file, opts.sarifRoot);
    const md5 = (text: string) => createHash("md5").update(text).digest("hex");
    io.out(escapeJsonControls(`${JSON.stringify(codeQualityOf(result, path, md5), null, 2)}\n`));
  } else if (opts.sarif) {
    const log = sarifOf(result, version, sarifPlaces(version, opts.sarifRoot));
    io.out(escapeJsonControls(`${JSON.stringify(log, null, 2)}\n`));
  } else io.out(formatAudit(result));
  const rank = SEVERITIES.indexOf(failOn);
  return result.findings.some((f) => SEVERITIES.indexOf(f.severity) <= rank) ? EXIT_FINDINGS : 0;
}

function emitJob(io: Io, paths: string[], opts: Options, request: AuditRequest, version: string): number {
  const shards = positive("--emit-job", opts.emitJob)!;
  // Checked now, so that a Job is never printed for input the shards would refuse.
  prepare(request.input);
  const files: { path: string; text: string }[] = [];
  for (const e of request.input.entries) {
    if (e.entry === "-") files.push({ path: "stdin.yaml", text: e.files[0]!.text });
    else for (const f of e.files) files.push({ path: f.file, text: f.text });
  }
  const scenario = request.input.scenario;
  if (scenario) {
    files.push({ path: scenario.file, text: scenario.text });
    // Its own manifests, unless PATHs or a dump replace them.
    if (request.input.entries.length === 0 && !request.input.dump)
      for (const fs of Object.values(scenario.manifests))
        for (const f of fs) files.push({ path: f.file, text: f.text });
  }
  const dump = request.input.dump;
  if (dump?.entry === "-") files.push({ path: STDIN_DUMP, text: dump.files[0]!.text });
  else if (dump) for (const f of dump.files) files.push({ path: f.file, text: f.text });
  const unique = [...new Map(files.map((f) => [f.path, f])).values()];
  const bytes = configMapBytes(unique);
  if (bytes > CONFIGMAP_LIMIT)
    throw new UsageError(
      `--emit-job: the inputs are ${Math.ceil(bytes / 1024)} KiB, more than a ConfigMap holds (1 MiB)`,
    );
  const args = [
    ...paths.map((p) => (p === "-" ? "stdin.yaml" : p)),
    ...(opts.cluster === "-" ? [`--cluster=${STDIN_DUMP}`] : []),
    ...passOn(opts),
  ];
  io.out(jobManifests({ files: unique, args, shards, version }));
  return 0;
}

/** The options a shard needs to make the same request. */
function passOn(opts: Options): string[] {
  const out: string[] = [];
  const pairs: [keyof Options, string][] = [
    ["scenario", "--scenario"],
    ["cluster", "--cluster"],
    ["nodes", "--nodes"],
    ["zones", "--zones"],
    ["kubernetesVersion", "--kubernetes-version"],
    ["profile", "--profile"],
    ["faults", "--faults"],
    ["duration", "--duration"],
    ["traffic", "--traffic"],
    ["maxEvents", "--max-events"],
    ["maxRequests", "--max-requests"],
    ["maxSweepEvents", "--max-sweep-events"],
  ];
  for (const [key, flag] of pairs)
    if (opts[key] !== undefined && !(key === "cluster" && opts.cluster === "-"))
      out.push(`${flag}=${String(opts[key])}`);
  return out;
}

function progressOf(io: Io): {
  update: NonNullable<AuditOptions["progress"]>;
  /** on a terminal, one line on stderr: the runs each phase took, wall and CPU time */
  summary: () => void;
  done: () => void;
} {
  const show = io.progress;
  if (!show) return { update: () => {}, summary: () => {}, done: () => {} };
  let last = 0;
  // The command line reads the clocks; the models never do.
  const started = Date.now();
  const cpu = cpuWithChildren();
  const phases = new Map<string, number>();
  return {
    update: (done, total, phase, overall) => {
      phases.set(phase, total);
      const now = Date.now();
      if (done !== total && done !== 0 && now - last < 250) return;
      last = now;
      // The whole audit's runs: before the findings, the fixes' count is its bound (audit.ts fixBound).
      const all =
        overall && `; ${overall.done} of ${overall.upTo ? "at most " : ""}${overall.total} with the fixes`;
      show(`faultline audit: ${phase}: ${done} of ${total} runs${all ?? ""}`);
    },
    summary: () => {
      show(undefined);
      const used = cpuWithChildren() - cpu;
      const runs = [...phases].map(([phase, n]) => `${count(n)} run${n === 1 ? "" : "s"} of the ${phase}`);
      if (runs.length === 0) return;
      io.err(
        `faultline audit: ${runs.join(" and ")} in ${((Date.now() - started) / 1000).toFixed(1)} s wall, ${used.toFixed(1)} s CPU\n`,
      );
    },
    done: () => show(undefined),
  };
}
