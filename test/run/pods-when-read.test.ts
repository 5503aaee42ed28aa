// summarize's podsWhenRead (src/run/result.ts): the audit takes a run's result with its pods'
// summary worked out only if its measure reads it. Read before the run moves on, it is the list
// the eager result holds, in the same place among the summary's keys, so a result written out is
// the same byte for byte.

import { describe, expect, it } from "vitest";
import { loadScenarioFile } from "../../src/load/index.ts";
import { createSimulation } from "../../src/run/simulate.ts";

describe("a result whose pods are worked out when read", () => {
  it("is the eager result, byte for byte, and its pods the same list", () => {
    for (const file of ["examples/node-power-loss.yaml", "examples/node-drain.yaml"]) {
      const scenario = loadScenarioFile(file);
      const sim = createSimulation(scenario);
      sim.runUntil(scenario.duration);
      const lazy = sim.result({ podsWhenRead: true });
      const eager = sim.result();
      expect(Object.keys(lazy.summary), file).toEqual(Object.keys(eager.summary));
      expect(eager.summary.pods.length, file).toBeGreaterThan(0);
      expect(lazy.summary.pods, file).toEqual(eager.summary.pods);
      expect(lazy.summary.pods, `${file}: read once, kept`).toBe(lazy.summary.pods);
      expect(JSON.stringify(lazy), file).toBe(JSON.stringify(eager));
    }
  });
});
