// InterPodAffinity (pkg/scheduler/framework/plugins/interpodaffinity): filtering.go and scoring.go.
//
// The counts come from every pod in the scheduler cache, Terminating ones included: NodeInfo.Pods
// keeps a pod until its object is deleted, and neither PreFilter nor Score skips a deletionTimestamp.
// kubernetes/kubernetes#111793 asked for terminating pods to be ignored and was closed as working as
// intended: a quorum member whose node died is not replaced next to its old self while the old pod
// object exists, which for a StatefulSet on an unreachable node means until it is force-deleted.

import type { Node, Pod } from "../../kubernetes/objects.ts";
import type { SchedulerCache } from "../framework/cache.ts";
import {
  type AffinityTerm,
  type PodInfo,
  podInfo,
  termMatchesPod,
  type WeightedAffinityTerm,
} from "../framework/pod-info.ts";

/** Pods per topology pair: topologyKey → value → count (topologyToMatchedTermCount). */
type PairCounts = Map<string, Map<string, number>>;

function add(m: PairCounts, node: Node, key: string, by: number): void {
  const value = node.metadata.labels?.[key];
  if (value === undefined) return;
  let values = m.get(key);
  if (!values) {
    values = new Map();
    m.set(key, values);
  }
  values.set(value, (values.get(value) ?? 0) + by);
}

function get(m: PairCounts, key: string, value: string): number {
  return m.get(key)?.get(value) ?? 0;
}

/** podMatchesAllAffinityTerms: false for no terms. */
function matchesAll(terms: readonly AffinityTerm[], pod: Pod): boolean {
  if (terms.length === 0) return false;
  for (const t of terms) if (!termMatchesPod(t, pod)) return false;
  return true;
}

export interface AffinityState {
  /** existing pods whose required anti-affinity matches the incoming pod, by their topology pair */
  existingAnti: PairCounts;
  /** pods matching all of the incoming pod's required affinity terms */
  affinity: PairCounts;
  /** pods matching one of the incoming pod's required anti-affinity terms */
  anti: PairCounts;
  /** the pod matches its own affinity terms (the first of a series may go anywhere) */
  selfMatch: boolean;
}

/**
 * PreFilter: undefined when the plugin has nothing to check (no required terms on the pod and no
 * existing pod with required anti-affinity matching it).
 */
export function affinityPreFilter(cache: SchedulerCache, pod: Pod, info: PodInfo): AffinityState | undefined {
  const required = info.requiredAffinity.length > 0 || info.requiredAntiAffinity.length > 0;
  if (!required && cache.withRequiredAntiAffinity.size === 0) return undefined;
  const existingAnti: PairCounts = new Map();
  for (const other of cache.withRequiredAntiAffinity) {
    const node = cache.nodes[cache.rowOfPod(other)!.row];
    if (!node) continue;
    for (const t of podInfo(other).requiredAntiAffinity)
      if (termMatchesPod(t, pod)) add(existingAnti, node, t.topologyKey, 1);
  }
  const affinity: PairCounts = new Map();
  const anti: PairCounts = new Map();
  if (required) {
    for (const [other, c] of cache.countedPods()) {
      const node = cache.nodes[c.row];
      if (!node) continue;
      if (matchesAll(info.requiredAffinity, other))
        for (const t of info.requiredAffinity) add(affinity, node, t.topologyKey, 1);
      for (const t of info.requiredAntiAffinity)
        if (termMatchesPod(t, other)) add(anti, node, t.topologyKey, 1);
    }
  } else if (existingAnti.size === 0) return undefined;
  return { existingAnti, affinity, anti, selfMatch: matchesAll(info.requiredAffinity, pod) };
}

export type AffinityVerdict = undefined | "PodAffinity" | "PodAntiAffinity" | "ExistingPodsAntiAffinity";

/** Filter: pod affinity, then the pod's anti-affinity, then existing pods' anti-affinity. */
export function affinityFilter(s: AffinityState, info: PodInfo, node: Node): AffinityVerdict {
  const labels = node.metadata.labels ?? {};
  // satisfyPodAffinity: every term's topology label must exist on the node, and some matching pod
  // in the same domain, unless no pod matches anywhere and the pod matches its own terms.
  let podsExist = true;
  for (const t of info.requiredAffinity) {
    if (!Object.hasOwn(labels, t.topologyKey)) return "PodAffinity";
    if (get(s.affinity, t.topologyKey, labels[t.topologyKey]!) <= 0) podsExist = false;
  }
  if (!podsExist && !(s.affinity.size === 0 && s.selfMatch)) return "PodAffinity";
  if (s.anti.size > 0)
    for (const t of info.requiredAntiAffinity) {
      const v = labels[t.topologyKey];
      if (v !== undefined && get(s.anti, t.topologyKey, v) > 0) return "PodAntiAffinity";
    }
  if (s.existingAnti.size > 0)
    for (const key in labels)
      if (get(s.existingAnti, key, labels[key]!) > 0) return "ExistingPodsAntiAffinity";
  return undefined;
}

/**
 * The score of the pod's preferred terms per topology pair: + weight for each pod matching an
 * affinity term, − weight for each matching an anti-affinity term, over every node (scoring.go
 * processTerm), scaled by 1/100 to the model's score units.
 */
export function preferredAffinityScores(cache: SchedulerCache, info: PodInfo): PairCounts | undefined {
  if (info.preferredAffinity.length === 0 && info.preferredAntiAffinity.length === 0) return undefined;
  const scores: PairCounts = new Map();
  const terms: [WeightedAffinityTerm, number][] = [
    ...info.preferredAffinity.map((t) => [t, 1] as [WeightedAffinityTerm, number]),
    ...info.preferredAntiAffinity.map((t) => [t, -1] as [WeightedAffinityTerm, number]),
  ];
  for (const [other, c] of cache.countedPods()) {
    const node = cache.nodes[c.row];
    if (!node) continue;
    for (const [t, sign] of terms)
      if (termMatchesPod(t, other)) add(scores, node, t.topologyKey, sign * t.weight);
  }
  return scores;
}

/** A node's share of the preferred-term scores: the sum over the topology keys it has. */
export function affinityScoreOf(scores: PairCounts, node: Node): number {
  const labels = node.metadata.labels;
  if (!labels) return 0;
  let s = 0;
  for (const [key, values] of scores) {
    const v = labels[key];
    if (v !== undefined) s += values.get(v) ?? 0;
  }
  return s / 100;
}
