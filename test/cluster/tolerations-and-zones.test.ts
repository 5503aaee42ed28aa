// Issue 2, "Done when": default and explicit tolerations (taint_eviction.go processPodOnNode; the
// DefaultTolerationSeconds admission plugin) and the zone rules of the node lifecycle controller
// (node_lifecycle_controller.go ComputeZoneState, handleDisruption; rate_limited_queue.go).

import { describe, expect, it } from "vitest";
import { eventsOf, example, nameOf, only, onNode, podOf, run, scenario, US } from "../helpers/sim.ts";

const UNREACHABLE_NOEXECUTE = "node.kubernetes.io/unreachable:NoExecute";

/** A single-replica Deployment pinned to worker-2, with the given tolerations (YAML flow list). */
function pinned(name: string, tolerations?: string): string {
  return `
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: ${name}}
    spec:
      replicas: 1
      selector: {matchLabels: {app: ${name}}}
      template:
        metadata: {labels: {app: ${name}}}
        spec:
          nodeSelector: {kubernetes.io/hostname: worker-2}
${tolerations ? `          tolerations: ${tolerations}\n` : ""}          containers:
            - {name: app, image: "busybox:1.36"}`;
}

function tolerationScenario(controlPlane = "") {
  return scenario(`
name: tolerations
kubernetesVersion: "1.32"
duration: 12m
${controlPlane}
nodes:
  - {name: worker-1, zone: a}
  - {name: worker-2, zone: b}
  - {name: worker-3, zone: c}
manifests:${pinned("short", "[{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 30}]")}${pinned(
    "forever",
    "[{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute}]",
  )}${pinned("plain")}${pinned("zero", "[{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 0}]")}${pinned(
    "everything",
    "[{operator: Exists}]",
  )}
timeline:
  - {at: 10s, do: power-off, node: worker-2}
`);
}

describe("tolerations of node.kubernetes.io/unreachable:NoExecute", () => {
  const cases = [
    { name: "default --default-unreachable-toleration-seconds (300)", controlPlane: "", plain: 300 },
    {
      name: "defaultUnreachableTolerationSeconds: 60",
      controlPlane: "controlPlane: {defaultUnreachableTolerationSeconds: 60}",
      plain: 60,
    },
  ];
  for (const c of cases) {
    describe(c.name, () => {
      const r = run(tolerationScenario(c.controlPlane));
      const taint = () =>
        only(r, "NodeTainted", (e) => e.node === "worker-2" && e.taint === UNREACHABLE_NOEXECUTE);
      const evictionOf = (workload: string) => eventsOf(r, "PodEvicted", podOf("default", workload));

      it("tolerationSeconds: 30 → evicted 30s after the taint", () => {
        const [e, ...more] = evictionOf("short");
        expect(more).toEqual([]);
        expect(e?.reason).toBe("DeletionByTaintManager");
        expect(Math.abs(e!.t - (taint().t + 30))).toBeLessThanOrEqual(0.001);
      });

      it("tolerationSeconds omitted → tolerated forever, never evicted", () => {
        expect(evictionOf("forever")).toEqual([]);
        const pod = r.summary.pods.filter((p) => p.pod.startsWith("default/forever-"));
        expect(pod).toHaveLength(1);
        expect(pod[0]).toMatchObject({ node: "worker-2", status: "Running" });
      });

      it("tolerationSeconds: 0 → evicted as soon as the taint is seen", () => {
        const [e, ...more] = evictionOf("zero");
        expect(more).toEqual([]);
        expect(e?.t).toBe(taint().t);
      });

      it("a wildcard toleration {operator: Exists} suppresses the defaults: never evicted", () => {
        expect(evictionOf("everything")).toEqual([]);
      });

      it(`no toleration of its own → the admission default, evicted ${c.plain}s after the taint`, () => {
        const [e, ...more] = evictionOf("plain");
        expect(more).toEqual([]);
        expect(e?.reason).toBe("DeletionByTaintManager");
        expect(Math.abs(e!.t - (taint().t + c.plain))).toBeLessThanOrEqual(0.001);
        expect(r.summary.settings.defaultUnreachableTolerationSeconds).toBe(c.plain);
      });
    });
  }
});

