// Where callers come in follows the Service's type (core/v1 ServiceSpec.type, default ClusterIP): a
// load balancer exists only for type LoadBalancer, node ports for NodePort and LoadBalancer; a
// ClusterIP Service is reached from inside the cluster through the kube-proxy of the caller's node.

import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { LoadError } from "../../src/load/errors.ts";
import { eventsOf, run, scenario } from "../helpers/sim.ts";
import { onePerNode, THREE_NODES } from "./helpers.ts";

/** Three web replicas, one per node, behind a Service of `spec`; callers with `traffic`; worker-2 powered off at 30s. */
function web(spec: object, traffic: object = {}) {
  return scenario(
    stringify({
      kubernetesVersion: "1.32",
      duration: "2m",
      nodes: THREE_NODES,
      manifests: [
        onePerNode("Deployment", "web", [
          { name: "web", image: "nginx:1.27", ports: [{ containerPort: 80 }] },
        ]),
        {
          apiVersion: "v1",
          kind: "Service",
          metadata: { name: "web" },
          spec: { selector: { app: "web" }, ports: [{ port: 80, targetPort: 80 }], ...spec },
        },
      ],
      traffic: [{ service: "default/web", rate: 50, clients: 6, timeout: "5s", ...traffic }],
      timeline: [{ at: "30s", do: "power-off", node: "worker-2" }],
    }),
  );
}

describe("the default entry follows the Service's type", () => {
  it.each([
    { spec: {}, entry: "cluster-ip" },
    { spec: { type: "ClusterIP" }, entry: "cluster-ip" },
    { spec: { type: "NodePort" }, entry: "node-port" },
    { spec: { type: "LoadBalancer" }, entry: "load-balancer" },
    { spec: { clusterIP: "None" }, entry: "dns" },
  ])("$spec: $entry", ({ spec, entry }) => {
    expect(web(spec).traffic![0]!.entry).toBe(entry);
  });

  it("a caller of a ClusterIP Service has no load balancer in its path or its timeline", () => {
    const r = run(web({}));
    expect(r.traffic!.services[0]!.entry).toBe("cluster-ip");
    const lb = r.events.filter((e) => e.type.startsWith("LoadBalancer"));
    expect(lb).toEqual([]);
    const causes = r.traffic!.causes.map((c) => c.cause);
    expect(causes.length).toBeGreaterThan(0);
    expect(causes.filter((c) => c.includes("load balancer"))).toEqual([]);
    // The power-off is felt all the same: in-cluster callers routed to the lost node's endpoint.
    expect(r.traffic!.totals.timeout).toBeGreaterThan(0);
  });

  it("a NodePort caller sends to the lost node's own IP: no load balancer is named as still sending", () => {
    const r = run(web({ type: "NodePort" }));
    expect(r.traffic!.services[0]!.entry).toBe("node-port");
    const causes = r.traffic!.causes.filter((c) => c.count > 0).map((c) => c.cause);
    expect(causes).toContain(
      "sent to the lost node's own IP on its node port: a NodePort caller keeps sending to that node",
    );
    expect(causes.filter((c) => c.includes("load balancer"))).toEqual([]);
    expect(r.events.filter((e) => e.type.startsWith("LoadBalancer"))).toEqual([]);
  });

  it("a caller of a LoadBalancer Service goes through its balancer, which takes the lost node out of rotation", () => {
    const r = run(web({ type: "LoadBalancer" }));
    expect(eventsOf(r, "LoadBalancerBackendDown").map((e) => e.node)).toEqual(["worker-2"]);
  });
});

describe("an entry the Service does not have is a located error", () => {
  it.each([
    {
      spec: {},
      entry: "load-balancer",
      message:
        'traffic[0].entry: entry: load-balancer needs a Service of type LoadBalancer: "default/web" is ClusterIP, with no load balancer (its callers come in by entry: cluster-ip)',
    },
    {
      spec: { type: "NodePort" },
      entry: "load-balancer",
      message: '"default/web" is NodePort, with no load balancer (its callers come in by entry: node-port)',
    },
    {
      spec: {},
      entry: "node-port",
      message:
        'traffic[0].entry: entry: node-port needs a Service of type NodePort or LoadBalancer: "default/web" is ClusterIP, with no node port',
    },
    {
      spec: { clusterIP: "None" },
      entry: "cluster-ip",
      message: 'entry: cluster-ip needs a cluster IP: "default/web" is headless',
    },
  ])("$entry on $spec", ({ spec, entry, message }) => {
    expect(() => web(spec, { entry })).toThrow(LoadError);
    expect(() => web(spec, { entry })).toThrow(message);
  });

  it.each([
    { spec: { type: "LoadBalancer" }, entry: "node-port" },
    { spec: { type: "LoadBalancer" }, entry: "cluster-ip" },
    { spec: { type: "NodePort" }, entry: "cluster-ip" },
  ])("$entry on $spec is what that Service has", ({ spec, entry }) => {
    expect(web(spec, { entry }).traffic![0]!.entry).toBe(entry);
  });
});
