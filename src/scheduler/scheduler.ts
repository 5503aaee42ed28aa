// kube-scheduler: the scheduling queue and the bind. Each pod that needs a node goes through one
// scheduling cycle (framework/cycle.ts: filter, score, select, over the cache in framework/cache.ts);
// a pod no node passes waits and is tried again after a cluster event, once its backoff has run out.
// The plugins modelled: NodeUnschedulable, TaintToleration, NodeAffinity (nodeSelector, required
// and preferred node affinity), NodePorts (host ports), NodeResourcesFit (cpu, memory, pods,
// ephemeral-storage, hugepages, extended resources), VolumeBinding and VolumeZone (with the
// persistentvolume controller that binds and provisions claims), PodTopologySpread (explicit
// constraints and the system defaults), InterPodAffinity (required and preferred, Terminating pods
// counted). Pods leave the queue by priority (PrioritySort, plugins/queue-sort.ts); a pod no node
// passes may preempt pods of lower priority (DefaultPreemption, plugins/default-preemption.ts), and
// once nominated to a node its requests are held there against pods of no higher priority
// (addNominatedPods). Among equally good nodes the scheduler picks at random: here from the seed.

import { setPodCondition } from "../cluster/api.ts";
import type { Cluster } from "../cluster/context.ts";
import { keyOf, ref } from "../cluster/store.ts";
import { Rng, type RngState } from "../engine/rng.ts";
import { podRow } from "../kubernetes/kubectl.ts";
import type { Pod } from "../kubernetes/objects.ts";
import { podPriority } from "../kubernetes/priority.ts";
import type { KubernetesVersion } from "../scenario/types.ts";
import type { PreemptionVerdict, SchedulingEventFields } from "../trace/scheduling-events.ts";
import type { SchedulerCache } from "./framework/cache.ts";
import { type CycleOutcome, type SchedulerState, SchedulingCycle } from "./framework/cycle.ts";
import { fitErrorMessage } from "./framework/fit-error.ts";
import {
  type NodeProperties,
  nodeProperties,
  nodeUpdateRequeues,
  sameProperties,
} from "./framework/node-events.ts";
import { podInfo } from "./framework/pod-info.ts";
import { SchedulingQueue } from "./framework/queue.ts";
import { DefaultPreemption } from "./plugins/default-preemption.ts";
import { bindVolumes, boundVolumeZones } from "./plugins/volume-binding.ts";

export { SchedulerCache } from "./framework/cache.ts";
export { numFeasibleNodesToFind, type SchedulerState } from "./framework/cycle.ts";

/** Why a pod is Pending, as the scheduler last found it: the FailedScheduling event's fields. */
type Unschedulable = Omit<SchedulingEventFields["FailedScheduling"], "podRow">;

/** What the scheduler reads of the scenario: the version (some plugins changed between versions). */
export interface SchedulerSettings {
  version: KubernetesVersion;
}

export class Scheduler {
  private readonly queue: SchedulingQueue;
  private readonly rng: Rng;
  /** the last failure's key per pod: the FailedScheduling event is not repeated for the same */
  private reported = new Map<string, string>();
  private state: SchedulerState = { nextStartNodeIndex: 0 };
  private readonly cycle: SchedulingCycle;
  private readonly seenBound = new WeakSet<Pod>();
  /** the pods nominated to a node by a preemption, until bound or gone (the PodNominator) */
  private readonly nominated = new Set<Pod>();
  /** made at the first pod no node passes (its offsets draw from its own stream, preemptionSeed) */
  private preemption: DefaultPreemption | undefined;
  private readonly preemptionSeed: RngState;
  /** each node's scheduling properties as the last Node event showed them (the informer's old object) */
  private readonly nodeProperties = new Map<string, NodeProperties>();

