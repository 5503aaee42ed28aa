// `faultline replay` (issue 27 item 4) on examples/incident/: a power-off of worker-2 on a cluster
// whose grace period is 40s, as its Events (both shapes) and its audit log show it. The fault is
// reconstructed (node and instant), the steps matched against the model, a fix's consequence
// printed, and bad input is one located line with exit 2.

import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readDump } from "../../src/cli/audit-input.ts";
import { main } from "../../src/cli/main.ts";
import { parseAuditLog } from "../../src/compare/audit-log.ts";
import { parseEvents } from "../../src/compare/events.ts";
import { type Replay, replay } from "../../src/compare/replay.ts";

const DIR = "examples/incident";
const at = (iso: string) => Date.parse(iso) / 1000;

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join(""), err: err.join("") };
}

function run(events: string, audit?: string): Replay {
  const dump = readDump(`${DIR}/dump.json`);
  const objects = (JSON.parse(dump.files[0]!.text) as { items: [] }).items;
  return replay({
    events: parseEvents(readFileSync(`${DIR}/${events}`, "utf8"), events),
    ...(audit ? { audit: parseAuditLog(readFileSync(`${DIR}/${audit}`, "utf8"), audit) } : {}),
    dump: { ...dump, objects },
    seeds: [1, 2, 3, 4],
  });
}

const row = (r: Replay, step: string) => r.rows.find((x) => x.step === step)!;

describe("replay from the Events alone", () => {
  let core: Replay;
  let v1: Replay;
  beforeAll(() => {
    core = run("events.json");
    v1 = run("events-v1.json");
  });

  it("finds the fault: worker-2, the node node-controller marked NotReady at 00:01:05", () => {
    expect(core.fault.node).toBe("worker-2");
    expect(core.shapes).toEqual(["core/v1"]);
    expect(row(core, "not-ready").evidence).toMatch(/^NodeNotReady \(node-controller\) on Node worker-2/);
    // No Event records a Lease renewal: it is NotReady less the model's median NotReady delay.
    const nr = row(core, "not-ready");
    expect(core.anchor).toBe("not-ready");
    expect(core.fault.lastRenewal).toBeCloseTo(at("2025-01-01T00:01:05Z") - nr.predicted!.median, 6);
    expect(core.fault.uncertainty).toBeGreaterThan(1);
    expect(nr.inside).toBeUndefined();
  });

  it("matches each step the events time inside the model's spread (the 300s toleration on both sides)", () => {
    for (const step of ["pods-not-ready", "evicted", "replacement-created", "replacement-scheduled"]) {
      expect(row(core, step).observed, step).toBeDefined();
      expect(row(core, step).inside, step).toBe(true);
    }
    expect(row(core, "evicted").evidence).toMatch(/^TaintManagerEviction \(taint-eviction-controller\)/);
    expect(row(core, "evicted").why).toMatch(/tolerationSeconds .*300s/);
    // Scheduled comes from kube-scheduler's events.k8s.io recorder: a microsecond eventTime.
    expect(row(core, "replacement-scheduled").evidence).toMatch(/eventTime 2025-01-01T00:06:10\.421Z/);
    expect(row(core, "tainted").observed).toBeUndefined();
    expect(core.others.map((o) => o.reason)).toEqual(["Created", "Started"]);
  });

  it("says what the incident cost each workload: the pods lost, and when a replacement started", () => {
    expect(core.costs.map((c) => [c.workload, c.lost, c.pods])).toEqual([
      ["Deployment/default/api", 1, 1],
      ["Deployment/default/web", 1, 3],
      ["StatefulSet/default/db", 1, 1],
    ]);
    const api = core.costs[0]!;
    expect(api.notReadyAt).toBe(at("2025-01-01T00:01:05Z"));
    expect(api.replacement).toBe("api-5fc7ddb48d-smj9x");
    expect(api.startedAt).toBe(at("2025-01-01T00:06:12Z"));
    expect(core.costs[2]!.startedAt).toBeUndefined();
  });

  it("reads both shapes alike: core/v1 and events.k8s.io/v1 give the same steps", () => {
    expect(v1.shapes).toEqual(["events.k8s.io/v1"]);
    expect(v1.fault.lastRenewal).toBe(core.fault.lastRenewal);
    expect(v1.fault.uncertainty).toBe(core.fault.uncertainty);
    expect(v1.rows.map((x) => [x.step, x.observed])).toEqual(core.rows.map((x) => [x.step, x.observed]));
  });
});

describe("replay with the audit log", () => {
  let r: Replay;
  beforeAll(() => {
    r = run("events.json", "audit.jsonl");
  });

  it("reads the last Lease renewal to the microsecond", () => {
    expect(r.anchor).toBeUndefined();
    expect(r.fault.lastRenewal).toBeCloseTo(at("2025-01-01T00:00:24.699Z") + 0.000324, 6);
    expect(r.fault.uncertainty).toBe(0);
    expect(row(r, "lease-stops").evidence).toMatch(/audit\.jsonl:\d+, spec\.renewTime/);
  });

  it("flags NotReady 40.3s after the renewal against the stock 50s grace period, and nothing after it", () => {
    const nr = row(r, "not-ready");
    expect(nr.observed).toBeCloseTo(40.3, 1);
    expect(nr.inside).toBe(false);
    expect(nr.interval?.inside).toBe(false);
    expect(row(r, "tainted").observed).toBeCloseTo(45.3, 1);
    expect(row(r, "tainted").interval?.inside).toBe(true);
    expect(row(r, "evicted").interval?.observed).toBeCloseTo(300, 6);
    expect(row(r, "evicted").interval?.inside).toBe(true);
    const moved = r.rows.filter((x) => x.interval?.inside === false).map((x) => x.step);
    expect(moved).toEqual(["not-ready"]);
  });
});

