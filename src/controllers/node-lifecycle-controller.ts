// The node lifecycle controller (pkg/controller/nodelifecycle/node_lifecycle_controller.go):
// notices silent nodes, sets Ready=Unknown, marks their pods not ready, taints them (NoSchedule at
// once, NoExecute through a per-zone rate-limited queue) and computes zone disruption states.
// Rules and their sources: ../shared/reference/kubernetes.md §2.

import { setPodReady } from "../cluster/api.ts";
import type { Context } from "../cluster/context.ts";
import type { Timer } from "../engine/engine.ts";
import {
  MONITOR_PASS_PROCESSING,
  NODE_EVICTION_PERIOD,
  TAINT_RETRY_MISSING_READY,
} from "../kubernetes/defaults.ts";
import { getNode } from "../kubernetes/kubectl.ts";
import { LABEL_EXCLUDE_DISRUPTION, zoneKey, zoneName } from "../kubernetes/labels.ts";
import type { ConditionStatus, Node, NodeCondition, Taint } from "../kubernetes/objects.ts";
import {
  hasTaint,
  TAINT_DISK_PRESSURE,
  TAINT_MEMORY_PRESSURE,
  TAINT_NETWORK_UNAVAILABLE,
  TAINT_NOT_READY,
  TAINT_PID_PRESSURE,
  TAINT_UNREACHABLE,
  TAINT_UNSCHEDULABLE,
  taintString,
} from "../kubernetes/taints.ts";
import { fmt, round3 } from "../trace/format.ts";
import { RateLimitedTimedQueue, TokenBucket } from "./rate-limited-queue.ts";

export type ZoneState = "Initial" | "Normal" | "PartialDisruption" | "FullDisruption";

interface NodeHealth {
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  /** Ready's lastHeartbeatTime in the status last seen */
  lastHeartbeat: number | undefined;
  /** spec.renewTime of the Lease last seen */
  leaseRenewTime: number | undefined;
  /** why probeTimestamp was last set, for the NotReady message */
  probeReason: string;
}

/** Conditions the controller sets to Unknown when the kubelet goes silent (NetworkUnavailable is left alone). */
const CONDITIONS_SET_UNKNOWN = ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"];

export class NodeLifecycleController {
  private health = new Map<string, NodeHealth>();
  private zoneStates = new Map<string, ZoneState>();
  private queues = new Map<string, RateLimitedTimedQueue>();
  private taintTimer: Timer | undefined;
  /** Phase of the 100ms doNoExecuteTaintingPass ticker. */
  private readonly tickPhase: number;

  constructor(private readonly ctx: Context) {
    const rng = ctx.engine.rng.fork("node-lifecycle-controller");
    this.tickPhase = rng.uniform(0, NODE_EVICTION_PERIOD);
    // The controller has been running for a while: its next monitor pass is anywhere in one period.
    const firstPass = rng.uniform(0, ctx.controlPlane.nodeMonitorPeriod);
    ctx.engine.at(firstPass, () => this.monitorNodeHealth());
    ctx.store.watch("Node", (type, node) => {
      if (type === "DELETED") this.forgetNode(node);
      else this.doNoScheduleTaintingPass(node);
    });
  }

  get cp() {
    return this.ctx.controlPlane;
  }

  // ---- monitorNodeHealth: every nodeMonitorPeriod, sliding --------------------------------------

  private monitorNodeHealth(): void {
    const now = this.ctx.engine.now;
    const nodes = this.ctx.store.list("Node");
    const zoneConditions = new Map<string, ConditionStatus[]>();
    for (const node of nodes) {
      const zone = zoneKey(node);
      // addPodEvictorForNewZone: only for a node seen for the first time, so a zone whose nodes are all
      // excluded from disruption (and so dropped from zoneStates each pass) keeps its queue and limiter.
      if (!this.health.has(node.metadata.name) && !this.zoneStates.has(zone)) this.addZone(zone);
      const [observed, current] = this.tryUpdateNodeHealth(node, now);
      this.processTaintBaseEviction(node, observed);
      if (current !== "True" && observed === "True") this.markPodsNotReady(node);
      if (!node.metadata.labels?.[LABEL_EXCLUDE_DISRUPTION]) {
        const list = zoneConditions.get(zone) ?? [];
        list.push(current);
        zoneConditions.set(zone, list);
      }
    }
    this.handleDisruption(zoneConditions, nodes, now);
    this.scheduleTaintTick();
    // wait.UntilWithContext: the next pass starts nodeMonitorPeriod after this one finished.
    this.ctx.engine.after(this.cp.nodeMonitorPeriod + MONITOR_PASS_PROCESSING, () =>
      this.monitorNodeHealth(),
    );
  }

