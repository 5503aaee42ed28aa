// Callers of Services, request by request: open-loop arrivals, connection pools with keep-alive,
// per-attempt timeouts, retries with a retry budget, Envoy-style outlier detection, and what each
// request meets in the data plane (network/): load balancer → node → kube-proxy rules → endpoint →
// the process (Machines.appState) and its queue (behaviour capacityRps, serviceTimeMs).
//
// Cost: requests are not engine events. One engine event per tick (TICK seconds) resolves every
// request that arrived since the previous one, arithmetically, against the state of the data plane
// at that moment; every change of that state (a kube-proxy sync, a load balancer decision, a
// timeline step) first resolves the requests sent before it. Per-client and per-connection state
// lives in typed arrays; a request allocates nothing.

import { workloadOf } from "../cluster/api.ts";
import type { Context } from "../cluster/context.ts";
import type { Rng } from "../engine/rng.ts";
import { elapsed } from "../engine/time.ts";
import type { Network } from "../network/network.ts";
import type { NetworkSettings, TrafficSpec } from "../scenario/types.ts";
import { round3 } from "../trace/format.ts";
import {
  C_ALL_EJECTED,
  C_CALLER_STALE,
  C_HUNG,
  C_INFLIGHT_CONTAINER,
  C_INFLIGHT_NODE,
  C_KEEPALIVE_LOST,
  C_LB_EMPTY,
  C_LB_LOST,
  C_LOCAL_NONE,
  C_NO_ENDPOINT,
  C_NOT_RUNNING,
  C_OVERLOADED,
  C_POOL,
  C_PROBE_RESTART,
  C_ROUTED_STALE,
  CAUSES,
  ERROR,
  OK,
  OUTCOMES,
  REFUSED,
  TIMEOUT,
} from "./outcomes.ts";

/** Seconds between traffic ticks: the longest a state change can go unnoticed by callers. */
export const TICK = 0.02;
/** serviceTimeMs when a workload does not set it. */
export const DEFAULT_SERVICE_TIME = 0.005;
/** A caller's run of failures ends after this many seconds without one (for the story events). */
const QUIET = 3;

const S_SERVING = 0;
const S_HUNG = 1;
const S_REFUSING = 2;
const S_NODE_DOWN = 3;

export interface TrafficTotals {
  sent: number;
  ok: number;
  timeout: number;
  refused: number;
  error: number;
}
export interface TrafficRow extends TrafficTotals {
  t: number;
}
export interface ServiceTraffic {
  service: string;
  entry: string;
  policy: string;
  totals: TrafficTotals;
  firstFailure: number | null;
  lastFailure: number | null;
  lossWindow: number;
}
export interface Lever {
  lever: string;
  lost: number;
  lossWindow: number;
  /** seconds the loss window shrinks by (negative: grows) */
  shortensBy: number;
  /** lost requests saved (negative: more lost) */
  saves: number;
}
export interface TrafficResult {
  totals: TrafficTotals;
  perSecond: TrafficRow[];
  profile: string;
  /** every failure attributed to one cause, with the send times of its first and last request */
  causes: { cause: string; count: number; first: number; last: number }[];
  /** send time of the first and the last failed request */
  firstFailure: number | null;
  lastFailure: number | null;
  lossWindow: number;
  services: ServiceTraffic[];
  levers?: Lever[];
}

interface OdHost {
  fails: number;
  times: number;
  /** ejected from this time… */
  ejectedAt: number;
  /** …until this time (the first interval sweep after the ejection ends) */
  until: number;
}

