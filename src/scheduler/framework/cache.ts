// The scheduler cache (pkg/scheduler/backend/cache, framework.NodeInfo): for every node, what the
// pods bound to it request and how many of each workload's pods it runs, kept up to date write by
// write rather than rebuilt per scheduling cycle. Rows are indexed by node and held in typed arrays,
// so a filter or a score reads a number, not a map.
//
// Which pods count, as in kube-scheduler:
// - a pod counts on its node from the write that binds it until its object is gone or it turns
//   terminal: the scheduler's pod informer lists only non-terminal pods (scheduler.go
//   newPodInformer: status.phase!=Succeeded,status.phase!=Failed);
// - a Terminating pod (deletionTimestamp set) still counts: its requests, the node's pod count, and
//   inter-pod affinity (NodeInfo.Pods keeps it until the delete arrives; kubernetes#111793, by
//   design). Only topology spreading skips it (podtopologyspread countPodsMatchSelector, #87621),
//   and so do the per-workload counts here, which feed the system default spreading.

import type { Cluster } from "../../cluster/context.ts";
import { SCORE_DEFAULT_MAX_PODS } from "../../kubernetes/defaults.ts";
import { LABEL_HOSTNAME, LABEL_ZONE } from "../../kubernetes/labels.ts";
import type { KubeObject, Node, Pod, Taint } from "../../kubernetes/objects.ts";
import type { UsedPorts } from "../plugins/node-ports.ts";
import { addPorts, addScalar, type Counted, countedFrom, usageOf } from "./cache-usage.ts";
import { podInfo } from "./pod-info.ts";
import { memoryLeft, Room } from "./room.ts";
import { type Counts, ZoneBlocks, type ZoneView } from "./zone-blocks.ts";

export type { Counted } from "./cache-usage.ts";

export class SchedulerCache implements ZoneView {
  private readonly rowByName = new Map<string, number>();
  /** rows in use */
  size = 0;
  private capacity = 0;
  /** per row: the Node object, while it exists */
  readonly nodes: (Node | undefined)[] = [];
  // NodeInfo.Requested and len(NodeInfo.Pods)
  podCount: Int32Array = new Int32Array(0);
  cpuMilli: Float64Array = new Float64Array(0);
  memory: Float64Array = new Float64Array(0);
  /** NodeInfo.Requested's ephemeral-storage and scalar resources, per row; undefined while none */
  readonly requestedScalar: (Map<string, number> | undefined)[] = [];
  /** NodeInfo.UsedPorts per row: the host ports of its pods; undefined while none */
  readonly usedPorts: (UsedPorts | undefined)[] = [];
  /** NodeInfo.Allocatable's, from the Node (a name it does not list: none, ephemeral-storage aside) */
  readonly allocScalar: (Readonly<Record<string, number>> | undefined)[] = [];
  // NodeInfo.Allocatable (+Infinity where the node does not say)
  allocPods: Float64Array = new Float64Array(0);
  allocCpuMilli: Float64Array = new Float64Array(0);
  allocMemory: Float64Array = new Float64Array(0);
  /**
   * The LeastAllocated tie-breaker's factors: 0.5 / allocatable millicores (0 when the node gives no
   * cpu) and 0.5 / allowed pods (110 when it does not say), so scoring multiplies instead of divides.
   */
  scoreCpu: Float64Array = new Float64Array(0);
  scorePods: Float64Array = new Float64Array(0);
  // What is left: allocatable − requested, kept for the filters' fast path (cycle.ts walk)
  freePods: Float64Array = new Float64Array(0);
  freeCpuMilli: Float64Array = new Float64Array(0);
  unschedulable: Uint8Array = new Uint8Array(0);
  /** the node is cordoned or has a NoSchedule/NoExecute taint: the fast path does not decide it */
  blocked: Uint8Array = new Uint8Array(0);
  /** zone id (topology.kubernetes.io/zone), or -1 */
  zone: Int32Array = new Int32Array(0);
  /** the node has kubernetes.io/hostname */
  hostname: Uint8Array = new Uint8Array(0);
  /** id of the node's NoSchedule and NoExecute taints in `taintSets` (0: none) */
  taintSet: Int32Array = new Int32Array(0);
  readonly taintSets: Taint[][] = [[]];
  private readonly taintSetIds = new Map<string, number>([["", 0]]);
  readonly zones: string[] = [];
  private readonly zoneIds = new Map<string, number>();
  private readonly owners = new Map<string, Counts>();
  private readonly counted = new Map<Pod, Counted>();
  /** bound pods with required anti-affinity terms */
  readonly withRequiredAntiAffinity = new Set<Pod>();
  private listed: readonly Node[] | undefined;
  /** row of each node of the last `store.list("Node")`, by position */
  private order = new Int32Array(0);
  /** position of each row in that list, or -1 */
  positionOf: Int32Array = new Int32Array(0);
  /** what the nodes of that list have room for, by position */
  private readonly room = new Room();
  /** each workload's pods per zone by blocks of that list */
  private readonly zoneBlocks = new ZoneBlocks(this);

