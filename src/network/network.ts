// The data plane of the Services that callers use: one kube-proxy per node, each fed the
// EndpointSlice changes of those Services, a load balancer per Service reached from outside, and
// CoreDNS for each headless Service its callers resolve themselves.

import { InstantBatches } from "../engine/batch.ts";
import { LABEL_ZONE } from "../kubernetes/labels.ts";
import type { Endpoint, EndpointSlice, Service } from "../kubernetes/objects.ts";
import type { NetworkSettings } from "../scenario/types.ts";
import type { DataPlaneEnv } from "./data-plane-env.ts";
import { CoreDns } from "./dns.ts";
import { type EndpointView, KubeProxy, ServiceRules } from "./kube-proxy.ts";
import { LoadBalancer } from "./load-balancer.ts";

export interface EndpointRecord {
  id: number;
  ip: string;
  node: string;
  /** `<ns>/<pod>` */
  pod: string;
}

export class Network {
  readonly nodes: string[];
  readonly nodeIndex = new Map<string, number>();
  readonly proxies: KubeProxy[];
  readonly balancers = new Map<string, LoadBalancer>();
  readonly dns = new Map<string, CoreDns>();
  /** every endpoint ever seen, by id; ids are stable per pod IP */
  readonly endpoints: EndpointRecord[] = [];
  private readonly idByIp = new Map<string, number>();
  /** what the data plane was last fed per Service (with held conditions applied) */
  private readonly fed = new Map<string, EndpointView[]>();
  /** ip → since when a lost node's endpoint keeps its old conditions (for nodeLossEndpointDelay) */
  private readonly held = new Map<string, { since: number; view: EndpointView }>();
  /** counts the kube-proxy syncs: while it stands, every node's rules are the objects they were */
  rulesVersion = 0;
  /** for the diff of a node's targets at its sync */
  private readonly marks = new TargetMarks();

  constructor(
    private readonly ctx: DataPlaneEnv,
    readonly services: readonly string[],
    readonly settings: NetworkSettings,
    private readonly beforeChange: () => void,
    /** Services reached through a load balancer */
    lbServices: readonly string[],
    /** headless Services whose callers resolve them through DNS */
    dnsServices: readonly string[] = [],
    /** the Services existed through the warm-up (start: running): their balancers start warm */
    warm = false,
  ) {
    this.nodes = [...ctx.nodes];
    for (const [i, n] of this.nodes.entries()) this.nodeIndex.set(n, i);
    const syncs = new InstantBatches<KubeProxy>(ctx.engine, (p) => p.sync());
    this.proxies = this.nodes.map(
      (n) =>
        new KubeProxy(
          ctx,
          n,
          zoneOf(ctx, n),
          settings,
          beforeChange,
          (p, before) => this.synced(p, before),
          syncs,
        ),
    );
    for (const svc of services) {
      const rules = new ServiceRules(this.feed(svc));
      for (const p of this.proxies) p.prime(svc, rules);
    }
    for (const svc of lbServices)
      this.balancers.set(
        svc,
        new LoadBalancer(
          ctx,
          svc,
          this.policy(svc) === "Local",
          this.nodes,
          this.proxies,
          settings,
          beforeChange,
          warm,
        ),
      );
    for (const svc of dnsServices) this.dns.set(svc, new CoreDns(svc, settings.dnsTtl, this.feed(svc)));
    ctx.store.watch("EndpointSlice", (_type, slice) => this.sliceChanged(slice));
    // A node back on the network (its kubelet renews the Lease again): its kube-proxy's watch has
    // reconnected too, and relists what it missed.
    ctx.store.watch("Lease", (_type, lease) => {
      const i = this.nodeIndex.get(lease.metadata.name);
      const proxy = i === undefined ? undefined : this.proxies[i];
      if (!proxy?.stale || ctx.machines.dataPlane(proxy.node) !== "up") return;
      proxy.relist(
        this.services.map((svc) => [svc, new ServiceRules(this.feed(svc))] as [string, ServiceRules]),
      );
    });
  }

  policy(service: string): "Cluster" | "Local" {
    return this.service(service)?.spec.externalTrafficPolicy ?? "Cluster";
  }

  service(service: string): Service | undefined {
    return this.ctx.store.get("Service", service);
  }

  endpointId(ip: string, node: string, pod: string): number {
    let id = this.idByIp.get(ip);
    if (id === undefined) {
      id = this.endpoints.length;
      this.endpoints.push({ id, ip, node, pod });
      this.idByIp.set(ip, id);
    }
    return id;
  }