/** One `traffic:` entry. */
class Callers {
  readonly svc: string;
  readonly n: number;
  readonly pool: number;
  readonly lambda: number;
  readonly next: Float64Array;
  readonly slotFree: Float64Array;
  readonly slotEp: Int32Array;
  readonly slotEntry: Int32Array;
  readonly slotSent: Float64Array;
  readonly slotPending: Uint8Array;
  readonly clientNode: Int32Array;
  readonly rng: Rng;
  readonly local: boolean;
  readonly od: Map<number, OdHost>[] | undefined;
  readonly rr: Int32Array;
  /** per node, the endpoint ids a new connection can go to (refreshed every advance: rules only change between) */
  targets: Int32Array[] = [];
  readonly totals: TrafficTotals = { sent: 0, ok: 0, timeout: 0, refused: 0, error: 0 };
  readonly budgetRequests: Int32Array;
  readonly budgetRetries: Int32Array;
  first = Number.POSITIVE_INFINITY;
  last = Number.NEGATIVE_INFINITY;
  failing = false;
  episodeLost = 0;

  constructor(
    readonly spec: TrafficSpec,
    nodes: number,
    rng: Rng,
    local: boolean,
    seconds: number,
  ) {
    this.svc = spec.service;
    this.n = spec.clients;
    this.pool = spec.poolSize;
    this.lambda = spec.rate / spec.clients;
    this.rng = rng;
    this.local = local;
    this.next = new Float64Array(this.n);
    for (let c = 0; c < this.n; c++) this.next[c] = spec.start + this.gap();
    const slots = this.n * this.pool;
    this.slotFree = new Float64Array(slots).fill(Number.NEGATIVE_INFINITY);
    this.slotEp = new Int32Array(slots).fill(-1);
    this.slotEntry = new Int32Array(slots).fill(-1);
    this.slotSent = new Float64Array(slots);
    this.slotPending = new Uint8Array(slots);
    this.clientNode = new Int32Array(this.n);
    for (let c = 0; c < this.n; c++) this.clientNode[c] = c % nodes;
    this.od = spec.outlierDetection ? Array.from({ length: this.n }, () => new Map()) : undefined;
    this.rr = new Int32Array(this.n);
    this.budgetRequests = new Int32Array(seconds + 1);
    this.budgetRetries = new Int32Array(seconds + 1);
  }

  /** Poisson arrivals: exponential gaps at rate/clients per client. */
  gap(): number {
    return -Math.log(1 - this.rng.float()) / this.lambda;
  }
}

export class TrafficModel {
  private readonly groups: Callers[];
  private at = 0;
  private readonly seconds: number;
  private readonly rows: Int32Array;
  private readonly causeCounts = new Float64Array(CAUSES.length);
  private readonly causeFirst = new Float64Array(CAUSES.length).fill(Number.POSITIVE_INFINITY);
  private readonly causeLast = new Float64Array(CAUSES.length).fill(Number.NEGATIVE_INFINITY);
  private first = Number.POSITIVE_INFINITY;
  private last = Number.NEGATIVE_INFINITY;
  // Per endpoint id (grown on demand).
  private epState = new Uint8Array(16);
  private epNode = new Int32Array(16);
  /** seconds of work queued in the pod at tickStart, and work added since (a fluid queue per tick) */
  private epWork = new Float64Array(16);
  private epAdded = new Float64Array(16);
  private tickStart = 0;
  private epCap = new Float64Array(16);
  private epSvcTime = new Float64Array(16);
  private epHealthShares = new Uint8Array(16);
  private epProbeRestart = new Uint8Array(16);
  private epKnown = 0;
  private nodeDown: Uint8Array;
  // The result of the last attempt (no allocation per request).
  private rOutcome = 0;
  private rCause = 0;
  private rEnd = 0;
  private rEp = -1;
  private rEntry = -1;

  constructor(
    private readonly ctx: Context,
    specs: readonly TrafficSpec[],
    readonly network: Network,
    private readonly settings: NetworkSettings,
    private readonly profile: string,
  ) {
    this.seconds = Math.ceil(ctx.scenario.duration);
    this.rows = new Int32Array((this.seconds + 1) * 5);
    this.nodeDown = new Uint8Array(network.nodes.length);
    this.groups = specs.map(
      (s, i) =>
        new Callers(
          s,
          network.nodes.length,
          ctx.engine.rng.fork(`traffic/${i}/${s.service}`),
          s.entry !== "cluster-ip" && network.policy(s.service) === "Local",
          this.seconds,
        ),
    );
    this.refreshState(0);
    const tick = (k: number) => {
      const t = k * TICK;
      if (t > ctx.scenario.duration) return;
      ctx.engine.at(t, () => {
        this.advance(t);
        tick(k + 1);
      });
    };
    tick(1);
    // Resolve the requests sent before each timeline step with the state before it.
    for (const step of ctx.scenario.timeline) ctx.engine.at(step.at, () => this.advance(step.at));
  }

