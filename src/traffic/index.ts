// The traffic model's entry point: builds the data plane (network/) and the callers for a scenario.

import type { Context } from "../cluster/context.ts";
import { Network } from "../network/network.ts";
import { type Profile, resolveNetwork } from "../scenario/profiles.ts";
import type { Scenario } from "../scenario/types.ts";
import { TrafficModel } from "./model.ts";

export type { Lever, ServiceTraffic, TrafficResult, TrafficRow, TrafficTotals } from "./model.ts";
export { TrafficModel } from "./model.ts";

/** The callers and their data plane, or undefined when the scenario has no `traffic`. */
export function createTraffic(ctx: Context, scenario: Scenario, profile: Profile): TrafficModel | undefined {
  const specs = scenario.traffic ?? [];
  if (specs.length === 0) return undefined;
  const settings = resolveNetwork(profile, scenario.network);
  const services = [...new Set(specs.map((s) => s.service))];
  const lbServices = [...new Set(specs.filter((s) => s.entry === "load-balancer").map((s) => s.service))];
  let model: TrafficModel | undefined;
  const network = new Network(ctx, services, settings, () => model?.advance(ctx.engine.now), lbServices);
  model = new TrafficModel(ctx, specs, network, settings, profile.name);
  return model;
}
