// kube-scheduler, reduced to the plugins that decide where replacements land
// (pkg/scheduler/framework/plugins): NodeName, NodeUnschedulable, TaintToleration, NodeAffinity
// (nodeSelector), NodeResourcesFit, InterPodAffinity (required anti-affinity), PodTopologySpread
// (explicit constraints, and the system defaults that spread a workload's pods across nodes and
// zones). Among equally good nodes the scheduler picks at random (selectHost): here from the seed.

import { setPodCondition } from "../cluster/api.ts";
import type { Context } from "../cluster/context.ts";
import { controllerOf, ref } from "../cluster/store.ts";
import type { Timer } from "../engine/engine.ts";
import type { Rng } from "../engine/rng.ts";
import { getPod } from "../kubernetes/kubectl.ts";
import { LABEL_HOSTNAME, LABEL_ZONE, matchesSelector } from "../kubernetes/labels.ts";
import type { LabelSelector, Node, Pod, TopologySpreadConstraint } from "../kubernetes/objects.ts";
import { TAINT_UNSCHEDULABLE, taintString, tolerates } from "../kubernetes/taints.ts";

// The system default topology spread constraints (pkg/scheduler/framework/plugins/podtopologyspread,
// systemDefaultConstraints): ScheduleAnyway, maxSkew 3 per hostname and 5 per zone, over the pods of
// the same workload. ScheduleAnyway constraints only score, so they appear in scoreAll below.

export function bindPod(
  ctx: Pick<Context, "engine" | "store" | "trace">,
  pod: Pod,
  nodeName: string,
  why: string,
): void {
  pod.spec.nodeName = nodeName;
  setPodCondition(ctx, pod, "PodScheduled", "True");
  ctx.store.update(pod, undefined);
  ctx.trace.emit({
    type: "PodScheduled",
    lane: "control-plane",
    object: ref(pod),
    node: nodeName,
    message: `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${nodeName}`,
    why,
    see: getPod(pod, ctx.engine.now),
  });
}

/**
 * The scheduling queue's backoff for a pod that failed to schedule: podInitialBackoffSeconds 1,
 * doubling per attempt to podMaxBackoffSeconds 10 (pkg/scheduler/apis/config/v1/defaults.go). A
 * cluster event moves it back to be tried once its backoff has run out.
 */
const POD_INITIAL_BACKOFF = 1;
const POD_MAX_BACKOFF = 10;

interface Waiting {
  pod: Pod;
  attempts: number;
  lastAttempt: number;
  timer: Timer | undefined;
}

export class Scheduler {
  private waiting = new Map<string, Waiting>();
  private readonly rng: Rng;
  private reported = new Map<string, string>();
  private state: SchedulerState = { nextStartNodeIndex: 0 };

  constructor(
    private readonly ctx: Context,
    private readonly cache: SchedulerCache,
  ) {
    this.rng = ctx.engine.rng.fork("scheduler");
    ctx.store.watch("Pod", (type, pod) => {
      const uid = pod.metadata.uid!;
      if (type === "DELETED") {
        this.forget(uid);
        this.retryAll();
        return;
      }
      if (pod.spec.nodeName || pod.metadata.deletionTimestamp !== undefined) {
        this.forget(uid);
        return;
      }
      if (type === "ADDED") this.schedule(pod);
    });
    ctx.store.watch("Node", () => this.retryAll());
  }

  private forget(uid: string): void {
    const w = this.waiting.get(uid);
    if (w) this.ctx.engine.cancel(w.timer);
    this.waiting.delete(uid);
  }

  /**
   * A cluster event may make waiting pods schedulable (moveAllToActiveOrBackoffQueue): each is
   * tried again once its backoff since its last attempt has run out.
   */
  private retryAll(): void {
    const now = this.ctx.engine.now;
    for (const w of this.waiting.values()) {
      if (w.timer && !w.timer.cancelled) continue;
      const backoff = Math.min(POD_INITIAL_BACKOFF * 2 ** (w.attempts - 1), POD_MAX_BACKOFF);
      w.timer = this.ctx.engine.at(Math.max(now, w.lastAttempt + backoff), () => {
        w.timer = undefined;
        this.schedule(w.pod);
      });
    }
  }

