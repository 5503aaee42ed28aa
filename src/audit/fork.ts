// One warm-up per sweep: the base scenario is warmed up to t=0 once, in a process that V8 turns into
// a startup snapshot (fork-entry.ts), and each run without patches (or with only callers and boots the
// warm-up did not read) starts from a copy of that heap in its own process (`node --snapshot-blob`),
// so a run costs the process's start, the copy, and what its fault changes. A copy of a heap is
// exact: the forked run's outcome is the run from scratch's, byte for byte (test/audit/fork.test.ts).
// Runs with other patches (a fix that changes what the warm-up builds) stay from scratch (execute.ts
// `forkable`).
//
// From the source tree the snapshot's program is bundled here with esbuild (a devDependency); a
// built package carries it as dist/audit/fork-entry.cjs (scripts/build-report.ts).

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { deserialize, serialize } from "node:v8";
import type { ForkInput, RunContext, RunOutcome } from "./execute.ts";
import { PRIMER_MIN_RUNS, primer } from "./primer.ts";
import { FAULT_CLASSES, type RunSpec } from "./types.ts";

/**
 * Pods at t=0 below which the audit does not fork from a snapshot. Measured back to back on the
 * project's 2-core machine at load 2–3, the whole audit of the bench's 100 nodes and 3,000 pods (204
 * runs, --jobs 1) took 56.9 s of CPU from scratch and 67.7 s forked: in a warm process a run from
 * scratch costs about 0.28 s, warm-up included, and a process started from the snapshot 0.27–0.36 s
 * (start 0.07 s, the heap's copy 0.07 s, the run's code cold 0.13–0.15 s). At 30,000 pods a forked
 * run costs 0.83 of one from scratch (docs/perf.md).
 */
export const FORK_MIN_PODS = 30_000;
/**
 * Pods at t=0 below which the audit does not fork from its warm process (fork-server.ts). The whole
 * audit of the bench's 100 nodes and 3,000 pods (204 runs, --jobs 1), four times each, alternated, on
 * the project's 2-core machine at load 1.1–2.3: 40.9–56.6 s of CPU forked (mean 48.5), 50.5–73.3 s
 * from scratch (mean 57.9), the same wall time (a run from scratch also uses V8's helper threads).
 * Before the server's young collections (fork-server.ts) the forked audit took 71–73 s against
 * 56–62 s, and this gate was the snapshot's. Below this size a run is mostly its run, not its
 * warm-up, and a child's page copies and compiling are not repaid.
 */
export const PROCESS_FORK_MIN_PODS = 3_000;
/**
 * Forkable runs below which the fork's own cost is not repaid. At 1,000 nodes and 30,000 pods
 * (load 0.3–2.6): a run from scratch 2.8–2.9 s of CPU, a run from the snapshot 2.37 s, the snapshot
 * about 8 s; it pays from about 16 runs. The fork server's start is one warm-up and a run from scratch
 * per fault class, repaid sooner.
 */
export const FORK_MIN_RUNS = 20;

/** A program the sweep's forks run: fork-entry (the snapshot's) or fork-server (the process fork's). */
export type ForkProgram = "fork-entry" | "fork-server";

/** The program's prebuilt script beside this module, else the script's text, bundled now. */
export async function forkProgramScript(program: ForkProgram = "fork-entry"): Promise<string> {
  const built = new URL(`./${program}.cjs`, import.meta.url);
  return existsSync(built) ? fileURLToPath(built) : bundleForkProgram(program);
}

/** The snapshot's program (the default) or the fork server, bundled from the source tree (the build writes them to dist). */
export async function bundleForkProgram(program: ForkProgram = "fork-entry"): Promise<string> {
  let esbuild: typeof import("esbuild");
  try {
    esbuild = await import("esbuild");
  } catch {
    throw new Error("forking the audit's runs from source needs esbuild (a devDependency): run npm ci");
  }
  const out = await esbuild.build({
    entryPoints: [fileURLToPath(new URL(`./${program}.ts`, import.meta.url))],
    bundle: true,
    platform: "node",
    format: "cjs",
    write: false,
    logLevel: "silent",
  });
  return out.outputFiles[0]!.text;
}

/**
 * The process fork (native/fork.c, compiled by `npm run build` into dist/native/fork.node), beside
 * the compiled modules or in the source tree's dist; undefined where it was not built or is not
 * Linux's (MADV_DOFORK, PR_SET_PDEATHSIG), and the sweep forks from a V8 snapshot instead.
 */
export function processFork(): string | undefined {
  if (process.platform !== "linux") return undefined;
  for (const path of ["../native/fork.node", "../../dist/native/fork.node"]) {
    const file = fileURLToPath(new URL(path, import.meta.url));
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** A process's exit and its standard error; stdin written first, each line of its output to `onLine`. */
function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin?: Buffer,
  onLine?: (line: string) => void,
): Promise<{ code: number; out: Buffer; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let pending = "";
    child.stdout.on("data", (b: Buffer) => {
      if (!onLine) return out.push(b);
      const lines = (pending + b.toString()).split("\n");
      pending = lines.pop()!;
      for (const line of lines) onLine(line);
    });
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({ code: code ?? 1, out: Buffer.concat(out), err: Buffer.concat(err).toString() }),
    );
    child.stdin.end(stdin ?? Buffer.alloc(0));
  });
}

