// A node NotReady in a cluster dump starts NotReady (run/not-ready-at-start.ts): its Ready
// condition, the node lifecycle controller's taints with their timeAdded and its Lease as dumped,
// times counted from the dump's time (its newest node Lease renewal); its kubelet silent (Ready
// Unknown: machine off) or posting NotReady (Ready False: runtime down). The taint eviction
// controller counts tolerationSeconds from the taint's timeAdded (processPodOnNode starts a pod's
// timer when it sees the taint), and the node lifecycle controller, already past the transition,
// does it again for none of it (monitorNodeHealth: no NodeNotReady, no new taint).

import { describe, expect, it } from "vitest";
import { TAINT_UNREACHABLE } from "../../src/kubernetes/taints.ts";
import { formatLoadError, LoadError } from "../../src/load/index.ts";
import { formatTimeline } from "../../src/report/text.ts";
import { createSimulation, simulate } from "../../src/run/simulate.ts";
import { load } from "../load/helpers.ts";

const T0 = "2025-03-01T12:00:00";
/** The dump's time minus `s` seconds, as the API server writes it. */
const ago = (s: number, micro = false) => {
  const iso = new Date(Date.parse(`${T0}Z`) - s * 1000).toISOString();
  return micro ? `${iso.slice(0, 23)}000Z` : `${iso.slice(0, 19)}Z`;
};

const node = (name: string, ready: string, extra = "") => `- apiVersion: v1
  kind: Node
  metadata: {name: ${name}, labels: {kubernetes.io/hostname: ${name}, topology.kubernetes.io/zone: a}}
  spec:${extra || " {}"}
  status:
    capacity: {cpu: "4", memory: 16Gi, pods: "58"}
    conditions:
${ready}
    nodeInfo: {kubeletVersion: v1.31.4}
`;
const readyTrue = `    - {type: Ready, status: "True", reason: KubeletReady, lastHeartbeatTime: "${ago(20)}", lastTransitionTime: "2025-02-01T00:00:00Z"}`;
// Silent since 116.5 s before the dump: Unknown 40 s after its last heartbeat (node-monitor-grace-period),
// then the unreachable taints (NoSchedule at once, NoExecute through the zone's queue).
const readyUnknown = `    - {type: Ready, status: Unknown, reason: NodeStatusUnknown, message: Kubelet stopped posting node status., lastHeartbeatTime: "${ago(120)}", lastTransitionTime: "${ago(75)}"}
    - {type: MemoryPressure, status: Unknown, reason: NodeStatusUnknown, message: Kubelet stopped posting node status., lastHeartbeatTime: "${ago(120)}", lastTransitionTime: "${ago(75)}"}`;
const unreachable = `
    taints:
    - {effect: NoSchedule, key: ${TAINT_UNREACHABLE}, timeAdded: "${ago(75)}"}
    - {effect: NoExecute, key: ${TAINT_UNREACHABLE}, timeAdded: "${ago(70)}"}
    - {effect: NoSchedule, key: dedicated, value: web}`;
const lease = (name: string, renewedAgo: number) => `- apiVersion: coordination.k8s.io/v1
  kind: Lease
  metadata: {name: ${name}, namespace: kube-node-lease}
  spec: {holderIdentity: ${name}, leaseDurationSeconds: 40, renewTime: "${ago(renewedAgo, true)}"}
`;
const pod = (name: string, nodeName: string) => `- apiVersion: v1
  kind: Pod
  metadata: {name: ${name}, namespace: default}
  spec:
    containers: [{name: app, image: "nginx:1.27"}]
    nodeName: ${nodeName}
    tolerations: [{key: dedicated, operator: Exists}]
  status: {phase: Running, podIP: 10.8.3.7}
`;
const list = (items: string) =>
  `apiVersion: v1\nitems:\n${items}kind: List\nmetadata:\n  resourceVersion: ""\n`;
