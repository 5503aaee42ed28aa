// Scoring the nodes that passed the filters. The model adds raw per-plugin terms rather than
// kube-scheduler's normalized 0–100 plugin scores times plugin weights, so among feasible nodes it
// ranks as kube-scheduler does in the common cases (spread a workload by node and zone, prefer
// emptier nodes, honour preferences) without reproducing every normalization; the filters, which
// decide whether a pod can run at all, follow the plugins exactly. The terms:
// - PodTopologySpread (weight 2): with no constraints of its own, the system defaults
//   (systemDefaultConstraints: ScheduleAnyway, maxSkew 3 per hostname and 5 per zone) count the
//   pod's workload: −2 per such pod on the node and −2 per such pod in the node's zone (among the
//   feasible nodes); an explicit ScheduleAnyway constraint likewise, −2 per matching pod in the
//   node's domain among the feasible nodes; Terminating pods do not count (#87621);
// - InterPodAffinity: for each preferred term, ± weight/100 per matching pod in the node's domain,
//   over every node and Terminating pods included (scoring.go processTerm);
// - NodeAffinity (weight 2): the preferred terms' weights the node matches, normalized to the best
//   feasible node (DefaultNormalizeScore, 0–100), as 2 × that / 100;
// - NodeResourcesFit LeastAllocated: −0.5 × requested cpu / allocatable − 0.5 × pods / allowed pods,
//   a tie-breaker toward emptier nodes.

import type { Rng } from "../../engine/rng.ts";
import { MAX_NODE_SCORE, WEIGHT_NODE_AFFINITY, WEIGHT_TOPOLOGY_SPREAD } from "../../kubernetes/defaults.ts";
import { matchesSelector } from "../../kubernetes/labels.ts";
import type { Node, Pod } from "../../kubernetes/objects.ts";
import { affinityScoreOf, preferredAffinityScores } from "../plugins/inter-pod-affinity.ts";
import { preferredScore } from "../plugins/node-affinity.ts";
import type { SchedulerCache } from "./cache.ts";
import type { PodInfo } from "./pod-info.ts";
import type { Counts } from "./zone-blocks.ts";

export class Scorer {
  private zoneSums = new Float64Array(8);
  private perRow = new Float64Array(0);

  constructor(private readonly cache: SchedulerCache) {}

