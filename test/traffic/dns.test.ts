// A caller that resolves a StatefulSet's headless Service itself (gRPC's round_robin over its dns
// resolver): after a power-off it keeps sending to the lost pod's address until it resolves again
// after CoreDNS stopped serving it (the endpoint removed, CoreDNS's informer caught up) and the
// cached answer's TTL ran out; it resolves again at most once per dnsRefresh.

import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { eventsOf, only, run, scenario } from "../helpers/sim.ts";
import { failingSeconds, KILL, onePerNode, THREE_NODES } from "./helpers.ts";

const TIMEOUT = 2;
/** endpointPropagationSeconds in the stock profile */
const PROPAGATION = 0.5;
/** one traffic tick: the most a change waits to be seen by callers */
const TICK = 0.02;

function headless(o: {
  dnsRefresh?: string;
  dnsTtl?: string;
  entry?: string;
  clusterIP?: string;
  keepalive?: Record<string, string | boolean>;
}) {
  return scenario(
    stringify({
      name: "dns",
      kubernetesVersion: "1.32",
      duration: "3m",
      nodes: THREE_NODES,
      manifests: [
        onePerNode("StatefulSet", "db", [{ name: "db", image: "postgres:17" }], { serviceName: "db" }),
        {
          apiVersion: "v1",
          kind: "Service",
          metadata: { name: "db" },
          spec: { clusterIP: o.clusterIP ?? "None", selector: { app: "db" }, ports: [{ port: 5432 }] },
        },
      ],
      ...(o.dnsTtl ? { network: { dnsTtl: o.dnsTtl } } : {}),
      traffic: [
        {
          service: "default/db",
          rate: 100,
          clients: 10,
          timeout: `${TIMEOUT}s`,
          entry: o.entry ?? "dns",
          ...(o.dnsRefresh ? { dnsRefresh: o.dnsRefresh } : {}),
          ...(o.keepalive ?? {}),
        },
      ],
      timeline: [{ at: `${KILL}s`, do: "power-off", node: "worker-2" }],
    }),
  );
}

describe("entry: dns on a StatefulSet's headless Service", () => {
  it.each([
    // [dnsRefresh, dnsTtl]: gRPC's 30s minimum between resolutions and CoreDNS's 5s TTL by default
    [undefined, undefined, 30, 5],
    ["1s", undefined, 1, 5],
    ["1s", "20s", 1, 20],
  ])(
    "dnsRefresh %s, dnsTtl %s: failing on the lost address until it re-resolves",
    (refresh, ttl, refreshS, ttlS) => {
      const r = run(headless({ dnsRefresh: refresh, dnsTtl: ttl }));
      const t = r.traffic!;
      const notReady = only(r, "EndpointNotReady", (e) => e.node === "worker-2");
      const dns = only(r, "DnsRecordsChanged", (e) => e.removed.length > 0);
      expect(dns.ttlSeconds).toBe(ttlS);
      // CoreDNS's informer sees the EndpointSlice change as kube-proxy's would
      expect(dns.t - notReady.t).toBeCloseTo(PROPAGATION, 3);
      // kube-proxy programs nothing for a headless Service
      expect(eventsOf(r, "KubeProxySynced")).toEqual([]);
      expect(t.totals.refused).toBe(0);
      expect(t.firstFailure!).toBeLessThan(KILL + 0.5);
      // every failure in one window, from the kill
      const secs = failingSeconds(t);
      expect(secs.every((s, i) => i === 0 || s === secs[i - 1]! + 1)).toBe(true);
      // the callers keep sending to the lost address while CoreDNS still serves it…
      expect(t.lastFailure!).toBeGreaterThan(dns.t - TIMEOUT);
      // …and stop once they resolve again: after the cached answer's TTL, at most dnsRefresh after
      // their last resolution, which a failure (one timeout after its request) asks for
      expect(t.lastFailure!).toBeLessThanOrEqual(dns.t + ttlS + refreshS + TIMEOUT + TICK);
      const stale = t.causes.find((c) => c.cause.startsWith("resolved address on the lost node"))!;
      expect(stale.count).toBeGreaterThan(
        0.9 *
          (t.totals.timeout - (t.causes.find((c) => c.cause === "queued in the caller's pool")?.count ?? 0)),
      );
    },
  );

  it("a longer TTL keeps the lost address longer", () => {
    const short = run(headless({ dnsRefresh: "1s" })).traffic!;
    const long = run(headless({ dnsRefresh: "1s", dnsTtl: "30s" })).traffic!;
    expect(long.lastFailure!).toBeGreaterThan(short.lastFailure!);
    expect(long.totals.timeout).toBeGreaterThan(short.totals.timeout);
  });

  it("with gRPC keepalive the callers stop picking the lost address once its connections are found dead", () => {
    // keepaliveTime 10s + keepaliveTimeout 1s after the node went silent, long before CoreDNS drops it
    const r = run(headless({ keepalive: { keepaliveTime: "10s", keepaliveTimeout: "1s" } }));
    const t = r.traffic!;
    const dns = only(r, "DnsRecordsChanged", (e) => e.removed.length > 0);
    expect(dns.t).toBeGreaterThan(KILL + 40);
    // (by send time: a request waits in its caller's one connection up to its timeout, and picks its
    // address when it leaves)
    expect(t.lastFailure!).toBeGreaterThan(KILL + 11 - TIMEOUT - 0.5);
    expect(t.lastFailure!).toBeLessThanOrEqual(KILL + 11 + TICK);
    // grpc-go's Timeout defaults to 20s
    const dflt = run(headless({ keepalive: { keepaliveTime: "10s" } })).traffic!;
    expect(dflt.lastFailure!).toBeGreaterThan(KILL + 30 - TIMEOUT - 0.5);
    expect(dflt.lastFailure!).toBeLessThanOrEqual(KILL + 30 + TICK);
  });

  it("entry: dns needs a headless Service, and keepalive settings gRPC accepts", () => {
    expect(() => headless({ keepalive: { keepaliveTime: "5s" } })).toThrow(
      /gRPC raises a shorter one to 10s/,
    );
    expect(() => headless({ keepalive: { keepaliveTimeout: "5s" } })).toThrow(/needs keepaliveTime/);
    expect(() => headless({ clusterIP: "10.96.0.20" })).toThrow(/needs clusterIP: None/);
    // a headless Service has no cluster IP for another entry; the dns-only fields on a Service with one
    expect(() => headless({ entry: "cluster-ip" })).toThrow(/entry: cluster-ip needs a cluster IP/);
    const withIp = { clusterIP: "10.96.0.20", entry: "cluster-ip" };
    expect(() => headless({ ...withIp, dnsRefresh: "1s" })).toThrow(/dnsRefresh is for entry: dns/);
    // gRPC's keepalive and a channel's long-lived connections are modelled on the dns entry only.
    for (const key of ["keepaliveTime", "keepaliveTimeout"])
      expect(() => headless({ ...withIp, keepalive: { [key]: "20s" } })).toThrow(
        new RegExp(`${key} is for entry: dns`),
      );
    expect(() => headless({ keepalive: { keepAlive: false } })).toThrow(/keepAlive: false is not modelled/);
  });
});
