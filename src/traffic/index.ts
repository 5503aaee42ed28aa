// The traffic model's entry point: builds the data plane (network/) and the callers for a scenario,
// and hands the model what it reads of the run (the clock, the trace, the machines, the pods'
// behaviour), not the whole context.

import { workloadOf } from "../cluster/api.ts";
import type { Context } from "../cluster/context.ts";
import { Network } from "../network/network.ts";
import { type Profile, resolveNetwork } from "../scenario/profiles.ts";
import type { Scenario } from "../scenario/types.ts";
import { TrafficModel } from "./model.ts";

export { TrafficModel } from "./model.ts";
export type {
  LatencyMs,
  Lever,
  ServiceTraffic,
  TrafficResult,
  TrafficRow,
  TrafficSummary,
  TrafficTotals,
} from "./result.ts";
export { lostOrSlow } from "./result.ts";

/** How far back the trace is searched for a pod's last kill (see killedByProbe). */
const KILL_LOOKBACK_EVENTS = 500;

/** The callers and their data plane, or undefined when the scenario has no `traffic`. */
export function createTraffic(ctx: Context, scenario: Scenario, profile: Profile): TrafficModel | undefined {
  const specs = scenario.traffic ?? [];
  if (specs.length === 0) return undefined;
  const settings = resolveNetwork(profile, scenario.network);
  // kube-proxy programs no rules for a headless Service: its callers resolve it through CoreDNS
  const services = [...new Set(specs.filter((s) => s.entry !== "dns").map((s) => s.service))];
  const lbServices = [...new Set(specs.filter((s) => s.entry === "load-balancer").map((s) => s.service))];
  const dnsServices = [...new Set(specs.filter((s) => s.entry === "dns").map((s) => s.service))];
  let model: TrafficModel | undefined;
  const network = new Network(
    {
      engine: ctx.engine,
      store: ctx.store,
      trace: ctx.trace,
      nodes: scenario.nodes.map((n) => n.name),
      machines: ctx.machines,
    },
    services,
    settings,
    () => model?.advance(ctx.engine.now),
    lbServices,
    dnsServices,
    // The manifests exist through the warm-up unless the run starts with their creation.
    scenario.start === "running",
  );
  model = new TrafficModel(
    {
      engine: ctx.engine,
      trace: ctx.trace,
      duration: scenario.duration,
      stepTimes: scenario.timeline.map((s) => s.at),
      endpoints: {
        dataPlane: (node) => ctx.machines.dataPlane(node),
        appState: (node, ip) => ctx.machines.appState(node, ip),
        behaviourOf: (key) => {
          const pod = ctx.store.get("Pod", key);
          const [ns = "", name = ""] = key.split("/");
          return pod ? ctx.behaviour(ns, workloadOf(ctx, pod), name) : {};
        },
        killedByProbe: (pod) => killedByProbe(ctx, pod),
        ...(ctx.machines.changes ? { changes: ctx.machines.changes } : {}),
      },
    },
    specs,
    network,
    profile.name,
  );
  return model;
}

/** The last ContainerKilled of this pod in the recent trace named a probe (a refusal's cause). */
function killedByProbe(ctx: Context, pod: string): boolean {
  const events = ctx.trace.events;
  for (let i = events.length - 1, k = 0; i >= 0 && k < KILL_LOOKBACK_EVENTS; i--, k++) {
    const e = events[i]!;
    if (e.type === "ContainerKilled" && e.object === `Pod/${pod}`) return e.probe !== undefined;
  }
  return false;
}
