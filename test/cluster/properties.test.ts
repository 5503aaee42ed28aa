// Issue 2, "Done when": properties over random clusters and random fault timelines (fast-check).
// Each property replays the trace against a rule of Kubernetes, written out again in
// test/helpers/invariants.ts with its source.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FaultAction, NODE_ACTIONS, type Scenario } from "../../src/scenario/types.ts";
import {
  endpointReadinessViolations,
  notReadyTooEarlyViolations,
  schedulingViolations,
  statefulSetIdentityViolations,
  taintViolations,
} from "../helpers/invariants.ts";
import { initialState, run, scenario } from "../helpers/sim.ts";

// Every node action the timeline offers (src/scenario/types.ts).
// spot-interruption is a platform profile's (stock refuses it at load): these clusters run stock.
const NODE_FAULTS = NODE_ACTIONS.filter((a) => a !== "spot-interruption");

interface Gen {
  version: string;
  nodes: number;
  zones: number;
  web: number;
  db: number;
  faults: { at: number; do: FaultAction; node: number }[];
  seed: number;
}

const genArb: fc.Arbitrary<Gen> = fc
  .record({
    version: fc.constantFrom("1.28", "1.31", "1.32", "1.37"),
    nodes: fc.integer({ min: 3, max: 6 }),
    zones: fc.integer({ min: 1, max: 3 }),
    web: fc.integer({ min: 2, max: 6 }),
    db: fc.integer({ min: 1, max: 3 }),
    faults: fc.array(
      fc.record({
        at: fc.integer({ min: 0, max: 600 }),
        do: fc.constantFrom(...NODE_FAULTS),
        node: fc.nat(),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    seed: fc.nat(),
  })
  .map((g) => ({ ...g, faults: g.faults.map((f) => ({ ...f, node: (f.node % g.nodes) + 1 })) }));

function yamlOf(g: Gen): string {
  const zones = ["a", "b", "c"].slice(0, g.zones);
  const nodes = Array.from(
    { length: g.nodes },
    (_, i) => `  - {name: worker-${i + 1}, zone: ${zones[i % g.zones]}}`,
  );
  const timeline = [...g.faults]
    .sort((a, b) => a.at - b.at)
    .map((f) => `  - {at: ${f.at}s, do: ${f.do}, node: worker-${f.node}}`);
  return `
name: random
kubernetesVersion: "${g.version}"
seed: ${g.seed}
duration: 15m
nodes:
${nodes.join("\n")}
manifests:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: ${g.web}
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          containers:
            - name: web
              image: "nginx:1.27"
              resources: {requests: {cpu: 100m, memory: 128Mi}}
              readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 5}
  - apiVersion: v1
    kind: Service
    metadata: {name: web}
    spec: {selector: {app: web}, ports: [{port: 80}]}
  - apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: db}
    spec:
      serviceName: db
      replicas: ${g.db}
      selector: {matchLabels: {app: db}}
      template:
        metadata: {labels: {app: db}}
        spec:
          containers:
            - {name: postgres, image: "postgres:17", resources: {requests: {cpu: 500m, memory: 1Gi}}}
      volumeClaimTemplates:
        - metadata: {name: data}
          spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
  - apiVersion: v1
    kind: Service
    metadata: {name: db}
    spec: {clusterIP: None, selector: {app: db}, ports: [{port: 5432}]}
  - apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: node-exporter}
    spec:
      selector: {matchLabels: {app: node-exporter}}
      template:
        metadata: {labels: {app: node-exporter}}
        spec:
          containers:
            - {name: node-exporter, image: "quay.io/prometheus/node-exporter:v1.8.2"}
timeline:
${timeline.join("\n")}
`;
}

interface Case {
  g: Gen;
  s: Scenario;
}

const caseArb: fc.Arbitrary<Case> = genArb.map((g) => ({
  g,
  s: scenario(yamlOf(g), "examples/random.yaml"),
}));

/** 40 runs by default; FAULTLINE_PROPERTY_RUNS=500 for a longer hunt. */
const NUM_RUNS = Number(process.env.FAULTLINE_PROPERTY_RUNS ?? 40);
const RUNS = { numRuns: NUM_RUNS, endOnFailure: true } as const;

/** The case, as YAML, for the failure message. */
function describeCase(c: Case): string {
  return yamlOf(c.g);
}

describe("properties of random clusters under random faults", () => {
  it("(a) an endpoint is ready only for a Ready, non-terminating pod", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const v = endpointReadinessViolations(run(c.s), initialState(c.s));
        expect(v, describeCase(c)).toEqual([]);
      }),
      RUNS,
    );
  });

  it("(b) a StatefulSet identity never has two pod objects", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const v = statefulSetIdentityViolations(run(c.s), initialState(c.s), ["db"]);
        expect(v, describeCase(c)).toEqual([]);
      }),
      RUNS,
    );
  });

  it("(c) no pod is scheduled onto a cordoned or untolerated-tainted node", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const v = schedulingViolations(run(c.s), initialState(c.s), c.s);
        expect(v, describeCase(c)).toEqual([]);
      }),
      RUNS,
    );
  });

  it("(e) taints stay consistent: never unreachable and not-ready NoExecute together, taint evictions only under a NoExecute taint, no NotReady before the grace period", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const r = run(c.s);
        const v = [...taintViolations(r, initialState(c.s)), ...notReadyTooEarlyViolations(r)];
        expect(v, describeCase(c)).toEqual([]);
      }),
      RUNS,
    );
  });

  it("(e) a node NotReady from its runtime, then powered off: the NoExecute taint is swapped within one instant", () => {
    // fast-check's counterexample when the rule was judged after each write rather than each instant.
    const s = scenario(
      yamlOf({
        version: "1.28",
        nodes: 4,
        zones: 2,
        web: 6,
        db: 2,
        faults: [
          { at: 428, do: "runtime-down", node: 2 },
          { at: 600, do: "power-off", node: 2 },
        ],
        seed: 606761755,
      }),
    );
    const r = run(s);
    const on2 = r.events.filter(
      (e) => (e.type === "NodeTainted" || e.type === "NodeTaintRemoved") && e.object === "Node/worker-2",
    );
    const added = on2.find(
      (e) => e.type === "NodeTainted" && e.taint === "node.kubernetes.io/unreachable:NoExecute",
    );
    const removed = on2.find(
      (e) => e.type === "NodeTaintRemoved" && e.taint === "node.kubernetes.io/not-ready:NoExecute",
    );
    // Each part on its own: a failure names the part that broke, not just `false`.
    expect(added).toBeDefined();
    expect(removed).toBeDefined();
    expect(removed!.t).toBe(added!.t);
    expect(on2.indexOf(added!)).toBeLessThan(on2.indexOf(removed!));
    expect(taintViolations(r, initialState(s))).toEqual([]);
  });

  it("(d) determinism: the same scenario and seed give byte-identical results", () => {
    fc.assert(
      fc.property(caseArb, fc.option(fc.nat(), { nil: undefined }), (c, seed) => {
        const a = JSON.stringify(run(c.s, seed));
        const b = JSON.stringify(run(c.s, seed));
        expect(a === b, describeCase(c)).toBe(true);
        expect(JSON.parse(a).seed).toBe(seed ?? c.g.seed);
      }),
      { ...RUNS, numRuns: Math.ceil((NUM_RUNS * 3) / 4) },
    );
  });

  it("(d) and the seed is used: the power-loss example differs between seeds", () => {
    const s = scenario(
      yamlOf({
        version: "1.32",
        nodes: 3,
        zones: 3,
        web: 3,
        db: 1,
        faults: [{ at: 10, do: "power-off", node: 2 }],
        seed: 1,
      }),
    );
    const results = new Set([1, 2, 3, 4].map((seed) => JSON.stringify(run(s, seed).events)));
    expect(results.size).toBeGreaterThan(1);
  });
});
