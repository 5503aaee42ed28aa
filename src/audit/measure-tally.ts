// The bookkeeping of one run's measure (measure.ts): each pod's owner, node and readiness, each
// node's power, each Service's ready endpoints, and each workload's and Service's serving count
// settled into seconds degraded and out, event instant by event instant.

import type { SimulationResult } from "../run/result.ts";
import { applyEndpointEvent, initialReadyEndpoints, type ReadyEndpoints } from "../trace/endpoints.ts";
import type { TraceEvent } from "../trace/events.ts";
import type { Objects, StartState } from "./state.ts";
import type { Figures } from "./types.ts";

/** `serving` before the first count, so that the first refresh always sets the entity's state. */
const UNCOUNTED = -1;
const DOWN = new Set(["power-off", "vm-terminated", "network-partition"]);
const UP = new Set(["power-on", "network-heal"]);

export interface Entity {
  figures: Figures;
  serving: number;
  desired: number;
  /** when the current degraded stretch began, or null */
  badSince: number | null;
  /** since when `serving` and `desired` hold: their seconds are added up when they change (settle) */
  since: number;
  wholeAgainAt: number | null;
  pods: () => Iterable<string>;
  dynamicDesired?: () => number;
}

function blank(desired: number): Figures {
  return { desired, degraded: 0, outage: 0, recovered: 0, reasons: [] };
}

export class RunTally {
  readonly owner = new Map<string, string>();
  readonly nodeUp = new Map<string, boolean>();
  /** workloads (`w:` + id) and Services (`s:` + id), each with its figures */
  readonly entities = new Map<string, Entity>();
  readonly restarts = new Map<string, number>();
  readonly evicted = new Map<string, number>();
  /** pods created for each owner from the fault on, and the first one's time */
  readonly replaced = new Map<string, { n: number; first: number }>();
  readonly blockedBy = new Set<string>();
  readonly blockedPods = new Set<string>();
  private readonly node = new Map<string, string | null>();
  private readonly ready = new Map<string, boolean>();
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly epReady: ReadyEndpoints;
  private readonly daemonNodes = new Map<string, string[]>();
  private readonly servicesOf = new Map<string, string[]>();
  /** entities whose serving count may have changed since the last refresh; all when a node changed */
  private readonly dirty = new Set<string>();
  private allDirty = true;

  constructor(
    result: SimulationResult,
    private readonly objects: Objects,
    start: StartState,
    /** the fault's instant (0 without one): seconds count from here */
    private readonly from: number,
    private readonly end: number,
  ) {
    this.epReady = initialReadyEndpoints(result.initial);
    for (const p of start.pods) this.addPod(p.pod, p.owner, p.node, p.ready);
    for (const p of start.pods)
      if (p.owner?.startsWith("DaemonSet/") && p.node)
        this.daemonNodes.set(p.owner, [...(this.daemonNodes.get(p.owner) ?? []), p.node]);
    for (const s of objects.services)
      for (const b of s.backends) this.servicesOf.set(b, [...(this.servicesOf.get(b) ?? []), `s:${s.id}`]);
    this.addEntities();
  }

  private addEntities(): void {
    const entity = (desired: number, pods: () => Iterable<string>): Entity => ({
      figures: blank(desired),
      serving: UNCOUNTED,
      desired,
      badSince: null,
      since: this.from,
      wholeAgainAt: null,
      pods,
    });
    for (const w of this.objects.workloads) {
      if (w.kind === "DaemonSet") continue;
      const desired = this.desiredOf(w.id);
      if (desired === 0) continue;
      this.entities.set(
        `w:${w.id}`,
        entity(desired, () => this.byOwner.get(w.id) ?? []),
      );
    }
    for (const s of this.objects.services) {
      if (s.backends.length === 0) continue;
      const dynamic = s.backends.some((b) => b.startsWith("DaemonSet/"));
      const desiredNow = () => s.backends.reduce((sum, b) => sum + this.desiredOf(b), 0);
      const desired = desiredNow();
      if (desired === 0) continue;
      const e = entity(desired, () => this.epReady.get(s.id) ?? []);
      if (dynamic) e.dynamicDesired = desiredNow;
      this.entities.set(`s:${s.id}`, e);
    }
  }

  private addPod(pod: string, o: string | null, n: string | null, r: boolean): void {
    if (o) {
      this.owner.set(pod, o);
      const set = this.byOwner.get(o) ?? new Set<string>();
      set.add(pod);
      this.byOwner.set(o, set);
    }
    this.node.set(pod, n);
    this.ready.set(pod, r);
  }

  private up(pod: string): boolean {
    const n = this.node.get(pod);
    return n != null && this.nodeUp.get(n) !== false;
  }

