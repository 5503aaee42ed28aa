// Callers of Services, request by request: open-loop arrivals over connection pools with
// keep-alive (callers.ts), per-attempt timeouts, retries within a retry budget (retry-budget.ts),
// routing and outlier detection (routing.ts, outlier-detection.ts), and what each request meets in
// the data plane (network/: load balancer → node → kube-proxy rules → endpoint → the process and
// its queue, endpoints.ts), or for a caller that resolves a headless Service itself, its DNS
// answers (dns-callers.ts); everything counted by tally.ts, every request's latency included.
//
// Cost: requests are not engine events. One engine event per tick (TICK seconds) resolves every
// request that arrived since the previous one, arithmetically, against the state of the data plane
// at that moment; every change of that state (a kube-proxy sync, a load balancer decision, a
// timeline step) first resolves the requests sent before it. A request that waits in its caller's
// pool past the current tick is dispatched in a later one, so it is routed with the state of the
// moment it leaves, not of the moment it was created. Request times are continuous (Poisson draws),
// compared with each other; engine times are compared on the engine's grid.
//
// Names in the request loop: `g` is a CallerGroup (one `traffic:` entry), `c` one of its clients,
// `k` a connection slot of that client, `t` a request's send time, `s` an attempt's start, `ep` an
// endpoint id (network.ts gives one per pod IP), `a` the Attempt every try writes its result into.

import { elapsed } from "../engine/time.ts";
import type { Network } from "../network/network.ts";
import type { TrafficSpec } from "../scenario/types.ts";
import { CallerGroup } from "./callers.ts";
import { DnsCallers } from "./dns-callers.ts";
import { DEFAULT_SERVICE_TIME, Endpoints, S_HUNG, S_NODE_DOWN, S_REFUSING } from "./endpoints.ts";
import type { TrafficEnv } from "./env.ts";
import {
  C_CALLER_STALE,
  C_DNS_ALL_DEAD,
  C_DNS_EMPTY,
  C_DNS_STALE,
  C_HUNG,
  C_INFLIGHT_CONTAINER,
  C_INFLIGHT_NODE,
  C_KEEPALIVE_LOST,
  C_NOT_RUNNING,
  C_OVERLOADED,
  C_POOL,
  C_PROBE_RESTART,
  C_ROUTED_STALE,
  ERROR,
  OK,
  REFUSED,
  slowCause,
  TIMEOUT,
} from "./outcomes.ts";
import { notePoolLimit } from "./pool-note.ts";
import type { TrafficResult } from "./result.ts";
import { Attempt, Router } from "./routing.ts";
import { Tally } from "./tally.ts";

export type { TrafficEnv } from "./env.ts";

/** Seconds between traffic ticks: the longest a state change can go unnoticed by callers. */
export const TICK = 0.02;

/**
 * An advance that would change nothing returns at once (tests turn it off to compare the two, and
 * read how many returned so).
 */
export const quietTicks = { enabled: true, returned: 0 };

export class TrafficModel {
  private readonly groups: CallerGroup[];
  /** every request sent before this time is resolved */
  private at = 0;
  private readonly tally: Tally;
  private readonly endpoints: Endpoints;
  private readonly router: Router;
  /** the result of the last attempt (reused: a request allocates nothing) */
  private readonly attempt = new Attempt();
  /** the result, once asked for (its histograms are freed then) */
  private done: TrafficResult | undefined;

