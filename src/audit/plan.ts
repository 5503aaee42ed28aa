// The sweep: which runs answer "which single failure hurts which service most". One run without a
// fault; for each fault class asked for, one run per node (nodes that hold the same pods up to names,
// in the same zone and of the same size, share one), one per zone; and the timeline steps each run
// plays. Shards take every N-th run, so that each gets a fair mix of the classes.

import type { PodTarget, Scenario, TimelineStep } from "../scenario/types.ts";
import { placement, type StartState } from "./state.ts";
import type { FaultClass, FaultSpec, RunSpec } from "./types.ts";

const NODE_ACTION: Record<Exclude<FaultClass, "zone" | "drain">, TimelineStep["do"]> = {
  "power-off": "power-off",
  "kubelet-stop": "kubelet-stop",
  partition: "network-partition",
  "vm-terminated": "vm-terminated",
};

export interface SweepPlan {
  runs: RunSpec[];
  notes: string[];
}

export function planSweep(
  scenario: Scenario,
  start: StartState,
  faults: readonly FaultClass[],
  at: number,
): SweepPlan {
  const runs: RunSpec[] = [
    { id: "none", fault: { class: "none", target: "", nodes: [], at: 0 }, patches: [] },
  ];
  const notes: string[] = [];
  const groups = nodeGroups(scenario, start);
  const shared = groups.filter((g) => g.length > 1);
  if (shared.length > 0 && faults.some((f) => f !== "zone")) {
    const shown = shared.slice(0, 5).map((g) => g.join(", "));
    notes.push(
      `nodes with the same pods up to names (same zone and size) share one run per fault: ${shown.join("; ")}${shared.length > 5 ? `; and ${shared.length - 5} more groups` : ""}`,
    );
  }
  for (const cls of faults) {
    if (cls === "zone") {
      const zones = zonesOf(scenario);
      if (zones.size < 2) {
        notes.push(
          zones.size === 0
            ? "zone faults: the nodes have no zones (topology.kubernetes.io/zone); none run"
            : "zone faults: every node is in one zone, so losing it is losing the cluster; none run",
        );
        continue;
      }
      for (const [zone, nodes] of zones)
        runs.push({ id: `zone/${zone}`, fault: { class: "zone", target: zone, nodes, at }, patches: [] });
      continue;
    }
    for (const g of groups) {
      const spec: RunSpec = {
        id: `${cls}/${g[0]}`,
        fault: { class: cls, target: g[0]!, nodes: [g[0]!], at },
        patches: [],
      };
      if (g.length > 1) spec.sharedBy = g;
      runs.push(spec);
    }
  }
  return { runs, notes };
}

/** Nodes grouped when a fault of one would do what it does to the others: same zone, size, taints and pods. */
function nodeGroups(scenario: Scenario, start: StartState): string[][] {
  const pods = placement(start);
  const groups = new Map<string, string[]>();
  for (const n of scenario.nodes) {
    const owners = [...(pods.get(n.name) ?? new Map<string, number>())].map(([o, k]) => `${o}×${k}`).sort();
    const key = JSON.stringify([
      n.zone ?? "",
      n.capacity,
      n.taints,
      Object.entries(n.labels)
        .filter(([k]) => k !== "kubernetes.io/hostname")
        .sort(),
      owners,
    ]);
    groups.set(key, [...(groups.get(key) ?? []), n.name]);
  }
  return [...groups.values()];
}

function zonesOf(scenario: Scenario): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const n of scenario.nodes)
    if (n.zone !== undefined) out.set(n.zone, [...(out.get(n.zone) ?? []), n.name]);
  return out;
}

/**
 * The node (or zone) of `scenario` that holds most pods of `workload` at t=0; on a tie `prefer` (the
 * target the consequence was measured on), else the first.
 */
export function busiestFor(
  scenario: Scenario,
  start: StartState,
  workload: string,
  cls: FaultClass,
  prefer?: string,
): FaultSpec | undefined {
  const counts = new Map<string, number>();
  for (const p of start.pods)
    if (p.owner === workload && p.node) counts.set(p.node, (counts.get(p.node) ?? 0) + 1);
  const pick = (candidates: [string, string[], number][]): [string, string[], number] | undefined => {
    let best: [string, string[], number] | undefined;
    for (const c of candidates)
      if (!best || c[2] > best[2] || (c[2] === best[2] && c[0] === prefer)) best = c;
    return best;
  };
  const best =
    cls === "zone"
      ? pick(
          [...zonesOf(scenario)].map(([z, nodes]) => [
            z,
            nodes,
            nodes.reduce((s, x) => s + (counts.get(x) ?? 0), 0),
          ]),
        )
      : pick(scenario.nodes.map((n) => [n.name, [n.name], counts.get(n.name) ?? 0]));
  return best ? { class: cls, target: best[0], nodes: best[1], at: 0 } : undefined;
}

const POS = { file: "audit", line: 0, col: 0 };

/** The timeline a run plays: its fault, and for a fix the operator's step after it. */
export function timelineOf(spec: RunSpec, fault: FaultSpec): TimelineStep[] {
  const steps: TimelineStep[] = [];
  const at = fault.at;
  switch (fault.class) {
    case "none":
      break;
    case "zone":
      for (const node of fault.nodes) steps.push({ at, do: "power-off", node, pos: POS });
      break;
    case "stall": {
      const [target, pod] = podTarget(fault.target);
      steps.push({ at, do: "deadlock", pod, target, pos: POS });
      steps.push({ at: at + (fault.seconds ?? 0), do: "recover", pod, target, pos: POS });
      break;
    }
    case "blip":
      for (const node of fault.nodes) {
        steps.push({ at, do: "network-partition", node, pos: POS });
        steps.push({ at: at + (fault.seconds ?? 0), do: "network-heal", node, pos: POS });
      }
      break;
    case "drain":
      // As operators drain: kubectl drain --ignore-daemonsets --delete-emptydir-data --force, so that
      // every pod but a DaemonSet's goes, and what it costs is measured (a bare pod never comes back).
      // Without them kubectl refuses such a node (staging/src/k8s.io/kubectl/pkg/drain/filters.go:
      // daemonSetFilter, localStorageFilter, unreplicatedFilter; flags in pkg/cmd/drain/drain.go).
      for (const node of fault.nodes)
        steps.push({ at, do: "drain", node, force: true, deleteEmptyDirData: true, pos: POS });
      break;
    default:
      for (const node of fault.nodes) steps.push({ at, do: NODE_ACTION[fault.class], node, pos: POS });
  }
  if (spec.operator)
    for (const node of fault.nodes)
      steps.push({ at: at + spec.operator.after, do: spec.operator.do, node, pos: POS });
  return steps.sort((a, b) => a.at - b.at);
}

/** `Kind/ns/name` → the first pod the workload created (`<Kind>/<name>[0]`), resolved and as written. */
function podTarget(workload: string): [PodTarget, string] {
  const [kind, namespace, name] = workload.split("/") as [PodTarget["kind"], string, string];
  if (kind === "Pod") return [{ namespace, kind, workload: name }, `${namespace}/${name}`];
  return [{ namespace, kind, workload: name, index: 0 }, `${kind}/${name}[0]`];
}

/** The runs of shard `index` (from 0) of `count`: every count-th run, so each shard gets every class. */
export function shardOf<T>(runs: readonly T[], index: number, count: number): T[] {
  return runs.filter((_, i) => i % count === index);
}
