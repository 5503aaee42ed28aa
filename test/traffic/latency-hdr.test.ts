// A send second's percentiles are worked out from its sorted latencies (traffic/latency.ts
// hdrAtPercentile), not from a histogram of the second: they must be the figures HdrHistogram
// itself gives for the same values, WebAssembly and JavaScript alike, bucket edges included.

import fc from "fast-check";
import { build, initWebAssemblySync } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { hdrAtPercentile, highestEquivalent } from "../../src/traffic/latency.ts";

initWebAssemblySync();

/** The histogram traffic/latency.ts builds. */
function histogram(useWebAssembly: boolean) {
  return build({
    bitBucketSize: 32,
    numberOfSignificantValueDigits: 2,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 3_600e6,
    autoResize: true,
    useWebAssembly,
  });
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
