// The data plane as a caller's connection finds it, per endpoint (a pod IP, with the id the
// network gives it): whether its node is up, whether its process serves, hangs or refuses
// (Machines: what runs, whatever the API says), and each pod's request queue
// (behaviour capacityRps, serviceTimeMs): a fluid queue, filled by the requests of a traffic tick
// and drained at the pod's capacity between ticks.

import type { AppState, DataPlane, PlaneChanges } from "../cluster/context.ts";
import type { Network } from "../network/network.ts";
import type { Behaviour } from "../scenario/types.ts";
import { REFUSED, TIMEOUT } from "./outcomes.ts";

/** serviceTimeMs when a workload does not set it. */
export const DEFAULT_SERVICE_TIME = 0.005;

/** What a connection to an endpoint meets. */
export const S_SERVING = 0;
export const S_HUNG = 1;
export const S_REFUSING = 2;
export const S_NODE_DOWN = 3;

/** What the endpoint table reads of the cluster. */
export interface EndpointsEnv {
  dataPlane(node: string): DataPlane;
  appState(node: string, podIP: string): AppState;
  /** the scenario's behaviour for a pod (`<ns>/<name>`), or {} when the pod is gone */
  behaviourOf(pod: string): Behaviour;
  /** the pod's last container kill was for a failed probe */
  killedByProbe(pod: string): boolean;
  /** the machines' count of changes (absent: the machines are read at every tick) */
  readonly changes?: PlaneChanges;
}

/**
 * The table reads the machines only when they changed (tests turn it off to compare the two).
 * Reading them when nothing changed finds what the last read found and calls nothing, so a skipped
 * read is the read it skips.
 */
export const changeDriven = { enabled: true };

/** What becomes of the requests in flight when the data plane changes under them. */
export interface InFlight {
  /** node index `node` went down at `at` */
  nodeLost(node: number, at: number): void;
  /** endpoint `ep` stopped answering at `at`: its requests time out (hung) or are refused */
  endpointStopped(ep: number, at: number, outcome: number): void;
}

export class Endpoints {
  /** per endpoint id (grown on demand): S_SERVING… */
  state: Uint8Array = new Uint8Array(16);
  /** the endpoint's node index, or -1 */
  node: Int32Array = new Int32Array(16);
  /** seconds of work queued in the pod at tickStart, and work added since (a fluid queue per tick) */
  private work = new Float64Array(16);
  private added = new Float64Array(16);
  /** requests per second the pod serves (capacityRps), +∞ unbounded */
  private capacity = new Float64Array(16);
  private serviceTime = new Float64Array(16);
  private healthShares = new Uint8Array(16);
  /** the endpoints whose queue may hold work (admitted since their last drain to zero), once each */
  private queued: number[] = [];
  private inQueued = new Uint8Array(16);
  /** its container stopped for a failed probe (for the cause of the refusals) */
  probeRestart: Uint8Array = new Uint8Array(16);
  /** endpoints known so far */
  known = 0;
  /** per node index: its data plane is down (off or cut off) */
  readonly nodeDown: Uint8Array;
  private tickStart = 0;
  /** read the machines on change only (changeDriven, as it was when the table was made) */
  readonly changeDriven = changeDriven.enabled;
  /** the machines' change count at the last read, and the endpoints known then */
  private readCount = -1;
  private readKnown = -1;

  constructor(
    private readonly network: Network,
    private readonly env: EndpointsEnv,
    private readonly inFlight: InFlight,
  ) {
    this.nodeDown = new Uint8Array(network.nodes.length);
  }