  constructor(
    private readonly env: TrafficEnv,
    specs: readonly TrafficSpec[],
    readonly network: Network,
    private readonly profile: string,
  ) {
    const seconds = Math.ceil(env.duration);
    this.groups = specs.map((s, i) => {
      const g = new CallerGroup(
        i,
        s,
        network.nodes.length,
        env.engine.rng.fork(`traffic/${i}/${s.service}`),
        (s.entry === "load-balancer" || s.entry === "node-port") && network.policy(s.service) === "Local",
        seconds,
        env.trace,
      );
      const dns = network.dns.get(s.service);
      if (s.entry === "dns" && dns)
        g.dns = new DnsCallers(
          dns,
          s.clients,
          s.dnsRefresh ?? 0,
          s.keepaliveTime === undefined
            ? Number.POSITIVE_INFINITY
            : s.keepaliveTime + (s.keepaliveTimeout ?? 0),
          (ep) => this.endpoints.state[ep] === S_NODE_DOWN,
        );
      return g;
    });
    this.tally = new Tally(seconds, env.trace, this.groups);
    this.endpoints = new Endpoints(network, env.endpoints, {
      nodeLost: (node, at) => this.nodeLost(node, at),
      endpointStopped: (ep, at, outcome) => this.endpointStopped(ep, at, outcome),
    });
    this.router = new Router(network, this.endpoints.nodeDown);
    this.endpoints.refresh(0);
    for (const g of this.groups) notePoolLimit(env.trace, g, this.serviceTime(g));
    // One timer for every tick, re-armed in place (the order among an instant's events at() gives).
    const engine = env.engine;
    let k = 1;
    const timer = engine.at(TICK, () => {
      this.advance(k * TICK);
      if (++k * TICK <= env.duration) engine.rearm(timer, k * TICK);
    });
    if (TICK > env.duration) engine.cancel(timer);
    // Resolve the requests sent before each timeline step with the state before it.
    for (const at of env.stepTimes) engine.at(at, () => this.advance(at));
  }

  /** Seconds a health check sent to this pod now waits for its answer (Context.traffic). */
  healthCheckLatency(podIP: string, now: number): number {
    const id = this.network.idOf(podIP);
    if (id === undefined || id >= this.endpoints.known) return DEFAULT_SERVICE_TIME;
    this.advance(now);
    return this.endpoints.healthCheckLatency(id, elapsed(now, this.endpoints.since));
  }

  /** The fastest service time of the group's Service's endpoints now (the default without any). */
  private serviceTime(g: CallerGroup): number {
    const list = this.network.proxies[0]?.rules.get(g.service)?.cluster ?? [];
    let min = Number.POSITIVE_INFINITY;
    for (const e of list)
      if (e.id < this.endpoints.known) min = Math.min(min, this.endpoints.serviceTimeOf(e.id));
    return Number.isFinite(min) ? min : DEFAULT_SERVICE_TIME;
  }

  /** Resolve every request sent before `to`. */
  advance(to: number): void {
    if (to <= this.at) return;
    const from = this.at;
    if (quietTicks.enabled && this.quiet(from, to)) {
      quietTicks.returned++;
      this.at = to;
      return;
    }
    this.endpoints.refresh(from);
    this.endpoints.drain(from, elapsed(from, this.endpoints.since));
    const end = Math.min(to, this.env.duration);
    // the last advance: every request still queued in a pool is dispatched now
    const last = to > this.env.duration;
    for (const g of this.groups) {
      this.router.readTargets(g, this.endpoints.changeDriven);
      this.send(g, end, last);
    }
    this.at = to;
    this.tally.settle(this.groups, to, !this.endpoints.changeDriven);
  }

  /**
   * An advance from `from` to `to` would change nothing: no request is due before `to` (arrived,
   * or queued in a pool), the endpoint table would read nothing and drain nothing, and the tally
   * would tell nothing. (A Service's targets are read again by the next advance that sends.)
   */
  private quiet(from: number, to: number): boolean {
    if (to > this.env.duration || !this.endpoints.quiet(from)) return false;
    for (const g of this.groups) if (g.earliest < to) return false;
    return this.tally.quiet(this.groups, to);
  }

  // ---- requests in flight when the data plane changes ------------------------------------------

  private nodeLost(node: number, at: number): void {
    const nodeOf = this.endpoints.node;
    for (const g of this.groups) {
      if (g.dns)
        for (let ep = 0; ep < this.endpoints.known; ep++) if (nodeOf[ep] === node) g.dns.nodeLost(ep, at);
      for (let k = 0; k < g.slotEndpoint.length; k++) {
        const ep = g.slotEndpoint[k]!;
        if (ep < 0) continue;
        if (nodeOf[ep] !== node && g.slotEntry[k] !== node) continue;
        // An idle kept-alive connection stays open: nothing tells the caller the node is gone,
        // so its next request hangs. One in flight times out, and the caller closes it then.
        if (this.retract(g, k, at, TIMEOUT, C_INFLIGHT_NODE)) g.slotEndpoint[k] = -1;
      }
    }
  }

