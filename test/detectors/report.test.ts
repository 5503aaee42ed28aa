// The detector commands' printers: the one table helper, figures and durations, JSON of non-finite numbers.
import { describe, expect, it } from "vitest";
import { formatMs, num, toJson, withReason } from "../../src/report/detector/format.ts";
import { table, tableLines } from "../../src/report/table.ts";

describe("table", () => {
  it("pads each column to its widest cell, aligns as asked, never pads the last column or ends with spaces", () => {
    expect(
      table(
        ["name", "n"],
        [
          ["a", "1"],
          ["bbb", "22"],
        ],
        { align: ["left", "right"] },
      ),
    ).toBe("name   n\na      1\nbbb   22\n");
    expect(tableLines(["a", "b", "c"], [["xx", "", ""]], { gap: 3, indent: "  " })).toEqual([
      "  a    b   c",
      "  xx",
    ]);
  });
});

describe("figures", () => {
  it("formats milliseconds compactly", () => {
    expect([
      formatMs(950),
      formatMs(4605.17),
      formatMs(125_000),
      formatMs(4_210_000),
      formatMs(Infinity),
    ]).toEqual(["950ms", "4.61s", "2m05s", "1h10m", "∞"]);
    expect(formatMs(Number.NaN)).toBe("undefined");
  });

  it("formats counts and rates", () => {
    expect([num(0), num(8.6421), num(2590.7), num(1.28e-5), num(-Infinity)]).toEqual([
      "0",
      "8.64",
      "2,591",
      "1.28e-5",
      "-∞",
    ]);
  });

  it("prints a non-finite figure with its reason", () => {
    expect(withReason(1.5, "1.50", "never shown")).toBe("1.50");
    expect(withReason(Number.NaN, "NaN", "min-std 0 makes phi undefined")).toBe(
      "undefined (min-std 0 makes phi undefined)",
    );
    expect(withReason(Infinity, "Infinity", "why")).toBe("∞ (why)");
  });

  it("writes ±Infinity and NaN in JSON as strings", () => {
    expect(toJson({ a: Infinity, b: -Infinity, c: Number.NaN, d: 1 })).toBe(
      '{\n  "a": "Infinity",\n  "b": "-Infinity",\n  "c": "NaN",\n  "d": 1\n}\n',
    );
  });
});
