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
// - Topology (pkg/proxy/topology.go CategorizeEndpoints, topologyModeFromHints): Cluster traffic
//   goes only to the ready endpoints hinted for this node (every ready endpoint has a node hint and
//   one is this node's: PreferSameNode, read from 1.34 with PreferSameTrafficDistribution), else to
//   those hinted for this node's zone (every ready endpoint has a zone hint and one is this zone's),
//   else to every ready endpoint; the serving-terminating fallback ignores hints. Hints come from
//   the EndpointSlice controller for a Service with `trafficDistribution` (KEP-4444, KEP-3015).
// - healthCheckNodePort answers 200 while the node has at least one local *ready* endpoint, 503
//   otherwise (pkg/proxy/healthcheck/service_health.go counting pkg/proxy/endpoints.go's
//   LocalReadyEndpoints): a node whose only local pods are terminating fails the load balancer's
//   check while its kube-proxy still sends to them, which is how KEP-1669 drains a node.
// - A kube-proxy on a node whose data plane is down (powered off, cut off) cannot watch the API:
//   it keeps its last view, and catches up with the next change after it is back.

import type { InstantBatches } from "../engine/batch.ts";
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
  /** hints.forZones[0] / hints.forNodes[0] (the EndpointSlice controller writes one of each at most) */
  forZone?: string;
  forNode?: string;
}

/** Where a node's kube-proxy sends a Service's Cluster traffic: topologyModeFromHints' answer. */
export type TopologyMode = "" | "PreferSameZone" | "PreferSameNode";

/** A node's Cluster targets, the mode that chose them, and (hints there but not used) kube-proxy's log line why. */
export interface Topology {
  mode: TopologyMode;
  targets: EndpointView[];
  ignored?: string;
}

/** One Service's rules on one node: precomputed target lists, so routing a connection is one index. */
export class ServiceRules {
  /** ready endpoints, else serving-terminating ones (KEP-1669); empty: REJECT */
  readonly cluster: EndpointView[];
  /** per node, made at the first question (only Local traffic and health checks ask) */
  private local: Map<string, EndpointView[]> | undefined;
  private localReady: Map<string, number> | undefined;
  /** some ready endpoint has a hint: the Cluster targets depend on the node */
  private readonly hinted: boolean;
  private readonly byTopology = new Map<string, Topology>();
  private readonly ready: EndpointView[];

  constructor(readonly endpoints: readonly EndpointView[]) {
    const ready = endpoints.filter((e) => e.ready);
    this.ready = ready;
    this.hinted = ready.some((e) => e.forZone !== undefined || e.forNode !== undefined);
    this.cluster = ready.length > 0 ? ready : endpoints.filter((e) => e.serving && e.terminating);
  }

  /** Each node's own endpoints: ready ones, else serving-terminating ones; and how many are ready. */
  private byNode(): { local: Map<string, EndpointView[]>; localReady: Map<string, number> } {
    if (!this.local || !this.localReady) {
      const byNode = new Map<string, EndpointView[]>();
      for (const e of this.endpoints) {
        const list = byNode.get(e.node) ?? [];
        list.push(e);
        byNode.set(e.node, list);
      }
      this.local = new Map();
      this.localReady = new Map();
      for (const [node, list] of byNode) {
        const r = list.filter((e) => e.ready);
        this.localReady.set(node, r.length);
        this.local.set(node, r.length > 0 ? r : list.filter((e) => e.serving && e.terminating));
      }
    }
    return { local: this.local, localReady: this.localReady };
  }

  /**
   * The Cluster targets of the kube-proxy on `node` in `zone` ("" without the label), and the
   * topology mode that chose them. Without hints, `cluster` itself (one array for every node).
   */
  clusterFor(node: string, zone: string): Topology {
    if (!this.hinted) return { mode: "", targets: this.cluster };
    const key = `${node}\n${zone}`;
    let t = this.byTopology.get(key);
    if (!t) {
      const { mode, ignored } = topologyMode(this.ready, node, zone);
      const targets =
        mode === "PreferSameNode"
          ? this.ready.filter((e) => e.forNode === node)
          : mode === "PreferSameZone"
            ? this.ready.filter((e) => e.forZone === zone)
            : this.cluster;
      t = { mode, targets, ...(ignored ? { ignored } : {}) };
      this.byTopology.set(key, t);
    }
    return t;
  }

