// DefaultPreemption, the default PostFilter plugin (pkg/scheduler/framework/plugins/defaultpreemption
// default_preemption.go, with pkg/scheduler/framework/preemption/preemption.go Evaluator.Preempt),
// run when no node passes the filters:
// 1. PodEligibleToPreemptOthers: not with preemptionPolicy Never ("not eligible due to
//    preemptionPolicy=Never."), nor while a lower-priority pod it preempted is still terminating on
//    its nominated node ("not eligible due to a terminating pod on the nominated node.");
// 2. findCandidates: only nodes the filters turned down as Unschedulable (never
//    UnschedulableAndUnresolvable), dry-run from a random offset (here from the seed) until
//    numCandidates are found (max(minCandidateNodesAbsolute 100, 10% of them), at most all) and one
//    of them violates no budget; SelectVictimsOnNode: every pod of lower priority removed, the pod
//    must then pass the filters, and the victims are reprieved one by one, most important first
//    (MoreImportantPod: higher priority, then earlier start), those whose PodDisruptionBudget they
//    would break (filterPodsWithPDBViolation, status.disruptionsAllowed) first;
// 3. pickOneNodeForPreemption: fewest PDB violations, then the lowest highest victim priority, the
//    smallest sum of priorities (each + MaxInt32 + 1), the fewest victims, the latest start of the
//    highest-priority victims, then the first;
// 4. prepareCandidate: each victim gets DisruptionTarget=True, reason PreemptionByScheduler, message
//    "default-scheduler: preempting to accommodate a higher priority pod", and is deleted gracefully;
//    lower-priority pods nominated to the node lose their nomination; the pod is nominated there.
// With no candidate, the FitError of the dry run: "preemption: 0/N nodes are available: …", the nodes
// it never tried counted as "Preemption is not helpful for scheduling".
//
// Not modelled: RunPreFilterExtensionRemovePod (PodTopologySpread and InterPodAffinity still count a
// victim while the dry run removes it; cycle.ts refilter), a PDB's status.disruptedPods, extenders,
// and the asynchronous preemption of 1.33+ (SchedulerAsyncPreemption): the victims are deleted in the
// scheduling cycle, which is what the model's instant API calls amount to.

import { deletePodGracefully, setPodCondition } from "../../cluster/api.ts";
import type { Cluster } from "../../cluster/context.ts";
import { pdbStatus } from "../../cluster/eviction.ts";
import type { Rng } from "../../engine/rng.ts";
import { matchesSelector } from "../../kubernetes/labels.ts";
import type { Pod, PodDisruptionBudget } from "../../kubernetes/objects.ts";
import { podPriority } from "../../kubernetes/priority.ts";
import type { PreemptionVerdict } from "../../trace/scheduling-events.ts";
import type { Counted, SchedulerCache } from "../framework/cache.ts";
import type { CycleOutcome, SchedulingCycle } from "../framework/cycle.ts";
import { FilterReasons } from "../framework/filter-reasons.ts";
import { PASS } from "../framework/status.ts";

/** DefaultPreemptionArgs' defaults (pkg/scheduler/apis/config/v1/defaults.go SetDefaults_DefaultPreemptionArgs). */
export const MIN_CANDIDATE_NODES_PERCENTAGE = 10;
export const MIN_CANDIDATE_NODES_ABSOLUTE = 100;

/** corev1.PodReasonPreemptionByScheduler and the condition's message (preemption.go NewEvaluator PreemptPod). */
export const PREEMPTION_BY_SCHEDULER = "PreemptionByScheduler";
export const PREEMPTION_MESSAGE = "default-scheduler: preempting to accommodate a higher priority pod";

interface Candidate {
  /** position in the cycle's node list */
  at: number;
  name: string;
  /** most important first */
  victims: Pod[];
  pdbViolations: number;
}

/** calculateNumCandidates: 10% of the potential nodes, at least 100, at most all of them. */
export function numCandidates(nodes: number): number {
  return Math.min(
    nodes,
    Math.max(MIN_CANDIDATE_NODES_ABSOLUTE, Math.trunc((nodes * MIN_CANDIDATE_NODES_PERCENTAGE) / 100)),
  );
}

/** The time a pod started (GetPodStartTime: status.startTime, or now): its first container's start here. */
function startTime(pod: Pod, now: number): number {
  let t = Number.POSITIVE_INFINITY;
  for (const c of pod.status.containerStatuses)
    if (c.startedAt !== undefined && c.startedAt < t) t = c.startedAt;
  return t === Number.POSITIVE_INFINITY ? now : t;
}

/** util.MoreImportantPod: higher priority, then the earlier start. */
function moreImportant(a: Pod, b: Pod, now: number): number {
  const pa = podPriority(a);
  const pb = podPriority(b);
  if (pa !== pb) return pb - pa;
  return startTime(a, now) - startTime(b, now);
}

