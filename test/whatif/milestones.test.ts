// `--vary` on a scenario without a traffic section compares what the cluster did (NotReady, taints,
// evictions, replacements), not empty traffic columns.

import { describe, expect, it } from "vitest";
import { formatVariants, simulateVariants } from "../../src/whatif/index.ts";
import { load } from "../load/helpers.ts";
import { WEB } from "./helpers.ts";

const noTraffic = () =>
  load(
    `kubernetesVersion: "1.32"
duration: 8m
nodes: {count: 2, zones: [a, b]}
manifests: [web.yaml]
timeline:
  - {at: 30s, do: power-off, node: worker-1}
`,
    { "web.yaml": WEB },
  );

describe("--vary without callers", () => {
  const runs = simulateVariants(noTraffic(), "controlPlane.nodeMonitorGracePeriod=20s,50s");
  const [short, long] = JSON.parse(formatVariants("x", runs, true)) as {
    variant: string;
    milestones: Record<string, number | null>;
  }[];

  it("each variant's NotReady moves with the grace period, and what follows moves with it", () => {
    // The same monitor passes (5s apart): NotReady lands the 30s difference later, and the taint,
    // the eviction after tolerationSeconds=300 and the replacement follow.
    for (const k of ["notReady", "noExecuteTaint", "firstEviction", "lastReplacementReady"]) {
      expect(short!.milestones[k], k).not.toBeNull();
      expect(long!.milestones[k]! - short!.milestones[k]!, k).toBeCloseTo(30, 0);
    }
    expect(long!.milestones.firstEviction! - long!.milestones.noExecuteTaint!).toBeCloseTo(300, 0);
  });

  it("the table says it compares the cluster, with a row per variant", () => {
    const text = formatVariants("x", runs, false);
    expect(text).toMatch(/no traffic section/);
    expect(text).not.toMatch(/\bsent\b/);
    const rows = text.split("\n").filter((l) => l.startsWith("controlPlane."));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/t\+\d+\.\ds/);
  });
});
