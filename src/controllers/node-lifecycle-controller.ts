// The node lifecycle controller (pkg/controller/nodelifecycle/node_lifecycle_controller.go):
// notices silent nodes (monitorNodeHealth, tryUpdateNodeHealth), sets Ready=Unknown, marks their
// pods not ready (MarkPodsNotReady, pkg/controller/util/node/controller_utils.go), taints them
// (doNoScheduleTaintingPass at once; NoExecute through processTaintBaseEviction and a per-zone
// rate-limited queue, doNoExecuteTaintingPass) and computes zone disruption states
// (handleDisruption; the rules per zone are in zone-state.ts). What it knows of each node's health
// is in node-health.ts; its writes of a Node (conditions set Unknown, taints added and removed) and
// the NoSchedule pass in node-lifecycle-writes.ts; the pure parts in zone-state.ts,
// rate-limited-queue.ts. A Ready node with no NoExecute taint and nothing queued is looked at, not
// written; if nothing wrote it since the last pass, only its Lease and grace period are.

import { setPodReady } from "../cluster/api.ts";
import type { Cluster } from "../cluster/context.ts";
import type { Timer } from "../engine/engine.ts";
import {
  type ControlPlaneSettings,
  MONITOR_PASS_PROCESSING,
  NODE_EVICTION_PERIOD,
  TAINT_RETRY_MISSING_READY,
} from "../kubernetes/defaults.ts";
import { zoneName } from "../kubernetes/labels.ts";
import type { ConditionStatus, Node } from "../kubernetes/objects.ts";
import { hasTaint, TAINT_NOT_READY, TAINT_UNREACHABLE } from "../kubernetes/taints.ts";
import type { NodeTaintCause, NodeTaintRemovalCause, Rate } from "../trace/control-plane-events.ts";
import { firstSight, type NodeHealth, readyOf, tryUpdateNodeHealth } from "./node-health.ts";
import { addTaint, doNoScheduleTaintingPass, removeTaints } from "./node-lifecycle-writes.ts";
import { dormantSkipping, QuietNodes } from "./quiet-nodes.ts";
import { RateLimitedTimedQueue, TokenBucket } from "./rate-limited-queue.ts";
import { type ZoneState, type ZoneTally, zoneRate, zoneStateOf } from "./zone-state.ts";

/** The controller's flags (kube-controller-manager; defaults and sources in kubernetes/defaults.ts). */
export type NodeLifecycleSettings = Pick<
  ControlPlaneSettings,
  | "nodeMonitorPeriod"
  | "nodeMonitorGracePeriod"
  | "nodeStartupGracePeriod"
  | "nodeEvictionRate"
  | "secondaryNodeEvictionRate"
  | "largeClusterSizeThreshold"
  | "unhealthyZoneThreshold"
>;

/** The NoExecute taints the controller sets: markNodeAsReachable removes both. */
const NO_EXECUTE_KEYS = [TAINT_UNREACHABLE, TAINT_NOT_READY];

export class NodeLifecycleController {
  private health = new Map<string, NodeHealth>();
  private zoneStates = new Map<string, ZoneState>();
  private queues = new Map<string, RateLimitedTimedQueue>();
  /** Each zone's tainting rate and the flag that set it (the limiter itself knows only its qps). */
  private rates = new Map<string, Rate>();
  /** Each zone's count of Ready and not Ready nodes, zeroed and counted again at every pass. */
  private tallies = new Map<string, ZoneTally>();
  /**
   * The store's node list at the last pass and each node's health record at the same index: while
   * no Node is created or deleted the list is the same array, and a pass finds each record without
   * a lookup by name.
   */
  private listed: readonly Node[] = [];
  private listedHealth: NodeHealth[] = [];
  private taintTimer: Timer | undefined;
  /** Phase of the 100ms doNoExecuteTaintingPass ticker. */
  private readonly tickPhase: number;
  /** The healthy nodes whose passes are skipped (quiet-nodes.ts). */
  private readonly quiet: QuietNodes;
  private readonly wake = (h: NodeHealth) => this.quiet.catchUp(h);

