// One `traffic:` entry: a population of callers of one Service. Each client sends open-loop
// (Poisson arrivals at rate/clients; a closed-loop client waits for its previous answer) over its
// own pool of connections; a request takes the connection that frees first (slot-heap.ts), and
// waits for it when all are busy. Per-client and per-connection state lives in typed arrays, so a
// request allocates nothing: client c owns connection slots [c × poolSize, (c + 1) × poolSize).
//
// A pool without a limit (spec.poolSize +∞: Go's MaxConnsPerHost 0, Node's maxSockets Infinity)
// gets as many slots as a client can ever have requests open: by Little's law its rate × the
// longest a request can take, plus six standard deviations of its Poisson count, so that a request
// waits in the pool with a probability under 1e-9; "unlimited" stays unlimited, and costs memory
// only in proportion to what a hang can hold open.

import type { Rng } from "../engine/rng.ts";
import type { TrafficSpec } from "../scenario/types.ts";
import type { Trace } from "../trace/events.ts";
import type { DnsCallers } from "./dns-callers.ts";
import { Episodes } from "./episodes.ts";
import { OutlierDetection } from "./outlier-detection.ts";
import type { TrafficTotals } from "./result.ts";
import { RetryBudget } from "./retry-budget.ts";
import { SlotHeap } from "./slot-heap.ts";

/** The most connection slots one caller group holds, unlimited pools included (memory: ~40 bytes a slot). */
export const MAX_SLOTS = 2_000_000;

/** Slots per client for a pool of `poolSize` connections (+∞: by Little's law, see above). */
export function slotsPerClient(
  poolSize: number,
  ratePerClient: number,
  longest: number,
  clients: number,
): number {
  if (Number.isFinite(poolSize)) return poolSize;
  const open = ratePerClient * longest;
  const need = Math.ceil(open + 6 * Math.sqrt(open)) + 2;
  return Math.max(1, Math.min(need, Math.floor(MAX_SLOTS / clients)));
}

export class CallerGroup {
  /** `<namespace>/<name>` of the Service called */
  readonly service: string;
  readonly clients: number;
  /** connection slots per client (a finite pool's size, or an unlimited one's Little's-law bound) */
  readonly poolSize: number;
  /** the pool has no limit: a request never waits in it for a connection */
  readonly unlimited: boolean;
  /** each client's slots, by when they are free again */
  readonly heap: SlotHeap;
  /** multiplexed (gRPC): each client's one connection's endpoint and entry node, or -1 */
  readonly connEndpoint: Int32Array;
  readonly connEntry: Int32Array;
  /** each client's arrival rate: rate / clients */
  private readonly ratePerClient: number;
  /** each client's next arrival */
  readonly nextArrival: Float64Array;
  /** the earliest of them after the last send (-∞ before the first): no request is due before it */
  earliest = Number.NEGATIVE_INFINITY;
  /** per connection slot: when it is free again */
  readonly slotFree: Float64Array;
  /** per connection slot: the endpoint id its kept-alive connection goes to, or -1 */
  readonly slotEndpoint: Int32Array;
  /** per connection slot: the node the connection entered by (load balancer or node port), or -1 */
  readonly slotEntry: Int32Array;
  /** per connection slot: the send time of the request it carries last */
  readonly slotSent: Float64Array;
  /** per connection slot: that request was counted ok but is still in flight (a lost node may fail it yet) */
  readonly slotPending: Uint8Array;
  /** the slots set pending since the last settle looked (once each: `listed`), for it to look at only those */
  readonly pendingList: number[] = [];
  readonly listed: Uint8Array;
  /** per connection slot: that request, answered ok, was slower than the SLO: 1 + its slow cause, or 0 */
  readonly slotSlow: Uint8Array;
  /** each client's node (an in-cluster caller is lost with its node) */
  readonly clientNode: Int32Array;
  /** an externalTrafficPolicy: Local Service reached through a node */
  readonly local: boolean;
  /** each client's proxy's outlier detection, when the entry asks for it */
  readonly outlierDetection: OutlierDetection[] | undefined;
  readonly retryBudget: RetryBudget | undefined;
  /** entry: dns: each client's resolved addresses */
  dns: DnsCallers | undefined;
  /** per node, the endpoint ids a new connection can go to (read again at an advance where its rules changed) */
  targets: Int32Array[] = [];
  /** per node, the rules' target list `targets` was read from: a list of unchanged rules is the same array */
  targetLists: (readonly object[] | undefined)[] = [];
  /** Network.rulesVersion when `targets` was read (-1: never) */
  rulesRead = -1;
  readonly totals: TrafficTotals = { sent: 0, ok: 0, timeout: 0, refused: 0, error: 0 };
  /** the SLO in seconds (+∞ without one): an ok request slower than it is slow */
  readonly slo: number;
  /** the longest a request can take (its timeout, once per attempt): after that it is final */
  readonly longest: number;
  /** send times of the first and last failed (or slow) request */
  first = Number.POSITIVE_INFINITY;
  last = Number.NEGATIVE_INFINITY;
  /** its failures' story: one episode per cause and window */
  readonly episodes: Episodes;
  /** the lowest p99 of a second so far, in ms (the calm the latency story compares with) */
  calmP99 = Number.POSITIVE_INFINITY;
  /** latency is up since this send second (-1: it is not), its peak p99 and when, seconds back under */
  slowSince = -1;
  peakP99 = 0;
  peakAt = 0;
  underFor = 0;

