// Plurals in the audit's words: "1 request", "5 requests"; "1 node".
import { describe, expect, it } from "vitest";
import { effectOf } from "../../src/audit/rules/rule.ts";
import type { Figures } from "../../src/audit/types.ts";

const f = (lost: number, sent: number): Figures => ({
  desired: 2,
  degraded: 3,
  outage: 0,
  recovered: 3,
  reasons: [],
  lost,
  sent,
});

describe("the audit's plurals", () => {
  it.each([
    [1, 1, "callers lost 1 of 1 request"],
    [1, 5, "callers lost 1 of 5 requests"],
    [5, 10, "callers lost 5 of 10 requests"],
  ])("lost %d of %d", (lost, sent, text) => {
    expect(effectOf("service", "web", f(lost, sent))).toMatch(new RegExp(`${text}$`));
  });
});
