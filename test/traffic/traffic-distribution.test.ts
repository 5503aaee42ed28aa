// Service trafficDistribution (KEP-4444 PreferClose, KEP-3015 PreferSameZone / PreferSameNode): the
// EndpointSlice controller hints each ready endpoint for its zone (and node), and each node's
// kube-proxy sends Cluster traffic only to the endpoints hinted for it while one is ready
// (pkg/proxy/topology.go CategorizeEndpoints), falling back to every ready endpoint.

import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { LoadError } from "../../src/load/errors.ts";
import { eventsOf, run, scenario } from "../helpers/sim.ts";

/** Four nodes, two per zone; one web replica per node behind a ClusterIP Service; four callers, one per node. */
function web(opts: { td?: string; version?: string; off: string[] }) {
  const app = "web";
  return scenario(
    stringify({
      kubernetesVersion: opts.version ?? "1.35",
      duration: "2m",
      nodes: [
        { name: "a-1", zone: "a" },
        { name: "a-2", zone: "a" },
        { name: "b-1", zone: "b" },
        { name: "b-2", zone: "b" },
      ],
      manifests: [
        {
          apiVersion: "apps/v1",
          kind: "Deployment",
          metadata: { name: app },
          spec: {
            replicas: 4,
            selector: { matchLabels: { app } },
            template: {
              metadata: { labels: { app } },
              spec: {
                topologySpreadConstraints: [
                  {
                    maxSkew: 1,
                    topologyKey: "kubernetes.io/hostname",
                    whenUnsatisfiable: "DoNotSchedule",
                    labelSelector: { matchLabels: { app } },
                  },
                ],
                containers: [{ name: app, image: "nginx:1.27", ports: [{ containerPort: 80 }] }],
              },
            },
          },
        },
        {
          apiVersion: "v1",
          kind: "Service",
          metadata: { name: app },
          spec: {
            selector: { app },
            ports: [{ port: 80, targetPort: 80 }],
            ...(opts.td ? { trafficDistribution: opts.td } : {}),
          },
        },
      ],
      traffic: [{ service: "default/web", rate: 80, clients: 4, timeout: "5s", keepAlive: false }],
      timeline: opts.off.map((node) => ({ at: "30s", do: "power-off", node })),
    }),
  );
}

const timeouts = (td: string | undefined, off: string[], version?: string) =>
  run(web({ td, off, ...(version ? { version } : {}) })).traffic!.totals.timeout;

describe("trafficDistribution in the callers' losses (1.35)", () => {
  it("a zone loss: PreferSameZone callers in the other zone never reach it; without, they lose requests to it", () => {
    expect(timeouts(undefined, ["a-1", "a-2"])).toBeGreaterThan(0);
    expect(timeouts("PreferSameZone", ["a-1", "a-2"])).toBe(0);
    // PreferClose is PreferSameZone's older name (KEP-3015): the same hints, the same routing.
    expect(timeouts("PreferClose", ["a-1", "a-2"])).toBe(0);
  });

  it("a node loss in the caller's zone: only that zone's surviving caller loses, to 1 of its 2 endpoints", () => {
    const cluster = timeouts(undefined, ["a-1"]);
    const zone = timeouts("PreferSameZone", ["a-1"]);
    // Without topology the 3 surviving callers send 1/4 of their connections to a-1 (3/4 of one
    // caller's rate); with it only a-2's caller does, 1/2 of its rate: 2/3 of the loss.
    expect(zone).toBeGreaterThan(0);
    expect(zone / cluster).toBeGreaterThan(0.55);
    expect(zone / cluster).toBeLessThan(0.8);
  });

  it("PreferSameNode: each caller keeps to its own node's endpoint, and a lost node costs no other caller", () => {
    expect(timeouts("PreferSameNode", ["a-1"])).toBe(0);
    expect(timeouts("PreferSameNode", ["a-1", "a-2"])).toBe(0);
  });

  it("kube-proxy's sync is told per node: b-1 never routed to a-1, so it has no change to apply", () => {
    const r = run(web({ td: "PreferSameZone", off: ["a-1"] }));
    const synced = eventsOf(r, "KubeProxySynced").filter((e) => e.t > 30);
    expect(synced.map((e) => e.node).sort()).toEqual(["a-2"]);
    expect(synced[0]!.topology).toEqual({ mode: "PreferSameZone", zone: "a" });
  });
});

describe("trafficDistribution by kubernetesVersion", () => {
  it("1.30: the API server drops the field (ServiceTrafficDistribution alpha, off): listed, routed cluster-wide", () => {
    const s = web({ td: "PreferClose", off: ["a-1", "a-2"], version: "1.30" });
    expect(s.notModelled.map((n) => n.field)).toContain("Service.trafficDistribution");
    expect(timeouts("PreferClose", ["a-1", "a-2"], "1.30")).toBe(timeouts(undefined, ["a-1", "a-2"], "1.30"));
  });

  it("1.31: PreferClose on by default (KEP-4444 beta): routed within the zone, nothing listed", () => {
    const s = web({ td: "PreferClose", off: ["a-1", "a-2"], version: "1.31" });
    expect(s.notModelled.map((n) => n.field)).not.toContain("Service.trafficDistribution");
    expect(timeouts("PreferClose", ["a-1", "a-2"], "1.31")).toBe(0);
  });

  it.each(["PreferSameZone", "PreferSameNode"])(
    "1.33: %s refused as the API server does (PreferSameTrafficDistribution alpha)",
    (td) => {
      let err: unknown;
      try {
        web({ td, off: [], version: "1.33" });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(LoadError);
      expect((err as LoadError).message).toContain(
        `Unsupported value: "${td}": supported values: "PreferClose"`,
      );
      expect((err as LoadError).message).toContain("trafficDistribution");
    },
  );

  it("topology aware routing's annotation (KEP-2433) is listed as not modelled", () => {
    const s = scenario(
      stringify({
        duration: "1m",
        nodes: [{ name: "a-1", zone: "a" }],
        manifests: [
          {
            apiVersion: "v1",
            kind: "Service",
            metadata: { name: "web", annotations: { "service.kubernetes.io/topology-mode": "Auto" } },
            spec: { selector: { app: "web" }, ports: [{ port: 80 }] },
          },
        ],
      }),
    );
    expect(s.notModelled.map((n) => n.field)).toEqual([
      "Service.metadata.annotations[service.kubernetes.io/topology-mode]",
    ]);
  });

  it("1.34: PreferSameNode accepted and routed by node (KEP-3015 beta, on)", () => {
    expect(timeouts("PreferSameNode", ["a-1"], "1.34")).toBe(0);
  });
});
