// Swimlanes by node or by workload: one row per node or workload, with the steps that touch it.

import type { Scenario } from "../../../scenario/types.ts";
import type { Lane, TraceEvent } from "../../../trace/events.ts";
import { timelineEvents } from "../../../trace/visible.ts";
import type { ReportResult } from "./payload.ts";
import { podOwners, workloads } from "./pods.ts";
import type { Step } from "./series.ts";

/** How the timeline's swimlanes are cut: the five components, or one row per node or per workload. */
export type LaneGrouping = "component" | "node" | "workload";
export const LANE_GROUPINGS: readonly LaneGrouping[] = ["component", "node", "workload"];

/** The row of events with no node (by node), and of events on objects no workload owns (by workload). */
export const CLUSTER_ROW = "cluster";
/** By workload: the row of events on Nodes and their Leases. */
export const NODES_ROW = "nodes";

export interface LaneRow {
  /** the node's name, `Kind/<ns>/<name>` of the workload, or CLUSTER_ROW / NODES_ROW */
  key: string;
  label: string;
  /** events the timeline shows in this row (heartbeats aside) */
  count: number;
  /** per component, the steps (indexes into the steps) with an event of it in this row, ascending */
  points: Partial<Record<Lane, number[]>>;
}

/**
 * One row per node (or per workload) that has events in the run, most shown events first. A node whose
 * only events are its heartbeats still has its row, empty. Built on demand: one pass over the events.
 */
export function laneRows(
  result: ReportResult,
  scenario: Scenario,
  st: readonly Step[],
  by: Exclude<LaneGrouping, "component">,
): LaneRow[] {
  const rowOf = by === "node" ? (e: TraceEvent) => e.node ?? CLUSTER_ROW : workloadRowOf(result, scenario);
  const rows = new Map<string, LaneRow>();
  const get = (key: string): LaneRow => {
    let r = rows.get(key);
    if (!r) {
      r = { key, label: key, count: 0, points: {} };
      rows.set(key, r);
    }
    return r;
  };
  // Every event, every Lease renewal of the schedule too: a node renewing and nothing else has its row.
  for (const e of timelineEvents(result, true)) get(rowOf(e));
  for (let si = 0; si < st.length; si++)
    for (const i of st[si]!.events) {
      const e = result.events[i]!;
      const r = get(rowOf(e));
      r.count++;
      const list = r.points[e.lane];
      if (!list) r.points[e.lane] = [si];
      else if (list[list.length - 1] !== si) list.push(si);
    }
  const out = [...rows.values()];
  if (by === "workload") {
    // `web`, or `<ns>/web` outside the default namespace; the kind too where two workloads share a name.
    const short = (key: string) => {
      const [kind, ns, name] = key.split("/");
      if (name === undefined) return { kind: "", label: key };
      return { kind: kind!, label: ns === "default" ? name : `${ns}/${name}` };
    };
    const seen = new Map<string, number>();
    for (const r of out) seen.set(short(r.key).label, (seen.get(short(r.key).label) ?? 0) + 1);
    for (const r of out) {
      const s = short(r.key);
      r.label = seen.get(s.label)! > 1 && s.kind ? `${s.label} (${s.kind})` : s.label;
    }
  }
  return out.sort((a, b) => b.count - a.count || a.label.localeCompare(b.label, "en", { numeric: true }));
}

/** An event's workload row: a pod's owner (podOwners), a claim's StatefulSet, NODES_ROW for Nodes and Leases. */
function workloadRowOf(result: ReportResult, scenario: Scenario): (e: TraceEvent) => string {
  const owners = podOwners(result);
  const statefulSets = workloads(scenario).filter((w) => w.kind === "StatefulSet");
  const memo = new Map<string, string>();
  const compute = (object: string): string => {
    const kind = object.slice(0, object.indexOf("/"));
    if (kind === "Pod") return owners.get(object) ?? object;
    if (kind === "Node" || kind === "Lease") return NODES_ROW;
    if (kind === "PersistentVolumeClaim") {
      // A volumeClaimTemplate's claim: `<template>-<statefulset>-<ordinal>`.
      const [, ns, name] = object.split("/");
      const stem = name?.replace(/-\d+$/, "") ?? "";
      const sts = statefulSets.find((w) => w.namespace === ns && stem.endsWith(`-${w.name}`));
      if (sts) return `StatefulSet/${sts.namespace}/${sts.name}`;
    }
    return CLUSTER_ROW;
  };
  return (e) => {
    let row = memo.get(e.object);
    if (row === undefined) {
      row = compute(e.object);
      memo.set(e.object, row);
    }
    return row;
  };
}
