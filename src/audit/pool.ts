// The audit's runs on worker threads: a tinypool pool (one worker per core by default, `--jobs N`),
// each worker given the audit's context once; outcomes come back in the specs' order, so the result
// does not depend on which worker finished first. Run from the source tree (a .ts module), the
// workers load TypeScript through tsx (worker-source.cjs).

import { availableParallelism } from "node:os";
import Tinypool from "tinypool";
import type { Runner } from "./audit.ts";
import { executeRun } from "./execute.ts";
import type { WorkerData } from "./worker.ts";

export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}

export function poolRunner(jobs: number): Runner {
  return async (ctx, specs, onDone) => {
    const threads = Math.min(jobs, specs.length);
    if (threads <= 1)
      return specs.map((s) => {
        const out = executeRun(ctx, s);
        onDone();
        return out;
      });
    const fromSource = import.meta.url.endsWith(".ts");
    const { objects: _objects, ...shared } = ctx;
    const workerData: WorkerData = { ctx: shared };
    const pool = new Tinypool({
      filename: new URL(fromSource ? "./worker-source.cjs" : "./worker.js", import.meta.url).href,
      minThreads: threads,
      maxThreads: threads,
      workerData,
      execArgv: [],
    });
    try {
      return await Promise.all(
        specs.map(async (s) => {
          const out = await pool.run(s);
          onDone();
          return out;
        }),
      );
    } finally {
      await pool.destroy();
    }
  };
}
