// A worker thread of the audit's pool (pool.ts): it receives the audit's context once (the base
// scenario, its state at t=0, the budget) and then runs specs one at a time with execute.ts.

import { createRequire } from "node:module";
import Tinypool from "tinypool";
import { type Hdr, provideHdr } from "../traffic/hdr.ts";
import { contextOf, executeRun, type RunContext, type RunOutcome } from "./execute.ts";
import type { RunSpec } from "./types.ts";

export interface WorkerData {
  ctx: Omit<RunContext, "objects">;
}

// hdr-histogram-js at a run's first latency histogram (traffic/hdr.ts), as the command's process
// does, not through process.getBuiltinModule (Node.js 20.16 and later only).
provideHdr(() => createRequire(import.meta.url)("hdr-histogram-js") as Hdr);

const data = Tinypool.workerData as WorkerData;
const ctx: RunContext = contextOf(data.ctx);

export default function run(spec: RunSpec): RunOutcome {
  return executeRun(ctx, spec);
}