describe("zone rules", () => {
  it("zone-outage: two nodes tainted ≥ 1/node-eviction-rate apart; the third makes the zone PartialDisruption and is never tainted", () => {
    const r = run(example("zone-outage.yaml"));
    const noExecute = (node: string) =>
      eventsOf(r, "NodeTainted", (e) => e.node === node && e.taint === UNREACHABLE_NOEXECUTE);
    const [a1] = noExecute("a-1");
    const [a2] = noExecute("a-2");
    expect(a1).toBeDefined();
    expect(a2).toBeDefined();
    expect(noExecute("a-1")).toHaveLength(1);
    expect(noExecute("a-2")).toHaveLength(1);
    expect(Math.abs(a2!.t - a1!.t)).toBeGreaterThanOrEqual(10 - US);

    const a3NotReady = only(r, "NodeNotReady", onNode("a-3"));
    const partial = only(r, "ZoneStateChanged", (e) => e.zone === "a" && e.state === "PartialDisruption");
    expect(partial.from).toBe("Normal");
    expect(partial.t).toBeGreaterThanOrEqual(a3NotReady.t);
    expect(partial.t - a3NotReady.t).toBeLessThanOrEqual(5 + 2 * 0.0001);
    expect(noExecute("a-3")).toEqual([]);
    // a-1 and a-2 keep theirs: the tainting stops, nothing is untainted.
    expect(eventsOf(r, "NodeTaintRemoved", (e) => e.taint.endsWith(":NoExecute"))).toEqual([]);
    const taints = (n: string) => r.summary.nodes.find((x) => x.name === n)?.taints ?? [];
    expect(taints("a-1")).toContain(UNREACHABLE_NOEXECUTE);
    expect(taints("a-2")).toContain(UNREACHABLE_NOEXECUTE);
    expect(taints("a-3")).not.toContain(UNREACHABLE_NOEXECUTE);
    // Zone b is untouched.
    expect(eventsOf(r, "ZoneStateChanged", (e) => e.zone === "b")).toEqual([]);
  });

  it("cluster-wide-outage: every zone FullDisruption → no NoExecute taint left and no eviction at all", () => {
    const r = run(example("cluster-wide-outage.yaml"));
    expect(eventsOf(r, "NodeNotReady")).toHaveLength(3);
    only(r, "ZoneStateChanged", (e) => e.zone === "a" && e.state === "FullDisruption");
    expect(eventsOf(r, "PodEvicted")).toEqual([]);
    for (const n of r.summary.nodes) expect(n.taints.filter((t) => t.endsWith(":NoExecute"))).toEqual([]);
    // Every NoExecute taint that was applied before the last node went silent was removed again.
    const added = eventsOf(r, "NodeTainted", (e) => e.taint.endsWith(":NoExecute")).length;
    const removed = eventsOf(r, "NodeTaintRemoved", (e) => e.taint.endsWith(":NoExecute")).length;
    expect(removed).toBe(added);
  });

  const zoneOf8 = (failing: number, rate?: number) =>
    scenario(`
name: zone-of-8
kubernetesVersion: "1.32"
duration: 6m
nodes: {count: 8, zones: [a]}
${rate === undefined ? "" : `controlPlane: {nodeEvictionRate: ${rate}}`}
manifests: [manifests/web.yaml]
timeline:
${Array.from({ length: failing }, (_, i) => `  - {at: 10s, do: power-off, node: worker-${i + 1}}`).join("\n")}
`);

  it.each([
    { failing: 2, rate: 0.05, gap: 20 },
    { failing: 3, rate: 0.05, gap: 20 },
    { failing: 2, rate: undefined, gap: 10 },
    { failing: 3, rate: undefined, gap: 10 },
  ])(
    "a Normal zone of 8 with $failing failing (nodeEvictionRate $rate): NoExecute taints ≥ $gap s apart",
    ({ failing, rate, gap }) => {
      for (const seed of [1, 2, 3]) {
        const r = run(zoneOf8(failing, rate), seed);
        expect(eventsOf(r, "NodeNotReady")).toHaveLength(failing);
        // Three of eight is below unhealthy-zone-threshold 0.55: the zone stays Normal.
        expect(eventsOf(r, "ZoneStateChanged")).toEqual([]);
        const taints = eventsOf(r, "NodeTainted", (e) => e.taint === UNREACHABLE_NOEXECUTE);
        expect(new Set(taints.map((e) => nameOf(e.object))).size).toBe(failing);
        expect(taints).toHaveLength(failing);
        for (let i = 1; i < taints.length; i++)
          expect(taints[i]!.t - taints[i - 1]!.t).toBeGreaterThanOrEqual(gap - US);
      }
    },
  );

  const bigCluster = (a: number, b: number, failing: number) =>
    scenario(`
name: big-zone
kubernetesVersion: "1.32"
duration: 15m
nodes:
${Array.from({ length: a }, (_, i) => `  - {name: a-${i + 1}, zone: a}`).join("\n")}
${Array.from({ length: b }, (_, i) => `  - {name: b-${i + 1}, zone: b}`).join("\n")}
manifests: [manifests/web.yaml]
timeline:
${Array.from({ length: failing }, (_, i) => `  - {at: 10s, do: power-off, node: a-${i + 1}}`).join("\n")}
`);

  it("a PartialDisruption zone larger than large-cluster-size-threshold=50 taints at secondary-node-eviction-rate (100s apart)", () => {
    const r = run(bigCluster(52, 1, 30));
    const partial = only(r, "ZoneStateChanged", (e) => e.zone === "a" && e.state === "PartialDisruption");
    const after = eventsOf(r, "NodeTainted", (e) => e.taint === UNREACHABLE_NOEXECUTE && e.t > partial.t);
    expect(after.length).toBeGreaterThanOrEqual(5);
    // SwapLimiter grants no free token: the first taint after the swap waits a whole 100s too.
    expect(after[0]!.t - partial.t).toBeGreaterThanOrEqual(100 - US);
    for (let i = 1; i < after.length; i++)
      expect(after[i]!.t - after[i - 1]!.t).toBeGreaterThanOrEqual(100 - US);
  });

  it("the threshold is compared with the zone's size, not the cluster's: a 40-node zone in a 60-node cluster stops tainting", () => {
    const r = run(bigCluster(40, 20, 25));
    const partial = only(r, "ZoneStateChanged", (e) => e.zone === "a" && e.state === "PartialDisruption");
    expect(eventsOf(r, "NodeTainted", (e) => e.taint === UNREACHABLE_NOEXECUTE && e.t > partial.t)).toEqual(
      [],
    );
  });

  it("leaving all-zones FullDisruption: NoExecute tainting resumes at node-eviction-rate, with no free token", () => {
    const r = run(
      scenario(`
name: outage-then-heal
kubernetesVersion: "1.32"
duration: 15m
nodes: {count: 3, zones: [a]}
manifests: [manifests/web.yaml]
timeline:
  - {at: 10s, do: network-partition, node: worker-1}
  - {at: 10s, do: network-partition, node: worker-2}
  - {at: 10s, do: network-partition, node: worker-3}
  - {at: 3m, do: network-heal, node: worker-1}
`),
    );
    const normal = only(r, "ZoneStateChanged", (e) => e.zone === "a" && e.state === "Normal");
    expect(normal.from).toBe("FullDisruption");
    const taints = eventsOf(r, "NodeTainted", (e) => e.taint === UNREACHABLE_NOEXECUTE && e.t > normal.t);
    expect(taints.map((e) => e.node).sort()).toEqual(["worker-2", "worker-3"]);
    expect(taints[0]!.t - normal.t).toBeGreaterThanOrEqual(10 - US);
    expect(taints[1]!.t - taints[0]!.t).toBeGreaterThanOrEqual(10 - US);
    // Their pods are then evicted 300s after their taints.
    for (const t of taints) {
      const evicted = eventsOf(r, "PodEvicted", (e) => e.node === t.node);
      expect(evicted).toHaveLength(1);
      expect(Math.abs(evicted[0]!.t - (t.t + 300))).toBeLessThanOrEqual(0.001);
    }
  });
});
