// `faultline record` with the real @kubernetes/client-node against `faultline serve` playing a
// scenario (issue 27): the recording's shape (header, dump, changes with the server's times), and
// that the recorder sends only list and watch (every request the server saw was a GET, of a list
// path or a watch).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DUMPED, type RecordLine, WATCHED } from "../../src/record/recording.ts";
import { type Recorded, recordServed } from "./helpers.ts";

let r: Recorded;
beforeAll(async () => {
  // 3 virtual minutes at 40× in about 4.5s of wall time; the recorder stops after 8s.
  r = await recordServed("test/record/fixtures/perturbed.yaml", 40, 8);
}, 180_000);
afterAll(() => {});

const changes = () =>
  r.lines.filter((l): l is Extract<RecordLine, { kind: "change" }> => l.kind === "change");

describe("the recording", () => {
  it("starts with a header and a dump in the --cluster format, and ends with why it ended", () => {
    expect(r.lines[0]).toMatchObject({
      kind: "header",
      version: 1,
      watched: expect.arrayContaining(["nodes", "leases", "pods"]),
    });
    const dump = r.lines[1] as Extract<RecordLine, { kind: "dump" }>;
    expect(dump.kind).toBe("dump");
    expect(dump.list.kind).toBe("List");
    const kinds = new Set(dump.list.items.map((o) => o.kind));
    for (const k of ["Node", "Lease", "Pod", "Deployment", "Service"]) expect(kinds).toContain(k);
    expect(r.lines.at(-1)).toMatchObject({ kind: "end", reason: "duration" });
  });

  it("carries each change's resourceVersion, the server's own time and the local receive time", () => {
    const leases = changes().filter((c) => c.resource === "leases");
    expect(leases.length).toBeGreaterThan(3);
    for (const l of leases) {
      expect(l.rv).toMatch(/^\d+$/);
      expect(l.serverTimeFrom).toBe("spec.renewTime");
      expect(l.serverTime).toMatch(/^2025-01-01T00:0\d:\d\d\.\d{6}Z$/);
      expect(Number.isNaN(Date.parse(l.receivedAt))).toBe(false);
    }
    const worker2 = changes().filter((c) => c.resource === "nodes" && c.object.metadata?.name === "worker-2");
    const ready = worker2.map(
      (c) =>
        (c.object.status as { conditions: { type: string; status: string }[] }).conditions.find(
          (x) => x.type === "Ready",
        )?.status,
    );
    expect(ready).toContain("Unknown");
    expect(changes().some((c) => c.resource === "pods" && c.object.metadata?.deletionTimestamp)).toBe(true);
  });
});

describe("read-only by construction", () => {
  it("sends only GETs: lists and watches, never another verb", () => {
    expect(r.requests.length).toBeGreaterThan(10);
    const verbs = new Set(r.requests.map((q) => q.method));
    expect([...verbs]).toEqual(["GET"]);
    const watches = r.requests.filter((q) => /[?&]watch=(true|1)/.test(q.url));
    expect(watches.length).toBeGreaterThanOrEqual(7);
    for (const q of r.requests) expect(q.url).toMatch(/^\/(api|apis)\//);
  });

  it("each GET is of a collection (a list or its watch), never of one named object", () => {
    const collections = new Set<string>([...WATCHED, ...DUMPED].map((k) => k.path));
    for (const q of r.requests) expect(collections, q.url).toContain(q.url.split("?")[0]);
  });
});