  /** tryUpdateNodeHealth: returns the Ready status observed before this pass and after it. */
  private tryUpdateNodeHealth(node: Node, now: number): [ConditionStatus, ConditionStatus] {
    const name = node.metadata.name;
    const ready = node.status.conditions.find((c) => c.type === "Ready");
    const observed: ConditionStatus = ready?.status ?? "Unknown";
    let h = this.health.get(name);
    if (!h) {
      // First sight: "Assuming now as a timestamp" (or creationTimestamp without a Ready condition).
      h = {
        probeTimestamp: ready ? now : (node.metadata.creationTimestamp ?? now),
        readyTransitionTimestamp: now,
        lastHeartbeat: ready?.lastHeartbeatTime,
        leaseRenewTime: undefined,
        probeReason: "the controller first saw the node",
      };
      this.health.set(name, h);
    } else if (ready?.lastHeartbeatTime !== h.lastHeartbeat) {
      h.lastHeartbeat = ready?.lastHeartbeatTime;
      h.probeTimestamp = now;
      h.probeReason = "node status posted";
    }
    // "Always update the probe time if node lease is renewed."
    const lease = this.ctx.store.get("Lease", `kube-node-lease/${name}`);
    if (lease && (h.leaseRenewTime === undefined || lease.spec.renewTime > h.leaseRenewTime)) {
      h.leaseRenewTime = lease.spec.renewTime;
      h.probeTimestamp = now;
      h.probeReason = "Lease renewed";
    }
    const grace = ready ? this.cp.nodeMonitorGracePeriod : this.cp.nodeStartupGracePeriod;
    // Strictly after (Go time.After): at exactly probeTimestamp + grace nothing happens.
    if (now > h.probeTimestamp + grace && ready?.status !== "Unknown") {
      this.setConditionsUnknown(
        node,
        now,
        h,
        grace,
        ready ? "node-monitor-grace-period" : "node-startup-grace-period",
      );
    }
    const current: ConditionStatus =
      node.status.conditions.find((c) => c.type === "Ready")?.status ?? "Unknown";
    return [observed, current];
  }

  private setConditionsUnknown(node: Node, now: number, h: NodeHealth, grace: number, flag: string): void {
    for (const type of CONDITIONS_SET_UNKNOWN) {
      const cond = node.status.conditions.find((c) => c.type === type);
      if (cond) {
        if (cond.status === "Unknown") continue;
        cond.status = "Unknown";
        cond.reason = "NodeStatusUnknown";
        cond.message = "Kubelet stopped posting node status.";
        cond.lastTransitionTime = now;
      } else {
        const created = node.metadata.creationTimestamp ?? now;
        node.status.conditions.push({
          type,
          status: "Unknown",
          reason: "NodeStatusNeverUpdated",
          message: "Kubelet never posted node status.",
          lastHeartbeatTime: created,
          lastTransitionTime: now,
        } satisfies NodeCondition);
      }
    }
    h.readyTransitionTimestamp = now;
    this.ctx.store.update(node);
    const lease = this.ctx.store.get("Lease", `kube-node-lease/${node.metadata.name}`);
    const silentFor = lease ? now - lease.spec.renewTime : now - h.probeTimestamp;
    this.ctx.trace.emit({
      type: "NodeNotReady",
      lane: "control-plane",
      object: `Node/${node.metadata.name}`,
      node: node.metadata.name,
      status: "Unknown",
      reason: node.status.conditions.find((c) => c.type === "Ready")?.reason ?? "NodeStatusUnknown",
      message: `node controller sets ${node.metadata.name} Ready=Unknown: "${node.status.conditions.find((c) => c.type === "Ready")?.message ?? "Kubelet stopped posting node status."}"`,
      why:
        `no Lease renewal seen for ${fmt(round3(silentFor))}s: the last one was observed at the pass ${fmt(round3(now - h.probeTimestamp))}s ago, ` +
        `and now > probeTimestamp + ${flag}=${fmt(grace)}s (checked every node-monitor-period=${fmt(this.cp.nodeMonitorPeriod)}s)`,
      see: getNode(node, now, this.ctx.versionString),
    });
  }

  /** MarkPodsNotReady (pkg/controller/util/node/controller_utils.go): only the Ready condition, per pod. */
  private markPodsNotReady(node: Node): void {
    for (const pod of this.ctx.store.podsOnNode(node.metadata.name)) {
      setPodReady(this.ctx, pod, false, {
        lane: "control-plane",
        reason: "NodeNotReady",
        message: `node controller marks ${pod.metadata.name} not ready ("Node is not ready")`,
        why: `its node ${node.metadata.name} just went Ready → Unknown; MarkPodsNotReady runs on that transition`,
      });
    }
  }

