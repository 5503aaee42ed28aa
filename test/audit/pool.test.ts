// The audit's worker threads (src/audit/pool.ts): one pool serves the sweep and then the fixes'
// runs of the same audit, its result is the in-process one byte for byte, and closing the runner
// ends its threads.

import Tinypool from "tinypool";
import { describe, expect, it } from "vitest";
import { audit, inProcess, type Runner } from "../../src/audit/audit.ts";
import { prepare } from "../../src/audit/inputs.ts";
import { type MakePool, poolRunner } from "../../src/audit/pool.ts";
import { DEFAULT_BUDGET } from "../../src/run/budget.ts";
import { servedApps } from "./helpers.ts";

// Two Deployments of one replica, each behind a Service: FL001 finds both, and each fix is a run
// with a patch, so that the fixes' phase has two runs for the two threads too.
const text = servedApps(["web", "api"], () => 1);

describe("the audit's worker threads", () => {
  it("are made once for the sweep and its fixes, give the in-process result, and end at close", async () => {
    const prepared = prepare({
      entries: [{ entry: "apps.yaml", files: [{ file: "apps.yaml", text }] }],
      cluster: { nodes: 3, zones: ["a", "b", "c"] },
      duration: 120,
    });
    const options = { faults: ["drain", "power-off"] as const, budget: DEFAULT_BUDGET, maxSweepEvents: 1e9 };
    const pools: Tinypool[] = [];
    const makePool: MakePool = (o) => {
      const pool = new Tinypool(o);
      pools.push(pool);
      return pool;
    };
    // --jobs 2 exactly (not fitted to the work), never forked: every run on the threads.
    const runner = poolRunner(2, false, false, undefined, makePool);
    let threaded: Awaited<ReturnType<typeof audit>>;
    try {
      threaded = await audit(prepared, { ...options, runner });
      expect(pools[0]!.threads.length).toBe(2);
    } finally {
      await runner.close();
    }
    expect(threaded.fixes.length).toBeGreaterThanOrEqual(2);
    expect(pools).toHaveLength(1);
    expect(pools[0]!.threads).toHaveLength(0);
    // In this thread, the same audit: its two phases' specs, every one of which the pool ran.
    const phases: number[] = [];
    const counted: Runner = (ctx, specs, onDone) => {
      phases.push(specs.length);
      return inProcess(ctx, specs, onDone);
    };
    const here = await audit(prepared, { ...options, runner: counted });
    expect(phases).toHaveLength(2);
    expect(pools[0]!.completed).toBe(phases[0]! + phases[1]!);
    expect(JSON.stringify(threaded)).toBe(JSON.stringify(here));
  }, 600_000);
});
