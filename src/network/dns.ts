// CoreDNS answering for a headless Service (clusterIP: None): an A record per ready endpoint
// (its kubernetes plugin builds them from the EndpointSlices' ready addresses,
// coredns/coredns plugin/kubernetes/object/endpoint.go), as its informer has seen them
// (endpointPropagationSeconds after the EndpointSlice write, like kube-proxy's), each answer
// living `dnsTtl` seconds (the plugin's `ttl`, 5s by default). An answer is cached for its TTL
// (the Corefile's `cache`, which caps but does not lengthen it, or the caller's resolver): a query
// within it gets the addresses of the moment the answer was made.
//
// Not modelled: CoreDNS's own pods (they are taken to be up and reachable wherever they run).

import type { EndpointView } from "./kube-proxy.ts";

const NONE = new Int32Array(0);

export class CoreDns {
  /** the endpoint ids of the ready addresses CoreDNS's informer holds */
  served: Int32Array = NONE;
  private cached: Int32Array = NONE;
  private expires = Number.NEGATIVE_INFINITY;

  constructor(
    readonly service: string,
    /** seconds an answer lives */
    readonly ttl: number,
    view: readonly EndpointView[],
  ) {
    this.see(view);
  }

  /** CoreDNS's informer saw the Service's endpoints change. */
  see(view: readonly EndpointView[]): void {
    this.served = Int32Array.from(view.filter((e) => e.ready).map((e) => e.id));
  }

  /** The addresses a query at `at` gets: the cached answer, or a new one once it expired. */
  answer(at: number): Int32Array {
    if (at >= this.expires) {
      this.cached = this.served;
      this.expires = at + this.ttl;
    }
    return this.cached;
  }
}
