// No finding offers as its fix a change its own run shows is no better, unless the effect says what
// would help instead (FL003's zonal volume: a second node in each zone): the text then says the
// change was tried and does not help.
import { describe, expect, it } from "vitest";
import { fixOf } from "../../src/audit/audit.ts";
import type { RunOutcome } from "../../src/audit/execute.ts";
import type { Draft } from "../../src/audit/rules/index.ts";
import type { Figures, RunMeasure } from "../../src/audit/types.ts";

const figures = (outage: number): Figures => ({
  desired: 1,
  degraded: outage,
  outage,
  recovered: outage,
  reasons: [],
});
const spec = {
  id: "fix/X/Deployment/ns/web/power-off",
  fault: { class: "power-off" as const, target: "w", nodes: ["w"], at: 10 },
  patches: [],
};

function draft(saysInstead?: boolean): Draft {
  return {
    object: "Deployment/ns/web",
    field: "",
    severity: "error",
    message: "m",
    consequence: { run: "power-off/w", text: "c", figures: figures(300) },
    fix: {
      text: "replicas: 2",
      spec,
      subject: { kind: "workload", id: "Deployment/ns/web" },
      effect: () => "when w loses power: 300s without a Ready pod",
      ...(saysInstead === undefined ? {} : { saysInstead: () => saysInstead }),
    },
  };
}

function outcome(outage: number): ReadonlyMap<string, RunOutcome> {
  const measure = {
    id: spec.id,
    fault: spec.fault,
    services: {},
    workloads: { "Deployment/ns/web": figures(outage) },
    engineEvents: 0,
    blockedBy: [],
  } as RunMeasure;
  return new Map([[spec.id, { ok: true, id: spec.id, measure } as RunOutcome]]);
}

describe("a fix no better than without it", () => {
  it("is not offered: the text says it was tried", () => {
    const f = fixOf(draft(), outcome(300));
    expect(f.text).toBe("none of the changes simulated helps here (tried: replicas: 2)");
    expect(f.effect).toMatch(/\(no better than without the fix, as simulated\)$/);
  });
  it("is kept when the effect says what would help instead", () => {
    expect(fixOf(draft(true), outcome(300)).text).toBe("replicas: 2");
  });
  it("a fix that helps is offered as it is", () => {
    const f = fixOf(draft(), outcome(0));
    expect(f.text).toBe("replicas: 2");
    expect(f.effect).not.toMatch(/no better/);
  });
});
