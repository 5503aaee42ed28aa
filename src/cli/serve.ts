// `faultline serve FILE [--at 6m] [--speed 10] [--port 0] [--kubeconfig-out FILE]`: the scenario's
// cluster as a read-only Kubernetes API on 127.0.0.1, for the user's own kubectl.

import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { EventBudgetExceeded } from "../engine/engine.ts";
import { formatLoadError, LoadError, loadScenarioFile } from "../load/index.ts";
import { formatDuration } from "../load/units.ts";
import { type Budget, count, DEFAULT_BUDGET, estimateWork, overBudget } from "../run/budget.ts";
import type { Scenario } from "../scenario/types.ts";
import { kubeconfig, type Serving, startServe } from "../serve/index.ts";
import { timeString } from "../serve/time.ts";
import { durationFlag } from "./duration-flag.ts";
import { EXIT_BAD_INPUT, type Io, UsageError } from "./io.ts";
import { parseCount, parseSeed } from "./simulate.ts";

interface ServeFlags {
  at?: string;
  speed?: string;
  port: string;
  kubeconfigOut?: string;
  seed?: string;
  maxEvents?: string;
  maxRequests?: string;
  /** commander's --no-tls */
  tls: boolean;
  /** commander's --no-auth */
  auth: boolean;
  /** commander's --no-wait-for-watch */
  waitForWatch: boolean;
  epoch?: string;
}

export function registerServeCommand(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command("serve")
    .description(
      "serve a scenario's cluster at a moment of its run as a read-only Kubernetes API, for kubectl",
    )
    .argument("<file>", "scenario file (YAML)")
    .option(
      "--at <time>",
      "the virtual time to show, e.g. 70s or 6m (default: the end of the run; 0 with --speed)",
    )
    .option("--speed <n>", "play the run from --at at n × real time, so that watches see changes arrive")
    .option("--port <n>", "the port on 127.0.0.1 (0: any free port)", "0")
    .option(
      "--kubeconfig-out <file>",
      "write the kubeconfig to this file (default: one in the temp directory, removed on exit)",
    )
    .option(
      "--no-tls",
      "serve plain HTTP (default: HTTPS with a certificate made at start, its CA in the kubeconfig)",
    )
    .option(
      "--no-auth",
      "check no bearer token (default: a token made at start, in the kubeconfig, required of every request)",
    )
    .option("--no-wait-for-watch", "with --speed: start playing at once, not when the first watch starts")
    .option(
      "--epoch <time>",
      "virtual t=0 on the wall clock, an RFC 3339 time such as 2025-01-01T00:00:00Z (default: now less --at, so that kubectl describe's ages, counted from your clock, are the simulated ones)",
    )
    .option("--seed <n>", "override the scenario's seed")
    .option("--max-events <n>", `engine events one run may take (default ${count(DEFAULT_BUDGET.maxEvents)})`)
    .option(
      "--max-requests <n>",
      `simulated requests one run may send (default ${count(DEFAULT_BUDGET.maxRequests)})`,
    )
    .action((file: string, opts: ServeFlags) => serveCommand(io, setExit, file, opts));
}

async function serveCommand(
  io: Io,
  setExit: (code: number) => void,
  file: string,
  opts: ServeFlags,
): Promise<void> {
  const seed = parseSeed(opts.seed);
  const budget: Budget = {
    maxEvents: parseCount("--max-events", opts.maxEvents) ?? DEFAULT_BUDGET.maxEvents,
    maxRequests: parseCount("--max-requests", opts.maxRequests) ?? DEFAULT_BUDGET.maxRequests,
  };
  const speed = opts.speed === undefined ? undefined : Number(opts.speed);
  if (speed !== undefined && !(Number.isFinite(speed) && speed > 0)) {
    throw new UsageError(`--speed: "${opts.speed}" is not a positive number`);
  }
  if (!/^\d+$/.test(opts.port) || Number(opts.port) > 65535)
    throw new UsageError(`--port: "${opts.port}" is not a port number (0 to 65535)`);
  let scenario: ReturnType<typeof loadScenarioFile>;
  try {
    scenario = loadScenarioFile(file);
  } catch (error) {
    if (error instanceof LoadError) {
      io.err(`${formatLoadError(error)}\n`);
      setExit(EXIT_BAD_INPUT);
      return;
    }
    throw error;
  }
  // Refused before it runs, as `faultline simulate` refuses it (src/run/budget.ts).
  const over = overBudget(estimateWork(scenario), budget);
  if (over) throw new UsageError(`${file}: ${over}`);
  let at = speed === undefined ? scenario.duration : 0;
  if (opts.at !== undefined) {
    at = durationFlag("--at", opts.at);
    if (at < 0 || at > scenario.duration) {
      throw new UsageError(
        `--at: ${opts.at} is outside the run (0 to its duration, ${formatDuration(scenario.duration)})`,
      );
    }
  }
  const serving = await startServing(file, scenario, opts, {
    at,
    epochMs: epochFlag(opts.epoch, at),
    port: Number(opts.port),
    ...(speed !== undefined ? { speed } : {}),
    ...(seed !== undefined ? { seed } : {}),
    maxEvents: budget.maxEvents,
    tls: opts.tls,
    auth: opts.auth,
    waitForWatch: opts.waitForWatch,
  });
  const path = await writeKubeconfig(opts.kubeconfigOut, scenario.name, serving);
  io.out(banner(scenario, serving, at, speed, path, opts.waitForWatch));
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await serving.stop();
  if (opts.kubeconfigOut === undefined) rmSync(path, { force: true });
  io.err("faultline serve: stopped\n");
}

