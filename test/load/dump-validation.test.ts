// A cluster dump held to what the API server (and the components that write each field) could have
// stored: every field the run reads, each refusal one located line.

import { describe, expect, it } from "vitest";
import { type BadCase, expectLoadError, load } from "./helpers.ts";

const SCENARIO = "duration: 5m\ncluster: dump.yaml\n";
const node = (
  name: string,
  o: { conditions?: string; spec?: string; cpu?: string; meta?: string } = {},
) => `- apiVersion: v1
  kind: Node
  metadata: {name: ${name}${o.meta ?? ""}}
  spec: ${o.spec ?? "{}"}
  status:
    capacity: {cpu: ${o.cpu ?? '"4"'}, memory: 16Gi, pods: "110"}
    conditions: ${o.conditions ?? '[{type: Ready, status: "True", lastHeartbeatTime: "2024-11-02T10:00:00Z"}]'}
`;
const pod = (name: string, o: { meta?: string; nodeName?: string; status?: string } = {}) => `- apiVersion: v1
  kind: Pod
  metadata: {name: ${name}, namespace: default${o.meta ?? ""}}
  spec:
    containers: [{name: app, image: "nginx:1.27"}]
    nodeName: ${o.nodeName ?? "n1"}
  status: ${o.status ?? "{phase: Running}"}
`;
const lease = (name: string, spec: string) => `- apiVersion: coordination.k8s.io/v1
  kind: Lease
  metadata: {name: ${name}, namespace: kube-node-lease}
  spec: ${spec}
`;
const replicaSet = (name: string, uid: string, owner: string) => `- apiVersion: apps/v1
  kind: ReplicaSet
  metadata:
    name: ${name}
    namespace: default
    uid: ${uid}
    ownerReferences: [${owner}]
  spec:
    replicas: 1
    selector: {matchLabels: {app: ${name}}}
    template:
      metadata: {labels: {app: ${name}}}
      spec: {containers: [{name: app, image: "nginx:1.27"}]}
`;
const list = (items: string) => `apiVersion: v1\nitems:\n${items}kind: List\nmetadata: {}\n`;
const bad = (
  name: string,
  items: string,
  path: string,
  message: string,
  code = "invalid-value",
): BadCase => ({
  name,
  scenario: SCENARIO,
  files: { "dump.yaml": list(items) },
  code,
  path,
  message,
});

