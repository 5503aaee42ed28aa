// Issue 2, "Done when": scheduling invariants, over every example and the variants the other tests
// use. The checker (test/helpers/invariants.ts) replays node taints, cordons and deletions.

import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  endpointReadinessViolations,
  notReadyTooEarlyViolations,
  runsTwiceViolations,
  schedulingViolations,
  statefulSetIdentityViolations,
  taintViolations,
} from "../helpers/invariants.ts";
import { eventsOf, example, initialState, run, scenario, variant } from "../helpers/sim.ts";

const examples = readdirSync("examples")
  .filter((f) => f.endsWith(".yaml"))
  .sort();

const powerLossWith = (step: Record<string, unknown>) =>
  variant("node-power-loss.yaml", (d) => d.timeline.push(step));

const variants = [
  ...examples.map((f) => ({ name: f, scenario: () => example(f) })),
  {
    name: "power loss + taint-out-of-service",
    scenario: () => powerLossWith({ at: "2m", do: "taint-out-of-service", node: "worker-2" }),
  },
  {
    name: "power loss + delete-node",
    scenario: () => powerLossWith({ at: "8m", do: "delete-node", node: "worker-2" }),
  },
  {
    name: "power loss + power-on",
    scenario: () => powerLossWith({ at: "8m", do: "power-on", node: "worker-2" }),
  },
  {
    name: "cordon worker-1, power loss of worker-2",
    scenario: () => powerLossWith({ at: "5s", do: "cordon", node: "worker-1" }),
  },
  {
    name: "drain worker-1 then power loss of worker-2",
    scenario: () =>
      variant("node-drain.yaml", (d) => {
        d.duration = "10m";
        d.timeline = [
          { at: "10s", do: "drain", node: "worker-1" },
          { at: "20s", do: "power-off", node: "worker-2" },
        ];
      }),
  },
];

describe("invariants over the examples and their variants", () => {
  it("covers every example file", () => {
    expect(examples.length).toBeGreaterThanOrEqual(8);
  });

  for (const v of variants) {
    it(`${v.name}: scheduling, endpoint, identity, taint and runs-twice invariants hold`, () => {
      const s = v.scenario();
      const r = run(s);
      const initial = initialState(s);
      expect(schedulingViolations(r, initial, s)).toEqual([]);
      expect(endpointReadinessViolations(r, initial)).toEqual([]);
      const sets = s.manifests.filter((m) => m.kind === "StatefulSet").map((m) => m.object.metadata.name);
      expect(statefulSetIdentityViolations(r, initial, sets)).toEqual([]);
      expect(taintViolations(r, initial)).toEqual([]);
      expect(notReadyTooEarlyViolations(r)).toEqual([]);
      expect(runsTwiceViolations(r)).toEqual([]);
    });
  }

  it("the cordoned worker-1 gets none of the replacements", () => {
    const r = run(powerLossWith({ at: "5s", do: "cordon", node: "worker-1" }));
    const scheduled = eventsOf(r, "PodScheduled");
    expect(scheduled.length).toBeGreaterThanOrEqual(1);
    for (const e of scheduled) expect(e.node).toBe("worker-3");
  });
});

describe("spreading", () => {
  it.each([1, 2, 3, 4, 5])("seed %i: 3 web replicas on 3 nodes land on 3 distinct nodes", (seed) => {
    const s = scenario(`
name: spread
kubernetesVersion: "1.32"
duration: 1m
nodes:
  - {name: worker-1, zone: a}
  - {name: worker-2, zone: b}
  - {name: worker-3, zone: c}
manifests: [manifests/web.yaml]
`);
    const r = run(s, seed);
    const web = r.summary.pods.filter((p) => p.pod.startsWith("default/web-"));
    expect(web).toHaveLength(3);
    expect(new Set(web.map((p) => p.node)).size).toBe(3);
    for (const p of web) expect(p).toMatchObject({ status: "Running", ready: true });
  });

  it("pods created after t=0 (start: created) spread too", () => {
    const s = scenario(`
name: spread-created
kubernetesVersion: "1.32"
duration: 1m
start: created
nodes: {count: 3, zones: [a, b, c]}
manifests: [manifests/web.yaml]
`);
    const r = run(s);
    const scheduled = eventsOf(r, "PodScheduled");
    expect(scheduled).toHaveLength(3);
    expect(new Set(scheduled.map((e) => e.node)).size).toBe(3);
  });
});

describe("the scheduling queue's backoff", () => {
  it("a pod that failed to schedule is tried again after a cluster event once its 1s backoff has run out", () => {
    const r = run(
      scenario(`
duration: 3m
nodes: [{name: worker-1}]
manifests: [manifests/web.yaml]
timeline:
  - {at: 10s, do: cordon, node: worker-1}
  - {at: 100s, do: drain, node: worker-1}
  - {at: 100.4s, do: uncordon, node: worker-1}
`),
    );
    const failed = eventsOf(r, "FailedScheduling");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]!.t).toBe(100);
    const uncordon = eventsOf(r, "FaultInjected", (e) => e.do === "uncordon")[0]!;
    const scheduled = eventsOf(r, "PodScheduled", (e) => e.t >= 100);
    expect(scheduled.length).toBe(3);
    // podInitialBackoffSeconds=1: not at the uncordon (100.4s) but 1s after the failed attempt.
    for (const e of scheduled) {
      expect(e.t).toBeGreaterThan(uncordon.t);
      expect(e.t).toBeCloseTo(101, 6);
    }
  });
});
