// The starting state's placement line: with more nodes than it lists one by one, the fewest and most
// pods a node runs at t=0, counted from the state at t=0 (a node with none counts as 0).

import { describe, expect, it } from "vitest";
import { formatTimeline } from "../../src/report/text.ts";
import { run, scenario } from "../helpers/sim.ts";

const fourteenNodes = (replicas: number) =>
  scenario(`name: placement
duration: 30s
nodes: {count: 14}
manifests:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: ${replicas}
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          containers: [{name: web, image: web, resources: {requests: {cpu: 100m}}}]
`);

describe("starting placement, past the nodes listed one by one", () => {
  it.each([3, 30])("prints the fewest and the most pods on a node (%i replicas on 14 nodes)", (replicas) => {
    const s = fourteenNodes(replicas);
    const result = run(s);
    const perNode = result.initial.nodes.map(
      (n) => result.initial.pods.filter((p) => p.node === n.name).length,
    );
    const line = formatTimeline(result, s)
      .split("\n")
      .find((l) => l.startsWith("  pods per node: "));
    expect(line).toBe(
      `  pods per node: ${Math.min(...perNode)} to ${Math.max(...perNode)} (--dump-at 0s prints where each one runs)`,
    );
    // 3 pods leave nodes empty; 30 put at least two on each.
    expect(Math.min(...perNode)).toBe(replicas === 3 ? 0 : 2);
  });
});
