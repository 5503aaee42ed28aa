// The recorder's traffic probe (seed 001's method): keep-alive clients at a rate, each request
// recorded with its send time, outcome and latency; a backend that goes away shows as failures.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { RecordLine } from "../../src/record/recording.ts";
import { recordServed } from "./helpers.ts";

describe("--probe", () => {
  it("records each request: ok while the backend answers, failures once it is gone", async () => {
    const sockets = new Set<import("node:net").Socket>();
    let answering = true;
    const backend = http.createServer((_req, res) => {
      if (answering) res.end("ok");
      else {
        res.writeHead(503);
        res.end("down");
      }
    });
    backend.on("connection", (s) => {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    });
    await new Promise<void>((r) => backend.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/`;
    // Half-way through, the backend answers 503 (a pod whose endpoint is still in rotation, gone).
    setTimeout(() => {
      answering = false;
    }, 2500);
    const r = await recordServed("test/record/fixtures/perturbed.yaml", 1, 5, { url, rate: 20, clients: 4 });
    backend.close();
    for (const s of sockets) s.destroy();
    const requests = r.lines.filter(
      (l): l is Extract<RecordLine, { kind: "request" }> => l.kind === "request",
    );
    expect(r.lines[0]).toMatchObject({ kind: "header", probe: { url, rate: 20, clients: 4 } });
    expect(requests.length).toBeGreaterThan(20);
    expect(new Set(requests.map((q) => q.client))).toEqual(new Set([0, 1, 2, 3]));
    const outcomes = new Set(requests.map((q) => q.outcome));
    expect(outcomes).toContain("ok");
    expect(outcomes).toContain("http 503");
    for (const q of requests) {
      expect(Number.isNaN(Date.parse(q.sentAt))).toBe(false);
      expect(q.latencyMs).toBeGreaterThanOrEqual(0);
    }
    // In send order per client, every 503 comes after every ok.
    const firstFail = Math.min(
      ...requests.filter((q) => q.outcome !== "ok").map((q) => Date.parse(q.sentAt)),
    );
    const lastOk = Math.max(...requests.filter((q) => q.outcome === "ok").map((q) => Date.parse(q.sentAt)));
    expect(lastOk).toBeLessThanOrEqual(firstFail + 100);
  }, 120_000);
});
