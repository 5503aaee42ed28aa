// The audit's runs on worker threads: a tinypool pool (by default one worker per core, no more than
// the work is worth; `--jobs N` exactly), each worker given the audit's context once; outcomes come
// back in the specs' order, so the result does not depend on which worker finished first. Run from
// the source tree (a .ts module), the workers load TypeScript through tsx (worker-source.cjs).

import { availableParallelism } from "node:os";
import Tinypool from "tinypool";
import { estimateWork } from "../run/budget.ts";
import type { Runner } from "./audit.ts";
import { executeRun, forkable, type RunContext, type RunOutcome } from "./execute.ts";
import { forkFrom, forkRuns } from "./fork.ts";
import type { RunSpec } from "./types.ts";
import type { WorkerData } from "./worker.ts";

/**
 * Engine events (as estimated, run/budget.ts) a worker must take over to be worth its start: loading
 * the modules and running cold (~1–1.5 s of CPU, as much as ~110,000–165,000 estimated events of
 * runs on the 100-node bench), about twice over.
 */
export const EVENTS_PER_WORKER = 300_000;

export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}

/** The threads for `runs` runs of about `events` estimated engine events each (1: this thread). */
export function threadsFor(jobs: number, fit: boolean, runs: number, events: number): number {
  const worth = Math.max(1, Math.floor((events * runs) / EVENTS_PER_WORKER));
  return Math.min(jobs, runs, fit ? worth : jobs);
}

/** How the pool's threads are made: Tinypool's options for the audit's worker (worker.ts). */
export type MakePool = (options: ConstructorParameters<typeof Tinypool>[0]) => Tinypool;

/** A runner whose worker threads outlive one phase of the audit: `close` ends them. */
export type PoolRunner = Runner & { close(): Promise<void> };

/**
 * Runs specs on up to `jobs` worker threads. With `fit` (no `--jobs` given), no more threads than the
 * work is worth: a small sweep runs in this thread, where it is done before a worker has started.
 * The result is the same whatever the number. With `fork` (the default), a sweep of a large enough
 * cluster (`from`: pods at t=0, runs that can fork; fork.ts forkFrom) runs the runs that may start
 * from one warm-up there (execute.ts forkable); `false` runs every one from scratch. The threads are kept from the
 * sweep to the fixes' runs (Threads); the caller closes the runner when the audit is done.
 */
export function poolRunner(
  jobs: number,
  fit = false,
  fork: typeof forkRuns | false = forkRuns,
  from = forkFrom(),
  makePool: MakePool = (options) => new Tinypool(options),
): PoolRunner {
  const threads = new Threads(makePool);
  const run: Runner = async (ctx, specs, onDone) => {
    const events = estimateWork(ctx.base).events;
    const forked = fork && ctx.start.pods.length >= from.pods ? specs.filter(forkable) : [];
    if (forked.length < from.runs)
      return threads.run(ctx, specs, onDone, threadsFor(jobs, fit, specs.length, events));
    // The runs that may start from one warm-up there (fork.ts), the others from scratch; in the specs' order.
    const outcomes = new Map<RunSpec, RunOutcome>();
    const fromForks = await (fork || forkRuns)(ctx, forked, fit ? defaultJobs() : jobs, onDone);
    for (const [i, s] of forked.entries()) outcomes.set(s, fromForks[i]!);
    const rest = specs.filter((s) => !forkable(s));
    const fromScratch = await threads.run(ctx, rest, onDone, threadsFor(jobs, fit, rest.length, events));
    for (const [i, s] of rest.entries()) outcomes.set(s, fromScratch[i]!);
    return specs.map((s) => outcomes.get(s)!);
  };
  return Object.assign(run, { close: () => threads.close() });
}

/**
 * The audit's worker threads. A pool is made for a context at its first runs that need threads and
 * kept for its next ones (the sweep's, then the fixes'), so that its workers load the modules, read
 * the context and compile the model once. On the project's 2-core machine (load 2.4–3.6), one run
 * of the 200-Deployment bench at --jobs 2, CPU per thread read from /proc: with a pool made again for
 * the fixes, V8's background threads 30.5 s and the four workers 46.0 s; with one pool, 22.3 s and
 * the two workers 44.7 s (docs/perf.md, Many workloads).
 */
class Threads {
  private kept: { ctx: RunContext; threads: number; pool: Tinypool } | undefined;

  constructor(private readonly makePool: MakePool) {}

  /** Runs specs from scratch on `threads` worker threads (1: this thread). */
  async run(ctx: RunContext, specs: RunSpec[], onDone: () => void, threads: number): Promise<RunOutcome[]> {
    if (threads <= 1)
      return specs.map((s) => {
        const out = executeRun(ctx, s);
        onDone();
        return out;
      });
    const pool = await this.poolFor(ctx, threads);
    return Promise.all(
      specs.map(async (s) => {
        const out = (await pool.run(s)) as RunOutcome;
        onDone();
        return out;
      }),
    );
  }

  /** Ends the threads. */
  async close(): Promise<void> {
    const kept = this.kept;
    this.kept = undefined;
    await kept?.pool.destroy();
  }

  private async poolFor(ctx: RunContext, threads: number): Promise<Tinypool> {
    if (this.kept?.ctx === ctx && this.kept.threads === threads) return this.kept.pool;
    await this.close();
    const fromSource = import.meta.url.endsWith(".ts");
    const { objects: _objects, ...shared } = ctx;
    const workerData: WorkerData = { ctx: shared };
    const pool = this.makePool({
      filename: new URL(fromSource ? "./worker-source.cjs" : "./worker.js", import.meta.url).href,
      minThreads: threads,
      maxThreads: threads,
      workerData,
      execArgv: [],
    });
    this.kept = { ctx, threads, pool };
    return pool;
  }
}
