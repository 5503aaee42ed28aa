// Issue 9 point 2: node affinity as the NodeAffinity plugin reads it
// (pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go; the matching rules of
// component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go and labels.Requirement.Matches).

import { describe, expect, it } from "vitest";
import type { Node, NodeSelectorRequirement, NodeSelectorTerm } from "../../../src/kubernetes/objects.ts";
import {
  compileNodeSelector,
  compilePreferred,
  matchesRequired,
  preferredScore,
  requiredNodeAffinity,
} from "../../../src/scheduler/plugins/node-affinity.ts";
import { eventsOf, run, scenario } from "../../helpers/sim.ts";

function node(name: string, labels: Record<string, string>): Node {
  return {
    kind: "Node",
    metadata: { name, labels },
    spec: {},
    status: { capacity: {}, allocatable: {}, conditions: [] },
  };
}

const n1 = node("worker-1", { "topology.kubernetes.io/zone": "a", cores: "8", tier: "db" });
const n2 = node("worker-2", { "topology.kubernetes.io/zone": "b", cores: "16" });

function matches(terms: NodeSelectorTerm[], n: Node, nodeSelector?: Record<string, string>): boolean {
  return matchesRequired(requiredNodeAffinity(nodeSelector, { nodeSelectorTerms: terms })!, n);
}
const expr = (...e: NodeSelectorRequirement[]): NodeSelectorTerm => ({ matchExpressions: e });

describe("the required node selector (component-helpers nodeaffinity)", () => {
  it.each([
    ["In", expr({ key: "tier", operator: "In", values: ["db", "cache"] }), true, false],
    // NotIn and DoesNotExist match a node without the label (labels.Requirement.Matches)
    ["NotIn", expr({ key: "tier", operator: "NotIn", values: ["db"] }), false, true],
    ["Exists", expr({ key: "tier", operator: "Exists" }), true, false],
    ["DoesNotExist", expr({ key: "tier", operator: "DoesNotExist" }), false, true],
    // Gt and Lt compare the label as an integer
    ["Gt", expr({ key: "cores", operator: "Gt", values: ["10"] }), false, true],
    ["Lt", expr({ key: "cores", operator: "Lt", values: ["10"] }), true, false],
    // matchExpressions are ANDed
    [
      "In AND Gt",
      expr(
        { key: "topology.kubernetes.io/zone", operator: "In", values: ["a"] },
        { key: "cores", operator: "Gt", values: ["4"] },
      ),
      true,
      false,
    ],
    // matchFields knows metadata.name
    [
      "matchFields In",
      { matchFields: [{ key: "metadata.name", operator: "In", values: ["worker-2"] }] },
      false,
      true,
    ],
    [
      "matchFields NotIn",
      { matchFields: [{ key: "metadata.name", operator: "NotIn", values: ["worker-2"] }] },
      true,
      false,
    ],
  ] as const)("%s", (_, term, on1, on2) => {
    expect(matches([term as NodeSelectorTerm], n1)).toBe(on1);
    expect(matches([term as NodeSelectorTerm], n2)).toBe(on2);
  });

  it("terms are ORed", () => {
    const terms = [
      expr({ key: "tier", operator: "In", values: ["db"] }),
      expr({ key: "cores", operator: "Gt", values: ["10"] }),
    ];
    expect(matches(terms, n1)).toBe(true);
    expect(matches(terms, n2)).toBe(true);
  });

  it("an empty term selects nothing, and so does a selector of empty terms", () => {
    expect(compileNodeSelector({ nodeSelectorTerms: [{}] })).toEqual([]);
    expect(matches([{}], n1)).toBe(false);
    expect(matches([{ matchExpressions: [] }, expr({ key: "tier", operator: "Exists" })], n1)).toBe(true);
  });

  it("a term that does not parse matches nothing: Gt without an integer, In without values, values on Exists", () => {
    expect(matches([expr({ key: "cores", operator: "Gt", values: ["many"] })], n2)).toBe(false);
    expect(matches([expr({ key: "cores", operator: "Gt", values: ["1", "2"] })], n2)).toBe(false);
    expect(matches([expr({ key: "tier", operator: "In", values: [] })], n1)).toBe(false);
    expect(matches([expr({ key: "tier", operator: "Exists", values: ["db"] })], n1)).toBe(false);
    expect(matches([{ matchFields: [{ key: "metadata.name", operator: "Exists" }] }], n1)).toBe(false);
  });

  it("Gt and Lt need the node's label to be an integer too", () => {
    expect(matches([expr({ key: "tier", operator: "Gt", values: ["1"] })], n1)).toBe(false);
  });

  it("the nodeSelector is ANDed with the required terms (RequiredNodeAffinity.Match)", () => {
    const term = expr({ key: "cores", operator: "Gt", values: ["4"] });
    expect(matches([term], n1, { tier: "db" })).toBe(true);
    expect(matches([term], n2, { tier: "db" })).toBe(false);
  });

  it("preferred terms score the sum of the weights they match; weight 0 and empty terms are left out", () => {
    const terms = compilePreferred([
      { weight: 30, preference: expr({ key: "topology.kubernetes.io/zone", operator: "In", values: ["a"] }) },
      { weight: 50, preference: expr({ key: "cores", operator: "Gt", values: ["4"] }) },
      { weight: 0, preference: expr({ key: "cores", operator: "Exists" }) },
      { weight: 70, preference: {} },
    ]);
    expect(terms).toHaveLength(2);
    expect(preferredScore(terms, n1)).toBe(80);
    expect(preferredScore(terms, n2)).toBe(50);
  });
});