  private ensure(): void {
    const eps = this.network.endpoints;
    if (eps.length > this.state.length) {
      const size = Math.max(eps.length, this.state.length * 2);
      const grow = <T extends Uint8Array | Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
        const b = make(size);
        b.set(a as never);
        return b;
      };
      this.state = grow(this.state, (n) => new Uint8Array(n));
      this.node = grow(this.node, (n) => new Int32Array(n));
      this.work = grow(this.work, (n) => new Float64Array(n));
      this.added = grow(this.added, (n) => new Float64Array(n));
      this.capacity = grow(this.capacity, (n) => new Float64Array(n));
      this.serviceTime = grow(this.serviceTime, (n) => new Float64Array(n));
      this.healthShares = grow(this.healthShares, (n) => new Uint8Array(n));
      this.inQueued = grow(this.inQueued, (n) => new Uint8Array(n));
      this.probeRestart = grow(this.probeRestart, (n) => new Uint8Array(n));
    }
    for (let id = this.known; id < eps.length; id++) {
      const e = eps[id]!;
      this.node[id] = this.network.nodeIndex.get(e.node) ?? -1;
      const b = this.env.behaviourOf(e.pod);
      this.capacity[id] = b.capacityRps && b.capacityRps > 0 ? b.capacityRps : Number.POSITIVE_INFINITY;
      this.serviceTime[id] = b.serviceTimeMs !== undefined ? b.serviceTimeMs / 1000 : DEFAULT_SERVICE_TIME;
      this.healthShares[id] = b.healthSharesRequestQueue ? 1 : 0;
      this.state[id] = S_SERVING;
      this.work[id] = 0;
      this.added[id] = 0;
    }
    this.known = eps.length;
  }

  /**
   * Nothing a connection meets changed since the last read: no count moved (power, partition, pod
   * workers, containers), no endpoint was added, and no container may be ending its boot (it
   * starts to serve at startedAt + bootSeconds with no event; one second of margin for the
   * engine's grid).
   */
  private unchanged(at: number): boolean {
    const changes = this.env.changes;
    if (!changes || !this.changeDriven) return false;
    if (changes.count !== this.readCount || this.known !== this.readKnown) return false;
    return at > changes.bootingUntil + 1;
  }

  /**
   * A tick starting at `at` would find nothing: no endpoint added, the machines unchanged (the
   * read skipped) and every queue empty (no drain; with no work queued, `since` is read by nothing).
   */
  quiet(at: number): boolean {
    return this.known === this.network.endpoints.length && this.queued.length === 0 && this.unchanged(at);
  }

  /** Read the machines at `at`; what was answered but is now cut off fails (in flight). */
  refresh(at: number): void {
    this.ensure();
    if (this.unchanged(at)) return;
    this.readCount = this.env.changes?.count ?? -1;
    this.readKnown = this.known;
    const nodes = this.network.nodes;
    for (let i = 0; i < nodes.length; i++) {
      const down = this.env.dataPlane(nodes[i]!) === "up" ? 0 : 1;
      if (down && !this.nodeDown[i]) this.inFlight.nodeLost(i, at);
      this.nodeDown[i] = down;
    }
    const eps = this.network.endpoints;
    for (let id = 0; id < this.known; id++) {
      const e = eps[id]!;
      const n = this.node[id]!;
      let s: number;
      if (n < 0 || this.nodeDown[n]) s = S_NODE_DOWN;
      else {
        const a = this.env.appState(e.node, e.ip);
        s = a === "serving" ? S_SERVING : a === "hung" ? S_HUNG : S_REFUSING;
      }
      const was = this.state[id]!;
      if (was === S_SERVING && s !== S_SERVING && s !== S_NODE_DOWN) {
        this.probeRestart[id] = s === S_REFUSING && this.env.killedByProbe(e.pod) ? 1 : 0;
        this.inFlight.endpointStopped(id, at, s === S_HUNG ? TIMEOUT : REFUSED);
      }
      if (s === S_SERVING && was !== S_SERVING) {
        this.work[id] = 0;
        this.added[id] = 0;
      }
      this.state[id] = s;
    }
  }

  /**
   * A new traffic tick starts at `from` (after `drained` seconds since the last): the queues drain at
   * their capacity. Requests are resolved client by client, not in time order, so within a tick a
   * queue only accumulates (no idle time is lost).
   */
  drain(from: number, drained: number): void {
    this.tickStart = from;
    if (!this.changeDriven) {
      for (let id = 0; id < this.known; id++) this.drainOne(id, drained);
      return;
    }
    // An empty queue stays empty (max(0 + 0 - drained, 0) = 0): only those given work since they
    // were last empty are drained; each leaves the list once empty.
    const queued = this.queued;
    let kept = 0;
    for (let i = 0; i < queued.length; i++) {
      const id = queued[i]!;
      if (this.drainOne(id, drained)) queued[kept++] = id;
      else this.inQueued[id] = 0;
    }
    queued.length = kept;
  }

  /** The queue drains `drained` seconds of work; whether work is left. */
  private drainOne(id: number, drained: number): boolean {
    const w = this.work[id]! + this.added[id]! - drained;
    this.work[id] = Math.max(w, 0);
    this.added[id] = 0;
    return w > 0;
  }

  /** When the last tick started (the queues' reference time). */
  get since(): number {
    return this.tickStart;
  }

  /** Seconds of requests queued in the pod ahead of one arriving at `s` (≥ 0). */
  backlog(ep: number, s: number): number {
    return Math.max(this.work[ep]! + this.added[ep]! - (s - this.tickStart), 0);
  }

  /** A request joins the pod's queue: 1/capacity seconds of work. */
  admit(ep: number): void {
    const cap = this.capacity[ep]!;
    if (cap === Number.POSITIVE_INFINITY) return;
    this.added[ep]! += 1 / cap;
    if (this.inQueued[ep]) return;
    this.inQueued[ep] = 1;
    this.queued.push(ep);
  }

  /** The pod's serviceTimeMs, in seconds. */
  serviceTimeOf(ep: number): number {
    return this.serviceTime[ep]!;
  }

  /**
   * Seconds a health check sent to the endpoint `elapsed` seconds after the last tick started waits
   * for its answer: the service time, plus the queue ahead when the app serves its health endpoint
   * from the same request queue.
   */
  healthCheckLatency(ep: number, elapsed: number): number {
    const svc = this.serviceTime[ep]!;
    if (!this.healthShares[ep]) return svc;
    return svc + Math.max(0, this.work[ep]! + this.added[ep]! - elapsed);
  }
}
