import { describe, expect, it } from "vitest";
import { formatDuration, parseDuration, parseQuantity, UnitError } from "../../src/load/index.ts";

describe("parseDuration: Go-style durations and numbers of seconds", () => {
  it.each([
    ["10s", 10],
    ["1m30s", 90],
    ["500ms", 0.5],
    ["100ms", 0.1],
    ["2h", 7200],
    ["1.5h", 5400],
    ["15m", 900],
    ["1h2m3s4ms", 3723.004],
    ["250us", 0.00025],
    ["250µs", 0.00025],
    ["1000000ns", 0.001],
    ["0", 0],
    ["0s", 0],
    [".5s", 0.5],
    ["+5s", 5],
    ["-1m", -60],
    ["90", 90],
    ["2.5", 2.5],
    [90, 90],
    [0.25, 0.25],
  ] as const)("%j → %d s", (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(["", "10 sec", "15 minutes", "15min", "1d", "s", "1.s.", "10S", "1h 30m", "--1s", "ten", "1e3s"])(
    "%j is not a duration",
    (text) => {
      expect(() => parseDuration(text)).toThrow(UnitError);
    },
  );

  it("rejects non-finite numbers", () => {
    expect(() => parseDuration(Number.POSITIVE_INFINITY)).toThrow(UnitError);
    expect(() => parseDuration(Number.NaN)).toThrow(UnitError);
  });

  it.each([
    [0, "0s"],
    [0.5, "500ms"],
    [90, "1m30s"],
    [3600, "1h"],
    [3723, "1h2m3s"],
    // rounding at the boundaries carries into the next unit, never "60s" or "1000ms"
    [59.9996, "1m"],
    [119.9999, "2m"],
    [3599.9999, "1h"],
    [0.9999996, "1s"],
    [59.9994, "59.999s"],
  ] as const)("formatDuration(%d) = %s", (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});

describe("parseQuantity: Kubernetes quantities", () => {
  it.each([
    ["500m", 0.5],
    ["250m", 0.25],
    ["4", 4],
    ["0.5", 0.5],
    ["1k", 1000],
    ["16Gi", 16 * 2 ** 30],
    ["512Mi", 512 * 2 ** 20],
    ["1Ki", 1024],
    ["2Ti", 2 * 2 ** 40],
    ["1Pi", 2 ** 50],
    ["1Ei", 2 ** 60],
    ["1G", 1e9],
    ["16G", 16e9],
    ["1M", 1e6],
    ["1T", 1e12],
    ["1P", 1e15],
    ["1E", 1e18],
    ["129e6", 129e6],
    ["1E3", 1000],
    ["128974848", 128974848],
    ["1.5Gi", 1.5 * 2 ** 30],
    [4, 4],
    [0.5, 0.5],
  ] as const)("%j → %d", (text, value) => {
    expect(parseQuantity(text)).toBe(value);
  });

  it.each(["16GB", "512MB", "1gi", "1 Gi", "4 cores", "", "Gi", "1.2.3", "$" + "{CPU}", "1KB", "500mi"])(
    "%j is not a quantity",
    (text) => {
      expect(() => parseQuantity(text)).toThrow(UnitError);
    },
  );
});
