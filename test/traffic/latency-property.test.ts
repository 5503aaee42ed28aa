// With no failure in the timeline, every request is answered, and how long it waits is what the
// load implies: the pod's service time, plus at most the pod's queue (a second's requests at its
// capacity) and the caller's pool (the requests ahead of it on its connections); the percentiles
// are in order.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runTraffic } from "./helpers.ts";

/** HdrHistogram with two significant digits reports a value at most 1% above it. */
const HDR = 1.01;

describe("latency with nothing failing", () => {
  it("every request ok, no latency beyond service time plus the queueing the load implies, percentiles in order", () => {
    fc.assert(
      fc.property(
        fc.record({
          rate: fc.integer({ min: 20, max: 400 }),
          clients: fc.integer({ min: 1, max: 20 }),
          poolSize: fc.integer({ min: 1, max: 8 }),
          serviceTimeMs: fc.integer({ min: 1, max: 50 }),
          capacity: fc.option(fc.integer({ min: 2, max: 20 }), { nil: undefined }),
          keepAlive: fc.boolean(),
          entry: fc.constantFrom("cluster-ip", "load-balancer", "node-port"),
          seed: fc.integer({ min: 1, max: 1000 }),
        }),
        (p) => {
          // the load is light for each caller's pool: on average a quarter of its connections busy
          fc.pre(((p.rate / p.clients) * p.serviceTimeMs) / 1000 <= p.poolSize / 4);
          // and for the three pods, when they have a capacity (a multiple of the rate each gets)
          const capacityRps = p.capacity === undefined ? undefined : Math.ceil((p.capacity * p.rate) / 3);
          const { t } = runTraffic({
            duration: "20s",
            seed: p.seed,
            timeline: [],
            behaviour: { serviceTimeMs: p.serviceTimeMs, ...(capacityRps ? { capacityRps } : {}) },
            traffic: {
              rate: p.rate,
              clients: p.clients,
              poolSize: p.poolSize,
              keepAlive: p.keepAlive,
              entry: p.entry,
            },
          });
          expect(t.totals.sent).toBeGreaterThan(0);
          expect(t.totals.ok).toBe(t.totals.sent);
          expect(t.causes).toEqual([]);
          const l = t.totals.latencyMs!;
          expect(l.p50).toBeLessThanOrEqual(l.p90);
          expect(l.p90).toBeLessThanOrEqual(l.p99);
          expect(l.p99).toBeLessThanOrEqual(l.p999);
          expect(l.p999).toBeLessThanOrEqual(l.max);
          // nothing is faster than the pod's service time
          expect(l.p50 * HDR).toBeGreaterThanOrEqual(p.serviceTimeMs);
          // the pod's queue: at worst a whole second's requests ahead, at its capacity; the pool:
          // at worst every one of them ahead on this caller's connections
          const perSecond = Math.max(...t.perSecond.map((r) => r.sent));
          const podQueueMs = capacityRps ? (1000 * perSecond) / capacityRps : 0;
          const bound = (p.serviceTimeMs + podQueueMs) * (1 + Math.ceil(perSecond / p.poolSize));
          expect(l.max).toBeLessThanOrEqual(bound * HDR);
          for (const r of t.perSecond) {
            if (r.sent === 0) continue;
            expect(r.p50Ms!).toBeLessThanOrEqual(r.p99Ms!);
            expect(r.p99Ms!).toBeLessThanOrEqual(r.maxMs!);
            expect(r.maxMs!).toBeLessThanOrEqual(l.max);
          }
        },
      ),
      { numRuns: 25, seed: 15 },
    );
  }, 300_000);
});