  private schedule(pod: Pod): void {
    if (!this.ctx.store.exists(pod) || pod.spec.nodeName) return;
    const uid = pod.metadata.uid!;
    const result = placePod(this.ctx, this.cache, pod, this.rng, this.state);
    const before = this.waiting.get(uid);
    if (result.node) {
      this.forget(uid);
      const retried = before
        ? `; tried again after a cluster event once its backoff ran out (podInitialBackoffSeconds=1 doubling to podMaxBackoffSeconds=10; attempt ${before.attempts + 1})`
        : "";
      bindPod(this.ctx, pod, result.node, result.why + retried);
      return;
    }
    this.waiting.set(uid, {
      pod,
      attempts: (before?.attempts ?? 0) + 1,
      lastAttempt: this.ctx.engine.now,
      timer: undefined,
    });
    // handleSchedulingFailure: PodScheduled=False, reason Unschedulable, the scheduler's message.
    setPodCondition(this.ctx, pod, "PodScheduled", "False", "Unschedulable", result.why);
    if (this.reported.get(uid) === result.why) return;
    this.reported.set(uid, result.why);
    this.ctx.trace.emit({
      type: "FailedScheduling",
      lane: "control-plane",
      object: ref(pod),
      message: `${pod.metadata.name} cannot be scheduled: ${result.why}`,
      why: "no node passes the scheduler's filters; it is tried again when nodes or pods change, after its backoff",
      see: getPod(pod, this.ctx.engine.now),
    });
  }
}

interface Placement {
  node?: string;
  why: string;
}

/** The scheduler cache's NodeInfo: what the pods bound to a node use, recomputed when they change. */
interface NodeInfo {
  pods: number;
  cpu: number;
  memory: number;
  /** active (non-terminating) pods per controller, for topology spreading */
  byOwner: Map<string, number>;
}

export class SchedulerCache {
  private infos = new Map<string, NodeInfo>();
  /** What of each pod the node info depends on: its node, whether it is terminal or terminating. */
  private counted = new Map<string, string>();

  constructor(private readonly ctx: Context) {
    ctx.store.observe((obj, previousNode) => {
      if (obj.kind !== "Pod") return;
      const uid = obj.metadata.uid!;
      const gone = !ctx.store.exists(obj);
      const sig = gone
        ? ""
        : `${obj.spec.nodeName ?? ""}|${holdsResources(obj)}|${obj.metadata.deletionTimestamp !== undefined}`;
      // Status updates that change none of these (Running, Ready…) leave the node's info as it is.
      if (this.counted.get(uid) === sig) return;
      if (gone) this.counted.delete(uid);
      else this.counted.set(uid, sig);
      if (obj.spec.nodeName) this.infos.delete(obj.spec.nodeName);
      if (previousNode) this.infos.delete(previousNode);
    });
  }

  info(node: string): NodeInfo {
    let info = this.infos.get(node);
    if (info) return info;
    info = { pods: 0, cpu: 0, memory: 0, byOwner: new Map() };
    for (const p of this.ctx.store.podSetOnNode(node)) {
      if (!holdsResources(p)) continue;
      const r = requests(p);
      info.pods++;
      info.cpu += r.cpu;
      info.memory += r.memory;
      const owner = controllerOf(p);
      if (owner && p.metadata.deletionTimestamp === undefined)
        info.byOwner.set(owner, (info.byOwner.get(owner) ?? 0) + 1);
    }
    this.infos.set(node, info);
    return info;
  }
}

/** minFeasibleNodesToFind and minFeasibleNodesPercentageToFind (pkg/scheduler/schedule_one.go). */
const MIN_FEASIBLE_NODES_TO_FIND = 100;
const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/**
 * numFeasibleNodesToFind with percentageOfNodesToScore unset (0, the default): all nodes below 100;
 * otherwise 50% − nodes/125 (at least 5%) of them, and never fewer than 100.
 */
export function numFeasibleNodesToFind(numAllNodes: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  const percentage = Math.max(MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND, 50 - Math.trunc(numAllNodes / 125));
  return Math.max(MIN_FEASIBLE_NODES_TO_FIND, Math.trunc((numAllNodes * percentage) / 100));
}

/** Where the next scheduling cycle starts its walk over the nodes (nextStartNodeIndex). */
export interface SchedulerState {
  nextStartNodeIndex: number;
}

/**
 * Filter, score, select: the scheduling cycle for one pod. As findNodesThatPassFilters does, the
 * filters walk the nodes round-robin from nextStartNodeIndex and stop once numFeasibleNodesToFind
 * nodes pass; only those are scored.
 */
