// Standard cron syntax as robfig/cron/v3 ParseStandard reads it (the CronJob controller's parser):
// five fields, ranges, lists, steps, names, the @ descriptors, and either day field matching when
// both are restricted.

import { describe, expect, it } from "vitest";
import { nextCronTime, parseCron } from "../../src/kubernetes/cron.ts";

/** 2024-03-06T09:17:00Z, a Wednesday. */
const WED = Date.UTC(2024, 2, 6, 9, 17) / 1000;
const next = (spec: string, after = WED) => {
  const s = parseCron(spec);
  if ("error" in s) throw new Error(s.error);
  const t = nextCronTime(s, after, after + 400 * 86_400);
  return t === undefined ? undefined : new Date(t * 1000).toISOString();
};

describe("cron schedules", () => {
  it.each([
    ["*/5 * * * *", "2024-03-06T09:20:00.000Z"],
    ["17 * * * *", "2024-03-06T10:17:00.000Z"],
    ["0 9-17/4 * * *", "2024-03-06T13:00:00.000Z"],
    ["30 2 * * MON-FRI", "2024-03-07T02:30:00.000Z"],
    ["0 0 1 JAN *", "2025-01-01T00:00:00.000Z"],
    ["0 0 * * 7", "2024-03-10T00:00:00.000Z"],
    // Both day fields restricted: the 15th or any Monday, whichever comes first.
    ["0 0 15 * 1", "2024-03-11T00:00:00.000Z"],
    ["@hourly", "2024-03-06T10:00:00.000Z"],
    ["@daily", "2024-03-07T00:00:00.000Z"],
    ["@weekly", "2024-03-10T00:00:00.000Z"],
    ["@monthly", "2024-04-01T00:00:00.000Z"],
  ])("%s after Wednesday 09:17 → %s", (spec, at) => {
    expect(next(spec)).toBe(at);
  });

  it("strictly after: a schedule due now is the next one", () => {
    expect(next("17 9 * * *")).toBe("2024-03-07T09:17:00.000Z");
  });

  it("refuses what ParseStandard refuses, in its words", () => {
    expect(parseCron("* * *")).toEqual({ error: "expected exactly 5 fields, found 3: * * *" });
    expect(parseCron("61 * * * *")).toMatchObject({ error: expect.stringMatching(/beyond the range 0-59/) });
    expect(parseCron("@fortnightly")).toEqual({ error: "unrecognized descriptor: @fortnightly" });
    expect(parseCron("x * * * *")).toEqual({ error: "failed to parse int from x" });
  });
});
