// `faultline probes FILE… [--boot 70s] [--ready-after 40s] [--deadlock-at 120s] [--json]`: per
// container, the seed's table (each probe, what its failure does, the seconds until it acts, the
// boot budget); with --boot, the container run through the kubelet model, as the seed's three runs.

import type { Command } from "commander";
import { type ContainerTiming, containerTiming } from "../kubelet/probe-timing.ts";
import { formatLoadError, LoadError, parseManifests, readManifestFiles } from "../load/index.ts";
import { type Versioned, versioned } from "../report/contract.ts";
import { escapeJsonControls } from "../report/escape.ts";
import { proseOf } from "../report/messages/index.ts";
import { tableLines } from "../report/table.ts";
import { simulate } from "../run/simulate.ts";
import type { ManifestObject } from "../scenario/types.ts";
import type { TraceEvent } from "../trace/events.ts";
import { type DeclaredWorkload, workloadsOf } from "../trace/workloads.ts";
import { durationFlag } from "./duration-flag.ts";
import { EXIT_BAD_INPUT, type Io, UsageError } from "./io.ts";
import { probeScenario, rawObjects } from "./probe-scenario.ts";

interface Options {
  json?: boolean;
  boot?: string;
  readyAfter?: string;
  deadlockAt?: string;
  for?: string;
  probeSchedule?: string;
  crashLoopBackOff?: boolean;
  verbose?: boolean;
}

export interface RunEvent {
  t: number;
  type: TraceEvent["type"];
  text: string;
  message: string;
  why?: string;
  /** shown only with --verbose */
  detail?: boolean;
}

export function registerProbesCommand(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command("probes")
    .description(
      "for each container in Kubernetes manifests: what each probe's failure does and the seconds until it acts; with --boot, run it through the kubelet model",
    )
    .argument("<files...>", "manifest files or folders (plain Kubernetes YAML)")
    .option("--json", "print the machine-readable result")
    .option("--boot <duration>", "run the model: the app answers its health checks this long after it starts")
    .option("--ready-after <duration>", "readiness passes this long after the start (default: --boot)")
    .option("--deadlock-at <duration>", "the first container deadlocks this long after it starts")
    .option("--for <duration>", "how long to run (default 200s)")
    .option(
      "--probe-schedule <schedule>",
      "kubernetes (the real kubelet, default) or period-end (a simplified kubelet: each check at the end of its period, no jitter, no timeouts)",
    )
    .option(
      "--no-crash-loop-back-off",
      "restart at once, without CrashLoopBackOff (as the simplified kubelet does)",
    )
    .option("--verbose", "print every event of the run, each probe check included")
    .action((files: string[], opts: Options) => {
      try {
        const read = readManifestFiles(files);
        const loaded = parseManifests(read);
        const workloads = workloadsOf(loaded.manifests);
        if (workloads.length === 0)
          throw new UsageError(
            `${files.join(", ")}: no Pod, Deployment, ReplicaSet, StatefulSet or DaemonSet`,
          );
        const run = runOptions(opts);
        const raw = rawObjects(read);
        const tables = workloads.map((w) => ({
          file: w.manifest.pos.file,
          kind: w.kind,
          workload: w.name,
          namespace: w.namespace,
          containers: w.spec.containers.map((c) => containerTiming(c, w.spec)),
        }));
        const runs = run
          ? workloads.map((w) => ({ workload: w.name, ...runWorkload(w, loaded.manifests, raw, run) }))
          : [];
        if (opts.json) {
          const json: ProbesJson = {
            ...versioned(program.version() ?? "0.0.0"),
            workloads: tables,
            ...(run ? { run: { settings: run, runs } } : {}),
          };
          io.out(escapeJsonControls(`${JSON.stringify(json, null, 2)}\n`));
          return;
        }
        const out: string[] = [];
        for (const t of tables) {
          for (const c of t.containers) out.push(...formatTable(t, c), "");
        }
        for (const r of runs) out.push(...formatRun(r.workload, run!, r.events, opts.verbose ?? false), "");
        io.out(`${out.join("\n").trimEnd()}\n`);
      } catch (error) {
        if (error instanceof LoadError) {
          io.err(`${formatLoadError(error)}\n`);
          setExit(EXIT_BAD_INPUT);
          return;
        }
        throw error;
      }
    });
}