export function placePod(
  ctx: Context,
  cache: SchedulerCache,
  pod: Pod,
  rng: Rng,
  state: SchedulerState,
): Placement {
  const nodes = ctx.store.list("Node");
  const reasons = new Map<string, number>();
  const feasible: Node[] = [];
  const want = numFeasibleNodesToFind(nodes.length);
  let processed = 0;
  for (; processed < nodes.length && feasible.length < want; processed++) {
    const node = nodes[(state.nextStartNodeIndex + processed) % nodes.length]!;
    const reason = filter(ctx, cache, pod, node, nodes);
    if (reason) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    else feasible.push(node);
  }
  if (nodes.length > 0) state.nextStartNodeIndex = (state.nextStartNodeIndex + processed) % nodes.length;
  if (feasible.length === 0) {
    const parts = [...reasons.entries()]
      .sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .map(([r, n]) => `${n} node(s) ${r}`);
    return { why: `0/${nodes.length} nodes are available: ${parts.join(", ")}.` };
  }
  const scores = scoreAll(ctx, cache, pod, feasible);
  let best: Node[] = [];
  let bestScore = Number.NEGATIVE_INFINITY;
  feasible.forEach((node, i) => {
    const sc = scores[i]!;
    if (sc > bestScore + 1e-9) {
      bestScore = sc;
      best = [node];
    } else if (Math.abs(sc - bestScore) <= 1e-9) best.push(node);
  });
  const chosen = best.length === 1 ? best[0]! : best[rng.int(best.length)]!;
  const owner = controllerOf(pod);
  const why =
    `${feasible.length} of ${processed} nodes checked pass the filters${processed < nodes.length ? ` (percentageOfNodesToScore: the scheduler stops at ${want} feasible of ${nodes.length})` : ""}` +
    (reasons.size > 0 ? ` (${[...reasons.entries()].map(([r, n]) => `${n} ${r}`).join("; ")})` : "") +
    (owner
      ? `; ${chosen.metadata.name} runs the fewest pods of ${owner.split("/").pop()} (topology spreading by node and zone)`
      : "");
  return { node: chosen.metadata.name, why };
}

function requests(pod: Pod): { cpu: number; memory: number } {
  let cpu = 0;
  let memory = 0;
  for (const c of pod.spec.containers) {
    cpu += c.resources?.requests?.cpu ?? 0;
    memory += c.resources?.requests?.memory ?? 0;
  }
  return { cpu, memory };
}

function holdsResources(p: Pod): boolean {
  return p.status.phase !== "Succeeded" && p.status.phase !== "Failed";
}

function filter(
  ctx: Context,
  cache: SchedulerCache,
  pod: Pod,
  node: Node,
  nodes: Node[],
): string | undefined {
  const tolerations = pod.spec.tolerations ?? [];
  if (
    node.spec.unschedulable &&
    !tolerations.some((t) => tolerates(t, { key: TAINT_UNSCHEDULABLE, effect: "NoSchedule" }))
  )
    return "were unschedulable";
  for (const taint of node.spec.taints ?? []) {
    if (taint.effect === "PreferNoSchedule") continue;
    if (!tolerations.some((t) => tolerates(t, taint)))
      return `had untolerated taint {${taintString(taint).replace(/:.*/, "")}: }`;
  }
  for (const [k, v] of Object.entries(pod.spec.nodeSelector ?? {}))
    if (node.metadata.labels?.[k] !== v) return "didn't match Pod's node affinity/selector";
  const info = cache.info(node.metadata.name);
  const capacity = node.status.allocatable;
  if (capacity.pods !== undefined && info.pods + 1 > capacity.pods) return "Too many pods";
  const want = requests(pod);
  if (capacity.cpu !== undefined && info.cpu + want.cpu > capacity.cpu + 1e-9) return "Insufficient cpu";
  if (capacity.memory !== undefined && info.memory + want.memory > capacity.memory)
    return "Insufficient memory";
  for (const term of pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ??
    []) {
    const domain = node.metadata.labels?.[term.topologyKey];
    if (domain === undefined) continue;
    const counts = domainCounts(ctx, term.topologyKey, (p) => matches(term.labelSelector, p, pod), nodes);
    if ((counts.get(domain) ?? 0) > 0) return "didn't match pod anti-affinity rules";
  }
  for (const c of pod.spec.topologySpreadConstraints ?? []) {
    if (c.whenUnsatisfiable !== "DoNotSchedule") continue;
    if (skewAfter(ctx, c, pod, node, nodes) > c.maxSkew)
      return "didn't match pod topology spread constraints";
  }
  return undefined;
}

