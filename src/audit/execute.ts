// One run of the audit, start to end: the scenario (the base, or a variant through patch.ts), its
// state at t=0, the fault's target (for a fix, chosen in the fixed scenario's own placement), the
// simulation, and what it measured. Pure and deterministic: the same spec gives the same measure on
// any thread (pool.ts runs it on workers, the command line in-process for --jobs 1).

import { EventBudgetExceeded } from "../engine/engine.ts";
import { LoadError } from "../load/errors.ts";
import {
  createSimulation,
  type Simulation,
  type SimulationResult,
  type WarmCluster,
  warmUp,
} from "../run/simulate.ts";
import type { Scenario } from "../scenario/types.ts";
import { variantOf } from "../whatif/variant.ts";
import { measureRun } from "./measure.ts";
import { withOwned } from "./owned.ts";
import { busiestFor, timelineOf as faultTimeline } from "./plan.ts";
import { countDaemonPods, type Objects, objectsOf, type StartState, startStateOf } from "./state.ts";
import { timelineOf } from "./timeline.ts";
import type { AuditSource, RunMeasure, RunSpec } from "./types.ts";

export interface RunContext {
  source: AuditSource;
  base: Scenario;
  objects: Objects;
  start: StartState;
  /** the engine's hard cap per run (the budget's maxEvents) */
  maxEvents: number;
  /** keep each run's timeline (for `--report`) */
  timelines?: boolean;
}

/** The context a snapshot's build (fork.ts) reads: the audit's, without its objects (made again there). */
export type ForkInput = Omit<RunContext, "objects">;

/** A run context from a ForkInput: its objects made again from its scenario, DaemonSet pods counted at t=0. */
export function contextOf(input: ForkInput): RunContext {
  return { ...input, objects: countDaemonPods(objectsOf(input.base), input.start) };
}

export type RunOutcome =
  | { ok: true; measure: RunMeasure }
  | { ok: false; id: string; error: string; budget?: { maxEvents: number; at: number } };

/** The cluster at t=0: the scenario warmed up, without its callers or timeline, read before it runs on. */
export function startOf(scenario: Scenario, maxEvents: number): StartState {
  const { traffic: _traffic, ...rest } = scenario;
  const sim = createSimulation({ ...rest, timeline: [] }, { engine: { maxEvents } });
  return startStateOf(sim.result().initial);
}

/**
 * A run of the base scenario with its own timeline (and callers, and bootSeconds), to its end, from a
 * warm-up done once for the sweep (audit/fork.ts): what `simulate(run)` returns, byte for byte; or
 * undefined when that warm-up cannot play it (run/warm-serves.ts), and the run starts from scratch.
 */
export type ForkedRun = (run: Scenario) => SimulationResult | undefined;

/** The ForkedRun of a warm cluster: each run it can play, played from it. */
export function forkedFrom(warm: WarmCluster): ForkedRun {
  return (run) => (warm.cannotPlay(run) === undefined ? played(warm, run) : undefined);
}

/**
 * Whether a spec's run may start from the base's warm-up. A patch that changes manifests, probes or
 * settings changes what the warm-up builds; a run without one has the base's scenario but for its
 * timeline (its fault, a fix's operator step after it), which nothing before t=0 reads
 * (run/simulate.ts warmUp). So may a run whose patches are only callers (`traffic`) and
 * `behaviour.<workload>.bootSeconds` (FL007's experiments): the warm-up decides whether it read them
 * (WarmCluster.cannotPlay), and a run it cannot play runs from scratch in the fork.
 */
export function forkable(spec: RunSpec): boolean {
  return spec.patches.every((p) => p.object === undefined && PLAYED_PATCH.test(p.path));
}

/** `traffic`, `traffic[i].field`, `behaviour["name"].bootSeconds`, `behaviour.name.bootSeconds`. */
const PLAYED_PATCH = /^(traffic(\[\d+\](\.\w+)*)?|behaviour(\["[^"]+"\]|\.[\w-]+)\.bootSeconds)$/;

/**
 * One run; with `forked`, a run that can starts from the sweep's warm-up instead of from scratch
 * (its target, for a retargeted spec, chosen in the base's placement: a warm-up that plays it built
 * the same).
 */
export function executeRun(ctx: RunContext, spec: RunSpec, forked?: ForkedRun): RunOutcome {
  try {
    const patched = spec.patches.length > 0;
    const scenario = patched ? variantOf(ctx.base, withOwned(ctx.base, spec.patches)) : ctx.base;
    if (forked && forkable(spec)) {
      const aim = aimed(spec, scenario, ctx.start);
      const result = "run" in aim ? forked(aim.run) : undefined;
      if (result && "run" in aim) return measured(ctx, spec, scenario, aim.fault, result);
    }
    // A retargeted fix's scenario is warmed up once: its placement at t=0 chooses the target, and the
    // run goes on from there (nothing before t=0 reads the timeline: run/simulate.ts warmUp).
    const warm =
      patched && spec.retarget ? warmUp(scenario, { engine: { maxEvents: ctx.maxEvents } }) : undefined;
    const aim = aimed(spec, scenario, warm ? startStateOf(warm.initial) : ctx.start);
    if (!("run" in aim)) return aim;
    const result = warm ? played(warm, aim.run) : fromScratch(aim.run, ctx.maxEvents);
    return measured(ctx, spec, scenario, aim.fault, result);
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

/** The spec's run (its scenario with the fault's timeline) and fault; a retargeted spec's target chosen in `start`. */
function aimed(
  spec: RunSpec,
  scenario: Scenario,
  start: StartState,
): { run: Scenario; fault: RunSpec["fault"] } | RunOutcome {
  let fault = spec.fault;
  if (spec.retarget) {
    // The target is chosen in the fixed scenario's own placement.
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
  return { run: { ...scenario, timeline: faultTimeline(spec, fault) }, fault };
}

/** What the run measured, from its own state at t=0 (the same as the base's when nothing is patched). */
function measured(
  ctx: RunContext,
  spec: RunSpec,
  scenario: Scenario,
  fault: RunSpec["fault"],
  result: SimulationResult,
): RunOutcome {
  const start = startStateOf(result.initial);
  const objects = spec.patches.length > 0 ? countDaemonPods(objectsOf(scenario), start) : ctx.objects;
  const measure: RunMeasure = {
    id: spec.id,
    fault,
    ...(spec.sharedBy ? { sharedBy: spec.sharedBy } : {}),
    ...measureRun(result, objects, start, fault),
    engineEvents: result.summary.engineEvents,
    ...(ctx.timelines ? { timeline: timelineOf(result) } : {}),
  };
  return { ok: true, measure };
}

/** `run` played from its warm-up to its end: what `simulate(run)` returns (its pods' summary worked out when read). */
export function played(warm: WarmCluster, run: Scenario): SimulationResult {
  return toEnd(warm.play(run), run);
}

/** `simulate(run)`, its pods' summary worked out when read. */
function fromScratch(run: Scenario, maxEvents: number): SimulationResult {
  return toEnd(createSimulation(run, { engine: { maxEvents } }), run);
}

/**
 * A run played to its end and its result, the pods' summary worked out only if the measure reads it
 * (summarize podsWhenRead): nothing runs after the result is taken.
 */
function toEnd(sim: Simulation, run: Scenario): SimulationResult {
  sim.runUntil(run.duration);
  return sim.result({ podsWhenRead: true });
}