describe("a dump's values are the API server's", () => {
  it.each([
    bad(
      "creationTimestamp that is not RFC 3339",
      node("n1") + pod("web", { meta: ", creationTimestamp: »yesterday" }),
      "items[1].metadata.creationTimestamp",
      '"yesterday" is not a time in RFC 3339 form',
    ),
    bad(
      "a day February does not have (Go's time.Parse checks the ranges)",
      node("n1") + pod("web", { meta: ', creationTimestamp: »"2024-02-30T00:00:00Z"' }),
      "items[1].metadata.creationTimestamp",
      "is not a time in RFC 3339 form",
    ),
    bad(
      "hour 24",
      node("n1", {
        conditions: '[{type: Ready, status: "True", lastHeartbeatTime: »"2024-11-02T24:00:00Z"}]',
      }),
      "items[0].status.conditions[0].lastHeartbeatTime",
      "is not a time in RFC 3339 form",
    ),
    bad(
      "a Lease renewed in the year 9999 beside today's heartbeats",
      node("n1") +
        lease(
          "n1",
          '{holderIdentity: n1, leaseDurationSeconds: 40, renewTime: »"9999-01-01T00:00:00.000000Z"}',
        ),
      "items[1].spec.renewTime",
      "9999-01-01T00:00:00Z is 2,912,502 days after the dump's next newest time (2024-11-02T10:00:00Z at dump.yaml:9:67)",
    ),
    bad(
      "a Lease two hours beyond the heartbeats",
      node("n1") + lease("n1", '{leaseDurationSeconds: 40, renewTime: »"2024-11-02T12:00:00.000000Z"}'),
      "items[1].spec.renewTime",
      "is 120 minutes after the dump's next newest time",
    ),
    bad(
      "leaseDurationSeconds negative",
      node("n1") + lease("n1", "{leaseDurationSeconds: »-40}"),
      "items[1].spec.leaseDurationSeconds",
      "-40 is invalid: must be greater than 0",
    ),
    bad(
      "leaseDurationSeconds 0",
      node("n1") + lease("n1", "{leaseDurationSeconds: »0}"),
      "items[1].spec.leaseDurationSeconds",
      "must be greater than 0",
    ),
    bad(
      'Ready: "Maybe"',
      node("n1", { conditions: '[{type: Ready, status: »"Maybe"}]' }),
      "items[0].status.conditions[0].status",
      '"Maybe" is not a condition status: must be "True", "False" or "Unknown"',
    ),
    bad(
      "phase: Exploded",
      node("n1") + pod("web", { status: "{phase: »Exploded}" }),
      "items[1].status.phase",
      '"Exploded" is not a pod phase: must be one of Pending, Running, Succeeded, Failed, Unknown',
    ),
    bad(
      "restartCount: -1",
      node("n1") +
        pod("web", { status: "{phase: Running, containerStatuses: [{name: app, restartCount: »-1}]}" }),
      "items[1].status.containerStatuses[0].restartCount",
      "-1 is not a restart count",
    ),
    bad(
      "restartCount beyond int32",
      node("n1") + pod("web", { status: "{initContainerStatuses: [{name: i, restartCount: »2147483648}]}" }),
      "items[1].status.initContainerStatuses[0].restartCount",
      "is not a restart count: must be a whole number from 0 to 2147483647",
    ),
    bad(
      'cpu: "1e100"',
      node("n1", { cpu: '»"1e100"' }),
      "items[0].status.capacity.cpu",
      '"1e100" is too large: a quantity is at most 2^63-1',
      "invalid-quantity",
    ),
    bad(
      "a ReplicaSet that owns itself",
      node("n1") +
        replicaSet(
          "a",
          "u-a",
          "»{apiVersion: apps/v1, kind: ReplicaSet, name: a, uid: u-a, controller: true}",
        ),
      "items[1].metadata.ownerReferences[0]",
      "ReplicaSet default/a names itself as its owner",
    ),
    bad(
      "two ReplicaSets that own each other",
      node("n1") +
        replicaSet(
          "a",
          "u-a",
          "{apiVersion: apps/v1, kind: ReplicaSet, name: b, uid: u-b, controller: true}",
        ) +
        replicaSet(
          "b",
          "u-b",
          "»{apiVersion: apps/v1, kind: ReplicaSet, name: a, uid: u-a, controller: true}",
        ),
      "items[2].metadata.ownerReferences[0]",
      "a ring of owners: ReplicaSet default/a is owned by ReplicaSet default/b is owned by ReplicaSet default/a",
    ),
    bad(
      "a /32 pod CIDR: a CIDR, too small",
      node("n1", { spec: "{podCIDR: »10.9.9.9/32}" }),
      "items[0].spec.podCIDR",
      '"10.9.9.9/32" is a CIDR too small for pods: a /32 has no address to hand out',
    ),
    bad(
      "0.0.0.0/0 as a pod CIDR",
      node("n1", { spec: '{podCIDRs: [»"0.0.0.0/0"]}' }),
      "items[0].spec.podCIDRs[0]",
      '"0.0.0.0/0" is no pod CIDR',
    ),
  ])("$name", (c) => {
    expectLoadError(c);
  });

  it("more than 5,000 nodes: refused at the first node over, as a scenario's", () => {
    const json = (name: string) =>
      JSON.stringify({
        apiVersion: "v1",
        kind: "Node",
        metadata: { name },
        status: { capacity: { cpu: "4", memory: "16Gi", pods: "110" } },
      });
    const dump = (n: number, mark = "") =>
      `{"apiVersion": "v1", "items": [\n${Array.from({ length: n }, (_, i) => (i === 5000 ? mark : "") + json(`n${i}`)).join(",\n")}\n], "kind": "List", "metadata": {}}\n`;
    expectLoadError({
      name: "5,001 nodes",
      scenario: "duration: 5m\ncluster: dump.json\n",
      files: { "dump.json": dump(5001, "»") },
      code: "too-large",
      path: "items[5000]",
      message: "more than 5,000 nodes: Kubernetes' documented limit is 5,000 nodes per cluster",
    });
    expect(load("duration: 5m\ncluster: dump.json\n", { "dump.json": dump(5000) }).nodes).toHaveLength(5000);
  }, 60_000);

  it("an unknown field thousands of levels deep: located at its key, no stack overflow", () => {
    const deep = `${"{x: ".repeat(3000)}1${"}".repeat(3000)}`;
    expectLoadError(
      bad(
        "deep",
        node("n1") + pod("web").replace("    nodeName: n1\n", `    nodeName: n1\n    »zzz: ${deep}\n`),
        "items[1].spec.zzz",
        'unknown field "zzz" in PodSpec',
        "unknown-field",
      ),
    );
  });
});

