// The cloud load balancer starts warm: a Service that exists through the 10-minute warm-up has had
// its health checks running all along. With externalTrafficPolicy: Local the balancer checks the
// Service's healthCheckNodePort, which kube-proxy answers 503 on a node without a local ready
// endpoint (pkg/proxy/healthcheck/service_health.go): at t=0 such a node has long been out of
// rotation, so a healthy cluster loses nothing.

import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { eventsOf, run, scenario } from "../helpers/sim.ts";
import { THREE_NODES } from "../traffic/helpers.ts";

/** An ingress-nginx-like controller: two replicas, one per node, on three nodes, behind a LoadBalancer Service. */
function ingress(o: {
  policy: "Local" | "Cluster";
  start?: "running" | "created";
  profile?: string;
  timeline?: object[];
}) {
  return scenario(
    stringify({
      name: "ingress",
      kubernetesVersion: "1.32",
      profile: o.profile ?? "stock",
      duration: "2m",
      ...(o.start ? { start: o.start } : {}),
      nodes: THREE_NODES,
      manifests: [
        {
          apiVersion: "apps/v1",
          kind: "Deployment",
          metadata: { name: "ingress-nginx-controller" },
          spec: {
            replicas: 2,
            selector: { matchLabels: { app: "ingress" } },
            template: {
              metadata: { labels: { app: "ingress" } },
              spec: {
                affinity: {
                  podAntiAffinity: {
                    requiredDuringSchedulingIgnoredDuringExecution: [
                      {
                        labelSelector: { matchLabels: { app: "ingress" } },
                        topologyKey: "kubernetes.io/hostname",
                      },
                    ],
                  },
                },
                containers: [
                  {
                    name: "controller",
                    image: "registry.k8s.io/ingress-nginx/controller:v1.11.2",
                    ports: [{ containerPort: 80 }],
                  },
                ],
              },
            },
          },
        },
        {
          apiVersion: "v1",
          kind: "Service",
          metadata: { name: "ingress-nginx-controller" },
          spec: {
            type: "LoadBalancer",
            externalTrafficPolicy: o.policy,
            selector: { app: "ingress" },
            ports: [{ port: 80, targetPort: 80 }],
          },
        },
      ],
      behaviour: { "ingress-nginx-controller": { serviceTimeMs: 5 } },
      traffic: [
        {
          service: "default/ingress-nginx-controller",
          rate: 100,
          clients: 10,
          poolSize: 10,
          timeout: "10s",
          entry: "load-balancer",
        },
      ],
      ...(o.timeline ? { timeline: o.timeline } : {}),
    }),
  );
}

describe("a load balancer warm at t=0", () => {
  it.each(["stock", "doks-measured"])(
    "a healthy Local Service (%s) loses nothing and has no slow tail: the node without an endpoint was never in rotation",
    (profile) => {
      const r = run(ingress({ policy: "Local", profile }));
      const t = r.traffic!.totals;
      expect(t.sent).toBeGreaterThan(10_000);
      expect(t.timeout + t.refused + t.error).toBe(0);
      expect(r.traffic!.totals.latencyMs!.p99).toBeLessThan(100);
      // Nothing changes in rotation during the run: the balancer had settled before t=0.
      expect(eventsOf(r, "LoadBalancerBackendDown")).toEqual([]);
      expect(eventsOf(r, "LoadBalancerBackendUp")).toEqual([]);
    },
  );

  it("a Cluster Service's balancer checks kube-proxy's /healthz: every node stays in rotation", () => {
    const r = run(ingress({ policy: "Cluster" }));
    expect(r.traffic!.totals.ok).toBe(r.traffic!.totals.sent);
    expect(eventsOf(r, "LoadBalancerBackendDown")).toEqual([]);
  });

  it("its checks still run: a drained node whose endpoint terminates leaves rotation (503 from healthCheckNodePort)", () => {
    const r = run(ingress({ policy: "Local", timeline: [{ at: "30s", do: "drain", node: "worker-1" }] }));
    const down = eventsOf(r, "LoadBalancerBackendDown");
    expect(down.map((e) => [e.node, e.healthCheck])).toEqual([["worker-1", "healthCheckNodePort"]]);
    expect(down[0]!.t).toBeGreaterThan(30);
  });

  it("a Service created at t=0 (start: created) gets its balancer then: the node without an endpoint leaves rotation by its checks", () => {
    const r = run(ingress({ policy: "Local", start: "created" }));
    expect(eventsOf(r, "LoadBalancerBackendDown").map((e) => e.failure)).toContain("no-local-endpoint");
  });
});