  private endpointStopped(ep: number, at: number, outcome: number): void {
    for (const g of this.groups) {
      for (let k = 0; k < g.slotEndpoint.length; k++) {
        if (g.slotEndpoint[k] !== ep) continue;
        this.retract(g, k, at, outcome, outcome === TIMEOUT ? C_HUNG : C_INFLIGHT_CONTAINER);
        if (outcome === REFUSED) g.slotEndpoint[k] = -1;
      }
      // A container that stops resets its connections: a gRPC client reconnects (routed anew).
      if (outcome === REFUSED)
        for (let c = 0; c < g.clients; c++) if (g.connEndpoint[c] === ep) g.connEndpoint[c] = -1;
    }
  }

  /** A request counted ok that was still in flight at `at` fails after all. */
  private retract(g: CallerGroup, k: number, at: number, outcome: number, cause: number): boolean {
    if (!g.slotPending[k] || g.slotFree[k]! <= at) return false;
    g.slotPending[k] = 0;
    const sent = g.slotSent[k]!;
    const end = outcome === TIMEOUT ? sent + g.spec.timeout : at;
    this.tally.unOk(g, Math.floor(sent));
    this.tally.fail(g, sent, outcome, cause, end);
    g.setFree(k, end);
    return true;
  }

  // ---- requests ---------------------------------------------------------------------------------

  /**
   * Every request of the group's clients sent before `end` and dispatched on a connection before it
   * (one still queued then waits for a later tick, unless this is the `last`).
   */
  private send(g: CallerGroup, end: number, last: boolean): void {
    const next = g.nextArrival;
    const timeout = g.spec.timeout;
    const closedLoop = g.spec.closedLoop;
    const inCluster = g.spec.entry === "cluster-ip" || g.spec.entry === "dns";
    const nodeDown = this.endpoints.nodeDown;
    const budget = g.retryBudget;
    const a = this.attempt;
    let earliest = Number.POSITIVE_INFINITY;
    for (let c = 0; c < g.clients; c++) {
      let t = next[c]!;
      while (t < end) {
        // An in-cluster caller on a lost node is lost with it: it sends nothing.
        if (inCluster && nodeDown[g.clientNode[c]!]) {
          t = next[c] = t + g.gap();
          continue;
        }
        // The connection that frees first (FIFO over the pool).
        const k = g.heap.first(c);
        const start = Math.max(t, g.slotFree[k]!);
        const queued = start - t;
        // Still queued when this tick ends: dispatched (and routed) in the tick it leaves in.
        if (start >= end && queued < timeout && !last) break;
        next[c] = t + g.gap();
        const sec = Math.floor(t);
        this.tally.sent(g, sec);
        budget?.request(sec);
        if (queued >= timeout) {
          this.tally.fail(g, t, TIMEOUT, C_POOL, t + timeout);
          t = next[c]!;
          continue;
        }
        // The connection's last request can no longer fail: it is answered.
        if (g.slotPending[k]) this.tally.answered(g, k);
        // The caller's timeout runs from the request's creation, time queued in the pool included
        // (as Go's http.Client.Timeout); a retry gets a fresh per-try timeout from its dispatch.
        let deadline = t + timeout;
        this.tryOnce(g, c, k, start, deadline);
        let tries = 0;
        while (a.outcome !== OK && tries < g.spec.retries && (!budget || budget.allows(sec))) {
          tries++;
          budget?.retry(sec);
          const s = a.end;
          deadline = s + timeout;
          this.tryOnce(g, c, k, s, deadline);
        }
        g.setFree(k, a.end);
        g.slotSent[k] = t;
        // A closed loop sends its next request once this one has its answer (or has failed).
        if (closedLoop && next[c]! < a.end) next[c] = a.end;
        if (a.outcome === OK) {
          g.slotPending[k] = 1;
          if (!g.listed[k]) g.pendingList.push(k);
          g.listed[k] = 1;
          g.slotSlow[k] =
            a.end - t > g.slo ? 1 + slowCause(queued, a.start - start, a.queue, a.end - a.start) : 0;
          this.tally.ok(g, sec);
        } else {
          g.slotPending[k] = 0;
          this.tally.fail(g, t, a.outcome, a.cause, a.end);
        }
        t = next[c]!;
      }
      if (t < earliest) earliest = t;
    }
    g.earliest = earliest;
  }