  constructor(private readonly ctx: Pick<Cluster, "store">) {
    ctx.store.observe((obj) => this.observe(obj));
    for (const n of ctx.store.list("Node")) this.refreshNode(n);
    for (const p of ctx.store.list("Pod")) this.observePod(p);
  }

  private observe(obj: KubeObject): void {
    if (obj.kind === "Pod") this.observePod(obj);
    else if (obj.kind === "Node") {
      if (this.ctx.store.exists(obj)) this.refreshNode(obj);
      else {
        const row = this.rowByName.get(obj.metadata.name);
        if (row !== undefined) this.nodes[row] = undefined;
      }
    }
  }

  /** The nodes in the store's order and their rows (the order the filters walk them in). */
  nodeList(): { nodes: readonly Node[]; rows: Int32Array } {
    const nodes = this.ctx.store.list("Node");
    if (nodes !== this.listed) {
      this.listed = nodes;
      if (this.order.length < nodes.length) this.order = new Int32Array(nodes.length * 2);
      this.positionOf.fill(-1);
      for (let i = 0; i < nodes.length; i++) this.order[i] = this.refreshNode(nodes[i]!);
      this.room.reset(nodes.length);
      for (let i = 0; i < nodes.length; i++) {
        this.positionOf[this.order[i]!] = i;
        this.roomOf(this.order[i]!, true);
      }
      this.room.build();
      this.zoneBlocks.invalidate();
    }
    return { nodes, rows: this.order };
  }

  /**
   * Whether the `want` nodes from position `start` of the list (round it, `n` long) all pass the
   * walk's test for a pod requesting `cpuMilli` and `memory` whole bytes (room.ts).
   */
  roomFor(start: number, want: number, n: number, cpuMilli: number, memory: number): boolean {
    const end = start + want;
    if (end <= n) return this.room.fits(start, end, cpuMilli, memory);
    return this.room.fits(start, n, cpuMilli, memory) && this.room.fits(0, end - n, cpuMilli, memory);
  }

  /**
   * A row's numbers changed: its position's room follows (a row out of the list has none), or is
   * loaded for the `build` of a new list.
   */
  private roomOf(row: number, load = false): void {
    const at = this.positionOf[row]!;
    if (at < 0) return;
    const free = this.freeCpuMilli[row]!;
    // −∞ where the walk's test fails whatever the request: cordoned, tainted, no pod slot left, or
    // NaN left (∞ − ∞), which the walk's `≥` fails but the room's `<` test (room.ts fits) would pass
    const cpu =
      this.blocked[row] === 0 && this.freePods[row]! >= 1 && !Number.isNaN(free)
        ? free
        : Number.NEGATIVE_INFINITY;
    const memory = memoryLeft(this.memory[row]!, this.allocMemory[row]!);
    if (load) this.room.load(at, cpu, memory);
    else this.room.set(at, cpu, memory);
  }

  nodeRows(): { rows: Int32Array; n: number } {
    return { rows: this.order, n: this.listed?.length ?? 0 };
  }

  workloads(): IterableIterator<[string, Counts]> {
    return this.owners.entries();
  }

  /**
   * Adds to `out` (per zone id) the pods of `owner` (its counts `own`) on the `want` nodes from
   * position `start` of the last node list (round it, `n` long).
   */
  zoneSumsOver(owner: string, own: Counts, start: number, want: number, n: number, out: Float64Array): void {
    const end = start + want;
    this.zoneBlocks.sum(owner, own, this.order, start, Math.min(end, n), out);
    if (end > n) this.zoneBlocks.sum(owner, own, this.order, 0, end - n, out);
  }