  constructor(
    /** its place in the scenario's `traffic:` list */
    readonly index: number,
    readonly spec: TrafficSpec,
    nodes: number,
    readonly rng: Rng,
    local: boolean,
    seconds: number,
    trace: Trace,
  ) {
    this.service = spec.service;
    this.clients = spec.clients;
    this.ratePerClient = spec.rate / spec.clients;
    this.unlimited = !Number.isFinite(spec.poolSize);
    this.local = local;
    this.slo = spec.slo ?? Number.POSITIVE_INFINITY;
    if (spec.slo !== undefined) this.totals.slow = 0;
    this.longest = spec.timeout * (1 + spec.retries);
    this.episodes = new Episodes(trace, spec.service, spec.timeout, this.longest);
    this.poolSize = slotsPerClient(spec.poolSize, this.ratePerClient, this.longest, spec.clients);
    this.nextArrival = new Float64Array(this.clients);
    for (let c = 0; c < this.clients; c++) this.nextArrival[c] = spec.start + this.gap();
    const slots = this.clients * this.poolSize;
    this.slotFree = new Float64Array(slots).fill(Number.NEGATIVE_INFINITY);
    this.slotEndpoint = new Int32Array(slots).fill(-1);
    this.slotEntry = new Int32Array(slots).fill(-1);
    this.slotSent = new Float64Array(slots);
    this.slotPending = new Uint8Array(slots);
    this.listed = new Uint8Array(slots);
    this.slotSlow = new Uint8Array(slots);
    this.heap = new SlotHeap(this.clients, this.poolSize, this.slotFree);
    this.connEndpoint = new Int32Array(this.clients).fill(-1);
    this.connEntry = new Int32Array(this.clients).fill(-1);
    this.clientNode = new Int32Array(this.clients);
    for (let c = 0; c < this.clients; c++) this.clientNode[c] = c % nodes;
    const od = spec.outlierDetection;
    this.outlierDetection = od
      ? Array.from({ length: this.clients }, () => new OutlierDetection(od))
      : undefined;
    this.retryBudget = spec.retryBudget ? new RetryBudget(spec.retryBudget, seconds) : undefined;
  }

  /** Connection slot k is free again at `at`. */
  setFree(k: number, at: number): void {
    this.slotFree[k] = at;
    this.heap.update(k);
  }

  /** Poisson arrivals: the exponential gap to a client's next request. */
  gap(): number {
    return -Math.log(1 - this.rng.float()) / this.ratePerClient;
  }
}