/** `probes --json` (schemas/probes.schema.json). */
export interface ProbesJson extends Versioned {
  workloads: {
    file: string;
    kind: string;
    workload: string;
    namespace: string;
    containers: ContainerTiming[];
  }[];
  /** with --boot: the run's settings and each workload's events */
  run?: { settings: RunSettings; runs: { workload: string; events: RunEvent[] }[] };
}

export interface RunSettings {
  bootSeconds: number;
  readyAfterSeconds: number;
  deadlockAtSeconds?: number;
  forSeconds: number;
  probeSchedule: "kubernetes" | "period-end";
  crashLoopBackOff: boolean;
}

function duration(flag: string, v: string): number {
  const n = durationFlag(flag, v);
  if (n < 0) throw new UsageError(`${flag}: "${v}" must not be negative`);
  return n;
}

function runOptions(opts: Options): RunSettings | undefined {
  const wantsRun = opts.boot !== undefined || opts.readyAfter !== undefined || opts.deadlockAt !== undefined;
  if (!wantsRun) {
    if (opts.for !== undefined || opts.probeSchedule !== undefined || opts.crashLoopBackOff === false)
      throw new UsageError("--for, --probe-schedule and --no-crash-loop-back-off go with --boot");
    return undefined;
  }
  const bootSeconds = opts.boot === undefined ? 0 : duration("--boot", opts.boot);
  const schedule = opts.probeSchedule ?? "kubernetes";
  if (schedule !== "kubernetes" && schedule !== "period-end")
    throw new UsageError(`--probe-schedule: "${schedule}" is not kubernetes or period-end`);
  const forSeconds = opts.for === undefined ? 200 : duration("--for", opts.for);
  if (forSeconds <= 0 || forSeconds > 86_400)
    throw new UsageError("--for: must be more than 0s and at most 24h");
  return {
    bootSeconds,
    readyAfterSeconds:
      opts.readyAfter === undefined ? bootSeconds : duration("--ready-after", opts.readyAfter),
    ...(opts.deadlockAt !== undefined
      ? { deadlockAtSeconds: duration("--deadlock-at", opts.deadlockAt) }
      : {}),
    forSeconds,
    probeSchedule: schedule,
    crashLoopBackOff: opts.crashLoopBackOff !== false,
  };
}

function formatTable(t: { file: string; kind: string; workload: string }, c: ContainerTiming): string[] {
  const lines = [`${t.file} · ${t.kind} ${t.workload} · container ${c.container}`];
  if (c.probes.length === 0) {
    lines.push("  no probes: ready as soon as it runs; nothing restarts it unless it exits");
    return lines;
  }
  const rows = [["probe", "handler", "when it fails", "seconds until it acts (every check failing)"]];
  for (const p of c.probes) {
    rows.push([
      p.type,
      p.describe,
      p.consequence,
      `up to ${p.worstSeconds}s = ${p.formula.replace(/ = \d+$/, "")}; the real kubelet from ${p.bestSeconds}s`,
    ]);
  }
  lines.push(...tableLines(rows[0]!, rows.slice(1), { indent: "  " }));
  for (const p of c.probes) {
    if (p.type === "startup") continue;
    lines.push(
      `  ${p.type} after a mid-life failure: ${p.midLifeBestSeconds}–${p.midLifeWorstSeconds}s (periodSeconds ${p.periodSeconds} × failureThreshold ${p.failureThreshold}, + timeoutSeconds ${p.timeoutSeconds} when the app hangs)`,
    );
  }
  lines.push(`  boot budget: ${c.bootBudget}`);
  return lines;
}

