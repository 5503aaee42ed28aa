// Against the published experiment on DigitalOcean Kubernetes (issue 27, item 5): a recording in the
// shape its author's set-up describes — three nodes, a node Lease of 1s renewed every 0.25s, a hard
// kill, NotReady 2.9s after it, the endpoint list updated 10s after NotReady, a load generator of 20
// keep-alive clients at about 175 requests a second whose failures stop once the endpoints are out —
// fits back to the doks-measured profile's values (src/scenario/profiles.ts), each within its stated
// uncertainty. The server's times are written as the API writes them: conditions' lastTransitionTime
// to the second (metav1.Time), the Lease's renewTime to the microsecond (MicroTime), the
// EndpointSlice's trigger time to the nanosecond (RFC 3339 Nano).

import { describe, expect, it } from "vitest";
import { faultOf } from "../../src/compare/compare.ts";
import { fitSettings } from "../../src/compare/fit.ts";
import { observe } from "../../src/compare/observe.ts";
import { parseRecording } from "../../src/compare/read.ts";
import { DOKS_MEASURED } from "../../src/scenario/profiles.ts";

const T0 = Date.UTC(2025, 5, 1, 12, 0, 0) / 1000;
const micro = (t: number) =>
  `${new Date(Math.floor(t) * 1000).toISOString().slice(0, 19)}.${String(Math.round((t % 1) * 1e6)).padStart(6, "0")}Z`;
const second = (t: number) => `${new Date(Math.floor(t) * 1000).toISOString().slice(0, 19)}Z`;

/** The recording of one run: the kill `kill` seconds after T0. */
function seedRecording(kill: number): string {
  const nodes = ["pool-a", "pool-b", "pool-c"];
  const lease = (n: string, t: number) => ({
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: { name: n, namespace: "kube-node-lease", uid: `lease-${n}` },
    spec: { holderIdentity: n, leaseDurationSeconds: 1, renewTime: micro(t) },
  });
  const node = (n: string, ready: string, since: number, taints: unknown[] = []) => ({
    apiVersion: "v1",
    kind: "Node",
    metadata: { name: n, uid: `node-${n}` },
    spec: { taints },
    status: { conditions: [{ type: "Ready", status: ready, lastTransitionTime: second(since) }] },
  });
  const received = (t: number) => new Date((t + 0.05) * 1000).toISOString();
  const lines: unknown[] = [
    {
      kind: "header",
      version: 1,
      context: "do-fra1",
      server: "(redacted)",
      startedAt: received(T0),
      watched: ["nodes", "leases", "endpointslices"],
      probe: { url: "(redacted)", rate: 175, clients: 20 },
    },
    {
      kind: "dump",
      list: {
        apiVersion: "v1",
        kind: "List",
        items: [...nodes.map((n) => node(n, "True", T0 - 3600)), ...nodes.map((n) => lease(n, T0))],
      },
    },
  ];
  const change = (resource: string, object: { metadata: { name: string } }, t: number, rv: number) =>
    lines.push({
      kind: "change",
      resource,
      type: "MODIFIED",
      rv: String(rv),
      receivedAt: received(t),
      object: { ...object, metadata: { ...object.metadata, resourceVersion: String(rv) } },
    });
  let rv = 100;
  const victim = "pool-b";
  // Renewals every 0.25s (a quarter of the 1s lease); the victim's stop at the kill.
  for (let t = T0 + 0.25; t < T0 + kill + 20; t += 0.25)
    for (const n of nodes) if (n !== victim || t < T0 + kill) change("leases", lease(n, t), t, rv++);
  const notReady = T0 + kill + 2.9;
  change("nodes", node(victim, "Unknown", notReady), notReady, rv++);
  const endpointsOut = notReady + 10;
  const slice = {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: {
      name: "web-abcde",
      namespace: "default",
      annotations: {
        "endpoints.kubernetes.io/last-change-trigger-time": new Date(endpointsOut * 1000).toISOString(),
      },
    },
    endpoints: [{ addresses: ["10.244.1.7"], nodeName: victim, conditions: { ready: false } }],
  };
  change("endpointslices", slice, endpointsOut, rv++);
  // 175 requests a second from 20 clients; those sent to the dead node's pod (a third) fail until the
  // endpoints are out and kube-proxy has its rules (0.5s: doks-measured's endpointPropagationSeconds).
  const period = 20 / 175;
  for (let c = 0; c < 20; c++) {
    for (let t = T0 + (c * period) / 20; t < T0 + kill + 30; t += period) {
      const failing = t >= T0 + kill && t < endpointsOut + 0.5 && c % 3 === 1;
      lines.push({
        kind: "request",
        client: c,
        sentAt: new Date(t * 1000).toISOString(),
        outcome: failing ? "error ECONNRESET" : "ok",
        latencyMs: failing ? 5000 : 12,
      });
    }
  }
  lines.push({ kind: "end", at: received(T0 + kill + 30), reason: "duration" });
  return lines.map((l) => JSON.stringify(l)).join("\n");
}

describe("a recording in the shape of seed 001's experiment", () => {
  it.each([20.0, 20.3, 20.6, 20.9])("fits back to doks-measured's values (kill at T0+%ss)", (kill) => {
    const rec = parseRecording(seedRecording(kill), "seed-001.jsonl");
    const fault = faultOf(rec);
    expect(fault.node).toBe("pool-b");
    const est = fitSettings(rec, fault, observe(rec, fault), {
      monitorPeriod: DOKS_MEASURED.controlPlane.nodeMonitorPeriod!,
      resolution: 1,
    });
    const by = (path: string) => est.find((e) => e.path === path)!;
    const within = (path: string, want: number) => {
      const e = by(path);
      expect(
        Math.abs(e.value - want),
        `${path}: ${e.value} ± ${e.uncertainty} against ${want}`,
      ).toBeLessThanOrEqual(e.uncertainty + 1e-9);
    };
    within("controlPlane.nodeMonitorGracePeriod", DOKS_MEASURED.controlPlane.nodeMonitorGracePeriod!);
    within("kubelet.nodeLeaseDurationSeconds", DOKS_MEASURED.kubelet.nodeLeaseDurationSeconds!);
    within("network.nodeLossEndpointDelay", DOKS_MEASURED.network.nodeLossEndpointDelay);
    within("network.endpointPropagationSeconds", DOKS_MEASURED.network.endpointPropagationSeconds);
  });
});