  constructor(
    private readonly cluster: Cluster,
    private readonly settings: NodeLifecycleSettings,
  ) {
    this.quiet = new QuietNodes(
      cluster,
      Math.min(settings.nodeMonitorGracePeriod, settings.nodeStartupGracePeriod),
      settings.nodeMonitorPeriod,
    );
    const rng = cluster.engine.rng.fork("node-lifecycle-controller");
    this.tickPhase = rng.uniform(0, NODE_EVICTION_PERIOD);
    // The controller has been running for a while: its next monitor pass is anywhere in one period.
    const firstPass = rng.uniform(0, settings.nodeMonitorPeriod);
    cluster.engine.at(firstPass, () => this.monitorNodeHealth());
    cluster.store.watch("Node", (type, node) => {
      if (type === "DELETED") this.forgetNode(node);
      else doNoScheduleTaintingPass(cluster, node);
    });
    // Which Nodes were written since a pass read them (a cache flag, set at the write itself).
    // A Lease's write wakes its dormant node (quiet-nodes.ts, maybeDormant) and has the next pass read it.
    cluster.store.observe((obj) => {
      if (obj.kind === "Lease") {
        if (obj.metadata.namespace !== "kube-node-lease") return;
        const h = this.health.get(obj.metadata.name);
        if (!h) return;
        h.dormant = false;
        h.leaseSilent = false;
        return;
      }
      if (obj.kind !== "Node") return;
      const h = this.health.get(obj.metadata.name);
      if (!h) return;
      h.written = true;
      h.dormant = false;
      this.quiet.written(h);
    });
  }

  /** A zone's disruption state as last computed (`Initial` before its first pass). */
  zoneState(zone: string): ZoneState | undefined {
    return this.zoneStates.get(zone);
  }

  // ---- monitorNodeHealth: every nodeMonitorPeriod, sliding --------------------------------------

