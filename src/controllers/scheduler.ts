// kube-scheduler: the scheduling queue and the bind. Each pod that needs a node goes through one
// scheduling cycle (scheduler/cycle.ts: filter, score, select, over the cache in scheduler/cache.ts);
// a pod no node passes waits and is tried again after a cluster event, once its backoff has run out.
// The plugins modelled: NodeUnschedulable, TaintToleration, NodeAffinity (nodeSelector, required
// and preferred node affinity), NodeResourcesFit, VolumeBinding and VolumeZone (with the
// persistentvolume controller that binds and provisions claims), PodTopologySpread (explicit
// constraints and the system defaults), InterPodAffinity (required and preferred, Terminating pods
// counted), DefaultPreemption's verdict (no pod outranks another in the model, so nothing is
// preempted). Among equally good nodes the scheduler picks at random: here from the seed.

import { setPodCondition } from "../cluster/api.ts";
import type { Cluster } from "../cluster/context.ts";
import { ref } from "../cluster/store.ts";
import type { Timer } from "../engine/engine.ts";
import type { Rng } from "../engine/rng.ts";
import { podRow } from "../kubernetes/kubectl.ts";
import type { Pod } from "../kubernetes/objects.ts";
import type { KubernetesVersion } from "../scenario/types.ts";
import type { SchedulingEventFields } from "../trace/scheduling-events.ts";
import type { SchedulerCache } from "./scheduler/cache.ts";
import { type CycleOutcome, type SchedulerState, SchedulingCycle } from "./scheduler/cycle.ts";
import { fitErrorMessage } from "./scheduler/fit-error.ts";
import { podInfo } from "./scheduler/pod-info.ts";
import { bindVolumes, boundVolumeZones } from "./scheduler/volume-binding.ts";

export { SchedulerCache } from "./scheduler/cache.ts";
export { numFeasibleNodesToFind, type SchedulerState } from "./scheduler/cycle.ts";

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
  /** the last failure turned nodes down for pod (anti-)affinity or spreading: a newly bound pod may help */
  onPods: boolean;
}

/** Why a pod is Pending, as the scheduler last found it: the FailedScheduling event's fields. */
type Unschedulable = Omit<SchedulingEventFields["FailedScheduling"], "podRow">;

/** What the scheduler reads of the scenario: the version (some plugins changed between versions). */
export interface SchedulerSettings {
  version: KubernetesVersion;
}

export class Scheduler {
  private waiting = new Map<string, Waiting>();
  private readonly rng: Rng;
  /** the last failure's key per pod: the FailedScheduling event is not repeated for the same */
  private reported = new Map<string, string>();
  private state: SchedulerState = { nextStartNodeIndex: 0 };
  private readonly cycle: SchedulingCycle;
  private readonly seenBound = new WeakSet<Pod>();

  constructor(
    private readonly ctx: Cluster,
    cache: SchedulerCache,
    settings: SchedulerSettings,
  ) {
    this.rng = ctx.engine.rng.fork("scheduler");
    this.cycle = new SchedulingCycle(ctx, cache, settings.version);
    ctx.store.watch("Pod", (type, pod) => {
      const uid = pod.metadata.uid!;
      if (type === "DELETED") {
        this.forget(uid);
        this.retryAll();
        return;
      }
      if (pod.spec.nodeName || pod.metadata.deletionTimestamp !== undefined) {
        this.forget(uid);
        // A pod newly bound (AssignedPodAdd) may satisfy a waiting pod's affinity or spreading.
        if (pod.spec.nodeName && !this.seenBound.has(pod)) {
          this.seenBound.add(pod);
          this.retry((w) => w.onPods);
        }
        return;
      }
      if (type === "ADDED") this.schedule(pod);
    });
    ctx.store.watch("Node", () => this.retryAll());
    // VolumeBinding and VolumeZone register claim, volume and class events (EventsToRegister).
    ctx.store.watch("PersistentVolumeClaim", () => this.retryAll());
    ctx.store.watch("PersistentVolume", () => this.retryAll());
    ctx.store.watch("StorageClass", () => this.retryAll());
  }

  private forget(uid: string): void {
    const w = this.waiting.get(uid);
    if (w) this.ctx.engine.cancel(w.timer);
    this.waiting.delete(uid);
  }

  private retryAll(): void {
    this.retry(() => true);
  }

  /**
   * A cluster event may make waiting pods schedulable (moveAllToActiveOrBackoffQueue): each is
   * tried again once its backoff since its last attempt has run out.
   */
  private retry(which: (w: Waiting) => boolean): void {
    const now = this.ctx.engine.now;
    for (const w of this.waiting.values()) {
      if ((w.timer && !w.timer.cancelled) || !which(w)) continue;
      const backoff = Math.min(POD_INITIAL_BACKOFF * 2 ** (w.attempts - 1), POD_MAX_BACKOFF);
      w.timer = this.ctx.engine.at(Math.max(now, w.lastAttempt + backoff), () => {
        w.timer = undefined;
        this.schedule(w.pod);
      });
    }
  }

  private schedule(pod: Pod): void {
    if (pod.spec.nodeName) return;
    const info = podInfo(pod);
    if (this.ctx.store.get("Pod", info.key) !== pod) return;
    const uid = pod.metadata.uid!;
    const outcome = this.cycle.run(pod, info, this.rng, this.state);
    const before = this.waiting.get(uid);
    if (outcome.node) {
      this.forget(uid);
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
    this.waiting.set(uid, {
      pod,
      attempts: (before?.attempts ?? 0) + 1,
      lastAttempt: this.ctx.engine.now,
      timer: undefined,
      onPods: filtered.some((f) => ON_PODS.has(f.reason)),
    });
    const fields = failure(outcome, filtered);
    // handleSchedulingFailure: PodScheduled=False, reason Unschedulable, the FitError as message
    // (written to the object as the status patch would; the model's readers take it from there).
    const message = fitErrorMessage(fields);
    const cond = pod.status.conditions.find((c) => c.type === "PodScheduled");
    if (cond?.status === "False" && cond.message !== message) cond.message = message;
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

function failure(o: CycleOutcome, filtered: Unschedulable["filtered"]): Unschedulable {
  return {
    nodes: o.nodes,
    ...(o.preFilter ? { preFilter: o.preFilter } : {}),
    filtered,
    preemption: { notHelpful: o.unresolvable, noVictims: o.resolvable },
    ...(o.volumes && o.volumes.bound.length > 0 ? { volumes: boundVolumeZones(o.volumes) } : {}),
  };
}

function failureKey(f: Unschedulable): string {
  const pre = f.preFilter ? JSON.stringify(f.preFilter) : "";
  const parts = f.filtered.map(
    (c) => `${c.nodes} ${c.reason} ${c.taint ? `${c.taint.key}=${c.taint.value}` : ""}`,
  );
  return `${f.nodes}|${pre}|${parts.sort().join(",")}|${f.preemption.notHelpful}/${f.preemption.noVictims}`;
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