  // ---- NoExecute tainting ---------------------------------------------------------------------

  /** processTaintBaseEviction: decided on the Ready condition observed *before* this pass's update. */
  private processTaintBaseEviction(node: Node, observed: ConditionStatus): void {
    const taints = node.spec.taints ?? [];
    if (observed === "False") {
      if (hasTaint(taints, TAINT_UNREACHABLE, "NoExecute"))
        this.swapNoExecute(node, TAINT_NOT_READY, "Ready=False");
      else this.markNodeForTainting(node, TAINT_NOT_READY);
    } else if (observed === "Unknown") {
      if (hasTaint(taints, TAINT_NOT_READY, "NoExecute"))
        this.swapNoExecute(node, TAINT_UNREACHABLE, "Ready=Unknown");
      else this.markNodeForTainting(node, TAINT_UNREACHABLE);
    } else {
      this.markNodeAsReachable(node, "the node is Ready again");
    }
  }

  /** markNodeForTainting: Remove (if the expected taint is missing) then Add, which is a no-op for a queued node. */
  private markNodeForTainting(node: Node, key: string): void {
    const queue = this.queues.get(zoneKey(node))!;
    if (!hasTaint(node.spec.taints, key, "NoExecute")) queue.remove(node.metadata.name);
    queue.add(node.metadata.name, this.ctx.engine.now);
  }

  private markNodeAsReachable(node: Node, why: string): void {
    this.removeTaints(node, [TAINT_UNREACHABLE, TAINT_NOT_READY], "NoExecute", why);
    this.queues.get(zoneKey(node))?.remove(node.metadata.name);
  }

  private scheduleTaintTick(): void {
    const now = this.ctx.engine.now;
    let next = Number.POSITIVE_INFINITY;
    for (const q of this.queues.values()) next = Math.min(next, q.nextWork(now));
    if (!Number.isFinite(next)) {
      this.ctx.engine.cancel(this.taintTimer);
      this.taintTimer = undefined;
      return;
    }
    // The next tick of the 100ms ticker at or after `next` (and after now).
    let k = Math.ceil((Math.max(next, now) - this.tickPhase) / NODE_EVICTION_PERIOD - 1e-9);
    if (this.tickPhase + k * NODE_EVICTION_PERIOD <= now) k++;
    const at = this.tickPhase + k * NODE_EVICTION_PERIOD;
    if (this.taintTimer && !this.taintTimer.cancelled && this.taintTimer.at <= at) return;
    this.ctx.engine.cancel(this.taintTimer);
    this.taintTimer = this.ctx.engine.at(at, () => {
      this.taintTimer = undefined;
      this.doNoExecuteTaintingPass();
    });
  }

  /** doNoExecuteTaintingPass: each zone's queue, under its limiter. */
  private doNoExecuteTaintingPass(): void {
    const now = this.ctx.engine.now;
    for (const zone of [...this.queues.keys()].sort()) {
      const queue = this.queues.get(zone)!;
      queue.try(now, (name) => {
        const node = this.ctx.store.get("Node", name);
        if (!node) return { done: true };
        const ready = node.status.conditions.find((c) => c.type === "Ready");
        if (!ready) return { done: false, wait: TAINT_RETRY_MISSING_READY };
        if (ready.status === "True") return { done: true };
        const key = ready.status === "False" ? TAINT_NOT_READY : TAINT_UNREACHABLE;
        this.swapNoExecute(node, key, `Ready=${ready.status}`, zone, queue.limiter.qps);
        return { done: true };
      });
    }
    this.scheduleTaintTick();
  }

  /** SwapNodeControllerTaint: add the wanted NoExecute taint and remove the other, so never both. */
  private swapNoExecute(node: Node, key: string, state: string, zone?: string, qps?: number): void {
    const other = key === TAINT_UNREACHABLE ? TAINT_NOT_READY : TAINT_UNREACHABLE;
    if (hasTaint(node.spec.taints, key, "NoExecute")) return;
    const why =
      zone !== undefined
        ? `the node is ${state}; NoExecute taints are applied one node-monitor-period pass after the transition, through zone ${zoneName(zone)}'s rate-limited queue (${this.rateWords(qps ?? 0)})`
        : `the node is ${state}: the controller swaps the NoExecute taint at once`;
    this.addTaint(node, { key, effect: "NoExecute", timeAdded: this.ctx.engine.now }, why);
    this.removeTaints(node, [other], "NoExecute", `swapped for ${key}:NoExecute`);
  }

