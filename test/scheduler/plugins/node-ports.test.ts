// NodePorts (pkg/scheduler/framework/plugins/nodeports/node_ports.go, framework/types.go
// HostPortInfo.CheckConflict): a host port is one pod's per node; an unset hostIP is 0.0.0.0, which
// conflicts with the same protocol and port on any address; another protocol or another explicit
// address does not conflict. Refused nodes read "node(s) didn't have free ports for the requested pod ports".

import { describe, expect, it } from "vitest";
import { conflicts, type UsedPorts } from "../../../src/scheduler/plugins/node-ports.ts";
import { run, scenario } from "../../helpers/sim.ts";

/** Three nodes, one per zone; a Deployment of `replicas` whose container has `ports`. */
function hostPorts(replicas: number, ports: string, version = "1.32") {
  const nodes = ["a", "b", "c"].map((z, i) => `  - {name: worker-${i + 1}, zone: ${z}}\n`).join("");
  return scenario(`name: ports
kubernetesVersion: "${version}"
duration: 1m
nodes:
${nodes}manifests:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: edge}
    spec:
      replicas: ${replicas}
      selector: {matchLabels: {app: edge}}
      template:
        metadata: {labels: {app: edge}}
        spec:
          containers:
            - {name: proxy, image: envoyproxy/envoy, ports: ${ports}}
`);
}

const initialPods = (s: ReturnType<typeof hostPorts>) => run({ ...s, timeline: [] }).initial.pods;

describe("NodePorts", () => {
  it("four replicas with one hostPort on three nodes: three run, one per node, the fourth is Pending", () => {
    const pods = initialPods(hostPorts(4, "[{containerPort: 9000, hostPort: 9000}]"));
    const running = pods.filter((p) => p.phase === "Running");
    expect(new Set(running.map((p) => p.node))).toEqual(new Set(["worker-1", "worker-2", "worker-3"]));
    const pending = pods.filter((p) => p.phase === "Pending");
    expect(pending).toHaveLength(1);
    expect(pending[0]!.message).toBe(
      "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
    );
  });

  it("a containerPort without a hostPort reserves nothing on the node", () => {
    const pods = initialPods(hostPorts(4, "[{containerPort: 9000}]"));
    expect(pods.every((p) => p.phase === "Running")).toBe(true);
  });

  it("on one node: TCP and UDP on the same port do not conflict, nor two explicit addresses; 0.0.0.0 and an address do", () => {
    const deployment = (name: string, port: string) => `  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: ${name}}
    spec:
      replicas: 1
      selector: {matchLabels: {app: ${name}}}
      template:
        metadata: {labels: {app: ${name}}}
        spec:
          containers: [{name: c, image: busybox, ports: [${port}]}]
`;
    const s = scenario(`name: one-node
kubernetesVersion: "1.32"
duration: 1m
nodes:
  - {name: worker-1, zone: a}
manifests:
${deployment("dns-tcp", "{containerPort: 53, hostPort: 53, protocol: TCP}")}${deployment("dns-udp", "{containerPort: 53, hostPort: 53, protocol: UDP}")}${deployment("web-a", "{containerPort: 80, hostPort: 80, hostIP: 10.0.0.1}")}${deployment("web-b", "{containerPort: 80, hostPort: 80, hostIP: 10.0.0.2}")}${deployment("web-any", "{containerPort: 80, hostPort: 80}")}`);
    const pods = run({ ...s, timeline: [] }).initial.pods;
    const byOwner = Object.fromEntries(pods.map((p) => [p.owner, p.phase]));
    expect(byOwner).toEqual({
      "Deployment/default/dns-tcp": "Running",
      "Deployment/default/dns-udp": "Running",
      "Deployment/default/web-a": "Running",
      "Deployment/default/web-b": "Running",
      "Deployment/default/web-any": "Pending",
    });
  });
});

describe("HostPortInfo.CheckConflict", () => {
  const used = (entries: [string, string][]): UsedPorts => {
    const m: UsedPorts = new Map();
    for (const [ip, key] of entries) {
      const ips = m.get(key) ?? new Map<string, number>();
      ips.set(ip, 1);
      m.set(key, ips);
    }
    return m;
  };
  const cases: {
    name: string;
    used: [string, string][];
    want: { ip: string; key: string };
    conflict: boolean;
  }[] = [
    { name: "nothing used", used: [], want: { ip: "0.0.0.0", key: "TCP/80" }, conflict: false },
    {
      name: "the same on 0.0.0.0",
      used: [["0.0.0.0", "TCP/80"]],
      want: { ip: "0.0.0.0", key: "TCP/80" },
      conflict: true,
    },
    {
      name: "another protocol",
      used: [["0.0.0.0", "UDP/80"]],
      want: { ip: "0.0.0.0", key: "TCP/80" },
      conflict: false,
    },
    {
      name: "wanted on 0.0.0.0, used on one address",
      used: [["10.0.0.1", "TCP/80"]],
      want: { ip: "0.0.0.0", key: "TCP/80" },
      conflict: true,
    },
    {
      name: "wanted on an address, used on 0.0.0.0",
      used: [["0.0.0.0", "TCP/80"]],
      want: { ip: "10.0.0.1", key: "TCP/80" },
      conflict: true,
    },
    {
      name: "wanted on an address, used on that address",
      used: [["10.0.0.1", "TCP/80"]],
      want: { ip: "10.0.0.1", key: "TCP/80" },
      conflict: true,
    },
    {
      name: "wanted on an address, used on another",
      used: [["10.0.0.2", "TCP/80"]],
      want: { ip: "10.0.0.1", key: "TCP/80" },
      conflict: false,
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      expect(conflicts(used(c.used), c.want)).toBe(c.conflict);
    });
});
