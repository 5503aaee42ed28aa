// `--vary` on a scenario without a traffic section compares what the cluster did (NotReady, taints,
// evictions, replacements), not empty traffic columns.

import { describe, expect, it } from "vitest";
import { formatVariants, simulateVariants, varyJson } from "../../src/whatif/index.ts";
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
  const vary = { key: "controlPlane.nodeMonitorGracePeriod", values: ["20s", "50s"] };
  const json = varyJson("x", runs, vary, "0.0.0");
  const [short, long] = json.variants.map((v) => ({ ...v, milestones: { ...v.milestones } })) as {
    variant: string;
    milestones: Record<string, number | null>;
  }[];

  it("--json says it compares milestones, with no traffic in any variant", () => {
    expect(json.compares).toBe("milestones");
    expect(json.variants.map((v) => v.variant)).toEqual(vary.values.map((v) => `${vary.key}=${v}`));
    expect(json.variants.some((v) => v.traffic !== undefined)).toBe(false);
  });

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
    const text = formatVariants("x", runs);
    expect(text).toMatch(/no traffic section/);
    expect(text).not.toMatch(/\bsent\b/);
    const rows = text.split("\n").filter((l) => l.startsWith("controlPlane."));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/t\+\d+\.\ds/);
  });
});

describe("--vary on a stopped container runtime", () => {
  it("NotReady is the kubelet's own Ready=False, 30s after its last status check (the node controller never says Unknown)", () => {
    const s = load(
      `kubernetesVersion: "1.32"
duration: 2m
nodes: {count: 2, zones: [a, b]}
manifests: [web.yaml]
timeline:
  - {at: 30s, do: runtime-down, node: worker-1}
`,
      { "web.yaml": WEB },
    );
    const runs = simulateVariants(s, "kubelet.nodeStatusUpdateFrequency=10s");
    const vary = { key: "kubelet.nodeStatusUpdateFrequency", values: ["10s"] };
    const [run] = varyJson("x", runs, vary, "0.0.0").variants;
    // The kubelet keeps posting its status (Ready=False, KubeletNotReady): the node lifecycle
    // controller's grace period never runs out, so no NodeNotReady of its own (status Unknown).
    const events = runs[0]!.result.events;
    expect(events.some((e) => e.type === "KubeletNodeNotReady" && e.node === "worker-1")).toBe(true);
    expect(events.filter((e) => e.type === "NodeNotReady" && e.status === "Unknown")).toEqual([]);
    // updateRuntimeUp every 5s, maxWaitForContainerRuntime 30s, the status loop's next run within 10.4s.
    expect(run!.milestones!.notReady).toBeGreaterThanOrEqual(30 - 5 + 30);
    expect(run!.milestones!.notReady).toBeLessThanOrEqual(30 + 30 + 10.4);
  });
});