  constructor(
    private readonly ctx: Cluster,
    private readonly cache: SchedulerCache,
    settings: SchedulerSettings,
  ) {
    this.rng = ctx.engine.rng.fork("scheduler");
    // The preemption's own stream, from a copy of the scheduler's state: drawing from it shifts
    // nothing the scheduler draws (selectHost's ties), with or without a preemption.
    this.preemptionSeed = this.rng.state();
    this.queue = new SchedulingQueue(ctx.engine, (pod) => this.schedule(pod));
    this.cycle = new SchedulingCycle(ctx, cache, settings.version);
    ctx.store.watch("Pod", (type, pod) => {
      const uid = pod.metadata.uid!;
      if (type === "DELETED" || pod.spec.nodeName) this.nominated.delete(pod);
      if (type === "DELETED") {
        this.queue.forget(uid);
        this.queue.retryAll();
        return;
      }
      if (pod.spec.nodeName || pod.metadata.deletionTimestamp !== undefined) {
        this.queue.forget(uid);
        // A pod newly bound (AssignedPodAdd) may satisfy a waiting pod's affinity or spreading.
        if (pod.spec.nodeName && !this.seenBound.has(pod)) {
          this.seenBound.add(pod);
          this.queue.retry((w) => w.onPods);
        }
        return;
      }
      if (type === "ADDED") this.schedule(pod);
    });
    for (const node of ctx.store.list("Node"))
      this.nodeProperties.set(node.metadata.name, nodeProperties(node));
    ctx.store.watch("Node", (type, node) => {
      const name = node.metadata.name;
      if (type === "DELETED") {
        this.nodeProperties.delete(name);
        this.queue.retryAll();
        return;
      }
      // NodeAdd moves every waiting pod; an update only when a scheduling property changed
      // (framework/node-events.ts): a status post renewing the heartbeat alone moves none.
      const before = this.nodeProperties.get(name);
      if (type !== "ADDED" && before && before.unschedulable === (node.spec.unschedulable === true)) {
        if (sameProperties(before, node)) return;
      }
      this.nodeProperties.set(name, nodeProperties(node));
      if (type === "ADDED" || !before || nodeUpdateRequeues(before, node)) this.queue.retryAll();
    });
    // VolumeBinding and VolumeZone register claim, volume and class events (EventsToRegister).
    ctx.store.watch("PersistentVolumeClaim", () => this.queue.retryAll());
    ctx.store.watch("PersistentVolume", () => this.queue.retryAll());
    ctx.store.watch("StorageClass", () => this.queue.retryAll());
  }

  /**
   * addNominatedPods: the pods nominated to a node with a priority at least this pod's hold their
   * requests there for this cycle (counted on the node's row, taken off after it).
   */
  private holdNominated(pod: Pod): Pod[] {
    if (this.nominated.size === 0) return [];
    const prio = podPriority(pod);
    const held: Pod[] = [];
    for (const p of this.nominated) {
      const node = p.status.nominatedNodeName;
      if (p === pod || !node || podPriority(p) < prio || this.cache.rowOfPod(p)) continue;
      this.cache.assumeOn(p, this.cache.rowOf(node));
      held.push(p);
    }
    return held;
  }

  private postFilter(pod: Pod, outcome: CycleOutcome) {
    if (!this.preemption)
      this.preemption = new DefaultPreemption(
        this.ctx,
        this.cache,
        this.cycle,
        Rng.at(this.preemptionSeed).fork("preemption"),
        this.nominated,
      );
    return this.preemption.postFilter(pod, outcome);
  }

