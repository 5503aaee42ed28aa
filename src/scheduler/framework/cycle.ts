// One scheduling cycle (pkg/scheduler/schedule_one.go schedulePod): PreFilter, then the filters
// over the nodes, walked round-robin from nextStartNodeIndex and stopped once
// numFeasibleNodesToFind pass (findNodesThatPassFilters), then the scores of those, and the best
// (ties broken at random, selectHost: here from the seed).
//
// The filters run in the default profile's order and a node stops at the first plugin that turns it
// down (RunFilterPlugins), though one plugin may give several reasons: NodeUnschedulable,
// TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, VolumeBinding, VolumeZone, PodTopologySpread,
// InterPodAffinity (apis/config/v1/default_plugins.go). Each node's verdict is kept with its code:
// Unschedulable (preemption might help) or UnschedulableAndUnresolvable (it cannot), which is what
// DefaultPreemption reports on when nothing fits.
//
// Nothing here allocates per node checked: the pod's requirements are worked out once (pod-info.ts),
// the node's numbers are read from the cache's typed arrays, and the reasons are counted in slots.

import type { Cluster } from "../../cluster/context.ts";
import type { Rng } from "../../engine/rng.ts";
import {
  ADAPTIVE_PERCENTAGE_BASE,
  ADAPTIVE_PERCENTAGE_NODES_PER_POINT,
  MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND,
  MIN_FEASIBLE_NODES_TO_FIND,
  minor,
  UNRESOLVABLE_FIT_SINCE_MINOR,
} from "../../kubernetes/defaults.ts";
import type { Node, Pod } from "../../kubernetes/objects.ts";
import type { KubernetesVersion } from "../../scenario/types.ts";
import type { PreFilterFailure } from "../../trace/scheduling-events.ts";
import { type AffinityState, affinityFilter, affinityPreFilter } from "../plugins/inter-pod-affinity.ts";
import { matchesRequired, nodeAffinityFilter, type RequiredNodeAffinity } from "../plugins/node-affinity.ts";
import { nodePortsFilter } from "../plugins/node-ports.ts";
import { nodeResourcesFitFilter } from "../plugins/node-resources-fit.ts";
import { nodeUnschedulableFilter } from "../plugins/node-unschedulable.ts";
import { type SpreadState, spreadFilter, spreadPreFilter } from "../plugins/pod-topology-spread.ts";
import { TaintToleration } from "../plugins/taint-toleration.ts";
import {
  type VolumeState,
  volumeFilter,
  volumePreFilter,
  volumeZoneFits,
} from "../plugins/volume-binding.ts";
import type { SchedulerCache } from "./cache.ts";
import { FilterReasons, type FixedReason, slot } from "./filter-reasons.ts";
import type { PodInfo } from "./pod-info.ts";
import { wholeBytes } from "./room.ts";
import { Scorer } from "./scores.ts";
import { type FilterCode, PASS, UNRESOLVABLE, UNSCHEDULABLE } from "./status.ts";

/**
 * numFeasibleNodesToFind with percentageOfNodesToScore unset (0, the default): all nodes below 100;
 * otherwise 50% − nodes/125 (at least 5%) of them, and never fewer than 100.
 */
export function numFeasibleNodesToFind(numAllNodes: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  const percentage = Math.max(
    MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND,
    ADAPTIVE_PERCENTAGE_BASE - Math.trunc(numAllNodes / ADAPTIVE_PERCENTAGE_NODES_PER_POINT),
  );
  return Math.max(MIN_FEASIBLE_NODES_TO_FIND, Math.trunc((numAllNodes * percentage) / 100));
}

/** Where the next scheduling cycle starts its walk over the nodes (nextStartNodeIndex). */
export interface SchedulerState {
  nextStartNodeIndex: number;
}

/** What one cycle found. */
export interface CycleOutcome {
  /** the chosen node, when some passed */
  node?: Node;
  nodes: number;
  checked: number;
  feasible: number;
  /** numFeasibleNodesToFind for this cluster */
  want: number;
  preFilter?: PreFilterFailure;
  /** the nodes turned down as UnschedulableAndUnresolvable, and as Unschedulable */
  unresolvable: number;
  resolvable: number;
  volumes?: VolumeState;
}

