// PodTopologySpread's filter (pkg/scheduler/framework/plugins/podtopologyspread/filtering.go
// calPreFilterState and Filter; common.go countPodsMatchSelector) for the pod's DoNotSchedule
// constraints:
// - the domains are those of the nodes that have every constraint's topologyKey and pass the
//   constraint's inclusion policies (nodeAffinityPolicy Honor, the default: the pod's nodeSelector
//   and required node affinity; nodeTaintsPolicy Honor: the node's taints);
// - a domain counts the pods there in the pod's namespace that match the selector, skipping
//   Terminating ones ("Bypass terminating Pod", kubernetes#87621): unlike inter-pod affinity, a
//   spread constraint does not wait for a dead node's pod object to go;
// - a node passes when count(its domain) + (1 if the pod matches its own selector) − the smallest
//   count ≤ maxSkew; with fewer domains than minDomains the smallest count is 0; a node without the
//   topologyKey fails ("missing required label").

import { matchesSelector } from "../../kubernetes/labels.ts";
import type { Node, Pod } from "../../kubernetes/objects.ts";
import type { SchedulerCache } from "../framework/cache.ts";
import type { PodInfo } from "../framework/pod-info.ts";
import { matchesRequired } from "./node-affinity.ts";

export interface SpreadState {
  /** per DoNotSchedule constraint: matching pods per domain value */
  counts: Map<string, number>[];
  /** per constraint: the smallest count (minMatchNum) */
  min: number[];
}

export function spreadPreFilter(
  cache: SchedulerCache,
  pod: Pod,
  info: PodInfo,
  nodes: readonly Node[],
  rows: Int32Array,
  toleratesTaints: (row: number) => boolean,
): SpreadState | undefined {
  const cs = info.spreadFilter;
  if (cs.length === 0) return undefined;
  const counts = cs.map(() => new Map<string, number>());
  // per constraint, per row: the node is one of the constraint's domains (1)
  const eligible = cs.map(() => new Uint8Array(cache.size));
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    const labels = node.metadata.labels ?? {};
    if (!cs.every((c) => Object.hasOwn(labels, c.topologyKey))) continue;
    const row = rows[i]!;
    cs.forEach((c, ci) => {
      if (c.honorNodeAffinity && info.nodeAffinity && !matchesRequired(info.nodeAffinity, node)) return;
      if (c.honorTaints && !toleratesTaints(row)) return;
      eligible[ci]![row] = 1;
      const value = labels[c.topologyKey]!;
      if (!counts[ci]!.has(value)) counts[ci]!.set(value, 0);
    });
  }
  const ns = pod.metadata.namespace;
  for (const [other, c] of cache.countedPods()) {
    if (c.terminating || other.metadata.namespace !== ns) continue;
    const node = cache.nodes[c.row];
    if (!node) continue;
    cs.forEach((k, ci) => {
      if (!eligible[ci]![c.row] || !matchesSelector(k.selector, other.metadata.labels)) return;
      const value = node.metadata.labels![k.topologyKey]!;
      counts[ci]!.set(value, counts[ci]!.get(value)! + 1);
    });
  }
  const min = cs.map((c, ci) => {
    const m = counts[ci]!;
    if (m.size < c.minDomains) return 0;
    let low = Number.POSITIVE_INFINITY;
    for (const v of m.values()) if (v < low) low = v;
    return low;
  });
  return { counts, min };
}

export type SpreadVerdict = undefined | "TopologySpread" | "TopologySpreadMissingLabel";

export function spreadFilter(s: SpreadState, info: PodInfo, node: Node): SpreadVerdict {
  const labels = node.metadata.labels ?? {};
  for (let ci = 0; ci < info.spreadFilter.length; ci++) {
    const c = info.spreadFilter[ci]!;
    const value = labels[c.topologyKey];
    if (value === undefined) return "TopologySpreadMissingLabel";
    const skew = (s.counts[ci]!.get(value) ?? 0) + (c.selfMatch ? 1 : 0) - s.min[ci]!;
    if (skew > c.maxSkew) return "TopologySpread";
  }
  return undefined;
}
