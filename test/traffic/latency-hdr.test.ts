// A send second's percentiles are worked out from its sorted latencies (traffic/latency.ts
// hdrAtPercentile), not from a histogram of the second: they must be the figures HdrHistogram
// itself gives for the same values, WebAssembly and JavaScript alike, bucket edges included.

import fc from "fast-check";
import { build, initWebAssemblySync } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { HDR_SETTINGS, hdrAtPercentile, highestEquivalent, Latency } from "../../src/traffic/latency.ts";

initWebAssemblySync();

/** The histogram traffic/latency.ts builds, from its own settings. */
function histogram(useWebAssembly: boolean) {
  return build({ ...HDR_SETTINGS, useWebAssembly });
}

const PERCENTILES = [0.1, 1, 33.3, 50, 90, 99, 99.9, 100];

/** Latencies in µs: the sub-bucket edges (powers of two and their neighbours), and anything up to two hours. */
const latency = fc.oneof(
  fc.integer({ min: 0, max: 7_200_000_000 }),
  fc
    .integer({ min: 0, max: 33 })
    .chain((k) => fc.integer({ min: -1, max: 1 }).map((d) => Math.max(0, 2 ** k + d))),
  fc.integer({ min: 0, max: 2_000 }),
);

describe("a second's percentiles from its sorted latencies", () => {
  it.each([
    ["WebAssembly", true],
    ["JavaScript", false],
  ])("are HdrHistogram's own (%s)", (_name, wasm) => {
    fc.assert(
      fc.property(fc.array(latency, { minLength: 1, maxLength: 400 }), (values) => {
        const h = histogram(wasm);
        for (const v of values) h.recordValue(v);
        const sorted = Float64Array.from(values).sort();
        for (const p of PERCENTILES)
          expect([p, hdrAtPercentile(sorted, sorted.length, p)]).toEqual([p, h.getValueAtPercentile(p)]);
        h.destroy();
      }),
      { numRuns: 300 },
    );
  });

  it("a value's bucket ends where HdrHistogram's does", () => {
    const js = histogram(false) as unknown as { highestEquivalentValue(v: number): number };
    for (const v of [0, 1, 127, 128, 255, 256, 257, 511, 512, 1_000, 65_535, 65_536, 3_600e6, 7_200e6])
      expect([v, highestEquivalent(v)]).toEqual([v, js.highestEquivalentValue(v)]);
    // one more and it is the next bucket's
    expect(highestEquivalent(highestEquivalent(300) + 1)).toBeGreaterThan(highestEquivalent(300));
  });

  it("counts only the first n values of the list", () => {
    const list = Float64Array.from([10, 20, 30, 1e9]);
    expect(hdrAtPercentile(list, 3, 100)).toBe(30);
  });
});

describe("a closed second's row", () => {
  // requests as [group, send second, µs]: seconds where one group sent (its list is the row) and
  // where several did (their lists merged), with and without the per-group p99 callback
  const request = fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 3 }), latency);
  it.each([
    ["with", true],
    ["without", false],
  ])(
    "is HdrHistogram's figure for every group's requests of that second (%s the group callback)",
    (_w, callback) => {
      fc.assert(
        fc.property(fc.array(request, { minLength: 1, maxLength: 120 }), (requests) => {
          const latency = new Latency(3, 4);
          for (const [g, sec, us] of requests) latency.record(g, sec, us / 1e6);
          const groupP99: string[] = [];
          latency.close(4, callback ? (g, sec, p99) => groupP99.push(`${g}@${sec}:${p99}`) : undefined);
          for (let sec = 0; sec < 4; sec++) {
            const mine = requests.filter((r) => r[1] === sec);
            if (mine.length === 0) {
              expect(latency.p99[sec]).toBeNaN();
              continue;
            }
            const h = histogram(false);
            for (const r of mine) h.recordValue(r[2]);
            const msOf = (p: number) => Math.round(h.getValueAtPercentile(p) / 100) / 10;
            expect([sec, latency.p50[sec], latency.p99[sec], latency.max[sec]]).toEqual([
              sec,
              msOf(50),
              msOf(99),
              msOf(100),
            ]);
            h.destroy();
          }
          const groups = new Set(requests.map((r) => `${r[0]}@${r[1]}`));
          expect(groupP99.length).toBe(callback ? groups.size : 0);
          latency.finish();
        }),
        { numRuns: 200 },
      );
    },
  );
});