function matches(selector: LabelSelector | undefined, other: Pod, pod: Pod): boolean {
  return (
    other.metadata.namespace === pod.metadata.namespace && matchesSelector(selector, other.metadata.labels)
  );
}

/** The skew of a spread constraint if `pod` lands on `node`. */
function skewAfter(ctx: Context, c: TopologySpreadConstraint, pod: Pod, node: Node, nodes: Node[]): number {
  const counts = domainCounts(ctx, c.topologyKey, (p) => matches(c.labelSelector, p, pod), nodes);
  const domain = node.metadata.labels?.[c.topologyKey];
  if (domain === undefined) return 0;
  let min = Number.POSITIVE_INFINITY;
  for (const v of counts.values()) min = Math.min(min, v);
  return (counts.get(domain) ?? 0) + 1 - (Number.isFinite(min) ? min : 0);
}

/** Active pods matching `select` per topology domain (explicit constraints and affinity: rarer, so uncached). */
function domainCounts(
  ctx: Context,
  key: string,
  select: (p: Pod) => boolean,
  nodes: Node[],
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const n of nodes) {
    const d = n.metadata.labels?.[key];
    if (d === undefined) continue;
    let k = 0;
    for (const p of ctx.store.podSetOnNode(n.metadata.name))
      if (p.metadata.deletionTimestamp === undefined && select(p)) k++;
    counts.set(d, (counts.get(d) ?? 0) + k);
  }
  return counts;
}

function scoreAll(ctx: Context, cache: SchedulerCache, pod: Pod, feasible: Node[]): number[] {
  const owner = controllerOf(pod);
  const scores = feasible.map(() => 0);
  const explicit = pod.spec.topologySpreadConstraints ?? [];
  // PodTopologySpread scoring (weight 2): fewer matching pods in the node's domain scores higher.
  // With no explicit constraints, the system defaults spread the workload by hostname and by zone.
  if (explicit.length === 0 && owner) {
    const own = feasible.map((n) => cache.info(n.metadata.name).byOwner.get(owner) ?? 0);
    const zoneSums = new Map<string, number>();
    for (let i = 0; i < feasible.length; i++) {
      const zone = feasible[i]!.metadata.labels?.[LABEL_ZONE];
      if (zone !== undefined) zoneSums.set(zone, (zoneSums.get(zone) ?? 0) + own[i]!);
    }
    for (let i = 0; i < feasible.length; i++) {
      const labels = feasible[i]!.metadata.labels;
      if (labels?.[LABEL_HOSTNAME] !== undefined) scores[i]! -= 2 * own[i]!;
      const zone = labels?.[LABEL_ZONE];
      if (zone !== undefined) scores[i]! -= 2 * (zoneSums.get(zone) ?? 0);
    }
  }
  for (const c of explicit) {
    if (c.whenUnsatisfiable !== "ScheduleAnyway") continue;
    const counts = domainCounts(ctx, c.topologyKey, (p) => matches(c.labelSelector, p, pod), feasible);
    feasible.forEach((n, i) => {
      const domain = n.metadata.labels?.[c.topologyKey];
      if (domain !== undefined) scores[i]! -= 2 * (counts.get(domain) ?? 0);
    });
  }
  for (const w of pod.spec.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []) {
    const counts = domainCounts(
      ctx,
      w.podAffinityTerm.topologyKey,
      (p) => matches(w.podAffinityTerm.labelSelector, p, pod),
      feasible,
    );
    feasible.forEach((n, i) => {
      const domain = n.metadata.labels?.[w.podAffinityTerm.topologyKey];
      if (domain !== undefined) scores[i]! -= (w.weight / 100) * (counts.get(domain) ?? 0);
    });
  }
  // NodeResourcesFit LeastAllocated: a tie-breaker toward emptier nodes.
  feasible.forEach((n, i) => {
    const info = cache.info(n.metadata.name);
    const cap = n.status.allocatable;
    if (cap.cpu) scores[i]! -= (0.5 * info.cpu) / cap.cpu;
    scores[i]! -= (0.5 * info.pods) / (cap.pods ?? 110);
  });
  return scores;
}