  private schedule(pod: Pod): void {
    if (pod.spec.nodeName) return;
    const info = podInfo(pod);
    if (this.ctx.store.get("Pod", keyOf(pod)) !== pod) return;
    const uid = pod.metadata.uid!;
    const held = this.holdNominated(pod);
    const outcome = this.cycle.run(pod, info, this.rng, this.state);
    const verdict = outcome.node ? undefined : this.postFilter(pod, outcome);
    for (const p of held) this.cache.dryRunRemove(p);
    const before = this.queue.get(uid);
    if (outcome.node) {
      this.queue.forget(uid);
      const boundClaims = outcome.volumes ? bindVolumes(this.ctx, outcome.volumes, outcome.node) : [];
      const traced = !this.ctx.trace.muted;
      bind(this.ctx, pod, outcome.node.metadata.name, () => ({
        by: "scheduler",
        nodes: outcome.nodes,
        checked: outcome.checked,
        ...(outcome.checked < outcome.nodes ? { stoppedAt: outcome.want } : {}),
        feasible: outcome.feasible,
        filtered: traced ? this.cycle.reasons.list() : [],
        ...(info.owner !== undefined ? { owner: info.owner } : {}),
        ...(before ? { attempt: before.attempts + 1 } : {}),
        ...(boundClaims.length > 0 ? { boundClaims } : {}),
      }));
      return;
    }
    const filtered = this.cycle.reasons.list();
    this.queue.unschedulable(
      uid,
      pod,
      (before?.attempts ?? 0) + 1,
      filtered.some((f) => ON_PODS.has(f.reason)),
    );
    const fields = failure(outcome, filtered, verdict!);
    // handleSchedulingFailure: PodScheduled=False, reason Unschedulable, the FitError as message
    // (written to the object as the status patch would; the model's readers take it from there).
    const message = fitErrorMessage(fields);
    const cond = pod.status.conditions.find((c) => c.type === "PodScheduled");
    // A pod's conditions are shared and frozen (cluster/api.ts podCondition): the new message goes
    // into a copy in the condition's place (its other fields as they were).
    if (cond?.status === "False" && cond.message !== message)
      pod.status.conditions = pod.status.conditions.map((c) => (c === cond ? { ...cond, message } : c));
    else setPodCondition(this.ctx, pod, "PodScheduled", "False", "Unschedulable", message);
    // The same verdict again is not traced again.
    const key = failureKey(fields);
    const last = this.reported.get(uid);
    this.reported.set(uid, key);
    if (last === key || this.ctx.trace.muted) return;
    this.ctx.trace.emit({
      type: "FailedScheduling",
      lane: "control-plane",
      object: ref(pod),
      podRow: podRow(pod, this.ctx.engine.now),
      ...fields,
    });
  }
}

/** Reasons a pod bound elsewhere may lift. */
const ON_PODS = new Set(["PodAffinity", "PodAntiAffinity", "ExistingPodsAntiAffinity", "TopologySpread"]);

function failure(
  o: CycleOutcome,
  filtered: Unschedulable["filtered"],
  preemption: PreemptionVerdict,
): Unschedulable {
  return {
    nodes: o.nodes,
    ...(o.preFilter ? { preFilter: o.preFilter } : {}),
    filtered,
    preemption,
    ...(o.volumes && o.volumes.bound.length > 0 ? { volumes: boundVolumeZones(o.volumes) } : {}),
  };
}

function failureKey(f: Unschedulable): string {
  const pre = f.preFilter ? JSON.stringify(f.preFilter) : "";
  const parts = f.filtered.map(
    (c) => `${c.nodes} ${c.reason} ${c.taint ? `${c.taint.key}=${c.taint.value}` : ""}${c.resource ?? ""}`,
  );
  return `${f.nodes}|${pre}|${parts.sort().join(",")}|${JSON.stringify(f.preemption)}`;
}

type ScheduledBy = Extract<SchedulingEventFields["PodScheduled"], { by: "scheduler" }>;
type ScheduledFields = Omit<ScheduledBy, "podRow"> | { by: "daemonset-controller" };
type Binder = Pick<Cluster, "engine" | "store" | "trace">;

/** The bind (DefaultBinder): spec.nodeName and PodScheduled=True, then the event. */
function bind(ctx: Binder, pod: Pod, nodeName: string, fields: () => ScheduledFields): void {
  pod.spec.nodeName = nodeName;
  setPodCondition(ctx, pod, "PodScheduled", "True");
  ctx.store.update(pod, undefined);
  if (ctx.trace.muted) return;
  ctx.trace.emit({
    type: "PodScheduled",
    lane: "control-plane",
    object: ref(pod),
    node: nodeName,
    podRow: podRow(pod, ctx.engine.now),
    ...fields(),
  });
}

/**
 * The DaemonSet controller's own bind: its pods go to the node it made them for (node affinity on
 * metadata.name), without a scheduling cycle here.
 */
export function bindPod(ctx: Binder, pod: Pod, nodeName: string, _why?: string): void {
  bind(ctx, pod, nodeName, () => ({ by: "daemonset-controller" }));
}
