// Reading an incident's Events (issue 27 item 4): the two shapes' time fields and series, a
// StatefulSet's same-named replacement, the volume steps, and the events that are not a step
// (a Multi-Attach error, a readiness probe's failures), each kept with its count and meaning.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { readDump } from "../../src/cli/audit-input.ts";
import { parseEvents } from "../../src/compare/events.ts";
import { reconstruct } from "../../src/compare/incident.ts";
import { replay } from "../../src/compare/replay.ts";

const DIR = "examples/incident";
const at = (iso: string) => Date.parse(iso) / 1000;
const base = JSON.parse(readFileSync(`${DIR}/events.json`, "utf8")) as { items: unknown[] };
const dump = readDump(`${DIR}/dump.json`);
const objects = (JSON.parse(dump.files[0]!.text) as { items: [] }).items;

const core = (reason: string, name: string, component: string, time: string, message: string, count = 1) => ({
  apiVersion: "v1",
  kind: "Event",
  metadata: { name: `${name}.${reason}`, namespace: "default" },
  involvedObject: { kind: "Pod", name, namespace: "default" },
  reason,
  message,
  type: reason.startsWith("Failed") || reason === "Unhealthy" ? "Warning" : "Normal",
  source: { component },
  firstTimestamp: time,
  lastTimestamp: time,
  count,
});

const extra = [
  {
    ...core(
      "SuccessfulCreate",
      "db",
      "statefulset-controller",
      "2025-01-01T00:12:10Z",
      "create Pod db-0 in StatefulSet db successful",
    ),
    involvedObject: { kind: "StatefulSet", name: "db", namespace: "default" },
  },
  core(
    "FailedAttachVolume",
    "db-0",
    "attachdetach-controller",
    "2025-01-01T00:12:11Z",
    'Multi-Attach error for volume "pvc-uid-15" Volume is already exclusively attached to one node and can\'t be attached to another',
    5,
  ),
  core(
    "SuccessfulAttachVolume",
    "db-0",
    "attachdetach-controller",
    "2025-01-01T00:18:12Z",
    'AttachVolume.Attach succeeded for volume "pvc-uid-15"',
  ),
  // events.k8s.io/v1 with a series: three failures folded into one object (client-go tools/events).
  {
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    metadata: { name: "api-5fc7ddb48d-smj9x.unhealthy", namespace: "default" },
    eventTime: "2025-01-01T00:06:13.250000Z",
    series: { count: 3, lastObservedTime: "2025-01-01T00:06:23.250000Z" },
    reportingController: "kubelet",
    reportingInstance: "worker-3",
    action: "",
    reason: "Unhealthy",
    regarding: { kind: "Pod", name: "api-5fc7ddb48d-smj9x", namespace: "default" },
    note: 'Readiness probe failed: Get "http://10.244.3.3:8080/healthz": dial tcp 10.244.3.3:8080: connect: connection refused',
    type: "Warning",
  },
];

const text = JSON.stringify(
  { apiVersion: "v1", kind: "EventList", items: [...base.items, ...extra] },
  null,
  2,
);

describe("an incident's Events", () => {
  const events = parseEvents(text, "events.json");

  it("reads both shapes in one list, a series' count and its last time", () => {
    expect(events.shapes).toEqual(["core/v1", "events.k8s.io/v1"]);
    const u = events.events.find((e) => e.reason === "Unhealthy")!;
    expect(u.count).toBe(3);
    expect(u.micro).toBe(true);
    expect(u.first).toBeCloseTo(at("2025-01-01T00:06:13.250Z"), 6);
    expect(u.last).toBeCloseTo(at("2025-01-01T00:06:23.250Z"), 6);
    expect(u.component).toBe("kubelet");
  });

  it("times a StatefulSet's same-named replacement and its volume's attach", () => {
    const inc = reconstruct(events, objects);
    expect(inc.node).toBe("worker-2");
    expect(inc.observedAt["volume-attached"]).toBe(at("2025-01-01T00:18:12Z"));
    expect(inc.evidence["volume-attached"]).toMatch(
      /^SuccessfulAttachVolume \(attachdetach-controller\) on Pod default\/db-0/,
    );
    // The ReplicaSets' SuccessfulCreate at 00:06:10 comes first; the StatefulSet's is one of the three.
    expect(inc.observedAt["replacement-created"]).toBe(at("2025-01-01T00:06:10Z"));
    expect(inc.evidence["replacement-created"]).toMatch(/the first of 3$/);
  });

  it("lists the events that are not a step, each with its count and what it means", () => {
    const r = replay({ events, dump: { ...dump, objects }, seeds: [1, 2] });
    const failed = r.others.find((o) => o.reason === "FailedAttachVolume")!;
    expect(failed.count).toBe(5);
    expect(failed.objects).toEqual(["pod/db-0"]);
    expect(failed.why).toMatch(
      /Multi-Attach error.*still attached to the lost node.*maxWaitForUnmountDuration/,
    );
    const unhealthy = r.others.find((o) => o.reason === "Unhealthy")!;
    expect(unhealthy.count).toBe(3);
    expect(unhealthy.why).toMatch(/readiness failure takes the pod out of its endpoints/);
    const attached = r.rows.find((x) => x.step === "volume-attached")!;
    expect(attached.observed).toBeCloseTo(at("2025-01-01T00:18:12Z") - r.fault.lastRenewal, 6);
  });

  it("reads `kubectl get events -A -o yaml` as it reads the JSON", () => {
    const yaml = parseEvents(stringify(JSON.parse(text)), "events.yaml");
    expect(yaml.events.map((e) => [e.reason, e.name, e.first])).toEqual(
      events.events.map((e) => [e.reason, e.name, e.first]),
    );
  });

  it("follows the first node that went NotReady, or the one --node names", () => {
    const worker3 = {
      ...core(
        "NodeNotReady",
        "worker-3",
        "node-controller",
        "2025-01-01T00:03:00Z",
        "Node worker-3 status is now: NodeNotReady",
      ),
      involvedObject: { kind: "Node", name: "worker-3", namespace: "" },
    };
    const two = parseEvents(JSON.stringify({ kind: "List", items: [...base.items, worker3] }), "two.json");
    const first = reconstruct(two, objects);
    expect(first.node).toBe("worker-2");
    expect(first.notes.join("\n")).toContain(
      "other nodes went NotReady too (worker-3): replay follows the first, worker-2 (--node NAME follows another)",
    );
    const named = reconstruct(two, objects, undefined, "worker-3");
    expect(named.node).toBe("worker-3");
    expect(named.notReadyAt).toBe(at("2025-01-01T00:03:00Z"));
    expect(() => reconstruct(two, objects, undefined, "worker-7")).toThrow(
      /--node worker-7: no Event about Node worker-7/,
    );
  });
});