  /**
   * Scores the `n` feasible nodes (their rows `rows[0..n)`, their positions in `nodes` `at[0..n)`)
   * and picks one (selectHost): the best score, ties within 1e-9 (the scores are sums of floats)
   * broken at random. Returns its index in `0..n)`. `stretch`: the nodes are the `n` from position
   * `at[0]` of the list, round it.
   */
  select(
    pod: Pod,
    info: PodInfo,
    rows: Int32Array,
    at: Int32Array,
    nodes: readonly Node[],
    n: number,
    rng: Rng,
    stretch: boolean,
  ): number {
    const cache = this.cache;
    const defaultSpread = !info.hasSpreadConstraints && info.owner !== undefined;
    const own = defaultSpread ? cache.ownerCounts(info.owner!) : undefined;
    if (defaultSpread) this.zoneSumsOf(info.owner!, own, rows, n, stretch ? at[0]! : -1, nodes.length);
    const zoneSums = this.zoneSums;
    const podTerms = this.podTerms(pod, info, rows, at, nodes, n);
    const { hostname, zone, cpuMilli, scoreCpu, podCount, scorePods } = cache;
    if (this.best.length < n) this.best = new Int32Array(n * 2);
    const best = this.best;
    let bestScore = Number.NEGATIVE_INFINITY;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const row = rows[i]!;
      let sc = 0;
      if (defaultSpread) {
        // the system default constraints: the workload's active pods on the node and in its zone
        if (hostname[row]) sc -= WEIGHT_TOPOLOGY_SPREAD * (own ? own[row]! : 0);
        const z = zone[row]!;
        if (z >= 0) sc -= WEIGHT_TOPOLOGY_SPREAD * zoneSums[z]!;
      }
      if (podTerms) sc += podTerms[i]!;
      sc -= cpuMilli[row]! * scoreCpu[row]!;
      sc -= podCount[row]! * scorePods[row]!;
      if (sc > bestScore + 1e-9) {
        bestScore = sc;
        best[0] = i;
        count = 1;
      } else if (Math.abs(sc - bestScore) <= 1e-9) {
        best[count] = i;
        count += 1;
      }
    }
    if (count === 1) return best[0]!;
    return best[rng.int(count)]!;
  }

  private best = new Int32Array(0);

  /** Explicit ScheduleAnyway constraints, preferred pod and node affinity: undefined when none. */
  private podTerms(
    pod: Pod,
    info: PodInfo,
    rows: Int32Array,
    at: Int32Array,
    all: readonly Node[],
    n: number,
  ): Float64Array | undefined {
    const affinity = preferredAffinityScores(this.cache, info);
    if (info.spreadScore.length === 0 && !affinity && info.preferredNodeAffinity.length === 0)
      return undefined;
    const out = new Float64Array(n);
    const nodes = Array.from({ length: n }, (_, i) => all[at[i]!]!);
    for (const c of info.spreadScore) {
      const counts = this.countOnRows(pod, (p) => matchesSelector(c.selector, p.metadata.labels));
      const domains = new Map<string, number>();
      for (let i = 0; i < n; i++) {
        const d = nodes[i]!.metadata.labels?.[c.topologyKey];
        if (d !== undefined) domains.set(d, (domains.get(d) ?? 0) + counts[rows[i]!]!);
      }
      for (let i = 0; i < n; i++) {
        const d = nodes[i]!.metadata.labels?.[c.topologyKey];
        if (d !== undefined) out[i]! -= WEIGHT_TOPOLOGY_SPREAD * (domains.get(d) ?? 0);
      }
    }
    if (affinity) for (let i = 0; i < n; i++) out[i]! += affinityScoreOf(affinity, nodes[i]!);
    if (info.preferredNodeAffinity.length > 0) {
      const raw = new Float64Array(n);
      let max = 0;
      for (let i = 0; i < n; i++) {
        raw[i] = preferredScore(info.preferredNodeAffinity, nodes[i]!);
        if (raw[i]! > max) max = raw[i]!;
      }
      if (max > 0)
        for (let i = 0; i < n; i++)
          out[i]! += (WEIGHT_NODE_AFFINITY * Math.trunc((MAX_NODE_SCORE * raw[i]!) / max)) / MAX_NODE_SCORE;
    }
    return out;
  }

  /**
   * The workload's active pods per zone, over the feasible nodes: from the cache's blocks when they
   * are the stretch of the node list from position `start` (zone-blocks.ts), else node by node.
   */
  private zoneSumsOf(
    owner: string,
    own: Counts | undefined,
    rows: Int32Array,
    n: number,
    start: number,
    listed: number,
  ): void {
    const cache = this.cache;
    if (this.zoneSums.length < cache.zones.length) this.zoneSums = new Float64Array(cache.zones.length * 2);
    const zoneSums = this.zoneSums;
    zoneSums.fill(0, 0, cache.zones.length);
    if (!own) return;
    if (start >= 0) {
      cache.zoneSumsOver(owner, own, start, n, listed, zoneSums);
      return;
    }
    for (let i = 0; i < n; i++) {
      const row = rows[i]!;
      const z = cache.zone[row]!;
      if (z >= 0) zoneSums[z]! += own[row]!;
    }
  }

  /** Active pods in the pod's namespace matching `select`, per row. */
  private countOnRows(pod: Pod, select: (p: Pod) => boolean): Float64Array {
    if (this.perRow.length < this.cache.size) this.perRow = new Float64Array(this.cache.size * 2);
    const counts = this.perRow;
    counts.fill(0);
    const ns = pod.metadata.namespace;
    for (const [other, c] of this.cache.countedPods())
      if (!c.terminating && other.metadata.namespace === ns && select(other)) counts[c.row]! += 1;
    return counts;
  }
}
