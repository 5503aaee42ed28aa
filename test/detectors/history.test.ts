// Running statistics against a naive recomputation, storage size, and drift of the running sums.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HeartbeatHistory } from "../../src/detectors/index.ts";

function naive(xs: number[]): { mean: number; variance: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean, variance: Math.max(0, xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length) };
}

describe("HeartbeatHistory properties", () => {
  it("keeps the last maxSampleSize intervals, oldest first, with exact integer statistics", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.integer({ min: 0, max: 200_000 }), { minLength: 1, maxLength: 200 }),
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

  it("matches the naive statistics with fractional intervals too", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.double({ min: 0, max: 10_000, noNaN: true }), { minLength: 1, maxLength: 150 }),
        (max, xs) => {
          const h = new HeartbeatHistory(max);
          for (const x of xs) h.append(x);
          const n = naive(xs.slice(-max));
          expect(Math.abs(h.mean - n.mean)).toBeLessThanOrEqual(1e-9 * Math.max(1, n.mean));
          expect(Math.abs(h.variance - n.variance)).toBeLessThanOrEqual(1e-6 * Math.max(1, n.mean * n.mean));
        },
      ),
    );
  });

  it("does not drift: a million fractional appends over a window of 1000 keep exact-looking statistics", () => {
    const h = new HeartbeatHistory(1000);
    let x = 0.1;
    const tail: number[] = [];
    for (let i = 0; i < 1_000_000; i++) {
      x = (x * 9301 + 49297) % 233280; // deterministic, wide-ranging values
      const v = x / 7 + 0.123456789;
      h.append(v);
      if (i >= 999_000) tail.push(v);
    }
    const n = naive(tail);
    expect(Math.abs(h.mean - n.mean) / n.mean).toBeLessThan(1e-12);
    expect(Math.abs(h.variance - n.variance) / n.variance).toBeLessThan(1e-9);
  });

  it("stores 1,000 integer samples in 2 bytes each, and switches to 8 bytes on a fractional or large one", () => {
    const h = new HeartbeatHistory(1000);
    expect(h.storageBytes).toBe(32); // starts small
    for (let i = 0; i < 1000; i++) h.append(1000);
    expect(h.storageBytes).toBe(2000);
    h.append(65_536);
    expect(h.storageBytes).toBe(8000);
    expect(h.values().slice(-2)).toEqual([1000, 65_536]);
    h.clear();
    expect(h.size).toBe(0);
    expect(h.storageBytes).toBe(32);
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
