// A worker thread of the audit's pool (pool.ts): it receives the audit's context once (the base
// scenario, its state at t=0, the budget) and then runs specs one at a time with execute.ts.

import Tinypool from "tinypool";
import { executeRun, type RunContext, type RunOutcome } from "./execute.ts";
import { countDaemonPods, objectsOf } from "./state.ts";
import type { RunSpec } from "./types.ts";

export interface WorkerData {
  ctx: Omit<RunContext, "objects">;
}

const data = Tinypool.workerData as WorkerData;
const objects = countDaemonPods(objectsOf(data.ctx.base), data.ctx.start);
const ctx: RunContext = { ...data.ctx, objects };

export default function run(spec: RunSpec): RunOutcome {
  return executeRun(ctx, spec);
}
