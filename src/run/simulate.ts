// load → run → report, the run: wiring only. Builds the cluster from a scenario (cluster.ts: the
// store, a kubelet per node, the controllers; here the data plane and callers, the timeline), warms
// it up before t=0 and plays it. Pure: no file system, no wall clock (the HTML report runs it in a browser).

import type { Context } from "../cluster/context.ts";
import { Store } from "../cluster/store.ts";
import type { InstanceState } from "../controllers/cloud-node-lifecycle-controller.ts";
import type { CronJobController } from "../controllers/cronjob-controller.ts";
import { Engine } from "../engine/engine.ts";
import { quantize } from "../engine/time.ts";
import { Faults, type Machine } from "../faults/faults.ts";
import type { BulkStart } from "../kubelet/bulk-start.ts";
import type { Kubelet } from "../kubelet/kubelet.ts";
import { resolveSettings } from "../scenario/settings.ts";
import type { Scenario } from "../scenario/types.ts";
import { Trace } from "../trace/events.ts";
import type { RunLeases } from "../trace/lease-renewals.ts";
import type { InitialState } from "../trace/result.ts";
import { withRenewalsCounted } from "../trace/visible.ts";
import { createTraffic, type Lever, type TrafficResult } from "../traffic/index.ts";
import { buildCluster, type CutOff, clusterContext } from "./cluster.ts";
import { timelineMachine } from "./machines.ts";
import { scheduleNotReady, startNotReady } from "./not-ready-at-start.ts";
import { startAutoscaler, startPlatform } from "./platform.ts";
import { initialState, type SimulationResult, summarize } from "./result.ts";
import { servedBy, type WarmState } from "./warm-serves.ts";

export type { InitialState, Summary } from "../trace/result.ts";
export type { SimulationResult } from "./result.ts";

/**
 * How long the cluster runs, unrecorded, before t=0: nodes register, leases settle into their
 * phases, a `start: running` scenario's pods are scheduled, started and Ready.
 */
export const WARM_UP_SECONDS = 600;

/**
 * Runs each lever's variant of the scenario (whatif/ provides it) and reports what each saves;
 * `maxEvents` caps each of those runs as it capped this one, and `onProgress` follows each as it
 * followed this one (the levers run inside the run's progress).
 */
export type PullLevers = (
  scenario: Scenario,
  seed: number,
  traffic: TrafficResult,
  maxEvents?: number,
  onProgress?: Engine["onProgress"],
) => Lever[];

export interface SimulateOptions {
  seed?: number;
  /** With callers in the scenario: also run it with each lever pulled and report what it saves. */
  levers?: PullLevers;
  /** called once the warm-up is over, at t=0 (for benchmarks: the model itself reads no clock) */
  onWarmedUp?: () => void;
  /** the run's hard cap and a progress callback, set on the engine (run/budget.ts, the CLI) */
  engine?: Partial<Pick<Engine, "maxEvents" | "onProgress">>;
}

/** A run in progress: its parts, a way to move its clock on, and its result so far. */
export interface Simulation {
  engine: Engine;
  store: Store;
  trace: Trace;
  ctx: Context;
  /** Play the run up to virtual time `t` (at most the scenario's duration; never backwards). */
  runUntil(t: number): void;
  /** The result as of the clock's current time; `podsWhenRead`: summarize's. */
  result(options?: { podsWhenRead?: boolean }): SimulationResult;
}

/** Run a scenario to its end. */
export function simulate(scenario: Scenario, options: SimulateOptions = {}): SimulationResult {
  const sim = createSimulation(scenario, options);
  sim.runUntil(scenario.duration);
  return sim.result();
}

/** Build and warm up the cluster of a scenario, with its timeline scheduled; the clock is at t=0. */
export function createSimulation(scenario: Scenario, options: SimulateOptions = {}): Simulation {
  return warmUp(scenario, options).play(scenario);
}

/**
 * A cluster warmed up to t=0, before anything of its timeline or callers exists: the state every run
 * of the scenario shares whatever its timeline (audit/fork.ts snapshots it once and starts each run
 * from a copy). `play` may be called once.
 */
export interface WarmCluster {
  /** The cluster at t=0, as every run of it starts (the result's `initial`). */
  readonly initial: InitialState;
  /**
   * Why this warm-up cannot play `run` as a run from scratch would (a sentence), or undefined when it
   * can: its scenario must be the warmed-up one but for what nothing before t=0 reads (its timeline,
   * its callers, the bootSeconds of apps nothing checked: warm-serves.ts).
   */
  cannotPlay(run: Scenario): string | undefined;
  /**
   * The run of `run` from here, one that cannotPlay accepts (the callers and the timeline's steps
   * are made below, after the warm-up, as a run from scratch makes them).
   */
  play(run: Scenario): Simulation;
}