const DUMP =
  node("n1", readyTrue) +
  node("n2", readyUnknown, unreachable) +
  lease("n1", 2) +
  lease("n2", 116.5) +
  pod("web", "n2") +
  pod("api", "n1");
const SCENARIO = "duration: 6m\ncluster: dump.yaml\n";

describe("reading a NotReady node", () => {
  it("Ready Unknown: its condition, controller taints and Lease counted from the newest Lease renewal; its machine off", () => {
    const s = load(SCENARIO, { "dump.yaml": list(DUMP) });
    expect(s.cluster?.takenAt).toEqual({ time: "2025-03-01T11:59:58Z", from: "node Leases" });
    const n2 = s.nodes.find((n) => n.name === "n2")!;
    // Held back from the start: put back at t=0 with their times (the dump is taken 2 s before T0).
    expect(n2.taints).toEqual([{ key: "dedicated", value: "web", effect: "NoSchedule" }]);
    expect(n2.notReady).toEqual({
      ready: {
        status: "Unknown",
        reason: "NodeStatusUnknown",
        message: "Kubelet stopped posting node status.",
        lastHeartbeatTime: -118,
        lastTransitionTime: -73,
      },
      machine: "powered-off",
      taints: [
        { key: TAINT_UNREACHABLE, effect: "NoSchedule", timeAdded: -73 },
        { key: TAINT_UNREACHABLE, effect: "NoExecute", timeAdded: -68 },
      ],
      leaseRenewTime: -114.5,
    });
    expect(s.nodes.find((n) => n.name === "n1")!.notReady).toBeUndefined();
  });

  it("Ready False: the kubelet posts NotReady, so its runtime is down; without Leases t=0 is the newest heartbeat, transition or taint", () => {
    const readyFalse = `    - {type: Ready, status: "False", reason: KubeletNotReady, message: "container runtime is down", lastHeartbeatTime: "${ago(5)}", lastTransitionTime: "${ago(60)}"}`;
    const s = load(SCENARIO, { "dump.yaml": list(node("n1", readyTrue) + node("n2", readyFalse)) });
    expect(s.cluster?.takenAt).toEqual({ time: `${ago(5)}`, from: "node status" });
    expect(s.nodes[1]!.notReady).toEqual({
      ready: {
        status: "False",
        reason: "KubeletNotReady",
        message: "container runtime is down",
        lastHeartbeatTime: 0,
        lastTransitionTime: -55,
      },
      machine: "runtime-down",
      taints: [],
    });
  });

  it("t=0 is never before what the nodes say had happened: a NotReady node's taint newer than every Lease", () => {
    const s = load(SCENARIO, {
      "dump.yaml": list(node("n2", readyUnknown, unreachable) + lease("n2", 116.5)),
    });
    expect(s.cluster?.takenAt).toEqual({ time: ago(70), from: "node status" });
    expect(s.nodes[0]!.notReady?.taints.map((t) => t.timeAdded)).toEqual([-5, 0]);
  });

  it("a time that is not RFC 3339: located", () => {
    const bad = unreachable.replace(`timeAdded: "${ago(70)}"`, "timeAdded: yesterday");
    try {
      load(SCENARIO, { "dump.yaml": list(node("n2", readyUnknown, bad)) });
      expect.unreachable();
    } catch (e) {
      if (!(e instanceof LoadError)) throw e;
      expect(formatLoadError(e)).toMatch(
        /^dump\.yaml:\d+:\d+: items\[0\]\.spec\.taints\[1\]\.timeAdded: "yesterday" is not a time in RFC 3339 form/,
      );
    }
  });
});

