// The machine-readable result (the JSON contract in README.md): one object, stable key order.

import type { SimulationResult } from "../simulate.ts";

export function formatJson(result: SimulationResult): string {
  return `${JSON.stringify({ scenario: result.scenario, kubernetesVersion: result.kubernetesVersion, seed: result.seed, events: result.events, summary: result.summary, ...(result.traffic ? { traffic: result.traffic } : {}) }, null, 2)}\n`;
}