  private rateWords(qps: number): string {
    if (qps === this.cp.nodeEvictionRate)
      return `node-eviction-rate=${fmt(qps)}: at most one node every ${fmt(1 / qps)}s`;
    if (qps === this.cp.secondaryNodeEvictionRate)
      return `secondary-node-eviction-rate=${fmt(qps)}: at most one node every ${fmt(1 / qps)}s`;
    return `${fmt(qps)} nodes/s`;
  }

  // ---- NoSchedule tainting: on every node change, not rate limited ------------------------------

  private doNoScheduleTaintingPass(node: Node): void {
    if (!this.ctx.store.exists(node)) return;
    const want: string[] = [];
    const status = (type: string) => node.status.conditions.find((c) => c.type === type)?.status;
    const ready = status("Ready");
    if (ready === "False") want.push(TAINT_NOT_READY);
    if (ready === "Unknown") want.push(TAINT_UNREACHABLE);
    if (status("MemoryPressure") === "True") want.push(TAINT_MEMORY_PRESSURE);
    if (status("DiskPressure") === "True") want.push(TAINT_DISK_PRESSURE);
    if (status("NetworkUnavailable") === "True") want.push(TAINT_NETWORK_UNAVAILABLE);
    if (status("PIDPressure") === "True") want.push(TAINT_PID_PRESSURE);
    if (node.spec.unschedulable) want.push(TAINT_UNSCHEDULABLE);
    const managed = [
      TAINT_NOT_READY,
      TAINT_UNREACHABLE,
      TAINT_MEMORY_PRESSURE,
      TAINT_DISK_PRESSURE,
      TAINT_NETWORK_UNAVAILABLE,
      TAINT_PID_PRESSURE,
      TAINT_UNSCHEDULABLE,
    ];
    const have = (node.spec.taints ?? [])
      .filter((t) => t.effect === "NoSchedule" && managed.includes(t.key))
      .map((t) => t.key);
    const stale = have.filter((k) => !want.includes(k));
    if (stale.length > 0) this.removeTaints(node, stale, "NoSchedule", "the condition behind it cleared");
    for (const key of want) {
      if (have.includes(key)) continue;
      const why =
        key === TAINT_UNSCHEDULABLE
          ? "spec.unschedulable is true (cordoned); NoSchedule taints follow node changes at once, not rate limited"
          : `Ready=${ready}: NoSchedule taints follow the node's conditions at once, not rate limited`;
      this.addTaint(node, { key, effect: "NoSchedule", timeAdded: this.ctx.engine.now }, why);
    }
  }

  // ---- zones: ComputeZoneState and handleDisruption --------------------------------------------

  private addZone(zone: string): void {
    this.zoneStates.set(zone, "Initial");
    this.queues.set(
      zone,
      new RateLimitedTimedQueue(new TokenBucket(this.cp.nodeEvictionRate, this.ctx.engine.now)),
    );
  }

  /** ComputeZoneState: Full if none ready; Partial if > 2 not ready and their share ≥ unhealthyZoneThreshold. */
  computeZoneState(conditions: ConditionStatus[]): ZoneState {
    const ready = conditions.filter((c) => c === "True").length;
    const notReady = conditions.length - ready;
    if (ready === 0 && notReady > 0) return "FullDisruption";
    if (notReady > 2 && notReady / (notReady + ready) >= this.cp.unhealthyZoneThreshold)
      return "PartialDisruption";
    return "Normal";
  }

  private handleDisruption(zoneConditions: Map<string, ConditionStatus[]>, nodes: Node[], now: number): void {
    const zones = [...zoneConditions.keys()].sort();
    const newStates = new Map<string, ZoneState>();
    let allAreFull = true;
    for (const zone of zones) {
      const state = this.computeZoneState(zoneConditions.get(zone)!);
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
        this.markNodeAsReachable(
          node,
          "every zone is in FullDisruption: the controller assumes it lost the nodes, not the nodes failed, and removes NoExecute taints",
        );
      for (const zone of zones) {
        this.swapLimiter(zone, 0);
        this.setZoneState(zone, "FullDisruption", zoneConditions.get(zone)!.length);
      }
      return;
    }
    if (allWasFull) {
      // Leaving master disruption mode: every node gets a fresh grace period.
      for (const h of this.health.values()) {
        h.probeTimestamp = now;
        h.readyTransitionTimestamp = now;
      }
      for (const zone of zones) {
        const size = zoneConditions.get(zone)!.length;
        this.setLimiterInZone(zone, size, newStates.get(zone)!);
        this.setZoneState(zone, newStates.get(zone)!, size);
      }
      return;
    }
    for (const zone of zones) {
      const state = newStates.get(zone)!;
      if (this.zoneStates.get(zone) === state) continue;
      const size = zoneConditions.get(zone)!.length;
      this.setLimiterInZone(zone, size, state);
      this.setZoneState(zone, state, size);
    }
  }