  private desiredOf(w: string): number {
    const wl = this.objects.workload.get(w);
    if (!wl) return 0;
    if (wl.kind !== "DaemonSet") return wl.replicas;
    // A DaemonSet wants a pod on each node that is up: a lost node's pod is not owed.
    return (this.daemonNodes.get(w) ?? []).filter((n) => this.nodeUp.get(n) !== false).length;
  }

  private servingOf(key: string, e: Entity): number {
    let n = 0;
    const isWorkload = key.startsWith("w:");
    for (const p of e.pods()) if ((!isWorkload || this.ready.get(p)) && this.up(p)) n++;
    return n;
  }

  private touch(pod: string): void {
    const o = this.owner.get(pod);
    if (!o) return;
    this.dirty.add(`w:${o}`);
    for (const s of this.servicesOf.get(o) ?? []) this.dirty.add(s);
  }

  /**
   * The seconds from `e.since` to `t` (within the fault and the end of the run) in the state it was
   * in: only entities whose state changes are settled, not every entity at every event time.
   */
  private settle(e: Entity, t: number): void {
    const a = Math.max(e.since, this.from);
    const b = Math.min(t, this.end);
    if (b > a) {
      if (e.serving < e.desired) e.figures.degraded += b - a;
      if (e.serving === 0) e.figures.outage += b - a;
    }
    e.since = t;
  }

  private update(key: string, e: Entity, t: number): void {
    const serving = this.servingOf(key, e);
    const desired = e.dynamicDesired ? e.dynamicDesired() : e.desired;
    if (serving === e.serving && desired === e.desired) return;
    this.settle(e, t);
    e.serving = serving;
    e.desired = desired;
    const bad = e.serving < e.desired;
    if (bad && e.badSince === null) e.badSince = t;
    if (!bad && e.badSince !== null) {
      e.badSince = null;
      if (t > this.from) e.wholeAgainAt = t;
    }
  }

  private refresh(t: number): void {
    if (this.allDirty) for (const [key, e] of this.entities) this.update(key, e, t);
    else
      for (const key of this.dirty) {
        const e = this.entities.get(key);
        if (e) this.update(key, e, t);
      }
    this.allDirty = false;
    this.dirty.clear();
  }

  /** Every event, an instant at a time (the counts refreshed after each instant), then the end. */
  read(events: readonly TraceEvent[]): void {
    this.refresh(0);
    let i = 0;
    while (i < events.length) {
      const t = events[i]!.t;
      for (; i < events.length && events[i]!.t === t; i++) {
        const e = events[i]!;
        const pod = e.object.startsWith("Pod/") ? e.object.slice(4) : "";
        this.apply(e, pod);
        if (pod) this.touch(pod);
      }
      this.refresh(t);
    }
    for (const e of this.entities.values()) this.settle(e, this.end);
  }

  private apply(e: TraceEvent, pod: string): void {
    switch (e.type) {
      case "FaultInjected":
        if (e.node && DOWN.has(e.do)) this.nodeUp.set(e.node, false);
        if (e.node && UP.has(e.do)) this.nodeUp.set(e.node, true);
        this.allDirty = true;
        break;
      // A platform's node auto-repair boots the machine again (platforms/): its kubelet says so.
      case "NodeRegistered":
      case "NodeReady":
        if (e.node) this.nodeUp.set(e.node, true);
        this.allDirty = true;
        break;
      case "PodCreated":
        this.addPod(pod, e.owner, null, false);
        if (e.t >= this.from) {
          const r = this.replaced.get(e.owner) ?? { n: 0, first: e.t };
          r.n++;
          this.replaced.set(e.owner, r);
        }
        break;
      case "PodScheduled":
        this.node.set(pod, e.node ?? null);
        break;
      case "PodReady":
        this.ready.set(pod, true);
        break;
      case "PodNotReady":
        this.ready.set(pod, false);
        break;
      case "PodDeleted": {
        this.ready.set(pod, false);
        const o = this.owner.get(pod);
        if (o) this.byOwner.get(o)?.delete(pod);
        break;
      }
      default:
        this.applyOther(e, pod);
    }
  }

  private applyOther(e: TraceEvent, pod: string): void {
    switch (e.type) {
      case "EndpointReady":
      case "EndpointNotReady":
      case "EndpointRemoved":
        applyEndpointEvent(this.epReady, e);
        this.dirty.add(`s:${e.service}`);
        break;
      case "ContainerKilled":
        if (e.probe === "liveness" || e.probe === "startup") bump(this.restarts, this.owner.get(pod));
        break;
      case "PodEvicted":
        bump(this.evicted, this.owner.get(pod));
        break;
      case "EvictionBlocked":
        this.blockedBy.add(e.pdb);
        this.blockedPods.add(pod);
        break;
    }
  }
}

function bump(m: Map<string, number>, k: string | undefined): void {
  if (k) m.set(k, (m.get(k) ?? 0) + 1);
}
