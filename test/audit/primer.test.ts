// The fork server's primer (src/audit/primer.ts): a small cluster's sweep that the server plays
// before its warm-up, so that its children start from compiled code. Its runs must be real runs of
// every fault class the sweep plays (a primer whose runs failed at once would compile nothing); that
// it leaves every outcome unchanged is test/audit/fork.test.ts's.

import { describe, expect, it } from "vitest";
import { contextOf, executeRun } from "../../src/audit/execute.ts";
import { primer } from "../../src/audit/primer.ts";
import { FAULT_CLASSES } from "../../src/audit/types.ts";
import { DEFAULT_BUDGET } from "../../src/run/budget.ts";

describe("the fork server's primer", () => {
  it("plays the sweep's fault classes in turn, each run a whole run with something to measure", () => {
    const { input, specs } = primer(["power-off", "drain", "zone"], DEFAULT_BUDGET.maxEvents, 6);
    expect(specs.map((s) => s.fault.class)).toEqual([
      "power-off",
      "drain",
      "zone",
      "power-off",
      "drain",
      "zone",
    ]);
    expect(new Set(specs.map((s) => s.id)).size).toBe(6);
    expect(input.start.pods.length).toBe(90);
    const ctx = contextOf(input);
    for (const spec of specs) {
      const outcome = executeRun(ctx, spec);
      expect(outcome.ok, spec.id).toBe(true);
      if (outcome.ok) {
        expect(outcome.measure.engineEvents, spec.id).toBeGreaterThan(300);
        expect(
          Object.values(outcome.measure.workloads).some((f) => (f.evicted ?? 0) > 0),
          spec.id,
        ).toBe(true);
      }
    }
  }, 120_000);

  it("plays only the classes asked for, and every class's runs end well (the server would fail on one that throws)", () => {
    const { specs } = primer(["partition"], DEFAULT_BUDGET.maxEvents, 4);
    expect(specs.map((s) => s.fault.class)).toEqual(["partition", "partition", "partition", "partition"]);
    const all = primer(FAULT_CLASSES, DEFAULT_BUDGET.maxEvents, FAULT_CLASSES.length);
    expect(all.specs.map((s) => s.fault.class)).toEqual([...FAULT_CLASSES]);
    const ctx = contextOf(all.input);
    for (const spec of all.specs) expect(executeRun(ctx, spec).ok, spec.id).toBe(true);
  }, 120_000);
});