  private setZoneState(zone: string, state: ZoneState, size: number): void {
    const from = this.zoneStates.get(zone) ?? "Initial";
    this.zoneStates.set(zone, state);
    if (from === state || (from === "Initial" && state === "Normal")) return;
    const qps = this.queues.get(zone)?.limiter.qps ?? 0;
    this.ctx.trace.emit({
      type: "ZoneStateChanged",
      lane: "control-plane",
      object: `Zone/${zoneName(zone)}`,
      zone: zoneName(zone),
      state,
      from,
      message: `zone ${zoneName(zone)} is ${state} (${size} nodes); NoExecute tainting there now runs at ${qps > 0 ? this.rateWords(qps) : "0: stopped"}`,
      why: zoneWhy(state, this.cp.unhealthyZoneThreshold, this.cp.largeClusterSizeThreshold, size),
    });
  }

  /** setLimiterInZone: Normal and Full → node-eviction-rate; Partial → secondary rate if the zone is large, else 0. */
  private setLimiterInZone(zone: string, size: number, state: ZoneState): void {
    if (state === "PartialDisruption")
      this.swapLimiter(
        zone,
        size > this.cp.largeClusterSizeThreshold ? this.cp.secondaryNodeEvictionRate : 0,
      );
    else this.swapLimiter(zone, this.cp.nodeEvictionRate);
  }

  /** SwapLimiter: a new bucket with burst 1, which starts empty if the old one had no token (no free token). */
  private swapLimiter(zone: string, qps: number): void {
    const queue = this.queues.get(zone);
    if (!queue || queue.limiter.qps === qps) return;
    const now = this.ctx.engine.now;
    queue.limiter = new TokenBucket(qps, now, queue.limiter.hasToken(now));
  }

  private forgetNode(node: Node): void {
    this.health.delete(node.metadata.name);
    for (const q of this.queues.values()) q.remove(node.metadata.name);
  }

  // ---- taint writes ---------------------------------------------------------------------------

  private addTaint(node: Node, taint: Taint, why: string): void {
    node.spec.taints = [...(node.spec.taints ?? []), taint];
    this.ctx.store.update(node);
    this.ctx.trace.emit({
      type: "NodeTainted",
      lane: "control-plane",
      object: `Node/${node.metadata.name}`,
      node: node.metadata.name,
      taint: `${taint.key}:${taint.effect}`,
      message: `node controller taints ${node.metadata.name} with ${taintString(taint)}`,
      why,
      see: `$ kubectl describe node ${node.metadata.name} | grep Taints -A2\n${taintsBlock(node)}`,
    });
  }

  private removeTaints(node: Node, keys: string[], effect: Taint["effect"], why: string): void {
    const removed = (node.spec.taints ?? []).filter((t) => t.effect === effect && keys.includes(t.key));
    if (removed.length === 0) return;
    node.spec.taints = (node.spec.taints ?? []).filter((t) => !removed.includes(t));
    this.ctx.store.update(node);
    for (const t of removed) {
      this.ctx.trace.emit({
        type: "NodeTaintRemoved",
        lane: "control-plane",
        object: `Node/${node.metadata.name}`,
        node: node.metadata.name,
        taint: `${t.key}:${t.effect}`,
        message: `node controller removes ${taintString(t)} from ${node.metadata.name}`,
        why,
      });
    }
  }
}

function taintsBlock(node: Node): string {
  const list = (node.spec.taints ?? []).map(taintString);
  return `Taints:             ${list.length === 0 ? "<none>" : list.join("\n                    ")}`;
}

function zoneWhy(state: ZoneState, threshold: number, large: number, size: number): string {
  switch (state) {
    case "FullDisruption":
      return "no node in the zone is Ready";
    case "PartialDisruption":
      return `more than 2 nodes and at least unhealthy-zone-threshold=${threshold} of the zone are not Ready; the zone has ${size} nodes, ${size > large ? "more than" : "not more than"} large-cluster-size-threshold=${large} (compared with the zone's size in the code, not the cluster's as the docs say)`;
    default:
      return "fewer than 3 nodes, or under the unhealthy-zone-threshold share, are not Ready";
  }
}
