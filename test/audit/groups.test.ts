// Identical findings (one rule, one severity, one fix) are one group with many locations: Sock Shop's
// one-replica Deployments behind their Services are one FL001 finding in the text and in --json's
// `groups`, while SARIF keeps one result per location, each naming its group and size.
import { beforeAll, describe, expect, it } from "vitest";
import type { AuditResult } from "../../src/audit/types.ts";
import { cli } from "../cli/helpers.ts";

const SET = "test/fixtures/real/sock-shop/";
const ARGS = ["audit", SET, "--faults", "power-off", "--jobs", "1"];
let text: string;
let json: AuditResult;
let sarif: {
  runs: { results: { ruleId: string; properties: { group?: { id: string; size: number } } }[] }[];
};

beforeAll(async () => {
  text = (await cli(ARGS)).out;
  json = JSON.parse((await cli([...ARGS, "--json"])).out) as AuditResult;
  sarif = JSON.parse((await cli([...ARGS, "--sarif"])).out) as typeof sarif;
}, 300_000);

describe("identical findings, grouped", () => {
  it("--json: one FL001 group holding every FL001 finding, each member's object listed", () => {
    const fl001 = json.findings.filter((f) => f.rule === "FL001");
    expect(fl001.length).toBeGreaterThanOrEqual(12);
    const groups = json.groups.filter((g) => g.rule === "FL001");
    expect(groups).toHaveLength(1);
    expect(groups[0]!.objects).toEqual(fl001.map((f) => f.object));
    expect(groups[0]!.findings.map((i) => json.findings[i]!.rule)).toEqual(fl001.map(() => "FL001"));
    // every finding is in exactly one group
    expect(json.groups.flatMap((g) => g.findings).sort((a, b) => a - b)).toEqual(
      json.findings.map((_, i) => i),
    );
  });

  it("text: the group's head and its fix once, then each location", () => {
    const n = json.findings.filter((f) => f.rule === "FL001").length;
    expect(text.match(/^error {3}FL001 single-replica-service/gm)).toEqual([
      `error   FL001 single-replica-service`,
    ]);
    expect(text).toContain(
      `error   FL001 single-replica-service  ${n} objects, one fix\n        fix, for each: replicas: 2,`,
    );
    expect(
      text.match(
        /^ {8}- test\/fixtures\/real\/sock-shop\/complete-demo\.yaml:\d+:\d+ \(spec\.replicas\): Deployment /gm,
      ),
    ).toHaveLength(n);
  });

  it("SARIF: one result per location, each naming its group", () => {
    const results = sarif.runs[0]!.results;
    expect(results).toHaveLength(json.findings.length);
    const fl001 = results.filter((r) => r.ruleId === "FL001");
    expect(new Set(fl001.map((r) => r.properties.group?.id)).size).toBe(1);
    for (const r of fl001) expect(r.properties.group?.size).toBe(fl001.length);
  });
});
