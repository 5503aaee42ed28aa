// The pieces of `faultline serve` on their own: virtual time on the wall, quantities, selectors as
// the API server parses them, printPod's STATUS and RESTARTS rules, Event merging and naming.

import { describe, expect, it } from "vitest";
import { goDuration } from "../../src/kubernetes/go-duration.ts";
import { loadScenarioFile } from "../../src/load/index.ts";
import type { ApiObject } from "../../src/serve/api-types.ts";
import { eventName, newEvent, repeatEvent } from "../../src/serve/event-objects.ts";
import type { Recorded } from "../../src/serve/events.ts";
import { ClusterMirror } from "../../src/serve/mirror.ts";
import { byteQuantity, cpuQuantity } from "../../src/serve/quantity.ts";
import { fieldMatcher, matchesLabels, parseLabelSelector, SelectorError } from "../../src/serve/selectors.ts";
import { PRINTERS } from "../../src/serve/tables.ts";
import { ageString, microTimeString, timeString, unixNanoHex, virtualTime } from "../../src/serve/time.ts";

describe("time", () => {
  it("t=0 is 2025-01-01T00:00:00Z; metav1.Time drops the fraction, MicroTime keeps six digits", () => {
    expect(timeString(0)).toBe("2025-01-01T00:00:00Z");
    expect(timeString(57.999)).toBe("2025-01-01T00:00:57Z");
    expect(timeString(-600)).toBe("2024-12-31T23:50:00Z");
    expect(microTimeString(62.125811)).toBe("2025-01-01T00:01:02.125811Z");
    expect(virtualTime("2025-01-01T00:01:02.125811Z")).toBeCloseTo(62.125811, 6);
    expect(unixNanoHex(0)).toBe(1735689600000000000n.toString(16));
  });

  it("ages as translateTimestampSince prints them, from whole-second timestamps", () => {
    expect(ageString(-600, 70)).toBe("11m");
    expect(ageString(362.1, 390)).toBe("28s");
    expect(ageString(undefined, 0)).toBe("<unknown>");
  });

  it("Go durations as the CrashLoopBackOff message writes them", () => {
    expect([10, 40, 80, 300].map(goDuration)).toEqual(["10s", "40s", "1m20s", "5m0s"]);
  });

  it("Go durations with a fraction, as the PLEG's health check writes them (trailing zeros dropped)", () => {
    expect([184.25, 180.000001, 3661.5].map(goDuration)).toEqual(["3m4.25s", "3m0.000001s", "1h1m1.5s"]);
  });
});

describe("quantities", () => {
  it("canonical forms: cores or millicores, binary then decimal suffixes", () => {
    expect([4, 0.5, 0.05].map(cpuQuantity)).toEqual(["4", "500m", "50m"]);
    expect([134217728, 17179869184, 1e9, 1500].map(byteQuantity)).toEqual(["128Mi", "16Gi", "1G", "1500"]);
  });
});

describe("selectors", () => {
  it.each([
    ["app=web", { app: "web" }, true],
    ["app==web", { app: "db" }, false],
    ["app!=web", {}, true],
    ["app in (web, db),tier", { app: "db", tier: "x" }, true],
    ["app notin (web)", { app: "web" }, false],
    ["!tier", { tier: "x" }, false],
    ["rank>2", { rank: "3" }, true],
    ["", { any: "thing" }, true],
  ])("label selector %s on %j: %s", (text, labels, expected) => {
    expect(matchesLabels(parseLabelSelector(text), labels)).toBe(expected);
  });

  it.each(["app in (", "a b c", "=web", "rank>x"])("a malformed label selector %j is refused", (text) => {
    expect(() => parseLabelSelector(text)).toThrow(SelectorError);
  });

  it("field selectors: the resource's field labels, = == !=, escapes; others refused as kube-apiserver does", () => {
    const pod = {
      metadata: { name: "a,b" },
      spec: { nodeName: "worker-2" },
      status: { phase: "Running" },
    } as unknown as ApiObject;
    expect(fieldMatcher("pods", "spec.nodeName=worker-2,status.phase!=Failed")(pod)).toBe(true);
    expect(fieldMatcher("pods", "metadata.name==a\\,b")(pod)).toBe(true);
    expect(fieldMatcher("pods", "spec.nodeName=worker-1")(pod)).toBe(false);
    expect(() => fieldMatcher("nodes", "spec.nodeName=worker-2")).toThrow(
      "field label not supported: spec.nodeName",
    );
  });
});

