// The invariant checkers must be able to fail: hand-written traces that break each rule.

import { describe, expect, it } from "vitest";
import type { SimulationResult } from "../../src/run/simulate.ts";
import type { TraceEvent } from "../../src/trace/events.ts";
import {
  endpointReadinessViolations,
  parseTaint,
  schedulingViolations,
  statefulSetIdentityViolations,
  taintViolations,
  tolerates,
  withDefaultTolerations,
} from "../helpers/invariants.ts";
import { scenario } from "../helpers/sim.ts";

type Summary = SimulationResult["summary"];

const base = { lane: "control-plane" as const };
/** A hand-written event: only the fields the checkers read (the others do not matter to them). */
const ev = (e: Record<string, unknown>): TraceEvent => e as unknown as TraceEvent;
const initial: Summary = {
  duration: 60,
  engineEvents: 0,
  settings: {},
  nodes: [
    { name: "worker-1", status: "Ready", taints: [] },
    { name: "worker-2", status: "Ready", taints: [] },
  ],
  pods: [{ pod: "default/db-0", node: "worker-1", status: "Running", ready: true }],
  volumes: [],
  drains: [],
  eventCounts: {},
};
const result = (events: TraceEvent[]): SimulationResult => ({
  scenario: "synthetic",
  kubernetesVersion: "1.32",
  seed: 1,
  events,
  initial: { nodes: [], pods: [], endpoints: [] },
  summary: initial,
});
const s = scenario(`
name: synthetic
kubernetesVersion: "1.32"
duration: 1m
nodes: {count: 2, zones: [a]}
manifests: [manifests/]
`);