  private monitorNodeHealth(): void {
    const now = this.cluster.engine.now;
    const nodes = this.cluster.store.list("Node");
    for (const t of this.tallies.values()) {
      t.ready = 0;
      t.notReady = 0;
    }
    const same = nodes === this.listed;
    this.quiet.pass(now);
    if (!same) {
      this.listed = nodes;
      this.listedHealth = new Array(nodes.length);
    }
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i]!;
      let h = same ? this.listedHealth[i]! : this.health.get(node.metadata.name);
      if (!h) {
        h = firstSight(node, now);
        h.tally = this.tallyOf(h.zone);
        this.health.set(node.metadata.name, h);
        // addPodEvictorForNewZone: only for a node seen for the first time, so a zone whose nodes are
        // all excluded from disruption (and so dropped from zoneStates each pass) keeps its queue and limiter.
        if (!this.zoneStates.has(h.zone)) this.addZone(h.zone);
      }
      this.listedHealth[i] = h;
      if (h.quiet) {
        // Ready, unwritten, its Lease fresh on its schedule: this pass would change only probeTimestamp.
        if (!h.excluded) h.tally!.ready++;
        continue;
      }
      if (h.dormant) {
        // Unknown, tainted, queued, its Lease silent and nothing written: the pass would change nothing.
        if (!h.excluded) h.tally!.notReady++;
        dormantSkipping.skipped++;
        continue;
      }
      let current: ConditionStatus;
      if (h.settled && !h.written) {
        // Nothing wrote the Node since the last pass read it and found it Ready, with none of the
        // controller's NoExecute taints and not queued: readyOf would find the same Ready condition,
        // processTaintBaseEviction nothing to do (markNodeAsReachable). Only its Lease and the clock moved.
        current = tryUpdateNodeHealth(this.cluster, this.settings, node, h, h.ready);
        if (current !== "True") this.markPodsNotReady(node, current);
      } else {
        h.written = false;
        const ready = readyOf(node, h);
        const observed: ConditionStatus = ready?.status ?? "Unknown";
        current = tryUpdateNodeHealth(this.cluster, this.settings, node, h, ready);
        this.processTaintBaseEviction(node, h, observed);
        if (current !== "True" && observed === "True") this.markPodsNotReady(node, current);
        h.settled = observed === "True";
        if (current === "Unknown") this.quiet.maybeDormant(node, h, observed, this.queues.get(h.zone)!);
      }
      h.settled &&= current === "True";
      if (h.settled && !h.quiet) this.quiet.maybeQuiet(h, this.wake);
      if (!h.excluded) {
        if (current === "True") h.tally!.ready++;
        else h.tally!.notReady++;
      }
    }
    // The zones with a node the disruption checks count, in the pass's order of first sight.
    const zoneTallies = new Map<string, ZoneTally>();
    for (const [zone, t] of this.tallies) if (t.ready + t.notReady > 0) zoneTallies.set(zone, t);
    this.handleDisruption(zoneTallies, nodes, now);
    this.scheduleTaintTick();
    // wait.UntilWithContext: the next pass starts nodeMonitorPeriod after this one finished.
    this.cluster.engine.after(this.settings.nodeMonitorPeriod + MONITOR_PASS_PROCESSING, () =>
      this.monitorNodeHealth(),
    );
  }

  /** MarkPodsNotReady (pkg/controller/util/node/controller_utils.go): only the Ready condition, per pod. */
  private markPodsNotReady(node: Node, nodeReady: ConditionStatus): void {
    for (const pod of this.cluster.store.podsOnNode(node.metadata.name)) {
      setPodReady(this.cluster, pod, false, {
        lane: "control-plane",
        reason: "NodeNotReady",
        by: "node-lifecycle-controller",
        nodeReady,
      });
    }
  }

  // ---- NoExecute tainting ---------------------------------------------------------------------

  /** processTaintBaseEviction: decided on the Ready condition observed *before* this pass's update. */
  private processTaintBaseEviction(node: Node, h: NodeHealth, observed: ConditionStatus): void {
    const taints = node.spec.taints ?? [];
    if (observed === "False") {
      if (hasTaint(taints, TAINT_UNREACHABLE, "NoExecute"))
        this.swapNoExecute(node, TAINT_NOT_READY, "False");
      else this.markNodeForTainting(node, h, TAINT_NOT_READY);
    } else if (observed === "Unknown") {
      if (hasTaint(taints, TAINT_NOT_READY, "NoExecute"))
        this.swapNoExecute(node, TAINT_UNREACHABLE, "Unknown");
      else this.markNodeForTainting(node, h, TAINT_UNREACHABLE);
    } else {
      this.markNodeAsReachable(node, h, "ready-again");
    }
  }

  /** markNodeForTainting: Remove (if the expected taint is missing) then Add, which is a no-op for a queued node. */
  private markNodeForTainting(node: Node, h: NodeHealth, key: string): void {
    const queue = this.queues.get(h.zone)!;
    if (!hasTaint(node.spec.taints, key, "NoExecute")) queue.remove(node.metadata.name);
    queue.add(node.metadata.name, this.cluster.engine.now);
    h.queued = true;
  }

  private markNodeAsReachable(node: Node, h: NodeHealth, cause: NodeTaintRemovalCause): void {
    h.dormant = false;
    removeTaints(this.cluster, node, NO_EXECUTE_KEYS, "NoExecute", cause);
    // Remove is a no-op for a node not in the queue: a healthy node never added skips the lookup.
    if (!h.queued) return;
    this.queues.get(h.zone)?.remove(node.metadata.name);
    h.queued = false;
  }

  private scheduleTaintTick(): void {
    const now = this.cluster.engine.now;
    let next = Number.POSITIVE_INFINITY;
    for (const q of this.queues.values()) next = Math.min(next, q.nextWork(now));
    if (!Number.isFinite(next)) {
      this.cluster.engine.cancel(this.taintTimer);
      this.taintTimer = undefined;
      return;
    }
    // The next tick of the 100ms ticker at or after `next` (and after now).
    let k = Math.ceil((Math.max(next, now) - this.tickPhase) / NODE_EVICTION_PERIOD - 1e-9);
    if (this.tickPhase + k * NODE_EVICTION_PERIOD <= now) k++;
    const at = this.tickPhase + k * NODE_EVICTION_PERIOD;
    if (this.taintTimer && !this.taintTimer.cancelled && this.taintTimer.at <= at) return;
    this.cluster.engine.cancel(this.taintTimer);
    this.taintTimer = this.cluster.engine.at(at, () => {
      this.taintTimer = undefined;
      this.doNoExecuteTaintingPass();
    });
  }

  /** doNoExecuteTaintingPass: each zone's queue, under its limiter. */
  private doNoExecuteTaintingPass(): void {
    const now = this.cluster.engine.now;
    for (const zone of [...this.queues.keys()].sort()) {
      const queue = this.queues.get(zone)!;
      queue.try(now, (name) => {
        const node = this.cluster.store.get("Node", name);
        if (!node) return { done: true };
        const ready = node.status.conditions.find((c) => c.type === "Ready");
        if (!ready) return { done: false, wait: TAINT_RETRY_MISSING_READY };
        if (ready.status === "True") return { done: true };
        const key = ready.status === "False" ? TAINT_NOT_READY : TAINT_UNREACHABLE;
        this.swapNoExecute(node, key, ready.status, zone);
        return { done: true };
      });
    }
    this.scheduleTaintTick();
  }

  /**
   * SwapNodeControllerTaint: add the wanted NoExecute taint and remove the other, so never both.
   * With `zone`, the taint comes from the zone's queue (doNoExecuteTaintingPass); without, at once.
   */
  private swapNoExecute(node: Node, key: string, ready: ConditionStatus, zone?: string): void {
    const other = key === TAINT_UNREACHABLE ? TAINT_NOT_READY : TAINT_UNREACHABLE;
    if (hasTaint(node.spec.taints, key, "NoExecute")) return;
    const cause: NodeTaintCause =
      zone === undefined
        ? { by: "node-lifecycle-controller", cause: "swap", ready }
        : {
            by: "node-lifecycle-controller",
            cause: "zone-queue",
            ready,
            zone: zoneName(zone),
            rate: this.rates.get(zone) ?? { value: 0 },
          };
    addTaint(this.cluster, node, { key, effect: "NoExecute", timeAdded: this.cluster.engine.now }, cause);
    removeTaints(this.cluster, node, [other], "NoExecute", "swapped", `${key}:NoExecute`);
  }

  // ---- zones: handleDisruption ------------------------------------------------------------------

  private tallyOf(zone: string): ZoneTally {
    let t = this.tallies.get(zone);
    if (!t) {
      t = { ready: 0, notReady: 0 };
      this.tallies.set(zone, t);
    }
    return t;
  }

  private addZone(zone: string): void {
    this.zoneStates.set(zone, "Initial");
    const rate = zoneRate("Normal", 0, this.settings);
    this.queues.set(zone, new RateLimitedTimedQueue(new TokenBucket(rate.value, this.cluster.engine.now)));
    this.rates.set(zone, rate);
  }

  private handleDisruption(zoneConditions: Map<string, ZoneTally>, nodes: Node[], now: number): void {
    const zones = [...zoneConditions.keys()].sort();
    const newStates = new Map<string, ZoneState>();
    let allAreFull = true;
    for (const zone of zones) {
      const state = zoneStateOf(zoneConditions.get(zone)!, this.settings.unhealthyZoneThreshold);
      newStates.set(zone, state);
      if (state !== "FullDisruption") allAreFull = false;
    }
    let allWasFull = true;
    for (const [zone, state] of [...this.zoneStates]) {
      if (!zoneConditions.has(zone)) {
        this.zoneStates.delete(zone);
        continue;
      }
      if (state !== "FullDisruption") allWasFull = false;
    }
    if (zones.length === 0) return;

    if (allAreFull && allWasFull) return;
    if (allAreFull) {
      // "Controller detected that all Nodes are not-Ready. Entering master disruption mode."
      for (const node of nodes)
        this.markNodeAsReachable(node, this.health.get(node.metadata.name)!, "all-zones-down");
      for (const zone of zones) {
        this.swapLimiter(zone, { value: 0 });
        this.setZoneState(zone, "FullDisruption", zoneConditions.get(zone)!);
      }
      return;
    }
    if (allWasFull) {
      // Leaving master disruption mode: every node gets a fresh grace period.
      for (const h of this.health.values()) {
        h.probeTimestamp = now;
        h.readyTransitionTimestamp = now;
      }
    }
    for (const zone of zones) {
      const state = newStates.get(zone)!;
      if (!allWasFull && this.zoneStates.get(zone) === state) continue;
      const conditions = zoneConditions.get(zone)!;
      // setLimiterInZone
      this.swapLimiter(zone, zoneRate(state, conditions.ready + conditions.notReady, this.settings));
      this.setZoneState(zone, state, conditions);
    }
  }

  private setZoneState(zone: string, state: ZoneState, conditions: ZoneTally): void {
    const from = this.zoneStates.get(zone) ?? "Initial";
    this.zoneStates.set(zone, state);
    if (from === state || (from === "Initial" && state === "Normal")) return;
    this.cluster.trace.emit({
      type: "ZoneStateChanged",
      lane: "control-plane",
      object: `Zone/${zoneName(zone)}`,
      zone: zoneName(zone),
      state,
      from,
      nodes: conditions.ready + conditions.notReady,
      notReady: conditions.notReady,
      unhealthyZoneThreshold: this.settings.unhealthyZoneThreshold,
      largeClusterSizeThreshold: this.settings.largeClusterSizeThreshold,
      rate: this.rates.get(zone) ?? { value: 0 },
    });
  }

  /** SwapLimiter: a new bucket with burst 1, which starts empty if the old one had no token (no free token). */
  private swapLimiter(zone: string, rate: Rate): void {
    const queue = this.queues.get(zone);
    if (!queue) return;
    this.rates.set(zone, rate);
    if (queue.limiter.qps === rate.value) return;
    const now = this.cluster.engine.now;
    queue.limiter = new TokenBucket(rate.value, now, queue.limiter.hasToken(now));
  }

  private forgetNode(node: Node): void {
    const h = this.health.get(node.metadata.name);
    if (h) this.quiet.forget(h);
    this.health.delete(node.metadata.name);
    // The next pass finds its records by name: a pass between the delete and this watch event (the
    // same instant) may have kept this record at a list index, for a Node of the same name created since.
    this.listed = [];
    for (const q of this.queues.values()) q.remove(node.metadata.name);
  }
}