  idOf(ip: string): number | undefined {
    return this.idByIp.get(ip);
  }

  private sliceChanged(slice: EndpointSlice): void {
    const dns = this.dns.get(slice.service);
    const proxied = this.services.includes(slice.service);
    if (!dns && !proxied) return;
    const view = this.feed(slice.service);
    if (proxied) {
      // Every node's informer sees the write endpointPropagationSeconds later: one event for all,
      // in node order, where one per node would have run (queued one after the other here).
      const rules = new ServiceRules(view);
      const service = slice.service;
      this.ctx.engine.after(this.settings.endpointPropagationSeconds, () => {
        for (const p of this.proxies) p.see(service, rules);
      });
    }
    // CoreDNS's informer sees the change as kube-proxy's does.
    if (dns)
      this.ctx.engine.after(this.settings.endpointPropagationSeconds, () => {
        this.beforeChange();
        const before = dns.served;
        dns.see(view);
        this.dnsChanged(dns, before);
      });
  }

  /** Tell the story of CoreDNS serving other addresses for a headless Service. */
  private dnsChanged(dns: CoreDns, before: Int32Array): void {
    const ip = (id: number) => this.endpoints[id]!.ip;
    const { gone: removed, added } = changed(Array.from(before, ip), Array.from(dns.served, ip));
    if (removed.length === 0 && added.length === 0) return;
    this.ctx.trace.emit({
      type: "DnsRecordsChanged",
      lane: "network",
      object: `Service/${dns.service}`,
      service: dns.service,
      removed,
      added,
      ttlSeconds: dns.ttl,
      endpointPropagationSeconds: this.settings.endpointPropagationSeconds,
    });
  }

  /**
   * The Service's endpoints as the data plane is told them now. With nodeLossEndpointDelay (a
   * calibrated profile setting), an endpoint that stops being ready while its node is not Ready
   * keeps its old conditions for that long: the DigitalOcean cluster the doks-measured profile is
   * calibrated on (traffic/profiles.ts) updated its endpoints ~10s after NotReady on an unplanned
   * loss but at once on a drain.
   */
  private feed(service: string): EndpointView[] {
    const slice = this.ctx.store.get("EndpointSlice", service);
    const now = this.ctx.engine.now;
    const previous = new Map((this.fed.get(service) ?? []).map((e) => [e.ip, e]));
    const delay = this.settings.nodeLossEndpointDelay;
    const out: EndpointView[] = [];
    for (const e of slice?.endpoints ?? []) {
      const ip = e.addresses[0] ?? "";
      if (!ip) continue;
      const node = e.nodeName ?? "";
      const before = previous.get(ip);
      // an endpoint the write did not change keeps its view (nothing writes to a view)
      let view = before && sameView(before, e, node) ? before : this.viewOf(e, ip, node);
      const hold = this.held.get(ip);
      if (delay > 0 && !view.ready) {
        if (hold && this.ctx.engine.since(hold.since) < delay) view = hold.view;
        else if (before?.ready && !hold && !this.nodeReady(node)) {
          this.held.set(ip, { since: now, view: before });
          this.ctx.engine.at(now + delay, () => this.sliceRefresh(service));
          view = before;
        }
      } else if (view.ready) this.held.delete(ip);
      out.push(view);
    }
    this.fed.set(service, out);
    return out;
  }

  private viewOf(e: Endpoint, ip: string, node: string): EndpointView {
    const view: EndpointView = {
      id: this.endpointId(ip, node, `${e.targetRef.namespace}/${e.targetRef.name}`),
      ip,
      node,
      ready: e.conditions.ready,
      serving: e.conditions.serving,
      terminating: e.conditions.terminating,
    };
    const forZone = e.hints?.forZones?.[0]?.name;
    const forNode = e.hints?.forNodes?.[0]?.name;
    if (forZone !== undefined) view.forZone = forZone;
    if (forNode !== undefined) view.forNode = forNode;
    return view;
  }

  private sliceRefresh(service: string): void {
    const slice = this.ctx.store.get("EndpointSlice", service);
    if (slice) this.sliceChanged(slice);
  }

  private nodeReady(node: string): boolean {
    const n = this.ctx.store.get("Node", node);
    return n?.status.conditions.find((c) => c.type === "Ready")?.status === "True";
  }