  /** One attempt of client `c` on connection slot `k`, started at `s`: sets this.attempt. */
  private tryOnce(g: CallerGroup, c: number, k: number, s: number, deadline: number): void {
    const spec = g.spec;
    const a = this.attempt;
    const eps = this.endpoints;
    const od = g.outlierDetection?.[c];
    const dns = g.dns;
    let ep: number;
    let entry: number;
    let reused = false;
    a.start = s;
    a.queue = 0;
    // Through the load balancer every request is balanced anew over the nodes in rotation (an
    // HTTP load balancer); the caller's kept-alive connection ends at the balancer, which is up.
    // So does a caller's proxy with outlier detection: Envoy picks a host per request; and a
    // caller that resolves the Service itself, round-robin over its addresses.
    if (dns) {
      ep = dns.pick(c, s);
      if (ep < 0) {
        a.set(ERROR, ep === -1 ? C_DNS_EMPTY : C_DNS_ALL_DEAD, s);
        dns.failed(c, s);
        g.slotEndpoint[k] = -1;
        return;
      }
      entry = -1;
    } else if (spec.multiplexed && spec.entry !== "load-balancer" && !od && g.connEndpoint[c]! >= 0) {
      // gRPC: every request of the client is a stream on its one HTTP/2 connection.
      ep = g.connEndpoint[c]!;
      entry = g.connEntry[c]!;
      reused = true;
    } else if (
      spec.keepAlive &&
      spec.entry !== "load-balancer" &&
      !od &&
      g.slotEndpoint[k]! >= 0 &&
      // a connection idle past the client's idle timeout was closed (Go's IdleConnTimeout…)
      s - g.slotFree[k]! <= spec.idleTimeout
    ) {
      ep = g.slotEndpoint[k]!;
      entry = g.slotEntry[k]!;
      reused = true;
    } else if (!this.router.route(g, c, s, deadline, a)) {
      g.slotEndpoint[k] = -1;
      return;
    } else {
      ep = a.endpoint;
      entry = a.entry;
    }
    const st = eps.state[ep]!;
    let ok = false;
    if (st === S_NODE_DOWN || (entry >= 0 && eps.nodeDown[entry])) {
      const cause = reused ? C_KEEPALIVE_LOST : od ? C_CALLER_STALE : dns ? C_DNS_STALE : C_ROUTED_STALE;
      a.set(TIMEOUT, cause, deadline);
    } else if (st === S_HUNG) {
      a.set(TIMEOUT, C_HUNG, deadline);
    } else if (st === S_REFUSING) {
      a.set(REFUSED, eps.probeRestart[ep] ? C_PROBE_RESTART : C_NOT_RUNNING, s);
    } else {
      const queue = eps.backlog(ep, s);
      const done = s + eps.serviceTimeOf(ep) + queue;
      if (done > deadline) {
        // The caller gives up; the server drops the abandoned request from its queue.
        a.set(TIMEOUT, queue > 0 ? C_OVERLOADED : C_POOL, deadline);
      } else {
        eps.admit(ep);
        a.set(OK, 0, done);
        a.queue = queue;
        ok = true;
      }
    }
    // The client keeps at most maxIdle connections alive (Go's MaxIdleConnsPerHost: one returned
    // when that many are idle is closed); the model keeps its first maxIdle slots, not the most
    // recently used ones. A timed-out HTTP/1.1 request's connection is closed; on HTTP/2 a
    // deadline ends the stream, not the connection, which only a reset (refused) closes.
    if (ok && spec.keepAlive && (spec.multiplexed || k - c * g.poolSize < spec.maxIdle)) {
      g.slotEndpoint[k] = ep;
      g.slotEntry[k] = entry;
    } else g.slotEndpoint[k] = -1;
    if (spec.multiplexed) {
      if (ok) {
        g.connEndpoint[c] = ep;
        g.connEntry[c] = entry;
      } else if (a.outcome === REFUSED || a.outcome === ERROR) g.connEndpoint[c] = -1;
    }
    if (od && ep >= 0) od.result(ep, ok, a.end, this.router.hostsOf(g, c));
    if (dns && !ok) dns.failed(c, a.end);
  }

  result(): TrafficResult {
    if (this.done) return this.done;
    this.advance(this.env.duration + TICK);
    this.done = this.tally.result(this.groups, (svc) => this.network.policy(svc), this.profile);
    return this.done;
  }
}
