// Running statistics against a naive recomputation, the storage tiers and their sizes, exactness and drift of
// the running sums.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HeartbeatHistory } from "../../src/detectors/index.ts";

/** An interval as the history keeps it: on the one-microsecond grid. */
const onGrid = (ms: number): number => Math.round(ms * 1000) / 1000;

function naive(xs: number[]): { mean: number; variance: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean, variance: Math.max(0, xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length) };
}

describe("HeartbeatHistory properties", () => {
  it("keeps the last maxSampleSize intervals, oldest first, with exact integer statistics", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.integer({ min: 0, max: 200_000 }), { minLength: 1, maxLength: 200, size: "max" }),
        (max, xs) => {
          const h = new HeartbeatHistory(max);
          for (const x of xs) h.append(x);
          const kept = xs.slice(-max);
          expect(h.values()).toEqual(kept);
          expect(h.size).toBe(kept.length);
          expect(h.intervalSum).toBe(kept.reduce((a, b) => a + b, 0));
          expect(h.squaredIntervalSum).toBe(kept.reduce((a, b) => a + b * b, 0));
          const n = naive(kept);
          expect(h.mean).toBeCloseTo(n.mean, 9);
          expect(Math.abs(h.variance - n.variance)).toBeLessThanOrEqual(1e-6 * Math.max(1, n.mean * n.mean));
          expect(h.variance).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  it("keeps fractional intervals to the microsecond, with the statistics of those values", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        // mostly below 16.7 s (the microsecond tier), sometimes above (the 8-byte tier)
        fc.array(fc.double({ min: 0, max: 17_000, noNaN: true }), {
          minLength: 1,
          maxLength: 150,
          size: "max",
        }),
        (max, xs) => {
          const h = new HeartbeatHistory(max);
          for (const x of xs) h.append(x);
          const kept = xs.slice(-max).map(onGrid);
          expect(h.values()).toEqual(kept);
          if (h.storageBytes < 8 * Math.min(max, 16)) {
            const us = kept.map((v) => BigInt(Math.round(v * 1000)));
            expect(h.intervalSum).toBe(Number(us.reduce((a, b) => a + b, 0n)) / 1000);
          }
          const n = naive(kept);
          expect(Math.abs(h.mean - n.mean)).toBeLessThanOrEqual(1e-12 * Math.max(1, n.mean));
          expect(Math.abs(h.variance - n.variance)).toBeLessThanOrEqual(1e-9 * Math.max(1, n.mean * n.mean));
        },
      ),
    );
  });

  it("keeps exact running sums of microseconds (like Akka's Long sums) over a million fractional appends", () => {
    const h = new HeartbeatHistory(1000);
    let x = 0.1;
    const tail: bigint[] = [];
    for (let i = 0; i < 1_000_000; i++) {
      x = (x * 9301 + 49297) % 233280; // deterministic, wide-ranging values up to 16.6 s
      const v = x / 14 + 0.123456789;
      h.append(v);
      if (i >= 999_000) tail.push(BigInt(Math.round(v * 1000)));
    }
    expect(h.storageBytes).toBe(3000); // the microsecond tier
    const sum = tail.reduce((a, b) => a + b, 0n);
    const squares = tail.reduce((a, b) => a + b * b, 0n);
    expect(h.intervalSum).toBe(Number(sum) / 1000);
    expect(h.squaredIntervalSum).toBe(Number(squares) / 1e6);
    expect(h.mean).toBe(Number(sum) / 1_000_000);
  });

  it("does not drift with intervals longer than 16.7 s: the sums are recomputed every window", () => {
    const h = new HeartbeatHistory(1000);
    let x = 0.1;
    const tail: number[] = [];
    for (let i = 0; i < 1_000_000; i++) {
      x = (x * 9301 + 49297) % 233280;
      const v = x / 7 + 0.123456789; // up to 33 s
      h.append(v);
      if (i >= 999_000) tail.push(onGrid(v));
    }
    expect(h.storageBytes).toBe(8000);
    const n = naive(tail);
    expect(Math.abs(h.mean - n.mean) / n.mean).toBeLessThan(1e-12);
    expect(Math.abs(h.variance - n.variance) / n.variance).toBeLessThan(1e-9);
  });

  it("stores whole milliseconds in 2 bytes, fractional ones up to 16.7 s in 3, anything else in 8", () => {
    const h = new HeartbeatHistory(1000);
    expect(h.storageBytes).toBe(32); // starts small
    for (let i = 0; i < 1000; i++) h.append(1000);
    expect(h.storageBytes).toBe(2000);
    h.append(990.25);
    expect(h.storageBytes).toBe(3000);
    expect(h.values().slice(-2)).toEqual([1000, 990.25]);
    expect(h.intervalSum).toBe(999 * 1000 + 990.25);
    h.append(16_777.215); // the microsecond tier's largest
    expect(h.storageBytes).toBe(3000);
    h.append(16_777.216);
    expect(h.storageBytes).toBe(8000);
    expect(h.values().slice(-3)).toEqual([990.25, 16_777.215, 16_777.216]);
    h.clear();
    expect(h.size).toBe(0);
    expect(h.storageBytes).toBe(32);
    for (let i = 0; i < 1000; i++) h.append(1000);
    h.append(65_536); // whole but too large for 2 bytes, and for 3 bytes of microseconds
    expect(h.storageBytes).toBe(8000);
    expect(h.values().slice(-2)).toEqual([1000, 65_536]);
  });

  it("rounds to the nearest microsecond", () => {
    const h = new HeartbeatHistory(4).append(1.0004).append(1.0005).append(0.0001);
    expect(h.values()).toEqual([1, 1.001, 0]);
  });

  it("refuses windows above 1,048,576 samples", () => {
    expect(() => new HeartbeatHistory(1_048_577)).toThrow(/from 1 to 1048576/);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])("rejects interval %d", (x) => {
    expect(() => new HeartbeatHistory(3).append(x)).toThrow(RangeError);
  });

  it("has undefined (NaN) statistics when empty, like Akka", () => {
    const h = new HeartbeatHistory(3);
    expect(Number.isNaN(h.mean)).toBe(true);
    expect(Number.isNaN(h.variance)).toBe(true);
  });
});
