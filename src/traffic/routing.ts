// Where a new connection goes: in at the load balancer (the next node in its rotation), a node
// port or the caller's own node, then through that node's kube-proxy rules (network/kube-proxy.ts)
// to an endpoint, picked at random as iptables' statistic match does; or, for a caller whose proxy
// does outlier detection, round-robin over the hosts it has not ejected. Every attempt's result is
// written into one reused Attempt (a request allocates nothing).

import type { Network } from "../network/network.ts";
import type { CallerGroup } from "./callers.ts";
import {
  C_ALL_EJECTED,
  C_LB_EMPTY,
  C_LB_LOST,
  C_LOCAL_NONE,
  C_NO_ENDPOINT,
  C_NODE_PORT_LOST,
  C_ROUTED_STALE,
  ERROR,
  REFUSED,
  TIMEOUT,
} from "./outcomes.ts";

/** The result of the last attempt: its outcome and cause and when it ended; where a new connection went. */
export class Attempt {
  outcome = 0;
  cause = 0;
  end = 0;
  /** when the attempt started, and (answered ok) how long it queued in the pod */
  start = 0;
  queue = 0;
  /** the endpoint id a new connection goes to */
  endpoint = -1;
  /** the node index it enters by */
  entry = -1;

  set(outcome: number, cause: number, end: number): void {
    this.outcome = outcome;
    this.cause = cause;
    this.end = end;
  }
}

/** A Service without rules on a node: no target. */
const NO_TARGETS: readonly { id: number }[] = [];

export class Router {
  /** each rules' target list as endpoint ids (routing reads them, never writes) */
  private readonly targetIds = new WeakMap<readonly { id: number }[], Int32Array>();

  constructor(
    private readonly network: Network,
    /** per node index: its data plane is down */
    private readonly nodeDown: Uint8Array,
  ) {}

  /**
   * A new connection of client `c`, started at `s`: true with `a.endpoint` and `a.entry` set, or
   * false with the attempt's failure set (a timeout ends at `deadline`, a refusal or error at once).
   */
  route(g: CallerGroup, c: number, s: number, deadline: number, a: Attempt): boolean {
    const entry = g.spec.entry;
    let node: number;
    if (entry === "load-balancer") {
      node = this.network.balancers.get(g.service)!.pick();
      if (node < 0) {
        a.set(ERROR, C_LB_EMPTY, s);
        return false;
      }
    } else node = g.clientNode[c]!;
    if (this.nodeDown[node]) {
      const cause =
        entry === "cluster-ip" ? C_ROUTED_STALE : entry === "node-port" ? C_NODE_PORT_LOST : C_LB_LOST;
      a.set(TIMEOUT, cause, deadline);
      return false;
    }
    const od = g.outlierDetection?.[c];
    if (od) {
      const targets = this.network.proxies[node]!.clusterTargets(g.service) ?? [];
      const ep = od.pick(targets, s);
      if (ep < 0) {
        const none = targets.length === 0;
        a.set(none ? REFUSED : ERROR, none ? C_NO_ENDPOINT : C_ALL_EJECTED, s);
        return false;
      }
      a.endpoint = ep;
      a.entry = node;
      return true;
    }
    const targets = g.targets[node]!;
    const n = targets.length;
    if (n === 0) {
      // Local: the node has no local endpoint and DROPs; Cluster: no endpoint at all, REJECT.
      if (g.local) a.set(TIMEOUT, C_LOCAL_NONE, deadline);
      else a.set(REFUSED, C_NO_ENDPOINT, s);
      return false;
    }
    a.endpoint = n === 1 ? targets[0]! : targets[(g.rng.float() * n) | 0]!;
    a.entry = node;
    return true;
  }

  /**
   * A Service's rules are rebuilt when they change (network/kube-proxy.ts ServiceRules), at a
   * kube-proxy sync: between syncs nothing is read. A node's unchanged rules give the same array,
   * read once, and nodes with the same rules share one list of ids.
   */
  readTargets(g: CallerGroup, changeDriven: boolean): void {
    const version = this.network.rulesVersion;
    if (g.rulesRead === version && changeDriven) return;
    g.rulesRead = version;
    const proxies = this.network.proxies;
    for (let i = 0; i < proxies.length; i++) {
      const p = proxies[i]!;
      const rules = p.rules.get(g.service);
      const list =
        (g.local && !g.outlierDetection ? rules?.localTargets(p.node) : p.clusterTargets(g.service)) ??
        NO_TARGETS;
      if (g.targetLists[i] === list && g.targets[i] !== undefined) continue;
      g.targetLists[i] = list;
      let ids = this.targetIds.get(list);
      if (!ids) {
        ids = Int32Array.from(list, (e) => e.id);
        this.targetIds.set(list, ids);
      }
      g.targets[i] = ids;
    }
    g.targets.length = proxies.length;
    g.targetLists.length = proxies.length;
  }

  /** How many hosts client `c`'s proxy knows (what outlier detection's max_ejection_percent counts). */
  hostsOf(g: CallerGroup, c: number): number {
    return this.network.proxies[g.clientNode[c]!]!.clusterTargets(g.service)?.length ?? 1;
  }
}