/** A Deployment of `replicas` whose pod spec carries `affinity` (YAML flow mapping). */
function deployment(replicas: number, affinity: string): string {
  return `
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: app}
    spec:
      replicas: ${replicas}
      selector: {matchLabels: {app: app}}
      template:
        metadata: {labels: {app: app}}
        spec:
          affinity: ${affinity}
          containers: [{name: app, image: app}]`;
}

function cluster(manifests: string, start = "created"): ReturnType<typeof scenario> {
  return scenario(`
name: node-affinity
kubernetesVersion: "1.32"
duration: 1m
start: ${start}
nodes:
  - {name: worker-1, zone: a, labels: {disk: ssd, cores: "8"}}
  - {name: worker-2, zone: b, labels: {cores: "16"}}
  - {name: worker-3, zone: c, labels: {disk: hdd, cores: "32"}}
manifests:${manifests}
`);
}

describe("NodeAffinity in a run", () => {
  it("a required zone affinity keeps every replica in that zone", () => {
    const r = run(
      cluster(
        deployment(
          3,
          "{nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [b]}]}]}}}",
        ),
      ),
    );
    const scheduled = eventsOf(r, "PodScheduled");
    expect(scheduled).toHaveLength(3);
    for (const e of scheduled) expect(e.node).toBe("worker-2");
  });

  it("Gt on a node label and DoesNotExist, ANDed: only worker-2 (16 cores, no disk label)", () => {
    const r = run(
      cluster(
        deployment(
          2,
          '{nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: cores, operator: Gt, values: ["10"]}, {key: disk, operator: DoesNotExist}]}]}}}',
        ),
      ),
    );
    for (const e of eventsOf(r, "PodScheduled")) expect(e.node).toBe("worker-2");
  });

  it("matchFields metadata.name pins the pod to a node", () => {
    const r = run(
      cluster(
        deployment(
          2,
          "{nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [worker-3]}]}]}}}",
        ),
      ),
    );
    for (const e of eventsOf(r, "PodScheduled")) expect(e.node).toBe("worker-3");
  });

  it("no node matching: Pending, every node counted under NodeAffinity, preemption not helpful", () => {
    const r = run(
      cluster(
        deployment(
          1,
          "{nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [z]}]}]}}}",
        ),
      ),
    );
    expect(eventsOf(r, "PodScheduled")).toEqual([]);
    const [failed] = eventsOf(r, "FailedScheduling");
    expect(failed).toMatchObject({
      nodes: 3,
      filtered: [{ reason: "NodeAffinity", nodes: 3 }],
      preemption: { notHelpful: 3, noVictims: 0 },
    });
  });

  it.each([1, 2, 3, 4, 5])(
    "seed %i: a preferred zone (weight 100) wins among otherwise equal nodes",
    (seed) => {
      const r = run(
        cluster(
          deployment(
            1,
            "{nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 100, preference: {matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [c]}]}}]}}",
          ),
        ),
        seed,
      );
      expect(eventsOf(r, "PodScheduled").map((e) => e.node)).toEqual(["worker-3"]);
    },
  );
});