describe("what a dump's values mean", () => {
  it("a Node with no Ready condition: Unknown, as the node lifecycle controller takes it (NodeStatusNeverUpdated)", () => {
    const s = load(SCENARIO, {
      "dump.yaml": list(
        node("n1") + node("n2", { conditions: "[]", meta: ', creationTimestamp: "2024-11-02T09:00:00Z"' }),
      ),
    });
    expect(s.nodes[0]!.notReady).toBeUndefined();
    expect(s.nodes[1]!.notReady?.ready).toEqual({
      status: "Unknown",
      reason: "NodeStatusNeverUpdated",
      message: "Kubelet never posted node status.",
      lastHeartbeatTime: -3600,
    });
    expect(s.cluster?.notReady).toEqual(["n2"]);
  });

  it('nodeName: "" is a pod not yet scheduled, not one on a missing node', () => {
    const s = load(SCENARIO, { "dump.yaml": list(node("n1") + pod("web", { nodeName: '""' })) });
    expect(s.ignored).toEqual([]);
    const web = s.manifests.find((m) => m.kind === "Pod")!.object;
    expect(web.kind === "Pod" && web.spec.nodeName).toBeUndefined();
  });

  it("times minutes apart, as a running kubelet posts them, and a time in a valid leap day are accepted", () => {
    const s = load(SCENARIO, {
      "dump.yaml": list(
        node("n1") +
          lease("n1", '{leaseDurationSeconds: 40, renewTime: "2024-11-02T10:04:50.123456Z"}') +
          pod("web", { meta: ', creationTimestamp: "2024-02-29T23:59:59+01:00"' }),
      ),
    });
    expect(s.cluster?.takenAt?.time).toBe("2024-11-02T10:04:50.123Z");
  });
});

describe("a dump's status holds only its type's fields", () => {
  it.each([
    {
      name: "a Pod status key",
      items: node("n1") + pod("web", { status: "{phase: Running, »exploded: true}" }),
      path: "items[1].status.exploded",
      message: 'unknown field "exploded" in PodStatus',
    },
    {
      name: "a near miss, with kubectl's suggestion",
      items: node("n1") + pod("web", { status: "{phase: Running, »podIp: 10.0.0.1}" }),
      path: "items[1].status.podIp",
      message: 'unknown field "podIp" in PodStatus (did you mean "podIP"?)',
    },
    {
      name: "a container status key",
      items:
        node("n1") +
        pod("web", {
          status: "{phase: Running, containerStatuses: [{name: app, restartCount: 0, »restarts: 3}]}",
        }),
      path: "items[1].status.containerStatuses[0].restarts",
      message: 'unknown field "restarts" in ContainerStatus',
    },
    {
      name: "a Node status key",
      items: node("n1").replace("    capacity:", "    »health: good\n    capacity:"),
      path: "items[0].status.health",
      message: 'unknown field "health" in NodeStatus',
    },
  ])("$name is an unknown field, located at its key", ({ name, items, path, message }) => {
    expectLoadError({ ...bad(name, items, path, message, "unknown-field") });
  });

  it("every field of today's types is accepted", () => {
    const s = load(SCENARIO, {
      "dump.yaml": list(
        node("n1").replace("    capacity:", "    runtimeHandlers: []\n    features: {}\n    capacity:") +
          pod("web", {
            status:
              "{phase: Running, observedGeneration: 1, qosClass: BestEffort, hostIPs: [], podIPs: [], containerStatuses: [{name: app, restartCount: 2, ready: true, started: true, stopSignal: SIGTERM, user: {}}]}",
          }),
      ),
    });
    expect(s.nodes).toHaveLength(1);
  });
});