describe("printPod", () => {
  const pod = (status: object, extra: object = {}): ApiObject =>
    ({
      metadata: { name: "p", creationTimestamp: "2025-01-01T00:00:00Z", ...extra },
      spec: { containers: [{ name: "a" }, { name: "b" }] },
      status,
    }) as unknown as ApiObject;
  const cells = (o: ApiObject, now = 600) => PRINTERS.pods!.cells(o, now).slice(0, 4);

  it("a waiting reason wins, restarts say when the last one was", () => {
    const o = pod({
      phase: "Running",
      containerStatuses: [
        { ready: true, restartCount: 0, state: { running: {} }, lastState: {} },
        {
          ready: false,
          restartCount: 3,
          state: { waiting: { reason: "CrashLoopBackOff" } },
          lastState: { terminated: { exitCode: 1, finishedAt: "2025-01-01T00:09:20Z" } },
        },
      ],
    });
    expect(cells(o)).toEqual(["p", "1/2", "CrashLoopBackOff", "3 (40s ago)"]);
  });

  it("a terminated container without a reason shows its exit code; Completed with a running one reads Running or NotReady", () => {
    const terminated = {
      ready: false,
      restartCount: 0,
      state: { terminated: { exitCode: 137 } },
      lastState: {},
    };
    expect(cells(pod({ phase: "Running", containerStatuses: [terminated] }))[2]).toBe("ExitCode:137");
    const running = { ready: true, restartCount: 0, state: { running: {} }, lastState: {} };
    const completed = {
      ready: false,
      restartCount: 0,
      state: { terminated: { exitCode: 0, reason: "Completed" } },
      lastState: {},
    };
    const ready = [{ type: "Ready", status: "True" }];
    expect(
      cells(pod({ phase: "Running", conditions: ready, containerStatuses: [completed, running] }))[2],
    ).toBe("Running");
    expect(cells(pod({ phase: "Running", conditions: [], containerStatuses: [completed, running] }))[2]).toBe(
      "NotReady",
    );
  });

  it("a pod with a deletionTimestamp is Terminating unless its phase is terminal", () => {
    const deleting = { deletionTimestamp: "2025-01-01T00:06:32Z" };
    expect(cells(pod({ phase: "Running", containerStatuses: [] }, deleting))[2]).toBe("Terminating");
    expect(cells(pod({ phase: "Failed", containerStatuses: [] }, deleting))[2]).toBe("Failed");
  });
});

describe("Events", () => {
  const r: Recorded = {
    t: 57.03,
    involved: { apiVersion: "v1", kind: "Node", name: "worker-2", uid: "worker-2" },
    type: "Normal",
    reason: "NodeReady",
    message: "Node worker-2 status is now: NodeReady",
    source: { component: "kubelet", host: "worker-2" },
  };

  it("a core/v1 recording: in the default namespace for a cluster-scoped object, count 1, first = last", () => {
    const e = newEvent(
      r,
      eventName(r, () => false),
    );
    expect(e.metadata).toMatchObject({ name: `worker-2.${unixNanoHex(57.03)}`, namespace: "default" });
    expect(e).toMatchObject({
      count: 1,
      firstTimestamp: "2025-01-01T00:00:57Z",
      lastTimestamp: "2025-01-01T00:00:57Z",
      eventTime: null,
    });
    const again = repeatEvent(e, { ...r, t: 120 });
    expect(again).toMatchObject({
      count: 2,
      firstTimestamp: "2025-01-01T00:00:57Z",
      lastTimestamp: "2025-01-01T00:02:00Z",
    });
  });

  it("an events.k8s.io recording (kube-scheduler): eventTime, no timestamps; repeats count in the series", () => {
    const s: Recorded = {
      ...r,
      source: undefined,
      reporting: { controller: "default-scheduler", action: "Scheduling" },
    };
    const e = newEvent(s, "x");
    expect(e).toMatchObject({
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: "2025-01-01T00:00:57.030000Z",
      reportingComponent: "default-scheduler",
    });
    expect(repeatEvent(e, { ...s, t: 60 }).series).toEqual({
      count: 2,
      lastObservedTime: "2025-01-01T00:01:00.000000Z",
    });
  });

  it("two recordings for one object at one instant get names a nanosecond apart", () => {
    const taken = new Set([`worker-2.${unixNanoHex(57.03)}`]);
    expect(eventName(r, (n) => taken.has(n))).not.toBe([...taken][0]);
  });
});

describe("the kubelet's node Events", () => {
  it("a stopped container runtime: the kubelet records NodeNotReady on its node, then NodeReady", () => {
    const scenario = loadScenarioFile("examples/runtime-down.yaml");
    const mirror = new ClusterMirror(scenario);
    while (mirror.step(scenario.duration) !== null);
    const byKubelet = [...mirror.objects.values()]
      .map(
        (s) => s.object as ApiObject & { reason?: string; message?: string; source?: { component?: string } },
      )
      .filter(
        (o) =>
          o.kind === "Event" && o.source?.component === "kubelet" && /^Node(Not)?Ready$/.test(o.reason ?? ""),
      )
      .map((o) => [o.reason, o.message]);
    expect(byKubelet).toContainEqual(["NodeNotReady", "Node worker-2 status is now: NodeNotReady"]);
    expect(byKubelet).toContainEqual(["NodeReady", "Node worker-2 status is now: NodeReady"]);
  });
});