/** The cluster of `scenario` built and run to t=0 (the warm-up, unrecorded). */
export function warmUp(scenario: Scenario, options: SimulateOptions = {}): WarmCluster {
  const seed = options.seed ?? scenario.seed;
  // The values whatif/ shows come from the same resolution (scenario/settings.ts).
  const settings = resolveSettings(scenario);
  const profile = settings.profile;
  const engine = new Engine(seed, -WARM_UP_SECONDS);
  Object.assign(engine, options.engine);
  const store = new Store(engine);
  const trace = new Trace(engine);
  trace.muted = true;
  const kubelets = new Map<string, Kubelet>();
  // The machines on whose kubelet the API has lost control (power on, kubelet stopped or cut off), in
  // node order: only their copies can run twice. Found again at the first read after a step of the
  // timeline, the one thing that moves a machine: a scan per pod start, or per step, was quadratic.
  const cut: CutOff = { kubelets: [], stale: false };
  const ctx = clusterContext(scenario, settings, { engine, store, trace }, kubelets, cut);
  const { bulk, taintEviction, cronJobs, createManifests } = buildCluster(
    ctx,
    kubelets,
    profile.platform,
    -WARM_UP_SECONDS,
  );
  // What the cloud says of each node's instance: the timeline's power-off stops it, vm-terminated deletes it.
  const instances = new Map<string, InstanceState>();
  const moved = () => {
    cut.stale = true;
  };
  startPlatform(ctx, profile, scenario, kubelets, instances, moved, bulk);
  if (scenario.start === "running") createManifests();
  scheduleNotReady(ctx, scenario.nodes, kubelets);
  engine.run(0);
  bulk.open = false;
  startNotReady(ctx, scenario.nodes, kubelets, taintEviction);
  const initial: InitialState = initialState(store);
  trace.muted = false;
  const warm: WarmState = { scenario, engine, kubelets, checkedApps: ctx.checkedApps! };
  return {
    initial,
    cannotPlay: (run) => {
      const served = servedBy(warm, run);
      return "why" in served ? served.why : undefined;
    },
    play: (run) => {
      const served = servedBy(warm, run);
      if ("why" in served) throw new Error(`this warm-up cannot play the run: ${served.why}`);
      for (const [c, behaviour] of served.rebehave) c.behaviour = behaviour;
      // The models read the scenario through the context: from here on it is the run's.
      ctx.scenario = run;
      options.onWarmedUp?.();
      return playFrom({
        ctx,
        run,
        seed,
        initial,
        options,
        profile,
        kubelets,
        instances,
        moved,
        bulk,
        cronJobs,
        createManifests,
      });
    },
  };
}

/** After the warm-up: the manifests of a `start: created` run, the callers, the timeline, the autoscaler. */
function playFrom(w: {
  ctx: Context;
  run: Scenario;
  seed: number;
  initial: InitialState;
  options: SimulateOptions;
  profile: ReturnType<typeof resolveSettings>["profile"];
  kubelets: Map<string, Kubelet>;
  instances: Map<string, InstanceState>;
  moved: () => void;
  bulk: BulkStart;
  cronJobs: CronJobController;
  createManifests: () => void;
}): Simulation {
  const { ctx, run: scenario, seed, initial, options, profile, kubelets, instances, moved, bulk } = w;
  const { engine, store, trace } = ctx;
  if (scenario.start === "created") w.createManifests();
  w.cronJobs.announce();

  // Built before the faults, so that at a step's instant the callers' requests sent before it
  // are resolved first (equal times run in scheduling order).
  const traffic = createTraffic(ctx, scenario, profile);
  if (traffic) ctx.traffic = traffic;
  const machines = new Map<string, Machine>();
  for (const [name, k] of kubelets) machines.set(name, timelineMachine(k, instances, moved));
  const platform = profile.platform;
  const faults = new Faults(
    ctx,
    machines,
    ctx.kubelet,
    platform && { platform: platform.name, ...platform.spot, kubelet: platform.spot.kubelet ?? ctx.kubelet },
  );
  faults.schedule(scenario.timeline);
  startAutoscaler(ctx, scenario, kubelets, bulk, moved);

  const end = quantize(scenario.duration);
  return {
    engine,
    store,
    trace,
    ctx,
    runUntil(t: number) {
      const until = Math.min(t, scenario.duration);
      if (until > engine.now) engine.run(until);
    },
    result: (read) =>
      resultOf({
        ctx,
        scenario,
        seed,
        initial,
        faults,
        traffic,
        options,
        end,
        podsWhenRead: read?.podsWhenRead,
      }),
  };
}

/** The kubelets cut off from the API as of the last read; `stale` after a step until the next. */
/** The result as of the clock's time: the events with the renewals the timeline shows, the summary, the callers'. */
function resultOf(r: {
  ctx: Context;
  scenario: Scenario;
  seed: number;
  initial: InitialState;
  faults: Faults;
  traffic: ReturnType<typeof createTraffic>;
  options: SimulateOptions;
  end: number;
  podsWhenRead?: boolean;
}): SimulationResult {
  const { ctx, scenario, seed, initial, faults, traffic, options } = r;
  const { engine, store, trace } = ctx;
  const finished = engine.now >= r.end;
  const duration = finished ? scenario.duration : Math.max(0, engine.now);
  const leases: RunLeases = { ...trace.leases, until: engine.now };
  const timeline = withRenewalsCounted(trace.events, leases, duration, false);
  const result: SimulationResult = {
    scenario: scenario.name,
    kubernetesVersion: scenario.kubernetesVersion,
    seed,
    events: timeline.events,
    leases,
    initial,
    summary: summarize(
      store,
      trace.events,
      ctx,
      duration,
      engine.processed,
      faults.drains.summary(),
      timeline.renewals,
      r.podsWhenRead,
    ),
  };
  // The callers' tally runs to the end of the scenario: it is part of a finished run only.
  if (traffic && finished) {
    result.traffic = traffic.result();
    if (options.levers)
      result.traffic.levers = options.levers(
        scenario,
        seed,
        result.traffic,
        options.engine?.maxEvents,
        options.engine?.onProgress,
      );
  }
  return result;
}