describe("running from a NotReady node", () => {
  const scenario = () => load(SCENARIO, { "dump.yaml": list(DUMP) });

  it("at t=0 it is as dumped: conditions, taints with timeAdded, Lease, its pods not ready; nothing renews the Lease", () => {
    const sim = createSimulation(scenario());
    const n2 = sim.store.get("Node", "n2")!;
    const ready = n2.status.conditions.find((c) => c.type === "Ready")!;
    expect([ready.status, ready.reason, ready.lastHeartbeatTime, ready.lastTransitionTime]).toEqual([
      "Unknown",
      "NodeStatusUnknown",
      -118,
      -73,
    ]);
    expect(n2.status.conditions.find((c) => c.type === "DiskPressure")?.status).toBe("Unknown");
    expect(n2.spec.taints).toEqual([
      { key: "dedicated", value: "web", effect: "NoSchedule" },
      { key: TAINT_UNREACHABLE, effect: "NoSchedule", timeAdded: -73 },
      { key: TAINT_UNREACHABLE, effect: "NoExecute", timeAdded: -68 },
    ]);
    expect(sim.store.get("Lease", "kube-node-lease/n2")!.spec.renewTime).toBe(-114.5);
    const web = sim.store.list("Pod").find((p) => p.metadata.name === "web")!;
    expect(web.status.conditions.find((c) => c.type === "Ready")?.status).toBe("False");
    expect(sim.result().initial.nodes.find((n) => n.name === "n2")?.status).toBe("NotReady");
    sim.runUntil(120);
    expect(sim.store.get("Lease", "kube-node-lease/n2")!.spec.renewTime).toBe(-114.5);
  });

  it("tolerationSeconds count from the NoExecute taint's timeAdded; the node controller does the transition again for none of it", () => {
    const result = simulate(scenario());
    const evicted = result.events.filter((e) => e.type === "PodEvicted");
    // The DefaultTolerationSeconds admission plugin's 300 s, from the taint added 68 s before t=0.
    expect(evicted.map((e) => [e.object, e.t])).toEqual([["Pod/default/web", 300 - 68]]);
    const again = result.events.filter(
      (e) =>
        (e.type === "NodeNotReady" || e.type === "NodeTainted" || e.type === "PodNotReady") &&
        e.node === "n2",
    );
    expect(again).toEqual([]);
  });

  it("Ready False: the runtime goes down in the warm-up, so the kubelet itself posts NotReady by t=0 and never Ready", () => {
    const readyFalse = `    - {type: Ready, status: "False", reason: KubeletNotReady, message: "container runtime is down", lastHeartbeatTime: "${ago(5)}", lastTransitionTime: "${ago(75)}"}`;
    const notReadyTaints = unreachable.replaceAll(TAINT_UNREACHABLE, "node.kubernetes.io/not-ready");
    const s = load(SCENARIO, {
      "dump.yaml": list(
        node("n1", readyTrue) + node("n2", readyFalse, notReadyTaints) + lease("n1", 2) + pod("web", "n2"),
      ),
    });
    const result = simulate(s);
    expect(result.initial.nodes.find((n) => n.name === "n2")?.status).toBe("NotReady");
    // The kubelet's own posts after t=0 are NotReady ones; the node controller removes no taint.
    const n2 = result.events.filter((e) => e.node === "n2");
    expect(n2.filter((e) => e.type === "NodeReady" || e.type === "NodeTaintRemoved")).toEqual([]);
    expect(result.events.filter((e) => e.type === "PodEvicted").map((e) => e.t)).toEqual([300 - 68]);
  });

  it("the starting state says what the dump showed and how the run keeps it so", () => {
    const s = scenario();
    const text = formatTimeline(simulate(s), s);
    expect(text).toContain("  t=0 is when the dump was taken: 2025-03-01T11:59:58Z, from its node Leases\n");
    expect(text).toContain(
      "  NotReady in the dump, NotReady here: n2 Ready=Unknown (NodeStatusUnknown) since -1:13, Lease last renewed at -1:54.5, taints node.kubernetes.io/unreachable:NoSchedule at -1:13, node.kubernetes.io/unreachable:NoExecute at -1:08; its kubelet stopped posting: modelled as its machine powered off\n",
    );
  });
});
