// One warm-up per sweep: the base scenario is warmed up to t=0 once, in a process that V8 turns into
// a startup snapshot (fork-entry.ts), and each run without patches starts from a copy of that heap
// in its own process (`node --snapshot-blob`), so a run costs the process's start, the copy, and what
// its fault changes. A copy of a heap is exact: the forked run's outcome is the run from scratch's,
// byte for byte (test/audit/fork.test.ts). Runs with patches (a fix that changes what the warm-up
// builds) stay from scratch (execute.ts `forkable`).
//
// From the source tree the snapshot's program is bundled here with esbuild (a devDependency); a
// built package carries it as dist/audit/fork-entry.cjs (scripts/build-report.ts).

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { deserialize, serialize } from "node:v8";
import type { ForkInput, RunContext, RunOutcome } from "./execute.ts";
import type { RunSpec } from "./types.ts";

/**
 * Pods at t=0 below which the audit does not fork. Measured back to back on the project's 2-core
 * machine at load 2–3, the whole audit of the bench's 100 nodes and 3,000 pods (204 runs, --jobs 1)
 * took 56.9 s of CPU from scratch and 67.7 s forked: in a warm process a run from scratch costs
 * about 0.28 s, warm-up included, and a process started from the snapshot 0.27–0.36 s (start 0.07 s,
 * the heap's copy 0.07 s, the run's code cold 0.13–0.15 s). Forking does not pay at that size. At
 * 30,000 pods a forked run costs 0.83 of one from scratch (FORK_MIN_RUNS; docs/perf.md).
 */
export const FORK_MIN_PODS = 30_000;
/**
 * Forkable runs below which the snapshot's own cost is not repaid. At 1,000 nodes and 30,000 pods
 * (load 0.3–2.6): a run from scratch 2.8–2.9 s of CPU, a forked run 2.37 s, the snapshot about 8 s;
 * it pays from about 16 runs.
 */
export const FORK_MIN_RUNS = 20;

/** The snapshot program: the path of the prebuilt script beside this module, else the script's text, bundled now. */
export async function forkEntryScript(): Promise<string> {
  const built = new URL("./fork-entry.cjs", import.meta.url);
  return existsSync(built) ? fileURLToPath(built) : bundleForkEntry();
}

/** fork-entry.ts and what it imports, bundled from the source tree (the build writes it to dist). */
export async function bundleForkEntry(): Promise<string> {
  let esbuild: typeof import("esbuild");
  try {
    esbuild = await import("esbuild");
  } catch {
    throw new Error("forking the audit's runs from source needs esbuild (a devDependency): run npm ci");
  }
  const out = await esbuild.build({
    entryPoints: [fileURLToPath(new URL("./fork-entry.ts", import.meta.url))],
    bundle: true,
    platform: "node",
    format: "cjs",
    write: false,
    logLevel: "silent",
  });
  return out.outputFiles[0]!.text;
}

/** A process's exit, its standard output and error; stdin written first. */
function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin?: Buffer,
): Promise<{ code: number; out: Buffer; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({ code: code ?? 1, out: Buffer.concat(out), err: Buffer.concat(err).toString() }),
    );
    child.stdin.end(stdin ?? Buffer.alloc(0));
  });
}

/**
 * The outcomes of `specs` (each forkable), in their order, each from a copy of the base's warm-up,
 * up to `jobs` processes at a time.
 */
export async function forkRuns(
  ctx: RunContext,
  specs: RunSpec[],
  jobs: number,
  onDone: () => void,
): Promise<RunOutcome[]> {
  const dir = mkdtempSync(join(tmpdir(), "faultline-fork-"));
  try {
    const entry = await forkEntryScript();
    const script = entry.endsWith(".cjs") ? entry : join(dir, "fork-entry.cjs");
    if (script !== entry) writeFileSync(script, entry);
    const { objects: _objects, ...input } = ctx;
    const inputFile = join(dir, "input.bin");
    writeFileSync(inputFile, serialize(input satisfies ForkInput));
    const blob = join(dir, "warm.blob");
    // The children are plain scripts: no loader or flag of this process's NODE_OPTIONS (tsx's).
    const { NODE_OPTIONS: _options, ...inherited } = process.env;
    const env = {
      ...inherited,
      FAULTLINE_FORK_INPUT: inputFile,
      FAULTLINE_FORK_HDR: createRequire(import.meta.url).resolve("hdr-histogram-js"),
    };
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
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
