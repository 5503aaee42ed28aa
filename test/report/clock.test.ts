// The timeline's clock, t+m:ss(.s): seconds are rounded to the tenth before they are split into
// minutes, so a time just under a minute prints as the next minute, never as ":60".
import { describe, expect, it } from "vitest";
import { clock } from "../../src/report/text.ts";

describe("clock", () => {
  it.each([
    [0, "0:00"],
    [9.5, "0:09.5"],
    [59.94, "0:59.9"],
    [59.95, "1:00"],
    [59.96, "1:00"],
    [59.99, "1:00"],
    [60, "1:00"],
    [60.04, "1:00"],
    [60.06, "1:00.1"],
    [119.97, "2:00"],
    [299.96, "5:00"],
    [600, "10:00"],
    [-59.97, "-1:00"],
  ] as const)("clock(%d) = %s", (t, text) => {
    expect(clock(t)).toBe(text);
  });

  it("never prints 60 seconds, at any tenth-rounding boundary of the first hour", () => {
    for (let m = 0; m < 60; m++)
      for (const frac of [59.95, 59.96, 59.99, 59.999]) {
        const text = clock(m * 60 + frac);
        expect(text, `${m * 60 + frac}`).toBe(`${m + 1}:00`);
      }
  });
});