export class SchedulingCycle {
  readonly reasons = new FilterReasons();
  /** where `filter` counts its reasons: `reasons`, or DefaultPreemption's during its dry run */
  private out = this.reasons;
  /** positions in this cycle's node list of the nodes turned down as Unschedulable (preemption's potential nodes) */
  readonly resolvableAt: number[] = [];
  private readonly scorer: Scorer;
  private readonly taintToleration: TaintToleration;
  /** the rows of the nodes that passed, and their positions in the node list */
  private feasibleRows = new Int32Array(0);
  private feasibleAt = new Int32Array(0);
  private readonly volumeReasons: FixedReason[] = [];
  private readonly unresolvableFit: boolean;
  // this cycle's pod and nodes
  private info!: PodInfo;
  private nodes: readonly Node[] = [];
  private volumes: VolumeState | undefined;
  private spread: SpreadState | undefined;
  private affinity: AffinityState | undefined;

  constructor(
    private readonly ctx: Pick<Cluster, "store">,
    private readonly cache: SchedulerCache,
    version: KubernetesVersion,
  ) {
    this.scorer = new Scorer(cache);
    this.taintToleration = new TaintToleration(cache);
    this.unresolvableFit = minor(version) >= UNRESOLVABLE_FIT_SINCE_MINOR;
  }

  run(pod: Pod, info: PodInfo, rng: Rng, state: SchedulerState): CycleOutcome {
    const cache = this.cache;
    const { nodes, rows } = cache.nodeList();
    const n = nodes.length;
    this.nodes = nodes;
    this.reasons.reset();
    this.info = info;
    this.unresolvable = 0;
    this.resolvable = 0;
    this.resolvableAt.length = 0;
    const want = numFeasibleNodesToFind(n);
    const outcome: CycleOutcome = { nodes: n, checked: 0, feasible: 0, want, unresolvable: 0, resolvable: 0 };
    // PreFilter
    const volumes = volumePreFilter(this.ctx, info);
    if (volumes.failure) return this.preFiltered(outcome, volumes.failure);
    this.volumes = volumes.state;
    if (volumes.state) outcome.volumes = volumes.state;
    this.taintToleration.preFilter(info);
    this.spread =
      info.spreadFilter.length > 0
        ? spreadPreFilter(cache, pod, info, nodes, rows, (row) => this.taintToleration.untolerated(row) < 0)
        : undefined;
    this.affinity = affinityPreFilter(cache, pod, info);
    // Filter
    if (this.feasibleRows.length < want) {
      this.feasibleRows = new Int32Array(want);
      this.feasibleAt = new Int32Array(want);
    }
    // evaluateNominatedNode (schedule_one.go findNodesThatFitPod): a pod nominated by a preemption
    // tries its node first; if it passes there, that is the one node found (nothing to score).
    const nominated = this.nominatedPasses(pod, nodes, rows);
    if (nominated !== undefined) {
      outcome.node = nodes[nominated]!;
      outcome.checked = 1;
      outcome.feasible = 1;
      return outcome;
    }
    const start = state.nextStartNodeIndex;
    this.tookAll = false;
    const processed = this.walk(rows, n, start, want);
    if (n > 0) state.nextStartNodeIndex = (start + processed) % n;
    const found = this.found;
    outcome.checked = processed;
    outcome.feasible = found;
    outcome.unresolvable = this.unresolvable;
    outcome.resolvable = this.resolvable;
    if (found === 0) return outcome;
    // Score and select
    const chosen = this.scorer.select(
      pod,
      info,
      this.feasibleRows,
      this.feasibleAt,
      nodes,
      found,
      rng,
      this.tookAll,
    );
    outcome.node = nodes[this.feasibleAt[chosen]!]!;
    return outcome;
  }

  /** The position of the pod's nominated node when it passes the filters there. */
  private nominatedPasses(pod: Pod, nodes: readonly Node[], rows: Int32Array): number | undefined {
    const name = pod.status.nominatedNodeName;
    if (!name) return undefined;
    const at = nodes.findIndex((n) => n.metadata.name === name);
    if (at < 0) return undefined;
    if (this.filter(rows[at]!, nodes[at]!) === PASS) return at;
    this.reasons.reset();
    return undefined;
  }