  rowOf(name: string): number {
    let row = this.rowByName.get(name);
    if (row === undefined) {
      row = this.size++;
      if (row >= this.capacity) this.grow(Math.max(16, this.capacity * 2));
      this.rowByName.set(name, row);
      this.nodes[row] = undefined;
      this.allocPods[row] = Number.POSITIVE_INFINITY;
      this.allocCpuMilli[row] = Number.POSITIVE_INFINITY;
      this.allocMemory[row] = Number.POSITIVE_INFINITY;
      this.freePods[row] = Number.POSITIVE_INFINITY;
      this.freeCpuMilli[row] = Number.POSITIVE_INFINITY;
      this.scorePods[row] = 0.5 / SCORE_DEFAULT_MAX_PODS;
      this.zone[row] = -1;
      this.positionOf[row] = -1;
    }
    return row;
  }

  /** Pods of `owner` per row (active ones: bound, not terminal, not terminating). */
  ownerCounts(owner: string): Counts | undefined {
    return this.owners.get(owner);
  }

  /** Every pod the cache counts (bound, not terminal), in the order they were first counted. */
  countedPods(): IterableIterator<[Pod, Counted]> {
    return this.counted.entries();
  }

  rowOfPod(pod: Pod): Counted | undefined {
    return this.counted.get(pod);
  }

