// FL004's test of a budget against its workloads' replicas, written from the disruption controller
// (pkg/controller/disruption/disruption.go getExpectedPodCount, updatePdbStatus): with every pod
// healthy, disruptionsAllowed = replicas − desiredHealthy, and 0 when no pod is expected.

import { describe, expect, it } from "vitest";
import { blocksEverything } from "../../src/audit/rules/fl004-pdb-blocks-drain.ts";

describe("a budget that allows no disruption even with every pod healthy", () => {
  it.each([
    { min: 3, max: undefined, replicas: 3, blocks: true }, // desiredHealthy 3 of 3
    { min: 2, max: undefined, replicas: 3, blocks: false },
    { min: "100%", max: undefined, replicas: 3, blocks: true },
    { min: "67%", max: undefined, replicas: 3, blocks: true }, // ⌈2.01⌉ = 3
    { min: "66%", max: undefined, replicas: 3, blocks: false }, // ⌈1.98⌉ = 2
    { min: undefined, max: 0, replicas: 3, blocks: true },
    { min: undefined, max: "0%", replicas: 3, blocks: true },
    { min: undefined, max: "10%", replicas: 3, blocks: false }, // ⌈0.3⌉ = 1 may go
    { min: undefined, max: 1, replicas: 3, blocks: false },
    { min: undefined, max: undefined, replicas: 3, blocks: true }, // no field: 0 expected, nothing allowed
  ])(
    "minAvailable $min, maxUnavailable $max of $replicas: blocks $blocks",
    ({ min, max, replicas, blocks }) => {
      expect(blocksEverything(min, max, replicas)).toBe(blocks);
    },
  );
});