  /** Seconds a health check sent to this pod now waits for its answer (Context.traffic). */
  healthCheckLatency(podIP: string, now: number): number {
    const id = this.network.idOf(podIP);
    if (id === undefined || id >= this.epKnown) return DEFAULT_SERVICE_TIME;
    this.advance(now);
    const svc = this.epSvcTime[id]!;
    if (!this.epHealthShares[id]) return svc;
    return svc + Math.max(0, this.epWork[id]! + this.epAdded[id]! - elapsed(now, this.tickStart));
  }

  /** Resolve every request sent before `to`. */
  advance(to: number): void {
    if (to <= this.at) return;
    const from = this.at;
    this.refreshState(from);
    // The pods' queues drain at their capacity between ticks; requests are resolved client by
    // client, not in time order, so within a tick a queue only accumulates (no idle time is lost).
    const drained = elapsed(from, this.tickStart);
    for (let id = 0; id < this.epKnown; id++) {
      const w = this.epWork[id]! + this.epAdded[id]! - drained;
      this.epWork[id] = Math.max(w, 0);
      this.epAdded[id] = 0;
    }
    this.tickStart = from;
    const end = Math.min(to, this.ctx.scenario.duration);
    for (const g of this.groups) {
      g.targets = this.network.proxies.map((p) => {
        const rules = p.rules.get(g.svc);
        const list = g.local && !g.od ? rules?.localTargets(p.node) : rules?.cluster;
        return Int32Array.from((list ?? []).map((e) => e.id));
      });
      this.runGroup(g, end);
    }
    this.at = to;
    for (const g of this.groups) {
      if (g.failing && elapsed(to, g.last) > QUIET) {
        g.failing = false;
        this.ctx.trace.emit({
          type: "RequestsRecovered",
          lane: "app",
          object: `Service/${g.svc}`,
          service: g.svc,
          lost: g.episodeLost,
          lastFailureAt: g.last,
          quietSeconds: QUIET,
        });
        g.episodeLost = 0;
      }
    }
  }

  // ---- the data plane's state, as a connection finds it ---------------------------------------

