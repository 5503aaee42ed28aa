// A cloud load balancer in front of a Service's nodes (type: LoadBalancer), with active health
// checks as DigitalOcean's cloud controller manager names them (check-interval-seconds,
// response-timeout-seconds, unhealthy-threshold, healthy-threshold: the
// service.beta.kubernetes.io/do-loadbalancer-healthcheck-* annotations, digitalocean/
// digitalocean-cloud-controller-manager docs/controllers/services/annotations.md).
//
// - What it checks: with externalTrafficPolicy: Local, the Service's healthCheckNodePort on each
//   node, which kube-proxy answers 200 only while the node has a local ready endpoint; with
//   Cluster, kube-proxy's own /healthz (port 10256), healthy while the node's data plane is up.
// - A check against a node that does not answer fails after min(response timeout, interval): as
//   HAProxy does it, the connect timeout of a check is min(`timeout connect`, `inter`) (HAProxy
//   configuration manual, "timeout check"). Checks start every interval from a random phase.
// - A node leaves the rotation after unhealthyThreshold consecutive failures and returns after
//   healthyThreshold consecutive successes. New connections go round-robin over the nodes in
//   rotation; connections already open stay where they are (an L4 balancer does not move them).
// - Warm at t=0: a Service that exists through the warm-up (start: running) has had its balancer
//   checking every node for 10 minutes, like every other timer; the state those checks settle in
//   is computed, not simulated (DESIGN "computed, not simulated"): each node's check as it answers
//   at t=0, taken as having answered so for more than either threshold's worth of checks. So a
//   healthy cluster's Local Service is in rotation only on the nodes with a local ready endpoint,
//   the others having failed healthCheckNodePort (503) all along. The kube-proxies start in sync
//   with the API at t=0 too (kube-proxy.ts prime): a readiness that changed in the warm-up's last
//   few checks is taken as settled. A Service created at t=0 (start: created) gets its balancer
//   then, with every node in rotation until its checks say otherwise.

import type { NetworkSettings } from "../scenario/types.ts";
import type { DataPlaneEnv } from "./data-plane-env.ts";
import type { KubeProxy } from "./kube-proxy.ts";

/** What a failed check met: no answer in time, or kube-proxy's 503 (no local ready endpoint). */
type CheckFailure = { failure: "no-answer"; waitSeconds: number } | { failure: "no-local-endpoint" };

export class LoadBalancer {
  /** node index → in rotation */
  readonly healthy: boolean[];
  private readonly fails: number[];
  private readonly oks: number[];
  private rr = 0;
  /** nodes in rotation, for round-robin; rebuilt on change */
  private rotation: number[];

  constructor(
    private readonly ctx: Pick<DataPlaneEnv, "engine" | "trace" | "machines">,
    readonly service: string,
    readonly local: boolean,
    readonly nodes: readonly string[],
    private readonly proxies: readonly KubeProxy[],
    private readonly settings: NetworkSettings,
    private readonly beforeChange: () => void,
    /** the Service existed through the warm-up: its checks have settled (above) */
    warm: boolean,
  ) {
    const lb = settings.loadBalancer;
    this.healthy = nodes.map((_, i) => !warm || this.passes(i));
    this.fails = this.healthy.map((h) => (h ? 0 : lb.unhealthyThreshold));
    this.oks = this.healthy.map((h) => (h && warm ? lb.healthyThreshold : 0));
    this.rotation = nodes.map((_, i) => i).filter((i) => this.healthy[i]);
    const rng = ctx.engine.rng.fork(`load-balancer/${service}`);
    const interval = settings.loadBalancer.healthCheckInterval;
    nodes.forEach((_, i) => {
      const phase = rng.uniform(0, interval);
      ctx.engine.after(phase, () => this.check(i));
    });
  }

  /** The node for a new connection, or -1 when no node is in rotation. */
  pick(): number {
    const r = this.rotation;
    if (r.length === 0) return -1;
    this.rr = (this.rr + 1) % r.length;
    return r[this.rr]!;
  }

  /** What node i's check meets now: no answer (its data plane is down), kube-proxy's 503, or 200. */
  private probe(i: number): "no-answer" | "no-local-endpoint" | "ok" {
    const node = this.nodes[i]!;
    if (this.ctx.machines.dataPlane(node) !== "up") return "no-answer";
    if (this.local && (this.proxies[i]!.rules.get(this.service)?.localReadyCount(node) ?? 0) === 0)
      return "no-local-endpoint";
    return "ok";
  }

  private passes(i: number): boolean {
    return this.probe(i) === "ok";
  }

  private check(i: number): void {
    const lb = this.settings.loadBalancer;
    this.ctx.engine.after(lb.healthCheckInterval, () => this.check(i));
    const found = this.probe(i);
    if (found === "no-answer") {
      const wait = Math.min(lb.healthCheckTimeout, lb.healthCheckInterval);
      this.ctx.engine.after(wait, () => this.result(i, false, { failure: "no-answer", waitSeconds: wait }));
    } else if (found === "no-local-endpoint") this.result(i, false, { failure: "no-local-endpoint" });
    else this.result(i, true);
  }

  private result(i: number, ok: boolean, failure?: CheckFailure): void {
    const lb = this.settings.loadBalancer;
    if (ok) {
      this.fails[i] = 0;
      this.oks[i]!++;
      if (!this.healthy[i] && this.oks[i]! >= lb.healthyThreshold) this.set(i, true);
    } else {
      this.oks[i] = 0;
      this.fails[i]!++;
      if (this.healthy[i] && this.fails[i]! >= lb.unhealthyThreshold) this.set(i, false, failure);
    }
  }

  private set(i: number, healthy: boolean, failure?: CheckFailure): void {
    this.beforeChange();
    this.healthy[i] = healthy;
    this.rotation = this.nodes.map((_, j) => j).filter((j) => this.healthy[j]);
    const lb = this.settings.loadBalancer;
    const node = this.nodes[i]!;
    const healthCheck = this.local ? "healthCheckNodePort" : "kube-proxy-healthz";
    const base = {
      lane: "network",
      object: `Node/${node}`,
      node,
      service: this.service,
      healthCheck,
    } as const;
    if (healthy)
      this.ctx.trace.emit({
        type: "LoadBalancerBackendUp",
        ...base,
        healthyThreshold: lb.healthyThreshold,
        healthCheckInterval: lb.healthCheckInterval,
      });
    else
      this.ctx.trace.emit({
        type: "LoadBalancerBackendDown",
        ...base,
        ...failure!,
        unhealthyThreshold: lb.unhealthyThreshold,
        healthCheckInterval: lb.healthCheckInterval,
        healthCheckTimeout: lb.healthCheckTimeout,
      });
  }
}