describe("faultline replay on the command line", () => {
  it("prints the steps and what the audit's fix would have done to this incident", async () => {
    const r = await cli([
      "replay",
      "--events",
      `${DIR}/events.json`,
      "--cluster",
      `${DIR}/dump.json`,
      "--seeds",
      "2",
    ]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("fault: power-off worker-2");
    expect(r.out).toMatch(/pods evicted \(TaintManagerEviction\) +\+\d+\.\ds .*inside the model's spread/);
    expect(r.out).toMatch(
      /^ {2}Deployment default\/api: its only pod on worker-2, .*: none Ready for at least 5m07s/m,
    );
    expect(r.out).toContain("FL001 single-replica-service");
    expect(r.out).toContain(
      "this incident, in the model: when worker-2 loses power, default/api has no ready endpoint for 5m54s",
    );
    expect(r.out).toMatch(/fix: replicas: 2, a topology spread/);
    expect(r.out).toMatch(/simulated against this incident: .*0s without endpoints/);
    // The fixed Deployment still runs a pod on worker-2: the fix was re-run on the incident's node.
    expect(r.out).not.toContain("the fix moves the pods");
  }, 120_000);

  const dir = mkdtempSync(join(tmpdir(), "faultline-replay-"));
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const events = (items: unknown[]) => JSON.stringify({ apiVersion: "v1", kind: "List", items }, null, 2);
  const ev = (reason: string, kind: string, name: string, component: string) => ({
    apiVersion: "v1",
    kind: "Event",
    metadata: { name: `${name}.1`, namespace: "default" },
    involvedObject: { kind, name, namespace: kind === "Node" ? "" : "default" },
    reason,
    message: "",
    source: { component },
    firstTimestamp: "2025-01-01T00:01:05Z",
    lastTimestamp: "2025-01-01T00:01:05Z",
    count: 1,
  });

  it.each([
    [
      "not an EventList",
      () => file("pods.json", JSON.stringify({ apiVersion: "v1", kind: "PodList", items: [] }, null, 2)),
      /pods\.json:3:11: kind: kind "PodList" is not an EventList/,
    ],
    [
      "no node event",
      () => file("no-node.json", events([ev("Scheduled", "Pod", "web-1", "default-scheduler")])),
      /no-node\.json:\d+:\d+: items: no node event: no NodeNotReady from node-controller on a Node/,
    ],
    [
      "a cordon only (a drain: not modelled)",
      () => file("cordon.json", events([ev("NodeNotSchedulable", "Node", "worker-2", "kubelet")])),
      /cordon\.json:\d+:\d+: items: the events show a cordon of worker-2 .*not modelled/,
    ],
    [
      "a node the dump does not hold",
      () => file("other.json", events([ev("NodeNotReady", "Node", "worker-9", "node-controller")])),
      /other\.json:\d+:\d+: items\[0\]: the NodeNotReady Event names node worker-9, which the dump does not hold \(its nodes: worker-1, worker-2, worker-3\)/,
    ],
    [
      "a kubelet's own NotReady (a runtime down: not modelled)",
      () => file("kubelet.json", events([ev("NodeNotReady", "Node", "worker-2", "kubelet")])),
      /kubelet\.json:\d+:\d+: items: the kubelet of worker-2 reported NotReady itself .*not modelled/,
    ],
    [
      "an item that is not an Event",
      () => file("mixed.json", events([{ apiVersion: "v1", kind: "Pod", metadata: { name: "x" } }])),
      /mixed\.json:7:15: items\[0\]\.kind: an item of kind "Pod": an events list holds only Events/,
    ],
    [
      "a time that is not RFC 3339",
      () =>
        file(
          "time.json",
          events([
            { ...ev("NodeNotReady", "Node", "worker-2", "node-controller"), firstTimestamp: "yesterday" },
          ]),
        ),
      /time\.json:\d+:\d+: items\[0\]\.firstTimestamp: "yesterday" is not an RFC 3339 time/,
    ],
  ])("%s: one located line, exit 2", async (_what, make, message) => {
    const r = await cli(["replay", "--events", make(), "--cluster", `${DIR}/dump.json`, "--no-fixes"]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(message);
  });

  it("--json: the replay as one JSON document", async () => {
    const r = await cli([
      "replay",
      "--events",
      `${DIR}/events-v1.json`,
      "--cluster",
      `${DIR}/dump.json`,
      "--json",
      "--no-fixes",
      "--seeds",
      "2",
    ]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as Replay;
    expect(j.fault.node).toBe("worker-2");
    expect(j.shapes).toEqual(["events.k8s.io/v1"]);
    expect(j.rows.find((x) => x.step === "evicted")?.inside).toBe(true);
    expect(j.fixes).toBeUndefined();
  });

  it("a line of the audit log that is not an audit Event: located, exit 2", async () => {
    const bad = file(
      "audit.jsonl",
      `${readFileSync(`${DIR}/audit.jsonl`, "utf8").split("\n")[0]}\n{"kind":"Pod"}\n`,
    );
    const r = await cli([
      "replay",
      "--events",
      `${DIR}/events.json`,
      "--audit-log",
      bad,
      "--cluster",
      `${DIR}/dump.json`,
      "--no-fixes",
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/audit\.jsonl:2:1: kind: not an audit\.k8s\.io\/v1 Event/);
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });
});