/** What a fork's program is given: its script on disk, the context's file and the environment. */
async function forkSetup(ctx: RunContext, dir: string, program: ForkProgram) {
  const entry = await forkProgramScript(program);
  const script = entry.endsWith(".cjs") ? entry : join(dir, `${program}.cjs`);
  if (script !== entry) writeFileSync(script, entry);
  const { objects: _objects, ...input } = ctx;
  const inputFile = join(dir, "input.bin");
  writeFileSync(inputFile, serialize(input satisfies ForkInput));
  // The children are plain scripts: no loader or flag of this process's NODE_OPTIONS (tsx's).
  const { NODE_OPTIONS: _options, ...inherited } = process.env;
  const env = {
    ...inherited,
    FAULTLINE_FORK_INPUT: inputFile,
    FAULTLINE_FORK_HDR: createRequire(import.meta.url).resolve("hdr-histogram-js"),
  };
  return { script, env };
}

/** How the sweep's runs fork: from one warm process (native/fork.c) or from a V8 startup snapshot. */
export type ForkMethod = "process" | "snapshot";

/** The method this installation has: the process fork where it was built, else the snapshot. */
export function forkMethod(): ForkMethod {
  return processFork() ? "process" : "snapshot";
}

/** From which size a sweep forks with `method`: pods at t=0 and forkable runs. */
export function forkFrom(method: ForkMethod = forkMethod()): { pods: number; runs: number } {
  return { pods: method === "process" ? PROCESS_FORK_MIN_PODS : FORK_MIN_PODS, runs: FORK_MIN_RUNS };
}

/**
 * The outcomes of `specs` (each forkable), in their order, each from a copy of the base's warm-up,
 * up to `jobs` at a time; from the fork server, after its primer when there are `primeFrom` or more.
 */
export async function forkRuns(
  ctx: RunContext,
  specs: RunSpec[],
  jobs: number,
  onDone: () => void,
  method: ForkMethod = forkMethod(),
  primeFrom = PRIMER_MIN_RUNS,
): Promise<RunOutcome[]> {
  const dir = mkdtempSync(join(tmpdir(), "faultline-fork-"));
  try {
    const sweep: Sweep = { ctx, specs, jobs, onDone, dir, primeFrom };
    return method === "process" ? await serverRuns(sweep) : await snapshotRuns(sweep);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A sweep's runs, their parallelism, the progress callback and the directory they exchange files in. */
interface Sweep {
  ctx: RunContext;
  specs: RunSpec[];
  jobs: number;
  onDone: () => void;
  dir: string;
  /** forked runs from which the fork server plays the primer first (primer.ts) */
  primeFrom: number;
}

/**
 * The runs forked from one warm process (fork-server.ts): it warms up once and forks up to `jobs`
 * children at a time, each writing its outcome to `<dir>/<i>.bin` and the server telling each end.
 */
async function serverRuns({ ctx, specs, jobs, onDone, dir, primeFrom }: Sweep): Promise<RunOutcome[]> {
  const addon = processFork();
  if (!addon) throw new Error("the process fork (dist/native/fork.node) is not built: run npm run build");
  const { script, env } = await forkSetup(ctx, dir, "fork-server");
  writeFileSync(join(dir, "specs.bin"), serialize(specs));
  if (specs.length >= primeFrom) {
    const played = new Set<string>(specs.map((s) => s.fault.class));
    const classes = FAULT_CLASSES.filter((c) => played.has(c));
    writeFileSync(join(dir, "primer.bin"), serialize(primer(classes, ctx.maxEvents)));
  }
  const served = await run(
    // No V8 background thread, which a forked child would not have; the young collections before
    // the forks (fork-server.ts).
    ["--single-threaded", "--expose-gc", script],
    { ...env, FAULTLINE_FORK_DIR: dir, FAULTLINE_FORK_NATIVE: addon, FAULTLINE_FORK_JOBS: String(jobs) },
    undefined,
    (line) => {
      if (line) onDone();
    },
  );
  if (served.code !== 0) throw new Error(`the sweep's fork server failed: ${served.err.trim()}`);
  // A run played from scratch because its child hung (fork-server.ts) is said, not hidden.
  for (const line of served.err.split("\n"))
    if (line.trim()) process.stderr.write(`faultline audit: ${line}\n`);
  return specs.map((_, i) => deserialize(readFileSync(join(dir, `${i}.bin`))) as RunOutcome);
}

/** The runs each from a process started from the warm-up's V8 startup snapshot (fork-entry.ts). */
async function snapshotRuns({ ctx, specs, jobs, onDone, dir }: Sweep): Promise<RunOutcome[]> {
  const { script, env } = await forkSetup(ctx, dir, "fork-entry");
  const blob = join(dir, "warm.blob");
  const made = await run(["--snapshot-blob", blob, "--build-snapshot", script], env);
  if (made.code !== 0) throw new Error(`the sweep's snapshot could not be made: ${made.err.trim()}`);
  const outcomes: RunOutcome[] = new Array(specs.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < specs.length; i = next++) {
      const r = await run(["--snapshot-blob", blob], env, serialize(specs[i]));
      if (r.code !== 0)
        throw new Error(`run ${specs[i]!.id} from the sweep's snapshot failed: ${r.err.trim()}`);
      outcomes[i] = deserialize(r.out) as RunOutcome;
      onDone();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, specs.length)) }, worker));
  return outcomes;
}
