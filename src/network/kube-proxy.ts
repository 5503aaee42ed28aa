// kube-proxy, one per node, each with its own lagging view of the EndpointSlices it routes from.
//
// - The view changes endpointPropagationSeconds after the EndpointSlice write (informer latency),
//   then at the next rule sync the BoundedFrequencyRunner allows: at least minSyncPeriod (1s) after
//   the previous sync started (pkg/util/async/bounded_frequency_runner.go, with burstSyncs 2 in
//   pkg/proxy/iptables/proxier.go; faultline takes the newer runner's reading: no bursts). The 30s syncPeriod resync changes no
//   rule when nothing changed, so it costs no event here.
// - Routing (pkg/proxy/iptables/proxier.go with KEP-1669 ProxyTerminatingEndpoints): Cluster
//   traffic goes to any ready endpoint, falling back to serving-and-terminating ones when none is
//   ready; no endpoint at all → REJECT (the caller sees a refusal). Local traffic (an
//   externalTrafficPolicy: Local Service reached through a node) goes only to the node's own
//   endpoints, with the same fallback; none → DROP (the caller times out).
// - healthCheckNodePort answers 200 while the node has at least one local *ready* endpoint, 503
//   otherwise (pkg/proxy/healthcheck/service_health.go counting pkg/proxy/endpoints.go's
//   LocalReadyEndpoints): a node whose only local pods are terminating fails the load balancer's
//   check while its kube-proxy still sends to them, which is how KEP-1669 drains a node.
// - A kube-proxy on a node whose data plane is down (powered off, cut off) cannot watch the API:
//   it keeps its last view, and catches up with the next change after it is back.

import type { NetworkSettings } from "../scenario/types.ts";
import type { DataPlaneEnv } from "./data-plane-env.ts";

/** An endpoint as a kube-proxy holds it; `id` indexes the traffic model's per-endpoint arrays. */
export interface EndpointView {
  id: number;
  ip: string;
  node: string;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
}

/** One Service's rules on one node: precomputed target lists, so routing a connection is one index. */
export class ServiceRules {
  /** ready endpoints, else serving-terminating ones (KEP-1669); empty: REJECT */
  readonly cluster: EndpointView[];
  private readonly local = new Map<string, EndpointView[]>();
  private readonly localReady = new Map<string, number>();

  constructor(readonly endpoints: readonly EndpointView[]) {
    const ready = endpoints.filter((e) => e.ready);
    this.cluster = ready.length > 0 ? ready : endpoints.filter((e) => e.serving && e.terminating);
    const byNode = new Map<string, EndpointView[]>();
    for (const e of endpoints) {
      const list = byNode.get(e.node) ?? [];
      list.push(e);
      byNode.set(e.node, list);
    }
    for (const [node, list] of byNode) {
      const r = list.filter((e) => e.ready);
      this.localReady.set(node, r.length);
      this.local.set(node, r.length > 0 ? r : list.filter((e) => e.serving && e.terminating));
    }
  }

  /** externalTrafficPolicy: Local targets on a node; empty: DROP */
  localTargets(node: string): EndpointView[] {
    return this.local.get(node) ?? EMPTY;
  }

  /** What healthCheckNodePort counts. */
  localReadyCount(node: string): number {
    return this.localReady.get(node) ?? 0;
  }
}

const EMPTY: EndpointView[] = [];

export class KubeProxy {
  rules = new Map<string, ServiceRules>();
  private seen = new Map<string, ServiceRules>();
  private lastSync = Number.NEGATIVE_INFINITY;
  private syncPending = false;

  constructor(
    private readonly ctx: Pick<DataPlaneEnv, "engine" | "trace" | "machines">,
    readonly node: string,
    private readonly settings: NetworkSettings,
    /** called before the rules change, so traffic up to now is resolved with the old rules */
    private readonly beforeChange: () => void,
    private readonly onSync: (proxy: KubeProxy, before: Map<string, ServiceRules>) => void,
  ) {}

  /** The state at t=0: in sync with the API. */
  prime(service: string, rules: ServiceRules): void {
    this.rules.set(service, rules);
    this.seen.set(service, rules);
  }

  /** Changes were missed while the node was cut off or off: its informer must relist. */
  stale = false;

  /** An EndpointSlice change written at `now`: seen after the propagation delay, applied at the next sync. */
  observe(service: string, rules: ServiceRules): void {
    this.ctx.engine.after(this.settings.endpointPropagationSeconds, () => {
      if (this.ctx.machines.dataPlane(this.node) !== "up") {
        this.stale = true;
        return;
      }
      this.seen.set(service, rules);
      this.requestSync();
    });
  }

  /**
   * The informer's watch reconnected (or kube-proxy started with the rebooted machine): it relists
   * every EndpointSlice and syncs its rules from the full state, not from the changes it missed.
   */
  relist(current: Iterable<[string, ServiceRules]>): void {
    this.stale = false;
    for (const [service, rules] of current) this.seen.set(service, rules);
    this.requestSync();
  }

  private requestSync(): void {
    if (this.syncPending) return;
    this.syncPending = true;
    const at = Math.max(this.ctx.engine.now, this.lastSync + this.settings.kubeProxy.minSyncPeriod);
    this.ctx.engine.at(at, () => this.sync());
  }

  private sync(): void {
    this.syncPending = false;
    this.lastSync = this.ctx.engine.now;
    this.beforeChange();
    const before = this.rules;
    this.rules = new Map(this.seen);
    this.onSync(this, before);
  }
}
