// The sweep's plan and the pieces under it: nodes that hold the same pods share a run (and say so),
// a zone fault per zone, the assumed cluster's size, and a fix as a patch through whatif/.

import { describe, expect, it } from "vitest";
import { inProcess, NothingToMeasureError, planAudit } from "../../src/audit/audit.ts";
import { prepare, sizeNodes } from "../../src/audit/inputs.ts";
import { EVENTS_PER_WORKER, threadsFor } from "../../src/audit/pool.ts";
import type { FaultClass } from "../../src/audit/types.ts";
import type { Deployment } from "../../src/kubernetes/objects.ts";
import { LoadError } from "../../src/load/errors.ts";
import { DEFAULT_BUDGET } from "../../src/run/budget.ts";
import { dumpAt, formatDump } from "../../src/serve/dump.ts";
import { variantOf } from "../../src/whatif/variant.ts";

const six = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 6
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web, resources: {requests: {cpu: 100m, memory: 64Mi}}}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: agent}]
`;

function plan(nodes: number, zones: string[], faults: FaultClass[] = ["power-off", "zone", "drain"]) {
  const prepared = prepare({
    entries: [{ entry: "six.yaml", files: [{ file: "six.yaml", text: six }] }],
    cluster: { nodes, zones },
  });
  return planAudit(prepared, { faults, budget: DEFAULT_BUDGET, maxSweepEvents: 1e9, runner: inProcess });
}

describe("the sweep", () => {
  it("gives nodes with the same pods up to names, zone and size one run per fault, and says so", () => {
    const p = plan(6, ["a", "b", "c"]);
    const ids = p.runs.map((r) => r.id);
    expect(ids).toEqual([
      "none",
      "power-off/worker-1",
      "power-off/worker-2",
      "power-off/worker-3",
      "zone/a",
      "zone/b",
      "zone/c",
      "drain/worker-1",
      "drain/worker-2",
      "drain/worker-3",
    ]);
    expect(p.runs.find((r) => r.id === "power-off/worker-1")!.sharedBy).toEqual(["worker-1", "worker-4"]);
    expect(p.runs.find((r) => r.id === "zone/a")!.fault.nodes).toEqual(["worker-1", "worker-4"]);
    expect(
      p.notes.some((n) =>
        n.includes("share one run per fault: worker-1, worker-4; worker-2, worker-5; worker-3, worker-6"),
      ),
    ).toBe(true);
  }, 60_000);

  it("shares runs across a cluster dump's nodes as across assumed ones: the dump of the same cluster plans the same sweep", () => {
    const assumed = plan(6, ["a", "b", "c"]);
    const scenario = prepare({
      entries: [{ entry: "six.yaml", files: [{ file: "six.yaml", text: six }] }],
      cluster: { nodes: 6, zones: ["a", "b", "c"] },
    }).scenario;
    for (const format of ["yaml", "json"] as const) {
      const text = formatDump(dumpAt(scenario, 0), format);
      const dumped = planAudit(
        prepare({
          entries: [],
          dump: { entry: "six-dump", files: [{ file: `six-dump.${format}`, text }] },
          cluster: {},
        }),
        {
          faults: ["power-off", "zone", "drain"],
          budget: DEFAULT_BUDGET,
          maxSweepEvents: 1e9,
          runner: inProcess,
        },
      );
      expect(dumped.runs).toEqual(assumed.runs);
      expect(dumped.notes).toContain(
        "nodes with the same pods up to names (same zone and size) share one run per fault: worker-1, worker-4; worker-2, worker-5; worker-3, worker-6",
      );
    }
  }, 60_000);

  it("runs no zone fault when there are no zones, or one, and says why", () => {
    expect(plan(3, [], ["zone", "drain"]).notes).toContain(
      "zone faults: the nodes have no zones (topology.kubernetes.io/zone); none run",
    );
    expect(plan(3, ["a"], ["zone", "drain"]).notes).toContain(
      "zone faults: every node is in one zone, so losing it is losing the cluster; none run",
    );
  }, 60_000);

  it("refuses a sweep with no fault run left: it would measure nothing and pass", () => {
    expect(() => plan(3, [], ["zone"])).toThrow(
      new NothingToMeasureError(
        "six.yaml: nothing to measure: no run of --faults zone applies to this cluster (zone faults: the nodes have no zones (topology.kubernetes.io/zone); none run)",
      ),
    );
  }, 60_000);
});

describe("the assumed cluster", () => {
  it("fits the manifests on the nodes left after losing the largest zone, and is never below the scenario default", () => {
    const prepared = prepare({
      entries: [{ entry: "six.yaml", files: [{ file: "six.yaml", text: six }] }],
      cluster: {},
    });
    expect(prepared.nodes.map((n) => [n.name, n.zone, n.cpu, n.pods])).toEqual([
      ["worker-1", "a", 4, 110],
      ["worker-2", "b", 4, 110],
      ["worker-3", "c", 4, 110],
    ]);
    const big = prepare({
      entries: [
        {
          entry: "six.yaml",
          files: [{ file: "six.yaml", text: six.replace("replicas: 6", "replicas: 300") }],
        },
      ],
      cluster: {},
    });
    // 300 × 100m on the 2 nodes left, with a quarter of headroom: 18.75 → 19 cpu; 300 pods → 189 (+1 DaemonSet pod)
    expect(sizeNodes(big.scenario.manifests, 3, ["a", "b", "c"])).toMatchObject({
      cpu: 19,
      pods: 189,
      lost: 1,
    });
  });
});

describe("a fix", () => {
  it("is a patch the loader applies and checks as it would the file", () => {
    const base = prepare({
      entries: [{ entry: "six.yaml", files: [{ file: "six.yaml", text: six }] }],
      cluster: {},
    }).scenario;
    const fixed = variantOf(base, [
      { object: "Deployment/default/web", path: "spec.replicas", value: 2 },
      {
        object: "Deployment/default/web",
        path: "spec.template.spec.containers[name=web].lifecycle.preStop",
        value: { sleep: { seconds: 5 } },
      },
    ]);
    const web = fixed.manifests.find((m) => m.object.kind === "Deployment")!.object as Deployment;
    expect(web.spec.replicas).toBe(2);
    expect(web.spec.template.spec.containers[0]!.lifecycle?.preStop).toEqual({ sleep: { seconds: 5 } });
    expect(() =>
      variantOf(base, [
        { object: "Deployment/default/web", path: "spec.replicas", value: -1, label: "FL001 fix" },
      ]),
    ).toThrow(LoadError);
  });
});

describe("the worker threads", () => {
  it("are --jobs exactly when given; by default one per core, no more than the work is worth", () => {
    // [jobs, fit (no --jobs), runs, estimated events per run, threads]
    const cases: [number, boolean, number, number, number][] = [
      [2, false, 38, 751, 2], // microservices-demo with --jobs 2: two workers, as asked
      [2, true, 38, 751, 1], // …by default: ~29,000 events run in this thread
      [2, true, 204, 24_931, 2], // the 100-node bench: ~5.1 M events, a worker's start is worth it
      [8, true, 28, 13_560, 1], // the shop dump: ~380,000 events, one worker's worth at most
      [8, true, 100, 40_000, 8],
      [4, true, 3, 10_000_000, 3], // never more threads than runs
      [4, false, 1, 1, 1],
    ];
    for (const [jobs, fit, runs, events, threads] of cases)
      expect([jobs, fit, runs, events, threadsFor(jobs, fit, runs, events)]).toEqual([
        jobs,
        fit,
        runs,
        events,
        threads,
      ]);
    expect(EVENTS_PER_WORKER).toBe(300_000);
  });
});
