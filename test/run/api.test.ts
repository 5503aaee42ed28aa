// The programmatic API (src/index.ts, the package's "." export): load an example, run it to the
// end or step by step, print it; the same scenario and seed give the same result either way.

import { describe, expect, it } from "vitest";
import {
  createSimulation,
  formatJson,
  formatTimeline,
  loadScenarioFile,
  proseOf,
  type SimulationResult,
  simulate,
} from "../../src/index.ts";

describe("src/index.ts", () => {
  const scenario = loadScenarioFile("examples/node-power-loss.yaml");

  it("runs an example and prints it as the CLI does", () => {
    const result: SimulationResult = simulate(scenario);
    expect(result.scenario).toBe("node-power-loss");
    expect(result.events.some((e) => e.type === "NodeNotReady" && e.node === "worker-2")).toBe(true);
    expect(formatTimeline(result, scenario)).toContain("Starting state");
    expect(JSON.parse(formatJson(result)).initial.nodes).toHaveLength(3);
    for (const e of result.events) expect(proseOf(e).message.length).toBeGreaterThan(0);
  });

  it("createSimulation stops the clock where asked and gives the same run as simulate", () => {
    const sim = createSimulation(scenario);
    expect(sim.engine.now).toBe(0);
    sim.runUntil(60);
    expect(sim.engine.now).toBe(60);
    const early = sim.result();
    expect(early.summary.duration).toBe(60);
    expect(early.events.every((e) => e.t <= 60)).toBe(true);
    expect(sim.store.get("Node", "worker-2")?.status.conditions.find((c) => c.type === "Ready")?.status).toBe(
      "Unknown",
    );
    sim.runUntil(scenario.duration + 100); // never past the scenario's end
    expect(sim.engine.now).toBe(scenario.duration);
    expect(JSON.stringify(sim.result())).toBe(JSON.stringify(simulate(scenario)));
  });
});
