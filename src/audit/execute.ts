// One run of the audit, start to end: the scenario (the base, or a variant through patch.ts), its
// state at t=0, the fault's target (for a fix, chosen in the fixed scenario's own placement), the
// simulation, and what it measured. Pure and deterministic: the same spec gives the same measure on
// any thread (pool.ts runs it on workers, the command line in-process for --jobs 1).

import { EventBudgetExceeded } from "../engine/engine.ts";
import { LoadError } from "../load/errors.ts";
import type { Scenario } from "../scenario/types.ts";
import { simulate } from "../simulate.ts";
import { measureRun } from "./measure.ts";
import { variantOf } from "./patch.ts";
import { busiestFor, timelineOf } from "./plan.ts";
import { countDaemonPods, type Objects, objectsOf, type StartState, startStateOf } from "./state.ts";
import type { AuditSource, RunMeasure, RunSpec } from "./types.ts";

export interface RunContext {
  source: AuditSource;
  base: Scenario;
  objects: Objects;
  start: StartState;
  /** the engine's hard cap per run (the budget's maxEvents) */
  maxEvents: number;
}

export type RunOutcome =
  | { ok: true; measure: RunMeasure }
  | { ok: false; id: string; error: string; budget?: { maxEvents: number; at: number } };

/** The cluster at t=0, from a run without a fault that stops just after it. */
export function startOf(scenario: Scenario, objects: Objects, maxEvents: number): StartState {
  const { traffic: _traffic, ...rest } = scenario;
  const result = simulate({ ...rest, timeline: [], duration: 1 }, { engine: { maxEvents } });
  return startStateOf(result, objects);
}

export function executeRun(ctx: RunContext, spec: RunSpec): RunOutcome {
  try {
    let { base: scenario, objects, start } = ctx;
    if (spec.patches.length > 0 || spec.retarget) {
      scenario = variantOf(ctx.source, spec.patches);
      objects = objectsOf(scenario);
      start = startOf(scenario, objects, ctx.maxEvents);
      countDaemonPods(objects, start);
    }
    let fault = spec.fault;
    if (spec.retarget) {
      const chosen = busiestFor(
        scenario,
        start,
        spec.retarget.workload,
        spec.retarget.class,
        spec.retarget.prefer,
      );
      if (!chosen)
        return {
          ok: false,
          id: spec.id,
          error: `no ${spec.retarget.class} target for ${spec.retarget.workload}`,
        };
      fault = { ...chosen, at: spec.fault.at };
    }
    const run: Scenario = { ...scenario, timeline: timelineOf(spec, fault) };
    const result = simulate(run, { engine: { maxEvents: ctx.maxEvents } });
    const measure: RunMeasure = {
      id: spec.id,
      fault,
      ...(spec.sharedBy ? { sharedBy: spec.sharedBy } : {}),
      ...measureRun(result, objects, start, fault),
      engineEvents: result.summary.engineEvents,
    };
    return { ok: true, measure };
  } catch (error) {
    if (error instanceof EventBudgetExceeded)
      return {
        ok: false,
        id: spec.id,
        error: "over the event budget",
        budget: { maxEvents: error.maxEvents, at: error.at },
      };
    if (error instanceof LoadError) return { ok: false, id: spec.id, error: error.message };
    throw error;
  }
}