export class DefaultPreemption {
  private readonly scratch = new FilterReasons();

  constructor(
    private readonly ctx: Cluster,
    private readonly cache: SchedulerCache,
    private readonly cycle: SchedulingCycle,
    private readonly rng: Rng,
    /** the pods nominated to a node, which the scheduler keeps (PodNominator) */
    private readonly nominated: Set<Pod>,
  ) {}

  /** PostFilter for `pod`, which no node of `outcome` passed. */
  postFilter(pod: Pod, outcome: CycleOutcome): PreemptionVerdict {
    const nodes = outcome.nodes;
    if (outcome.preFilter) return { notHelpful: nodes, noVictims: 0 };
    const notEligible = this.notEligible(pod);
    if (notEligible) return { notHelpful: 0, noVictims: 0, notEligible };
    const potential = this.cycle.resolvableAt.slice();
    if (potential.length === 0) return { notHelpful: nodes, noVictims: 0 };
    const found = this.dryRun(pod, potential);
    if (found.candidates.length === 0) {
      const unfit = found.unfit.list();
      return {
        notHelpful: nodes - potential.length,
        noVictims: found.noVictims,
        ...(unfit.length > 0 ? { unfit } : {}),
      };
    }
    const best = pickOne(found.candidates, this.ctx.engine.now);
    this.prepare(pod, best);
    return { notHelpful: 0, noVictims: 0, nominated: { node: best.name, victims: best.victims.map(key) } };
  }

  /** PodEligibleToPreemptOthers. */
  private notEligible(pod: Pod): string | undefined {
    if (pod.spec.preemptionPolicy === "Never") return "not eligible due to preemptionPolicy=Never.";
    const nominated = pod.status.nominatedNodeName;
    if (!nominated) return undefined;
    // A nominated node the filters now find UnschedulableAndUnresolvable: preempt again.
    const { nodes } = this.cache.nodeList();
    const at = nodes.findIndex((n) => n.metadata.name === nominated);
    if (at < 0 || !this.cycle.resolvableAt.includes(at)) return undefined;
    const prio = podPriority(pod);
    for (const p of this.ctx.store.podsOnNode(nominated))
      if (podPriority(p) < prio && terminatingByPreemption(p))
        return "not eligible due to a terminating pod on the nominated node.";
    return undefined;
  }

  /** DryRunPreemption over the potential nodes from a random offset; candidates without PDB violations first. */
  private dryRun(pod: Pod, potential: number[]) {
    const { nodes } = this.cache.nodeList();
    const pdbs = this.ctx.store
      .list("PodDisruptionBudget")
      .map((pdb) => ({ pdb, allowed: pdbStatus(this.ctx.store, pdb).disruptionsAllowed }));
    const want = numCandidates(potential.length);
    const offset = this.rng.int(potential.length);
    const nonViolating: Candidate[] = [];
    const violating: Candidate[] = [];
    const unfit = new FilterReasons();
    let noVictims = 0;
    for (let i = 0; i < potential.length; i++) {
      const at = potential[(offset + i) % potential.length]!;
      const name = nodes[at]!.metadata.name;
      const r = this.selectVictimsOnNode(pod, at, name, pdbs, unfit);
      if (r === "noVictims") noVictims++;
      else if (r) {
        (r.pdbViolations === 0 ? nonViolating : violating).push(r);
        if (nonViolating.length > 0 && nonViolating.length + violating.length >= want) break;
      }
    }
    return { candidates: [...nonViolating, ...violating], unfit, noVictims };
  }

  /**
   * SelectVictimsOnNode: the fewest victims that make room on the node, or "noVictims" (no pod of
   * lower priority), or undefined (the pod does not fit even without them: the reasons go to `unfit`).
   * The cache is as it was when it returns.
   */
  private selectVictimsOnNode(
    pod: Pod,
    at: number,
    name: string,
    pdbs: { pdb: PodDisruptionBudget; allowed: number }[],
    unfit: FilterReasons,
  ): Candidate | "noVictims" | undefined {
    const prio = podPriority(pod);
    const now = this.ctx.engine.now;
    const potential = this.ctx.store
      .podsOnNode(name)
      .filter((p) => this.cache.rowOfPod(p) !== undefined && podPriority(p) < prio);
    if (potential.length === 0) return "noVictims";
    const removed = new Map<Pod, Counted>();
    for (const p of potential) {
      const c = this.cache.dryRunRemove(p);
      if (c) removed.set(p, c);
    }
    try {
      if (this.cycle.refilter(at, unfit) !== PASS) return undefined;
      potential.sort((a, b) => moreImportant(a, b, now));
      const { violating, nonViolating } = splitByPdb(potential, pdbs);
      const victims: Pod[] = [];
      let pdbViolations = 0;
      const reprieve = (p: Pod): boolean => {
        this.cache.dryRunAdd(p, removed.get(p)!);
        this.scratch.reset();
        if (this.cycle.refilter(at, this.scratch) === PASS) return true;
        this.cache.dryRunRemove(p);
        victims.push(p);
        return false;
      };
      for (const p of violating) if (!reprieve(p)) pdbViolations++;
      for (const p of nonViolating) reprieve(p);
      if (violating.length > 0 && nonViolating.length > 0) victims.sort((a, b) => moreImportant(a, b, now));
      return victims.length > 0 ? { at, name, victims, pdbViolations } : undefined;
    } finally {
      for (const [p, c] of removed) this.cache.dryRunAdd(p, c);
    }
  }

