// One caller's outlier detection, as Envoy's consecutive_5xx works
// (source/common/upstream/outlier_detection_impl.cc; arch_overview "Outlier detection"): with
// split_external_local_origin_errors false, timeouts, resets and refused connections count as 5xx.
// The Nth consecutive one ejects the host at once (if fewer than max_ejection_percent of hosts are
// ejected; at least one may always be); it returns at the first interval sweep after
// base_ejection_time × times ejected (capped by max_ejection_time). The caller's proxy picks a host
// per request, round-robin over those not ejected.

import { ticks } from "../engine/time.ts";
import type { EndpointView } from "../network/kube-proxy.ts";
import type { OutlierDetectionSpec } from "../scenario/types.ts";

interface Host {
  /** consecutive failures */
  fails: number;
  /** times ejected */
  times: number;
  /** ejected from this time… */
  ejectedAt: number;
  /** …until this time (the first interval sweep after the ejection ends) */
  until: number;
}

export class OutlierDetection {
  /** by endpoint id */
  private readonly hosts = new Map<number, Host>();
  /** the round-robin position */
  private rr = 0;

  constructor(private readonly spec: OutlierDetectionSpec) {}

  private ejected(h: Host | undefined, at: number): boolean {
    return h !== undefined && h.ejectedAt <= at && at < h.until;
  }

  /** The next host not ejected at `at`, round-robin over `targets`; -1 when every one is. */
  pick(targets: readonly EndpointView[], at: number): number {
    const n = targets.length;
    for (let i = 0; i < n; i++) {
      const e = targets[(this.rr + i) % n]!;
      if (this.ejected(this.hosts.get(e.id), at)) continue;
      this.rr = (this.rr + i + 1) % n;
      return e.id;
    }
    return -1;
  }

  /** A request to host `ep` ended at `at`; `hosts` is how many the caller's proxy knows. */
  result(ep: number, ok: boolean, at: number, hosts: number): void {
    let h = this.hosts.get(ep);
    if (ok) {
      if (h) h.fails = 0;
      return;
    }
    if (!h) {
      h = { fails: 0, times: 0, ejectedAt: Number.POSITIVE_INFINITY, until: Number.NEGATIVE_INFINITY };
      this.hosts.set(ep, h);
    }
    const spec = this.spec;
    h.fails++;
    if (h.fails < spec.consecutive5xx || this.ejected(h, at)) return;
    let ejected = 0;
    for (const o of this.hosts.values()) if (this.ejected(o, at)) ejected++;
    if (ejected >= Math.max(1, Math.floor((hosts * spec.maxEjectionPercent) / 100))) return;
    h.times++;
    h.fails = 0;
    const duration = Math.min(
      spec.baseEjectionTime * h.times,
      Math.max(spec.maxEjectionTime, spec.baseEjectionTime),
    );
    h.ejectedAt = at;
    // The first sweep (every interval) at or after the ejection's end, counted in whole ticks.
    h.until = Math.ceil(ticks(at + duration) / ticks(spec.interval)) * spec.interval;
  }
}
