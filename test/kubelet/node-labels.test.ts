// The labels every kubelet puts on the Node it registers: kubernetes.io/hostname,
// kubernetes.io/os and kubernetes.io/arch (and their deprecated beta twins) from initialNode
// (pkg/kubelet/kubelet_node_status.go), then the node's own labels (--node-labels), then zone and
// region as a cloud provider's node controller sets them (cloud-provider controllers/node
// getNodeModifiersFromCloudProvider). Pods that select them schedule.

import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { nodeLabels } from "../../src/kubelet/node-status.ts";
import { eventsOf, run, scenario } from "../helpers/sim.ts";

describe("the labels of a registered Node (initialNode, the cloud node controller)", () => {
  it("a listed node: hostname, os, arch, zone and region", () => {
    const [node] = scenario(
      stringify({
        duration: "1s",
        nodes: [{ name: "node-a", zone: "eu-west-1a", region: "eu-west-1" }],
      }),
    ).nodes;
    expect(nodeLabels(node!)).toMatchObject({
      "kubernetes.io/hostname": "node-a",
      "kubernetes.io/os": "linux",
      "kubernetes.io/arch": "amd64",
      "beta.kubernetes.io/os": "linux",
      "beta.kubernetes.io/arch": "amd64",
      "topology.kubernetes.io/zone": "eu-west-1a",
      "failure-domain.beta.kubernetes.io/zone": "eu-west-1a",
      "topology.kubernetes.io/region": "eu-west-1",
      "failure-domain.beta.kubernetes.io/region": "eu-west-1",
    });
  });

  it("generated nodes: each its own hostname and zone; no zone, no zone label", () => {
    const nodes = scenario(stringify({ duration: "1s", nodes: { count: 3, zones: ["a", "b"] } })).nodes;
    expect(nodes.map((n) => nodeLabels(n)["kubernetes.io/hostname"])).toEqual([
      "worker-1",
      "worker-2",
      "worker-3",
    ]);
    expect(nodes.map((n) => nodeLabels(n)["topology.kubernetes.io/zone"])).toEqual(["a", "b", "a"]);
    const plain = scenario(stringify({ duration: "1s", nodes: { count: 1 } })).nodes[0]!;
    expect(Object.keys(nodeLabels(plain)).filter((k) => k.includes("zone") || k.includes("region"))).toEqual(
      [],
    );
  });

  it("the scenario's labels add to them and may override them (--node-labels)", () => {
    const [node] = scenario(
      stringify({
        duration: "1s",
        nodes: [
          { name: "arm-1", labels: { "kubernetes.io/arch": "arm64", "node-role.example.com/gpu": "true" } },
        ],
      }),
    ).nodes;
    expect(nodeLabels(node!)).toMatchObject({
      "kubernetes.io/os": "linux",
      "kubernetes.io/arch": "arm64",
      "node-role.example.com/gpu": "true",
    });
  });
});

describe("pods that select the well-known labels schedule", () => {
  const withSelector = (nodeSelector: Record<string, string>, nodes: unknown = [{ name: "worker-1" }]) =>
    run(
      scenario(
        stringify({
          duration: "30s",
          start: "created",
          nodes,
          manifests: [
            {
              apiVersion: "apps/v1",
              kind: "Deployment",
              metadata: { name: "app" },
              spec: {
                replicas: 1,
                selector: { matchLabels: { app: "app" } },
                template: {
                  metadata: { labels: { app: "app" } },
                  spec: { nodeSelector, containers: [{ name: "app", image: "example/app:1" }] },
                },
              },
            },
          ],
        }),
      ),
    );

  it.each<Record<string, string>>([
    { "kubernetes.io/os": "linux" },
    { "kubernetes.io/arch": "amd64" },
    { "beta.kubernetes.io/os": "linux" },
    { "kubernetes.io/hostname": "worker-1" },
  ])("nodeSelector %o", (nodeSelector) => {
    const r = withSelector(nodeSelector);
    expect(r.summary.pods).toMatchObject([{ node: "worker-1", status: "Running", ready: true }]);
    expect(eventsOf(r, "ContainerStarted")).toHaveLength(1);
  });

  it("a zone selector picks the node in that zone", () => {
    const r = withSelector({ "topology.kubernetes.io/zone": "b" }, { count: 3, zones: ["a", "b", "c"] });
    expect(r.summary.pods).toMatchObject([{ node: "worker-2", status: "Running" }]);
  });

  it("an arch no node has stays Pending", () => {
    const r = withSelector({ "kubernetes.io/arch": "arm64" });
    expect(r.summary.pods).toMatchObject([{ node: null, status: "Pending" }]);
  });
});