  /** prepareCandidate: the victims deleted, lower-priority nominations on the node cleared, the pod nominated. */
  private prepare(pod: Pod, c: Candidate): void {
    const prio = podPriority(pod);
    for (const victim of c.victims) {
      if (victim.metadata.deletionTimestamp !== undefined) continue;
      setPodCondition(
        this.ctx,
        victim,
        "DisruptionTarget",
        "True",
        PREEMPTION_BY_SCHEDULER,
        PREEMPTION_MESSAGE,
      );
      deletePodGracefully(this.ctx, victim, {
        reason: PREEMPTION_BY_SCHEDULER,
        lane: "control-plane",
        by: "scheduler",
        preemptor: key(pod),
        preemptorPriority: prio,
        priority: podPriority(victim),
        pdbViolations: c.pdbViolations,
        victims: c.victims.length,
      });
    }
    for (const other of this.nominated)
      if (other !== pod && other.status.nominatedNodeName === c.name && podPriority(other) < prio) {
        delete other.status.nominatedNodeName;
        this.nominated.delete(other);
        this.ctx.store.update(other, undefined);
      }
    pod.status.nominatedNodeName = c.name;
    this.nominated.add(pod);
    this.ctx.store.update(pod, undefined);
  }
}

function key(pod: Pod): string {
  return `${pod.metadata.namespace}/${pod.metadata.name}`;
}

/** podTerminatingByPreemption: deletionTimestamp set and DisruptionTarget=True by PreemptionByScheduler. */
function terminatingByPreemption(p: Pod): boolean {
  if (p.metadata.deletionTimestamp === undefined) return false;
  const c = p.status.conditions.find((x) => x.type === "DisruptionTarget");
  return c?.status === "True" && c.reason === PREEMPTION_BY_SCHEDULER;
}

/**
 * filterPodsWithPDBViolation: in the given order, a pod a budget of its namespace selects uses one of
 * the budget's disruptionsAllowed; past them, it violates the budget. A selector that is empty
 * matches nothing here (a nil or empty selector matches no pod).
 */
function splitByPdb(pods: Pod[], pdbs: { pdb: PodDisruptionBudget; allowed: number }[]) {
  const allowed = pdbs.map((p) => p.allowed);
  const violating: Pod[] = [];
  const nonViolating: Pod[] = [];
  for (const pod of pods) {
    let violated = false;
    const labels = pod.metadata.labels;
    if (labels && Object.keys(labels).length > 0)
      pdbs.forEach(({ pdb }, i) => {
        const sel = pdb.spec.selector;
        const empty =
          !sel || (Object.keys(sel.matchLabels ?? {}).length === 0 && !sel.matchExpressions?.length);
        if (pdb.metadata.namespace !== pod.metadata.namespace || empty || !matchesSelector(sel, labels))
          return;
        allowed[i]! -= 1;
        if (allowed[i]! < 0) violated = true;
      });
    (violated ? violating : nonViolating).push(pod);
  }
  return { violating, nonViolating };
}

/** pickOneNodeForPreemption with the default score functions, each kept only on a tie of the one before. */
function pickOne(candidates: Candidate[], now: number): Candidate {
  const MAX_INT32_PLUS_1 = 2 ** 31;
  const scores: ((c: Candidate) => number)[] = [
    (c) => -c.pdbViolations,
    (c) => -podPriority(c.victims[0]!),
    (c) => -c.victims.reduce((sum, p) => sum + podPriority(p) + MAX_INT32_PLUS_1, 0),
    (c) => -c.victims.length,
    // GetEarliestPodStartTime: the earliest start among the victims of the highest priority
    (c) => {
      const top = podPriority(c.victims[0]!);
      return Math.min(...c.victims.filter((p) => podPriority(p) === top).map((p) => startTime(p, now)));
    },
  ];
  let all = candidates;
  for (const score of scores) {
    let max = Number.NEGATIVE_INFINITY;
    let selected: Candidate[] = [];
    for (const c of all) {
      const s = score(c);
      if (s > max) {
        max = s;
        selected = [];
      }
      if (s === max) selected.push(c);
    }
    if (selected.length === 1) return selected[0]!;
    all = selected;
  }
  return all[0]!;
}
