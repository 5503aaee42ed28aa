// Which runs one warm-up serves. A cluster warmed up once (simulate.ts warmUp) can play any run
// whose scenario is the warmed-up one but for what nothing before t=0 read, and then plays it as a
// run from scratch would:
// - its timeline: the steps are made at t=0 (simulate.ts playFrom);
// - its callers, made at t=0 too. Before t=0 only their presence is read, by a health check that
//   shares the pod's request queue (kubelet/app.ts sharesRequestQueue; kubelet/pod-host.ts reads it
//   when the kubelet starts), so a run that adds or drops every caller is served only when no
//   behaviour has `healthSharesRequestQueue`;
// - `behaviour.<workload>.bootSeconds` of a workload whose boot nothing read before t=0. Before t=0
//   only a probe looks at an app (App.outcome; a connection is a caller's), so none of the
//   workload's pods may have had one (Context.checkedApps, recorded as each pod worker is made). Its
//   containers are then given the run's behaviour, as their creation in a run from scratch gave them,
//   so that every look after t=0 (App.connection, App.outcome) finds what it would have found, and a
//   restart boots for the run's bootSeconds (ContainerRun.startedAt). What that cannot give back is
//   PlaneChanges.bootingUntil, which a start raises to the end of its boot and which tells the
//   traffic model when a refusing endpoint starts to serve with no event (traffic/endpoints.ts): so
//   each of the containers running at t=0 must have been up for longer than either boot. (Played
//   anyway, a boot ending after t=0 goes unseen by the callers, and the run differs.)
// Anything else (a manifest, a probe, a flag, another behaviour field) changes what the warm-up
// built, and the run warms up from scratch. The audit forks its experiments with callers (FL007)
// from the sweep's warm-up so (audit/execute.ts forkable); test/run/warm-serves.test.ts checks each
// rule and that a served run is the run from scratch, byte for byte.

import type { Engine } from "../engine/engine.ts";
import type { Kubelet } from "../kubelet/kubelet.ts";
import type { ContainerRun } from "../kubelet/runtime.ts";
import { behaviourKey, workloadOfKey } from "../scenario/behaviour.ts";
import type { Behaviour, Scenario } from "../scenario/types.ts";
import { behaviourFor } from "./scenario-reads.ts";

/** The warm containers a served run gives its own behaviour, each with it. */
export type Rebehave = [ContainerRun, Behaviour][];

/** What the check reads of the warm cluster. */
export interface WarmState {
  /** the scenario it was warmed up with */
  scenario: Scenario;
  engine: Engine;
  kubelets: ReadonlyMap<string, Kubelet>;
  /** the workloads a probe checks (Context.checkedApps) */
  checkedApps: ReadonlySet<string>;
}

/** The scenario's fields the warm-up does not read: the timeline, the callers, the behaviour (below), the source. */
const PLAYED = new Set(["timeline", "traffic", "behaviour", "origin"]);

/**
 * Why the warm cluster cannot play `run` (a sentence), or what playing it replaces: the behaviour
 * of the warm containers whose bootSeconds the run changes.
 */
export function servedBy(warm: WarmState, run: Scenario): { why: string } | { rebehave: Rebehave } {
  const base = warm.scenario;
  const keys = new Set([...Object.keys(base), ...Object.keys(run)]);
  for (const key of [...keys].sort()) {
    if (PLAYED.has(key)) continue;
    if (!same(base[key as keyof Scenario], run[key as keyof Scenario])) return { why: `its ${key} differs` };
  }
  const boots = bootsChanged(base.behaviour, run.behaviour);
  if (typeof boots === "string") return { why: boots };
  const callers = (s: Scenario) => (s.traffic?.length ?? 0) > 0;
  if (callers(base) !== callers(run))
    for (const [key, b] of Object.entries(run.behaviour))
      if (b.healthSharesRequestQueue === true)
        return {
          why: `${key}'s health checks share the request queue, and the run's callers are not the warm-up's`,
        };
  if (boots.size === 0) return { rebehave: [] };
  for (const key of [...boots].sort())
    if (warm.checkedApps.has(workloadOfKey(key)))
      return {
        why: `a probe checked ${workloadOfKey(key)}'s app before t=0, and the run changes its bootSeconds`,
      };
  return rebehaved(warm, run, new Set([...boots].map(workloadOfKey)));
}

/**
 * The keys whose entries differ only in bootSeconds (absent reads as {}), or why they differ more.
 */
function bootsChanged(a: Record<string, Behaviour>, b: Record<string, Behaviour>): Set<string> | string {
  const out = new Set<string>();
  if (a === b) return out;
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const { bootSeconds: bootA, ...restA } = a[key] ?? {};
    const { bootSeconds: bootB, ...restB } = b[key] ?? {};
    if (!same(restA, restB)) return `its behaviour of ${key} differs beyond bootSeconds`;
    if (bootA !== bootB) out.add(key);
  }
  return out;
}

/** The warm containers whose bootSeconds the run changes, with the run's behaviour; or why not. */
function rebehaved(
  warm: WarmState,
  run: Scenario,
  /** the workloads of the entries whose bootSeconds the run changes */
  workloads: ReadonlySet<string>,
): { why: string } | { rebehave: Rebehave } {
  const rebehave: Rebehave = [];
  for (const kubelet of warm.kubelets.values())
    for (const worker of kubelet.workers()) {
      const pod = worker.pod.metadata;
      if (!workloads.has(behaviourKey(worker.owner, pod.name))) continue;
      for (const [runs, init] of [
        [worker.containers, false],
        [worker.inits, true],
      ] as const)
        for (const c of runs) {
          const own = behaviourFor(run, pod.namespace, worker.owner, pod.name, c.name, init);
          if (own.bootSeconds === c.behaviour.bootSeconds) continue;
          const boot = Math.max(own.bootSeconds ?? 0, c.behaviour.bootSeconds ?? 0);
          if (c.running && warm.engine.since(c.startedAt) < boot)
            return {
              why: `container ${c.name} of pod ${pod.namespace}/${pod.name} was still booting at t=0`,
            };
          rebehave.push([c, own]);
        }
    }
  return { rebehave };
}

/** Plain data equal field by field (what the loader makes: objects, arrays, strings, numbers, booleans). */
function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    if (a.length !== bs.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], bs[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k)) return false;
    if (!same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}