/**
 * Where t=0 sits on the wall: the flag's RFC 3339 time, else the wall clock's now less the served
 * moment (an I/O room's reading of the clock: the model never sees it, only the timestamps served).
 */
function epochFlag(flag: string | undefined, at: number): number {
  if (flag === undefined) return Date.now() - Math.round(at * 1000);
  const ms = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(flag)
    ? Date.parse(flag)
    : Number.NaN;
  if (!Number.isFinite(ms))
    throw new UsageError(`--epoch: "${flag}" is not an RFC 3339 time (e.g. 2025-01-01T00:00:00Z)`);
  return ms;
}

/** The API server started, its failures said as the flag that caused them. */
async function startServing(
  file: string,
  scenario: Scenario,
  opts: ServeFlags,
  options: Parameters<typeof startServe>[1],
): Promise<Serving> {
  try {
    return await startServe(scenario, options);
  } catch (error) {
    if (error instanceof EventBudgetExceeded) {
      throw new UsageError(
        `${file}: the run went past its budget of ${count(error.maxEvents)} engine events ${error.at < 0 ? "in the warm-up" : `at t=${formatDuration(Math.round(error.at))}`}; raise it with --max-events ${error.maxEvents * 4}`,
      );
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE" || code === "EACCES") {
      throw new UsageError(`--port: cannot listen on 127.0.0.1:${opts.port} (${code})`);
    }
    throw error;
  }
}

/** What serve prints once it listens: where, the kubeconfig, and how to drive its clock. */
function banner(
  scenario: Scenario,
  serving: Serving,
  at: number,
  speed: number | undefined,
  path: string,
  waitForWatch: boolean,
): string {
  const clock =
    speed === undefined ? "frozen" : `playing at ${speed}×${waitForWatch ? " from the first watch" : ""}`;

  return [
    `faultline serve · ${scenario.name} · Kubernetes ${scenario.kubernetesVersion} · t+${formatDuration(at)} of ${formatDuration(scenario.duration)} (${clock})`,
    `serving the simulated cluster, read-only, on ${serving.url}`,
    `kubeconfig: ${path}`,
    "",
    `  export KUBECONFIG=${path}`,
    "  kubectl get nodes,pods -o wide",
    "",
    ...clockHelp(serving),
    `virtual t=0 is ${timeString(0)}; Ctrl-C stops`,
    "",
  ].join("\n");
}

/** How to drive the clock with curl: the kubeconfig's token, and -k over HTTPS. */
function clockHelp(serving: Serving): string[] {
  const curl = `curl${serving.ca ? " -k" : ""}${serving.token ? ' -H "Authorization: Bearer $T"' : ""}`;
  return [
    ...(serving.token
      ? ["T=$(kubectl config view --raw -o jsonpath='{.users[0].user.token}')  # the token serve requires"]
      : []),
    `clock: ${curl} ${serving.url}/faultline/v1/clock; ${curl} -X POST '${serving.url}/faultline/v1/play?speed=10' (or pause, seek?t=6m)`,
  ];
}

/** The kubeconfig where the user asked (else the temp directory); 0600, as it holds the token. */
async function writeKubeconfig(out: string | undefined, name: string, serving: Serving): Promise<string> {
  const path = out ?? join(tmpdir(), `faultline-${process.pid}-${serving.port}.kubeconfig`);
  try {
    // The owner's only, as kubeadm writes admin.conf: it carries the bearer token.
    writeFileSync(path, kubeconfig(name, serving.url, serving.ca, serving.token), { mode: 0o600 });
  } catch (error) {
    await serving.stop();
    throw new UsageError(`--kubeconfig-out: cannot write ${path} (${(error as NodeJS.ErrnoException).code})`);
  }
  return path;
}