  private grow(capacity: number): void {
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(capacity);
      b.set(a);
      return b;
    };
    const i32 = (a: Int32Array) => {
      const b = new Int32Array(capacity);
      b.set(a);
      return b;
    };
    const u8 = (a: Uint8Array) => {
      const b = new Uint8Array(capacity);
      b.set(a);
      return b;
    };
    this.podCount = i32(this.podCount);
    this.cpuMilli = f64(this.cpuMilli);
    this.memory = f64(this.memory);
    this.allocPods = f64(this.allocPods);
    this.allocCpuMilli = f64(this.allocCpuMilli);
    this.allocMemory = f64(this.allocMemory);
    this.scoreCpu = f64(this.scoreCpu);
    this.scorePods = f64(this.scorePods);
    this.freePods = f64(this.freePods);
    this.freeCpuMilli = f64(this.freeCpuMilli);
    this.unschedulable = u8(this.unschedulable);
    this.blocked = u8(this.blocked);
    this.zone = i32(this.zone);
    this.hostname = u8(this.hostname);
    this.taintSet = i32(this.taintSet);
    this.positionOf = i32(this.positionOf);
    for (const [owner, counts] of this.owners) {
      const b = counts instanceof Uint16Array ? new Uint16Array(capacity) : new Int32Array(capacity);
      b.set(counts);
      this.owners.set(owner, b);
    }
    this.capacity = capacity;
  }

  /** A node's row from its object: allocatable, cordon, NoSchedule/NoExecute taints, zone. */
  private refreshNode(node: Node): number {
    const row = this.rowOf(node.metadata.name);
    this.nodes[row] = node;
    const a = node.status.allocatable;
    this.allocPods[row] = a.pods ?? Number.POSITIVE_INFINITY;
    this.allocCpuMilli[row] = a.cpu === undefined ? Number.POSITIVE_INFINITY : Math.round(a.cpu * 1000);
    this.allocMemory[row] = a.memory ?? Number.POSITIVE_INFINITY;
    this.allocScalar[row] = a.scalar;
    this.freePods[row] = this.allocPods[row]! - this.podCount[row]!;
    this.freeCpuMilli[row] = this.allocCpuMilli[row]! - this.cpuMilli[row]!;
    this.scoreCpu[row] = a.cpu ? 0.5 / (a.cpu * 1000) : 0;
    this.scorePods[row] = 0.5 / (a.pods ?? SCORE_DEFAULT_MAX_PODS);
    this.unschedulable[row] = node.spec.unschedulable ? 1 : 0;
    const labels = node.metadata.labels;
    const zone = labels?.[LABEL_ZONE];
    const zoneId = zone === undefined ? -1 : this.zoneId(zone);
    if (this.zone[row] !== zoneId) this.zoneBlocks.invalidate();
    this.zone[row] = zoneId;
    this.hostname[row] = labels?.[LABEL_HOSTNAME] !== undefined ? 1 : 0;
    this.taintSet[row] = this.taintSetOf(node.spec.taints);
    this.blocked[row] = this.unschedulable[row] || this.taintSet[row] !== 0 ? 1 : 0;
    this.roomOf(row);
    return row;
  }

  zoneId(zone: string): number {
    let id = this.zoneIds.get(zone);
    if (id === undefined) {
      id = this.zones.length;
      this.zones.push(zone);
      this.zoneIds.set(zone, id);
    }
    return id;
  }

  /** TaintToleration filters on NoSchedule and NoExecute taints only (DoNotScheduleTaintsFilterFunc). */
  private taintSetOf(taints: readonly Taint[] | undefined): number {
    if (!taints || taints.length === 0) return 0;
    let key = "";
    for (const t of taints)
      if (t.effect !== "PreferNoSchedule") key += `${t.key}\x00${t.value ?? ""}\x00${t.effect}\x01`;
    let id = this.taintSetIds.get(key);
    if (id === undefined) {
      id = this.taintSets.length;
      this.taintSets.push(taints.filter((t) => t.effect !== "PreferNoSchedule").map((t) => ({ ...t })));
      this.taintSetIds.set(key, id);
    }
    return id;
  }

  private observePod(pod: Pod): void {
    const node = pod.spec.nodeName;
    const before = this.counted.get(pod);
    const counts =
      node !== undefined &&
      pod.status.phase !== "Succeeded" &&
      pod.status.phase !== "Failed" &&
      this.ctx.store.exists(pod);
    const terminating = pod.metadata.deletionTimestamp !== undefined;
    if (before) {
      // Status updates (Running, Ready…) leave the row as it is.
      if (counts && before.row === this.rowByName.get(node!) && before.terminating === terminating) return;
      this.uncount(pod, before);
    }
    if (!counts) return;
    // A pod's spec does not change, nor its owner (no model rewrites a pod's ownerReferences): its
    // requests, owner and terms are those worked out once.
    this.count(pod, countedFrom(podInfo(pod), this.rowOf(node!), terminating));
  }

  /**
   * DefaultPreemption's dry run on a node (NodeInfo.RemovePod / AddPodInfo on its snapshot): a counted
   * pod taken off its row, and put back as it was. Nothing else runs in between (one call, no event).
   */
  dryRunRemove(pod: Pod): Counted | undefined {
    const c = this.counted.get(pod);
    if (c) this.uncount(pod, c);
    return c;
  }

  dryRunAdd(pod: Pod, c: Counted): void {
    if (!this.counted.has(pod)) this.count(pod, c);
  }

  /** A pod not bound, counted on a row for one cycle (a nominated pod, addNominatedPods). */
  assumeOn(pod: Pod, row: number): void {
    // requests and ports only: no owner (the spreading counts) and no terms until it is bound
    const usage = { ...usageOf(podInfo(pod)), owner: undefined, antiAffinity: false };
    this.count(pod, { row, terminating: false, usage });
  }

  private count(pod: Pod, c: Counted): void {
    const u = c.usage;
    this.counted.set(pod, c);
    this.podCount[c.row]! += 1;
    this.cpuMilli[c.row]! += u.cpuMilli;
    this.memory[c.row]! += u.memory;
    this.freePods[c.row]! -= 1;
    this.freeCpuMilli[c.row]! -= u.cpuMilli;
    if (u.scalar.length > 0) addScalar(this.requestedScalar, c.row, u.scalar, 1);
    if (u.hostPorts.length > 0) addPorts(this.usedPorts, c.row, u.hostPorts, 1);
    this.roomOf(c.row);
    if (u.antiAffinity) this.withRequiredAntiAffinity.add(pod);
    if (u.owner === undefined || c.terminating) return;
    let counts = this.owners.get(u.owner);
    if (!counts) {
      counts = new Uint16Array(this.capacity);
      this.owners.set(u.owner, counts);
    }
    if (counts[c.row] === 0xffff && counts instanceof Uint16Array) {
      counts = Int32Array.from(counts);
      this.owners.set(u.owner, counts);
    }
    counts[c.row]! += 1;
    this.zoneBlocks.add(u.owner, c.row, 1);
  }

  private uncount(pod: Pod, c: Counted): void {
    const u = c.usage;
    this.counted.delete(pod);
    this.podCount[c.row]! -= 1;
    this.cpuMilli[c.row]! -= u.cpuMilli;
    this.memory[c.row]! -= u.memory;
    this.freePods[c.row]! += 1;
    this.freeCpuMilli[c.row]! += u.cpuMilli;
    if (u.scalar.length > 0) addScalar(this.requestedScalar, c.row, u.scalar, -1);
    if (u.hostPorts.length > 0) addPorts(this.usedPorts, c.row, u.hostPorts, -1);
    this.roomOf(c.row);
    this.withRequiredAntiAffinity.delete(pod);
    if (u.owner === undefined || c.terminating) return;
    const counts = this.owners.get(u.owner);
    if (!counts) return;
    counts[c.row]! -= 1;
    this.zoneBlocks.add(u.owner, c.row, -1);
  }
}