  private preFiltered(outcome: CycleOutcome, failure: PreFilterFailure): CycleOutcome {
    outcome.preFilter = failure;
    outcome.unresolvable = outcome.nodes;
    return outcome;
  }

  private found = 0;
  /** this cycle's walk took a stretch of nodes at once (takeAll) */
  private tookAll = false;
  private unresolvable = 0;
  private resolvable = 0;

  /**
   * findNodesThatPassFilters: from position `start`, round the node list until `want` nodes pass
   * or every node was checked; returns how many were checked.
   *
   * A node that is not cordoned or tainted and has room passes every filter of a pod with no
   * claims, spread constraints or pod affinity (and none of the pods bound has required
   * anti-affinity) if it matches the pod's node selector: that common case is decided here, the rest
   * by the plugins in `filter`. (One loop per case, so that each runs every branch it has.) Without a
   * selector, when the cache's room (room.ts) shows that every node of the stretch ahead passes that
   * test, they are taken at once: the loop would have found each of them, and nothing else.
   */
  private walk(rows: Int32Array, n: number, start: number, want: number): number {
    const info = this.info;
    // the fast path's test reads cpu, memory and pods only: no host ports, no other resources
    if (this.volumes || this.spread || this.affinity || info.scalar.length > 0 || info.hostPorts.length > 0)
      return this.walkEach(rows, n, start, want);
    if (info.nodeAffinity) return this.walkSelected(rows, n, start, want, info.nodeAffinity);
    const { blocked, freePods, freeCpuMilli, memory, allocMemory } = this.cache;
    const cpu = info.cpuMilli;
    const mem = info.memory;
    if (n > 0 && wholeBytes(mem) && this.cache.roomFor(start % n, want, n, cpu, mem))
      return this.takeAll(rows, n, start % n, want);
    const feasible = this.feasibleRows;
    const feasibleAt = this.feasibleAt;
    let found = 0;
    let processed = 0;
    for (let at = n > 0 ? start % n : 0; processed < n && found < want; processed++) {
      const row = rows[at]!;
      if (
        (blocked[row] === 0 &&
          freePods[row]! >= 1 &&
          freeCpuMilli[row]! >= cpu &&
          memory[row]! + mem <= allocMemory[row]!) ||
        this.filterAt(row, at)
      ) {
        feasible[found] = row;
        feasibleAt[found] = at;
        found++;
      }
      if (++at === n) at = 0;
    }
    this.found = found;
    return processed;
  }

  /** The walk when each of the `want` nodes from `start` passes its test: they are those found. */
  private takeAll(rows: Int32Array, n: number, start: number, want: number): number {
    if (this.positions.length < n) this.positions = Int32Array.from({ length: n * 2 }, (_, i) => i);
    const first = Math.min(want, n - start);
    this.feasibleRows.set(rows.subarray(start, start + first));
    this.feasibleAt.set(this.positions.subarray(start, start + first));
    if (first < want) {
      this.feasibleRows.set(rows.subarray(0, want - first), first);
      this.feasibleAt.set(this.positions.subarray(0, want - first), first);
    }
    this.found = want;
    this.tookAll = true;
    return want;
  }

  /** 0, 1, 2…: the positions of the node list */
  private positions = new Int32Array(0);

  /** The walk for a pod with a node selector or required node affinity and nothing else. */
  private walkSelected(
    rows: Int32Array,
    n: number,
    start: number,
    want: number,
    selector: RequiredNodeAffinity,
  ): number {
    const { blocked, freePods, freeCpuMilli, memory, allocMemory } = this.cache;
    const nodes = this.nodes;
    const cpu = this.info.cpuMilli;
    const mem = this.info.memory;
    const feasible = this.feasibleRows;
    const feasibleAt = this.feasibleAt;
    let found = 0;
    let processed = 0;
    for (let at = n > 0 ? start % n : 0; processed < n && found < want; processed++) {
      const row = rows[at]!;
      if (
        (matchesRequired(selector, nodes[at]!) &&
          blocked[row] === 0 &&
          freePods[row]! >= 1 &&
          freeCpuMilli[row]! >= cpu &&
          memory[row]! + mem <= allocMemory[row]!) ||
        this.filterAt(row, at)
      ) {
        feasible[found] = row;
        feasibleAt[found] = at;
        found++;
      }
      if (++at === n) at = 0;
    }
    this.found = found;
    return processed;
  }