  /** externalTrafficPolicy: Local targets on a node; empty: DROP */
  localTargets(node: string): EndpointView[] {
    return this.byNode().local.get(node) ?? EMPTY;
  }

  /** What healthCheckNodePort counts. */
  localReadyCount(node: string): number {
    return this.byNode().localReady.get(node) ?? 0;
  }
}

const EMPTY: EndpointView[] = [];

/**
 * topologyModeFromHints (pkg/proxy/topology.go) over the ready endpoints: PreferSameNode when each
 * has a node hint and one is this node's, else PreferSameZone when each has a zone hint and one is
 * this zone's, else "" (every ready endpoint). Node hints exist only from 1.34, where the gate
 * PreferSameTrafficDistribution that lets kube-proxy read them is on (the loader refuses
 * PreferSameNode before).
 */
function topologyMode(
  ready: readonly EndpointView[],
  node: string,
  zone: string,
): { mode: TopologyMode; ignored?: string } {
  if (ready.length === 0) return { mode: "" };
  if (ready.every((e) => e.forNode !== undefined) && ready.some((e) => e.forNode === node))
    return { mode: "PreferSameNode" };
  const zoneHints = ready.every((e) => e.forZone !== undefined);
  if (zoneHints && ready.some((e) => e.forZone === zone)) return { mode: "PreferSameZone" };
  // kube-proxy's own log lines (klog) for the fallback, in topologyModeFromHints' order.
  const ignored = !zoneHints
    ? "Ignoring same-zone topology hints for service since one or more endpoints is missing a zone hint"
    : zone === ""
      ? "Ignoring same-zone topology hints for service since node is missing label topology.kubernetes.io/zone"
      : `Ignoring same-zone topology hints for service since no hints were provided for zone ${zone}`;
  return { mode: "", ignored };
}

export class KubeProxy {
  rules = new Map<string, ServiceRules>();
  private seen = new Map<string, ServiceRules>();
  private lastSync = Number.NEGATIVE_INFINITY;
  private syncPending = false;

  constructor(
    private readonly ctx: Pick<DataPlaneEnv, "engine" | "trace" | "machines">,
    readonly node: string,
    /** the node's topology.kubernetes.io/zone, "" without it (NodeTopologyConfig, pkg/proxy/config) */
    readonly zone: string,
    private readonly settings: NetworkSettings,
    /** called before the rules change, so traffic up to now is resolved with the old rules */
    private readonly beforeChange: () => void,
    private readonly onSync: (proxy: KubeProxy, before: Map<string, ServiceRules>) => void,
    /** where its syncs are queued: every node's for one instant run as one engine event (engine/batch.ts) */
    private readonly syncs: InstantBatches<KubeProxy>,
  ) {}

  /** The state at t=0: in sync with the API. */
  prime(service: string, rules: ServiceRules): void {
    this.rules.set(service, rules);
    this.seen.set(service, rules);
  }

  /** Changes were missed while the node was cut off or off: its informer must relist. */
  stale = false;

  /**
   * An EndpointSlice change, seen now (endpointPropagationSeconds after its write: Network queues
   * one event for every node's informer), applied at the next sync.
   */
  see(service: string, rules: ServiceRules): void {
    if (this.ctx.machines.dataPlane(this.node) !== "up") {
      this.stale = true;
      return;
    }
    this.seen.set(service, rules);
    this.requestSync();
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
    this.syncs.add(at, this);
  }

  /** This node's Cluster targets for `service` (topology applied), or undefined without rules. */
  clusterTargets(service: string): EndpointView[] | undefined {
    return this.rules.get(service)?.clusterFor(this.node, this.zone).targets;
  }

  /** The rule sync the BoundedFrequencyRunner allows: the rules become what the informer has seen. */
  sync(): void {
    this.syncPending = false;
    this.lastSync = this.ctx.engine.now;
    this.beforeChange();
    const before = this.rules;
    this.rules = new Map(this.seen);
    this.onSync(this, before);
  }
}