describe("the invariant checkers catch violations", () => {
  it("(a) EndpointReady for a not-ready, a terminating or a deleted pod", () => {
    const ok = endpointReadinessViolations(
      result([
        ev({ ...base, t: 1, type: "PodNotReady", object: "Pod/default/db-0" }),
        ev({ ...base, t: 2, type: "PodReady", object: "Pod/default/db-0" }),
        ev({ ...base, t: 2, type: "EndpointReady", object: "Pod/default/db-0", service: "default/db" }),
      ]),
      initial,
    );
    expect(ok).toEqual([]);
    const notReady = endpointReadinessViolations(
      result([
        ev({ ...base, t: 1, type: "PodNotReady", object: "Pod/default/db-0" }),
        ev({ ...base, t: 2, type: "EndpointReady", object: "Pod/default/db-0", service: "default/db" }),
      ]),
      initial,
    );
    expect(notReady).toHaveLength(1);
    const terminating = endpointReadinessViolations(
      result([
        ev({ ...base, t: 1, type: "PodEvicted", object: "Pod/default/db-0", reason: "x" }),
        ev({ ...base, t: 2, type: "EndpointReady", object: "Pod/default/db-0", service: "default/db" }),
      ]),
      initial,
    );
    expect(terminating).toHaveLength(1);
    // A new incarnation of the same name starts not ready and not terminating.
    const reborn = endpointReadinessViolations(
      result([
        ev({ ...base, t: 1, type: "PodEvicted", object: "Pod/default/db-0", reason: "x" }),
        ev({ ...base, t: 2, type: "PodDeleted", object: "Pod/default/db-0", force: true }),
        ev({ ...base, t: 2, type: "EndpointReady", object: "Pod/default/db-0", service: "default/db" }),
        ev({
          ...base,
          t: 3,
          type: "PodCreated",
          object: "Pod/default/db-0",
          owner: "StatefulSet/default/db",
        }),
        ev({ ...base, t: 3, type: "EndpointReady", object: "Pod/default/db-0", service: "default/db" }),
        ev({ ...base, t: 4, type: "PodReady", object: "Pod/default/db-0" }),
        ev({ ...base, t: 4, type: "EndpointReady", object: "Pod/default/db-0", service: "default/db" }),
      ]),
      initial,
    );
    expect(reborn).toHaveLength(2);
  });

  it("(b) a second db-0 while the first exists", () => {
    const bad = statefulSetIdentityViolations(
      result([
        ev({ ...base, t: 1, type: "PodEvicted", object: "Pod/default/db-0", reason: "x" }),
        ev({
          ...base,
          t: 2,
          type: "PodCreated",
          object: "Pod/default/db-0",
          owner: "StatefulSet/default/db",
        }),
      ]),
      initial,
      ["db"],
    );
    expect(bad).toHaveLength(1);
    const good = statefulSetIdentityViolations(
      result([
        ev({ ...base, t: 1, type: "PodDeleted", object: "Pod/default/db-0", force: true }),
        ev({
          ...base,
          t: 2,
          type: "PodCreated",
          object: "Pod/default/db-0",
          owner: "StatefulSet/default/db",
        }),
      ]),
      initial,
      ["db"],
    );
    expect(good).toEqual([]);
  });

  it("(c) scheduling onto a tainted, cordoned or deleted node; DaemonSet pods tolerate what they should", () => {
    const web = {
      ...base,
      type: "PodCreated" as const,
      object: "Pod/default/web-abc-1",
      owner: "Deployment/default/web",
    };
    const schedule = (t: number, node: string, pod = "web-abc-1"): TraceEvent =>
      ev({ ...base, t, type: "PodScheduled", object: `Pod/default/${pod}`, node });
    const v = schedulingViolations(
      result([
        ev({ ...web, t: 0 }),
        ev({
          ...base,
          t: 1,
          type: "NodeTainted",
          object: "Node/worker-2",
          taint: "node.kubernetes.io/unreachable:NoSchedule",
        }),
        schedule(2, "worker-2"),
        ev({
          ...base,
          t: 3,
          type: "NodeTaintRemoved",
          object: "Node/worker-2",
          taint: "node.kubernetes.io/unreachable:NoSchedule",
        }),
        schedule(4, "worker-2"),
        ev({ ...base, t: 5, type: "FaultInjected", object: "Node/worker-1", do: "cordon" }),
        schedule(6, "worker-1"),
        schedule(6, "worker-1", "node-exporter-xyz"),
        ev({
          ...base,
          t: 7,
          type: "NodeTainted",
          object: "Node/worker-2",
          taint: "node.kubernetes.io/unreachable:NoExecute",
        }),
        schedule(8, "worker-2"),
        schedule(8, "worker-2", "node-exporter-xyz"),
        ev({ ...base, t: 9, type: "NodeDeleted", object: "Node/worker-2" }),
        schedule(10, "worker-2"),
      ]),
      initial,
      s,
    );
    expect(v).toHaveLength(3);
    expect(v[0]).toContain("2:");
    expect(v[1]).toContain("cordoned");
    expect(v[2]).toContain("deleted");
  });

  it("(e) unreachable and not-ready NoExecute together past the instant of a swap", () => {
    const taint = (t: number, type: "NodeTainted" | "NodeTaintRemoved", key: string): TraceEvent =>
      ev({ ...base, t, type, object: "Node/worker-2", taint: `node.kubernetes.io/${key}:NoExecute` });
    // SwapNodeControllerTaint: the new taint is added, then the old one removed, at one instant.
    const swap = [taint(1, "NodeTainted", "not-ready"), taint(2, "NodeTainted", "unreachable")];
    expect(taintViolations(result([...swap, taint(2, "NodeTaintRemoved", "not-ready")]), initial)).toEqual(
      [],
    );
    // The old taint left in place until a later instant: both were on the node in between.
    expect(taintViolations(result([...swap, taint(3, "NodeTaintRemoved", "not-ready")]), initial)).toEqual([
      "2: worker-2 carries both unreachable and not-ready NoExecute taints",
    ]);
    // Never removed at all: caught when the trace ends.
    expect(taintViolations(result(swap), initial)).toHaveLength(1);
  });

  it("toleration matching follows Toleration.ToleratesTaint and DefaultTolerationSeconds", () => {
    const unreachable = parseTaint("node.kubernetes.io/unreachable:NoExecute");
    expect(
      tolerates(
        { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute" },
        unreachable,
      ),
    ).toBe(true);
    expect(
      tolerates(
        { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoSchedule" },
        unreachable,
      ),
    ).toBe(false);
    expect(tolerates({ operator: "Exists" }, unreachable)).toBe(true);
    expect(tolerates({ key: "k", operator: "Equal", value: "v" }, parseTaint("k=v:NoSchedule"))).toBe(true);
    expect(tolerates({ key: "k", operator: "Equal", value: "w" }, parseTaint("k=v:NoSchedule"))).toBe(false);
    expect(withDefaultTolerations([])).toHaveLength(2);
    expect(withDefaultTolerations([{ operator: "Exists" }])).toHaveLength(1);
    expect(
      withDefaultTolerations([
        { key: "node.kubernetes.io/unreachable", effect: "NoExecute", operator: "Exists" },
      ]),
    ).toHaveLength(2);
  });
});