  private ensureEndpoints(): void {
    const eps = this.network.endpoints;
    if (eps.length > this.epState.length) {
      const size = Math.max(eps.length, this.epState.length * 2);
      const grow = <T extends Uint8Array | Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
        const b = make(size);
        b.set(a as never);
        return b;
      };
      this.epState = grow(this.epState, (n) => new Uint8Array(n));
      this.epNode = grow(this.epNode, (n) => new Int32Array(n));
      this.epWork = grow(this.epWork, (n) => new Float64Array(n));
      this.epAdded = grow(this.epAdded, (n) => new Float64Array(n));
      this.epCap = grow(this.epCap, (n) => new Float64Array(n));
      this.epSvcTime = grow(this.epSvcTime, (n) => new Float64Array(n));
      this.epHealthShares = grow(this.epHealthShares, (n) => new Uint8Array(n));
      this.epProbeRestart = grow(this.epProbeRestart, (n) => new Uint8Array(n));
    }
    for (let id = this.epKnown; id < eps.length; id++) {
      const e = eps[id]!;
      this.epNode[id] = this.network.nodeIndex.get(e.node) ?? -1;
      const pod = this.ctx.store.get("Pod", e.pod);
      const [ns = "", name = ""] = e.pod.split("/");
      const b = pod ? this.ctx.behaviour(ns, workloadOf(this.ctx, pod), name) : {};
      this.epCap[id] = b.capacityRps && b.capacityRps > 0 ? b.capacityRps : Number.POSITIVE_INFINITY;
      this.epSvcTime[id] = b.serviceTimeMs !== undefined ? b.serviceTimeMs / 1000 : DEFAULT_SERVICE_TIME;
      this.epHealthShares[id] = b.healthSharesRequestQueue ? 1 : 0;
      this.epState[id] = S_SERVING;
      this.epWork[id] = 0;
      this.epAdded[id] = 0;
    }
    this.epKnown = eps.length;
  }

  /** Read the machines; a connection that was answered but is now cut off fails (in flight). */
  private refreshState(at: number): void {
    this.ensureEndpoints();
    const m = this.ctx.machines;
    const nodes = this.network.nodes;
    for (let i = 0; i < nodes.length; i++) {
      const down = m.dataPlane(nodes[i]!) === "up" ? 0 : 1;
      if (down && !this.nodeDown[i]) this.nodeLost(i, at);
      this.nodeDown[i] = down;
    }
    const eps = this.network.endpoints;
    for (let id = 0; id < this.epKnown; id++) {
      const e = eps[id]!;
      const n = this.epNode[id]!;
      let s: number;
      if (n < 0 || this.nodeDown[n]) s = S_NODE_DOWN;
      else {
        const a = m.appState(e.node, e.ip);
        s = a === "serving" ? S_SERVING : a === "hung" ? S_HUNG : S_REFUSING;
      }
      const was = this.epState[id]!;
      if (was === S_SERVING && s !== S_SERVING && s !== S_NODE_DOWN) {
        this.epProbeRestart[id] = s === S_REFUSING && this.killedByProbe(e.pod) ? 1 : 0;
        this.endpointStopped(id, at, s === S_HUNG ? TIMEOUT : REFUSED);
      }
      if (s === S_SERVING && was !== S_SERVING) {
        this.epWork[id] = 0;
        this.epAdded[id] = 0;
      }
      this.epState[id] = s;
    }
  }

  /** The last ContainerKilled of this pod in the recent trace named a probe. */
  private killedByProbe(pod: string): boolean {
    const events = this.ctx.trace.events;
    for (let i = events.length - 1, k = 0; i >= 0 && k < 500; i--, k++) {
      const e = events[i]!;
      if (e.type === "ContainerKilled" && e.object === `Pod/${pod}`) return e.probe !== undefined;
    }
    return false;
  }

  private nodeLost(node: number, at: number): void {
    for (const g of this.groups) {
      for (let k = 0; k < g.slotEp.length; k++) {
        const ep = g.slotEp[k]!;
        if (ep < 0) continue;
        if (this.epNode[ep] !== node && g.slotEntry[k] !== node) continue;
        // An idle kept-alive connection stays open: nothing tells the caller the node is gone,
        // so its next request hangs. One in flight times out, and the caller closes it then.
        if (this.retract(g, k, at, TIMEOUT, C_INFLIGHT_NODE)) g.slotEp[k] = -1;
      }
    }
  }

  private endpointStopped(ep: number, at: number, outcome: number): void {
    for (const g of this.groups) {
      for (let k = 0; k < g.slotEp.length; k++) {
        if (g.slotEp[k] !== ep) continue;
        this.retract(g, k, at, outcome, outcome === TIMEOUT ? C_HUNG : C_INFLIGHT_CONTAINER);
        if (outcome === REFUSED) g.slotEp[k] = -1;
      }
    }
  }

  /** A request counted ok that was still in flight at `at` fails after all. */
  private retract(g: Callers, k: number, at: number, outcome: number, cause: number): boolean {
    if (!g.slotPending[k] || g.slotFree[k]! <= at) return false;
    g.slotPending[k] = 0;
    const sent = g.slotSent[k]!;
    const sec = Math.floor(sent);
    this.rows[sec * 5 + 1]!--;
    g.totals.ok--;
    this.fail(g, sent, outcome, cause);
    g.slotFree[k] = outcome === TIMEOUT ? sent + g.spec.timeout : at;
    return true;
  }

  // ---- requests ---------------------------------------------------------------------------------

  private runGroup(g: Callers, end: number): void {
    const next = g.next;
    const timeout = g.spec.timeout;
    const pool = g.pool;
    const cip = g.spec.entry === "cluster-ip";
    for (let c = 0; c < g.n; c++) {
      let t = next[c]!;
      while (t < end) {
        next[c] = t + g.gap();
        // An in-cluster caller on a lost node is lost with it: it sends nothing.
        if (cip && this.nodeDown[g.clientNode[c]!]) {
          t = next[c]!;
          continue;
        }
        const sec = Math.floor(t);
        this.rows[sec * 5]!++;
        g.totals.sent++;
        g.budgetRequests[sec]!++;
        // The connection that frees first (FIFO over the pool).
        let k = c * pool;
        for (let j = k + 1; j < (c + 1) * pool; j++) if (g.slotFree[j]! < g.slotFree[k]!) k = j;
        const start = Math.max(t, g.slotFree[k]!);
        if (start - t >= timeout) {
          this.fail(g, t, TIMEOUT, C_POOL);
          t = next[c]!;
          continue;
        }
        // The caller's timeout runs from the request's creation, time queued in the pool included
        // (as Go's http.Client.Timeout); a retry gets a fresh per-try timeout from its dispatch.
        let deadline = t + timeout;
        this.attempt(g, c, k, start, deadline);
        let tries = 0;
        while (this.rOutcome !== OK && tries < g.spec.retries && this.retryAllowed(g, sec)) {
          tries++;
          g.budgetRetries[sec]!++;
          const s = this.rEnd;
          deadline = s + timeout;
          this.attempt(g, c, k, s, deadline);
        }
        g.slotFree[k] = this.rEnd;
        g.slotSent[k] = t;
        if (this.rOutcome === OK) {
          g.slotPending[k] = 1;
          this.rows[sec * 5 + 1]!++;
          g.totals.ok++;
        } else {
          g.slotPending[k] = 0;
          this.fail(g, t, this.rOutcome, this.rCause);
        }
        t = next[c]!;
      }
    }
  }

  /** Linkerd's retry budget: retries in the last 10s ≤ max(ratio × requests, minRetriesPerSecond × 10). */
  private retryAllowed(g: Callers, sec: number): boolean {
    const b = g.spec.retryBudget;
    if (!b) return true;
    let req = 0;
    let ret = 0;
    for (let s = Math.max(0, sec - 9); s <= sec; s++) {
      req += g.budgetRequests[s]!;
      ret += g.budgetRetries[s]!;
    }
    return ret < Math.max(b.ratio * req, b.minRetriesPerSecond * 10);
  }

  /** One attempt on connection slot k, started at s; sets rOutcome, rCause, rEnd. */
  private attempt(g: Callers, c: number, k: number, s: number, deadline: number): void {
    const spec = g.spec;
    let ep = -1;
    let entry = -1;
    let reused = false;
    // Through the load balancer every request is balanced anew over the nodes in rotation (an
    // HTTP load balancer); the caller's kept-alive connection ends at the balancer, which is up.
    // So does a caller's proxy with outlier detection: Envoy picks a host per request.
    if (spec.keepAlive && spec.entry !== "load-balancer" && !g.od && g.slotEp[k]! >= 0) {
      ep = g.slotEp[k]!;
      entry = g.slotEntry[k]!;
      reused = true;
    } else if (!this.route(g, c, s, deadline)) {
      g.slotEp[k] = -1;
      return;
    } else {
      ep = this.rEp;
      entry = this.rEntry;
    }
    const st = this.epState[ep]!;
    if (st === S_NODE_DOWN || (entry >= 0 && this.nodeDown[entry])) {
      this.result(TIMEOUT, reused ? C_KEEPALIVE_LOST : g.od ? C_CALLER_STALE : C_ROUTED_STALE, deadline);
      g.slotEp[k] = -1;
      this.odResult(g, c, ep, false, deadline);
      return;
    }
    if (st === S_HUNG) {
      this.result(TIMEOUT, C_HUNG, deadline);
      g.slotEp[k] = -1;
      this.odResult(g, c, ep, false, deadline);
      return;
    }
    if (st === S_REFUSING) {
      this.result(REFUSED, this.epProbeRestart[ep] ? C_PROBE_RESTART : C_NOT_RUNNING, s);
      g.slotEp[k] = -1;
      this.odResult(g, c, ep, false, s);
      return;
    }
    const cap = this.epCap[ep]!;
    const backlog = this.epWork[ep]! + this.epAdded[ep]! - (s - this.tickStart);
    const queue = Math.max(backlog, 0);
    const done = s + this.epSvcTime[ep]! + queue;
    if (done > deadline) {
      // The caller gives up; the server drops the abandoned request from its queue.
      this.result(TIMEOUT, queue > 0 ? C_OVERLOADED : C_POOL, deadline);
      g.slotEp[k] = -1;
      this.odResult(g, c, ep, false, deadline);
      return;
    }
    if (cap !== Number.POSITIVE_INFINITY) this.epAdded[ep]! += 1 / cap;
    this.result(OK, 0, done);
    if (spec.keepAlive) {
      g.slotEp[k] = ep;
      g.slotEntry[k] = entry;
    } else g.slotEp[k] = -1;
    this.odResult(g, c, ep, true, done);
  }

  private result(outcome: number, cause: number, end: number): void {
    this.rOutcome = outcome;
    this.rCause = cause;
    this.rEnd = end;
  }

  /** A new connection: entry (load balancer, node port, the caller's own node) and endpoint. */
  private route(g: Callers, c: number, s: number, deadline: number): boolean {
    const spec = g.spec;
    let node: number;
    if (spec.entry === "load-balancer") {
      const lb = this.network.balancers.get(g.svc)!;
      node = lb.pick();
      if (node < 0) {
        this.result(ERROR, C_LB_EMPTY, s);
        return false;
      }
    } else node = g.clientNode[c]!;
    if (this.nodeDown[node]) {
      this.result(TIMEOUT, spec.entry === "cluster-ip" ? C_ROUTED_STALE : C_LB_LOST, deadline);
      return false;
    }
    if (g.od) {
      const targets = this.network.proxies[node]!.rules.get(g.svc)?.cluster ?? [];
      const hosts = g.od[c]!;
      const n = targets.length;
      for (let i = 0; i < n; i++) {
        const e = targets[(g.rr[c]! + i) % n]!;
        const h = hosts.get(e.id);
        if (h && h.ejectedAt <= s && s < h.until) continue;
        g.rr[c] = (g.rr[c]! + i + 1) % n;
        this.rEp = e.id;
        this.rEntry = node;
        return true;
      }
      this.result(n === 0 ? REFUSED : ERROR, n === 0 ? C_NO_ENDPOINT : C_ALL_EJECTED, s);
      return false;
    }
    const targets = g.targets[node]!;
    const n = targets.length;
    if (n === 0) {
      if (g.local) this.result(TIMEOUT, C_LOCAL_NONE, deadline);
      else this.result(REFUSED, C_NO_ENDPOINT, s);
      return false;
    }
    this.rEp = n === 1 ? targets[0]! : targets[(g.rng.float() * n) | 0]!;
    this.rEntry = node;
    return true;
  }

  /**
   * Envoy's consecutive_5xx (source/common/upstream/outlier_detection_impl.cc; arch_overview
   * "Outlier detection"): with split_external_local_origin_errors false, timeouts, resets and
   * refused connections count as 5xx. The Nth consecutive one ejects the host at once (if fewer
   * than max_ejection_percent of hosts are ejected, at least one always allowed); it returns at the
   * first interval sweep after base_ejection_time × times ejected (capped by max_ejection_time).
   */
  private odResult(g: Callers, c: number, ep: number, ok: boolean, at: number): void {
    if (!g.od || ep < 0) return;
    const spec = g.spec.outlierDetection!;
    const hosts = g.od[c]!;
    let h = hosts.get(ep);
    if (ok) {
      if (h) h.fails = 0;
      return;
    }
    if (!h) {
      h = { fails: 0, times: 0, ejectedAt: Number.POSITIVE_INFINITY, until: Number.NEGATIVE_INFINITY };
      hosts.set(ep, h);
    }
    h.fails++;
    if (h.fails < spec.consecutive5xx || (h.ejectedAt <= at && at < h.until)) return;
    const total = this.network.proxies[g.clientNode[c]!]!.rules.get(g.svc)?.cluster.length ?? 1;
    let ejected = 0;
    for (const o of hosts.values()) if (o.ejectedAt <= at && at < o.until) ejected++;
    const max = Math.max(1, Math.floor((total * spec.maxEjectionPercent) / 100));
    if (ejected >= max) return;
    h.times++;
    h.fails = 0;
    const duration = Math.min(
      spec.baseEjectionTime * h.times,
      Math.max(spec.maxEjectionTime, spec.baseEjectionTime),
    );
    h.ejectedAt = at;
    h.until = Math.ceil((at + duration) / spec.interval) * spec.interval;
  }

  private fail(g: Callers, sent: number, outcome: number, cause: number): void {
    const sec = Math.floor(sent);
    this.rows[sec * 5 + 1 + outcome]!++;
    g.totals[OUTCOMES[outcome]!]++;
    this.causeCounts[cause]!++;
    if (sent < this.causeFirst[cause]!) this.causeFirst[cause] = sent;
    if (sent > this.causeLast[cause]!) this.causeLast[cause] = sent;
    if (sent < this.first) this.first = sent;
    if (sent > this.last) this.last = sent;
    if (sent < g.first) g.first = sent;
    if (sent > g.last) g.last = sent;
    g.episodeLost++;
    if (!g.failing) {
      g.failing = true;
      this.ctx.trace.emit({
        type: "RequestsFailing",
        lane: "app",
        object: `Service/${g.svc}`,
        service: g.svc,
        outcome: OUTCOMES[outcome]!,
        cause: CAUSES[cause]!,
        sentAt: sent,
        timeoutSeconds: g.spec.timeout,
      });
    }
  }

  result_(): TrafficResult {
    this.advance(this.ctx.scenario.duration + TICK);
    const perSecond: TrafficRow[] = [];
    const totals: TrafficTotals = { sent: 0, ok: 0, timeout: 0, refused: 0, error: 0 };
    for (let s = 0; s < this.seconds; s++) {
      const r = this.rows;
      const row = {
        t: s,
        sent: r[s * 5]!,
        ok: r[s * 5 + 1]!,
        timeout: r[s * 5 + 2]!,
        refused: r[s * 5 + 3]!,
        error: r[s * 5 + 4]!,
      };
      perSecond.push(row);
      totals.sent += row.sent;
      totals.ok += row.ok;
      totals.timeout += row.timeout;
      totals.refused += row.refused;
      totals.error += row.error;
    }
    const causes = CAUSES.map((cause, i) => ({
      cause: cause as string,
      count: this.causeCounts[i]!,
      first: round3(this.causeFirst[i]!),
      last: round3(this.causeLast[i]!),
    }))
      .filter((c) => c.count > 0)
      .sort((a, b) => b.count - a.count);
    const any = this.first !== Number.POSITIVE_INFINITY;
    return {
      totals,
      perSecond,
      profile: this.profile,
      causes,
      firstFailure: any ? round3(this.first) : null,
      lastFailure: any ? round3(this.last) : null,
      lossWindow: any ? round3(this.last - this.first) : 0,
      services: this.groups.map((g) => {
        const has = g.first !== Number.POSITIVE_INFINITY;
        return {
          service: g.svc,
          entry: g.spec.entry,
          policy: this.network.policy(g.svc),
          totals: { ...g.totals },
          firstFailure: has ? round3(g.first) : null,
          lastFailure: has ? round3(g.last) : null,
          lossWindow: has ? round3(g.last - g.first) : 0,
        };
      }),
    };
  }

  get networkSettings(): NetworkSettings {
    return this.settings;
  }
}
