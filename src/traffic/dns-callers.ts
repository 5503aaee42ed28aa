// Callers that resolve a headless Service themselves and balance over the pod addresses, as gRPC's
// `round_robin` over its `dns` resolver does (and many database drivers): each client holds the
// addresses of its last resolution and sends round-robin over them, straight to the pods (no
// kube-proxy, no load balancer). A failed request asks for a new resolution, which gRPC allows at
// most once per MinResolutionInterval (`dnsRefresh`, 30s: grpc-go
// internal/resolver/dns/dns_resolver.go); nothing else re-resolves. The answer is CoreDNS's
// (network/dns.ts): ready addresses, as old as the record's TTL. So an address on a lost node keeps
// getting requests, each waiting out its timeout, until the endpoint has left the EndpointSlice,
// CoreDNS has seen it, the cached answer has expired and the client has re-resolved.
//
// With gRPC keepalive (`keepaliveTime`, off by default: grpc-go's defaultClientKeepaliveTime is
// infinity; `keepaliveTimeout` 20s, internal/transport/defaults.go), a connection to a lost node
// is found dead keepaliveTime + keepaliveTimeout after the node went silent: round_robin stops
// picking it (its reconnects fail while the node is down) and asks for a new resolution.

import type { CoreDns } from "../network/dns.ts";

export class DnsCallers {
  /** per client: the addresses (endpoint ids) of its last resolution */
  private readonly addresses: Int32Array[];
  private readonly next: Int32Array;
  private readonly resolved: Float64Array;
  /** per client: when its next resolution happens (+∞: none asked for) */
  private readonly resolveAt: Float64Array;
  /** endpoint id → when keepalive finds connections to it dead (its node lost) */
  private readonly dead = new Map<number, number>();

  constructor(
    private readonly dns: CoreDns,
    clients: number,
    /** seconds between two resolutions, at least */
    private readonly refresh: number,
    /** keepaliveTime + keepaliveTimeout, or +∞ without keepalive */
    private readonly keepalive: number,
    /** the endpoint's node is down now */
    private readonly down: (ep: number) => boolean,
  ) {
    this.addresses = Array.from({ length: clients }, () => new Int32Array(0));
    this.next = new Int32Array(clients);
    this.resolved = new Float64Array(clients).fill(Number.NEGATIVE_INFINITY);
    // every client resolves before its first request
    this.resolveAt = new Float64Array(clients).fill(Number.NEGATIVE_INFINITY);
  }

  /** The node of endpoint `ep` went silent at `at`: keepalive finds its connections dead later. */
  nodeLost(ep: number, at: number): void {
    if (this.keepalive !== Number.POSITIVE_INFINITY) this.dead.set(ep, at + this.keepalive);
  }

  /**
   * Client `c`'s next address (an endpoint id) for a request at `s`: -1 when it resolved none, -2
   * when keepalive found the connection to every one dead.
   */
  pick(c: number, s: number): number {
    if (this.resolveAt[c]! <= s) {
      // the first resolution: with the client's first request
      const at = this.resolveAt[c] === Number.NEGATIVE_INFINITY ? s : this.resolveAt[c]!;
      this.addresses[c] = this.dns.answer(at);
      this.resolved[c] = at;
      this.resolveAt[c] = Number.POSITIVE_INFINITY;
    }
    const list = this.addresses[c]!;
    if (list.length === 0) return -1;
    for (let tries = 0; tries < list.length; tries++) {
      const i = this.next[c]! % list.length;
      this.next[c] = i + 1;
      const ep = list[i]!;
      const dead = this.dead.size > 0 ? this.dead.get(ep) : undefined;
      if (dead === undefined || dead > s || !this.down(ep)) return ep;
      this.failed(c, dead);
    }
    return -2;
  }

  /** A request of client `c` failed at `at`: it asks for a new resolution, as soon as one is allowed. */
  failed(c: number, at: number): void {
    const when = Math.max(at, this.resolved[c]! + this.refresh);
    if (when < this.resolveAt[c]!) this.resolveAt[c] = when;
  }
}