  /** Tell the story of a sync that changed which endpoints a node routes to. */
  private synced(proxy: KubeProxy, before: Map<string, ServiceRules>): void {
    this.rulesVersion++;
    for (const svc of this.services) {
      const a = before.get(svc);
      const b = proxy.rules.get(svc);
      if (!a || !b || a === b) continue;
      const was = a.clusterFor(proxy.node, proxy.zone);
      const now = b.clusterFor(proxy.node, proxy.zone);
      const { gone, added } = this.marks.changed(was.targets, now.targets);
      if (gone.length === 0 && added.length === 0) continue;
      // Told while hints steer this node's routing, or on the sync that stops them doing so.
      const topology =
        now.mode !== "" || was.mode !== ""
          ? { mode: now.mode, zone: proxy.zone, ...(now.ignored ? { ignored: now.ignored } : {}) }
          : undefined;
      this.ctx.trace.emit({
        type: "KubeProxySynced",
        lane: "network",
        object: `Node/${proxy.node}`,
        node: proxy.node,
        service: svc,
        stopped: gone,
        started: added,
        endpointPropagationSeconds: this.settings.endpointPropagationSeconds,
        minSyncPeriod: this.settings.kubeProxy.minSyncPeriod,
        nodeLossEndpointDelay: this.settings.nodeLossEndpointDelay,
        ...(topology ? { topology } : {}),
      });
    }
  }
}

/** A node's topology.kubernetes.io/zone label, "" without one (what kube-proxy's CategorizeEndpoints reads). */
function zoneOf(ctx: DataPlaneEnv, node: string): string {
  return ctx.store.get("Node", node)?.metadata.labels?.[LABEL_ZONE] ?? "";
}

/** The view of an endpoint (same IP) says what the slice's endpoint says: same node, conditions and hints. */
function sameView(v: EndpointView, e: Endpoint, node: string): boolean {
  return (
    v.node === node &&
    v.ready === e.conditions.ready &&
    v.serving === e.conditions.serving &&
    v.terminating === e.conditions.terminating &&
    v.forZone === e.hints?.forZones?.[0]?.name &&
    v.forNode === e.hints?.forNodes?.[0]?.name
  );
}

interface TargetDiff {
  gone: string[];
  added: string[];
}

/** The addresses in `was` and not in `now`, and the other way round. */
function changed(was: readonly string[], now: readonly string[]): { gone: string[]; added: string[] } {
  const w = new Set(was);
  const n = new Set(now);
  return { gone: [...w].filter((ip) => !n.has(ip)), added: [...n].filter((ip) => !w.has(ip)) };
}

/**
 * The addresses of `was` not in `now`, and the other way round, each once in its list's order, as
 * `changed` gives them, compared by endpoint id (one per IP): without a set of strings per node per
 * sync (300 nodes × 600 addresses), and nothing at all when the lists hold the same ids in order.
 * Nodes without topology hints route to the same list objects (ServiceRules.cluster), so a change
 * that every node syncs is compared once and its answer given to each (the trace's events share it;
 * nothing writes to an event's lists).
 */
class TargetMarks {
  private inWas = new Int32Array(0);
  private inNow = new Int32Array(0);
  private pass = 0;
  private last: { was: readonly EndpointView[]; now: readonly EndpointView[]; diff: TargetDiff } | undefined;

  changed(was: readonly EndpointView[], now: readonly EndpointView[]): TargetDiff {
    const last = this.last;
    if (last && last.was === was && last.now === now) return last.diff;
    const diff = this.compare(was, now);
    this.last = { was, now, diff };
    return diff;
  }

  private compare(was: readonly EndpointView[], now: readonly EndpointView[]): TargetDiff {
    if (was.length === now.length && was.every((e, i) => e.id === now[i]!.id)) return { gone: [], added: [] };
    let size = 0;
    for (const e of was) size = Math.max(size, e.id + 1);
    for (const e of now) size = Math.max(size, e.id + 1);
    if (size > this.inWas.length) {
      this.inWas = new Int32Array(Math.max(size, this.inWas.length * 2));
      this.inNow = new Int32Array(this.inWas.length);
      this.pass = 0;
    }
    const pass = ++this.pass;
    for (const e of was) this.inWas[e.id] = pass;
    for (const e of now) this.inNow[e.id] = pass;
    const gone: string[] = [];
    const added: string[] = [];
    // once each: a listed address is marked as in the other list
    for (const e of was)
      if (this.inNow[e.id] !== pass) {
        gone.push(e.ip);
        this.inNow[e.id] = pass;
      }
    for (const e of now)
      if (this.inWas[e.id] !== pass) {
        added.push(e.ip);
        this.inWas[e.id] = pass;
      }
    return { gone, added };
  }
}
