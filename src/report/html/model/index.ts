// What the HTML report shows, derived from the trace, the summary and the scenario: the headline, the
// steps of the player, per-second series (ready endpoints, pods by phase) and the probe rows. Pure and
// DOM-free: the page runs it in the browser, the tests run it in Node to compare the page's figures with
// the command line's.

export { type FaultEntry, type Headline, headline, POD_FAULTS, RECOVERIES } from "./headline.ts";
export {
  CLUSTER_ROW,
  LANE_GROUPINGS,
  type LaneGrouping,
  type LaneRow,
  laneRows,
  NODES_ROW,
} from "./lanes.ts";
export { type LatencyLine, type LatencyRange, type LatencySeries, latencySeries } from "./latency.ts";
export { type Lever, NEXT_LEVERS } from "./levers.ts";
export * from "./payload.ts";
export { initialPods, initialReadyEndpoints, podOwners, readyEndpointsAt, workloads } from "./pods.ts";
export * from "./probes.ts";
export * from "./series.ts";