/** What an event says in the run's list, or undefined for one the list leaves out. */
function textOf(e: TraceEvent, thresholds: ReadonlyMap<string, number>): string | undefined {
  switch (e.type) {
    case "ContainerStarted":
      return e.restartCount === 0
        ? `container ${e.container} started`
        : `container ${e.container} restarted (restartCount ${e.restartCount})`;
    case "ProbeSucceeded":
      return e.probe === "startup" ? "startup passed, the other two begin" : `${e.probe} passed`;
    case "ProbeFailed":
      return `${e.probe} failed (${e.consecutive} in a row)`;
    case "EndpointReady":
      return "added to endpoints";
    case "EndpointNotReady":
      return "removed from endpoints, still running";
    case "ContainerKilled":
      return `${e.probe} failed ${thresholds.get(`${e.container}/${e.probe}`) ?? "?"}x: restart`;
    case "ContainerExited":
      return `container ${e.container} exited with code ${e.exitCode}`;
    case "BackOff":
      return `CrashLoopBackOff: the restart waits ${e.delaySeconds}s`;
    case "FaultInjected":
      return e.do === "deadlock" ? "the process deadlocks" : e.do;
    case "PodReady":
    case "PodNotReady":
      return e.type === "PodReady" ? "pod Ready" : "pod not Ready";
    default:
      return undefined;
  }
}

/** The workload alone on one node, one replica, behind its Service (one made up if none selects it). */
function runWorkload(
  w: DeclaredWorkload,
  manifests: ManifestObject[],
  raw: ReturnType<typeof rawObjects>,
  s: RunSettings,
): { events: RunEvent[] } {
  const firstStart = (events: TraceEvent[]) => events.find((e) => e.type === "ContainerStarted")?.t ?? 0;
  let result = simulate(probeScenario(w, manifests, raw, s, undefined));
  const t0 = firstStart(result.events);
  if (s.deadlockAtSeconds !== undefined)
    result = simulate(probeScenario(w, manifests, raw, s, t0 + s.deadlockAtSeconds));
  const thresholds = new Map<string, number>(
    w.spec.containers.flatMap((c) =>
      (["startup", "liveness", "readiness"] as const).flatMap((type) => {
        const p = c[`${type}Probe`];
        return p ? [[`${c.name}/${type}`, p.failureThreshold ?? 3] as const] : [];
      }),
    ),
  );
  const events: RunEvent[] = [];
  /** Readiness passing shows as "added to endpoints" unless --verbose: those events are details. */
  const hidden = new Set<number>();
  for (const e of result.events) {
    const t = Math.round((e.t - t0) * 1e6) / 1e6;
    if (t < 0 || t > s.forSeconds) continue;
    const text = textOf(e, thresholds);
    if (e.type === "ProbeSucceeded" && e.probe === "readiness") hidden.add(events.length);
    if (text)
      events.push({
        t,
        type: e.type,
        text,
        message: proseOf(e).message,
        ...(proseOf(e).why ? { why: proseOf(e).why } : {}),
        ...(hidden.has(events.length) ? { detail: true } : {}),
      });
  }
  return { events };
}

/** The events the seed's toy prints; the rest only with --verbose. */
const SEED_EVENTS = new Set([
  "ProbeSucceeded",
  "EndpointReady",
  "EndpointNotReady",
  "ContainerKilled",
  "BackOff",
]);

function formatRun(workload: string, s: RunSettings, events: RunEvent[], verbose: boolean): string[] {
  const what = [`boots in ${s.bootSeconds}s`];
  if (s.readyAfterSeconds !== s.bootSeconds) what.push(`ready after ${s.readyAfterSeconds}s`);
  if (s.deadlockAtSeconds !== undefined) what.push(`deadlocks at ${s.deadlockAtSeconds}s`);
  const lines = [
    `${workload}: ${what.join(", ")} · probeSchedule ${s.probeSchedule}, crashLoopBackOff ${s.crashLoopBackOff ? "on" : "off"} · ${s.forSeconds}s from its first start`,
  ];
  const shown = events.filter(
    (e) =>
      verbose ||
      (SEED_EVENTS.has(e.type) && !e.detail) ||
      (e.type === "ContainerStarted" && !events.some((k) => k.type === "ContainerKilled" && k.t === e.t)) ||
      e.type === "FaultInjected",
  );
  for (const e of shown) {
    if (e.type === "ContainerStarted" && e.t === 0 && !verbose) continue;
    lines.push(`  ${fmtT(e.t).padStart(6)}s ${e.text}`);
    if (verbose && e.why) lines.push(`          why: ${e.why}`);
  }
  if (shown.length === 0) lines.push("  nothing happens: every probe passes once the app is up");
  return lines;
}

function fmtT(t: number): string {
  return Number.isInteger(t) ? String(t) : t.toFixed(1);
}
