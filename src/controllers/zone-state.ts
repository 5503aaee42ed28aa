// The node lifecycle controller's rules per zone (pkg/controller/nodelifecycle/
// node_lifecycle_controller.go): a zone's disruption state from its nodes' Ready conditions
// (ComputeZoneState) and the NoExecute tainting rate that state sets (setLimiterInZone,
// ReducedQPSFunc, HealthyQPSFunc). Pure functions: the controller keeps the states and the queues.

import type { ControlPlaneSettings } from "../kubernetes/defaults.ts";
import type { ConditionStatus } from "../kubernetes/objects.ts";
import type { Rate } from "../trace/control-plane-events.ts";

export type ZoneState = "Initial" | "Normal" | "PartialDisruption" | "FullDisruption";

/**
 * ComputeZoneState: FullDisruption if no node is Ready (and some is not); PartialDisruption if more
 * than 2 are not Ready and their share is at least unhealthyZoneThreshold; Normal otherwise (an
 * empty zone included). A node with no Ready condition counts as not Ready.
 */
export function computeZoneState(
  conditions: readonly ConditionStatus[],
  unhealthyZoneThreshold: number,
): ZoneState {
  let ready = 0;
  for (const c of conditions) if (c === "True") ready++;
  return zoneStateOf({ ready, notReady: conditions.length - ready }, unhealthyZoneThreshold);
}

/** A zone's nodes at one pass, counted: ComputeZoneState reads only how many are Ready and how many not. */
export interface ZoneTally {
  ready: number;
  notReady: number;
}

/** ComputeZoneState from the counts. */
export function zoneStateOf({ ready, notReady }: ZoneTally, unhealthyZoneThreshold: number): ZoneState {
  if (ready === 0 && notReady > 0) return "FullDisruption";
  if (notReady > 2 && notReady / (notReady + ready) >= unhealthyZoneThreshold) return "PartialDisruption";
  return "Normal";
}

/**
 * setLimiterInZone: Normal and FullDisruption → --node-eviction-rate (HealthyQPSFunc: with other
 * zones still up, the traffic has moved there); PartialDisruption → --secondary-node-eviction-rate if
 * the zone has more than --large-cluster-size-threshold nodes, else 0 (ReducedQPSFunc). The code
 * compares the zone's size, not the cluster's as the flag's help says.
 */
export function zoneRate(
  state: ZoneState,
  zoneSize: number,
  s: Pick<
    ControlPlaneSettings,
    "nodeEvictionRate" | "secondaryNodeEvictionRate" | "largeClusterSizeThreshold"
  >,
): Rate {
  if (state !== "PartialDisruption") return { flag: "node-eviction-rate", value: s.nodeEvictionRate };
  if (zoneSize > s.largeClusterSizeThreshold)
    return { flag: "secondary-node-eviction-rate", value: s.secondaryNodeEvictionRate };
  return { value: 0 };
}