  /** The walk through every plugin for every node. */
  private walkEach(rows: Int32Array, n: number, start: number, want: number): number {
    const feasible = this.feasibleRows;
    const feasibleAt = this.feasibleAt;
    let found = 0;
    let processed = 0;
    for (let at = n > 0 ? start % n : 0; processed < n && found < want; processed++) {
      const row = rows[at]!;
      if (this.filterAt(row, at)) {
        feasible[found] = row;
        feasibleAt[found] = at;
        found++;
      }
      if (++at === n) at = 0;
    }
    this.found = found;
    return processed;
  }

  /**
   * The plugins' verdict for the node at a position of this cycle's node list, counted by code.
   * (Out of the walk's loop: branches there that it rarely reaches would cost its optimized code.)
   */
  private filterAt(row: number, at: number): boolean {
    const verdict = this.filter(row, this.nodes[at]!);
    if (verdict === PASS) return true;
    if (verdict === UNRESOLVABLE) this.unresolvable++;
    else {
      this.resolvable++;
      this.resolvableAt.push(at);
    }
    return false;
  }

  /**
   * The filters again for this cycle's pod on one node of its node list, with the reasons counted in
   * `out`: DefaultPreemption's dry run (RunFilterPluginsWithNominatedPods on the node with its victims
   * removed). The PreFilter state is this cycle's: spreading and pod affinity still count the
   * victims (RunPreFilterExtensionRemovePod is not modelled; preemption for them is rarely asked).
   */
  refilter(at: number, out: FilterReasons): FilterCode {
    this.out = out;
    try {
      return this.filter(this.cache.nodeRows().rows[at]!, this.nodes[at]!);
    } finally {
      this.out = this.reasons;
    }
  }

  /** The filter plugins on one node, in order (RunFilterPlugins); the first to refuse it gives the reasons. */
  private filter(row: number, node: Node): FilterCode {
    const info = this.info;
    const reasons = this.out;
    let code = nodeUnschedulableFilter(this.cache, row, info, reasons);
    if (code !== PASS) return code;
    code = this.taintToleration.filter(row, reasons);
    if (code !== PASS) return code;
    code = nodeAffinityFilter(info.nodeAffinity, node, reasons);
    if (code !== PASS) return code;
    code = nodePortsFilter(this.cache.usedPorts[row], info.hostPorts, reasons);
    if (code !== PASS) return code;
    code = nodeResourcesFitFilter(this.cache, row, info, reasons, this.unresolvableFit);
    if (code !== PASS) return code;
    if (this.volumes) {
      // VolumeBinding
      const out = this.volumeReasons;
      out.length = 0;
      volumeFilter(this.ctx, this.volumes, node, out);
      if (out.length > 0) {
        for (const r of out) reasons.add(slot(r));
        return UNRESOLVABLE;
      }
      // VolumeZone
      if (!volumeZoneFits(this.volumes, node)) {
        reasons.add(slot("VolumeZoneConflict"));
        return UNRESOLVABLE;
      }
    }
    // PodTopologySpread
    if (this.spread) {
      const v = spreadFilter(this.spread, info, node);
      if (v) {
        reasons.add(slot(v));
        return v === "TopologySpreadMissingLabel" ? UNRESOLVABLE : UNSCHEDULABLE;
      }
    }
    // InterPodAffinity
    if (this.affinity) {
      const v = affinityFilter(this.affinity, info, node);
      if (v) {
        reasons.add(slot(v));
        return v === "PodAffinity" ? UNRESOLVABLE : UNSCHEDULABLE;
      }
    }
    return PASS;
  }
}
