// A healthy kubelet's Lease renewals are computed from its random stream, not run as events
// (kubelet/node-lease.ts). Rules (staging/src/k8s.io/component-helpers/apimachinery/lease/
// controller.go): renew every renewInterval = nodeLeaseDurationSeconds × 0.25 (pkg/kubelet/
// kubelet.go), each wait × U[1, 1.04) from the end of the pass (JitterUntil, sliding); while the API
// server is unreachable backoffEnsureLease retries (200ms doubling to 7s) and renews at once when it
// is back; a stopped kubelet renews nothing, a started one at its first pass. The schedule the trace
// keeps must be the renewals the Lease took, node by node, whoever reads it and whenever.

import { describe, expect, it } from "vitest";
import { loadScenarioFile } from "../../src/load/index.ts";
import { formatTimeline } from "../../src/report/text.ts";
import { createSimulation } from "../../src/run/simulate.ts";
import { renewalTimes } from "../../src/trace/lease-renewals.ts";

/** The run, and the renewTime of every node's Lease read every 50ms: each value it took, by node. */
function polled(file: string, poll: boolean) {
  const scenario = loadScenarioFile(file);
  const sim = createSimulation(scenario);
  const seen: Record<string, number[]> = {};
  const read = () => {
    for (const n of scenario.nodes) {
      const t = sim.store.get("Lease", `kube-node-lease/${n.name}`)?.spec.renewTime;
      if (t === undefined || t <= 0) continue;
      const list = seen[n.name] ?? [];
      seen[n.name] = list;
      if (list.at(-1) !== t) list.push(t);
    }
    sim.engine.after(0.05, read);
  };
  if (poll) read();
  sim.runUntil(scenario.duration);
  return { scenario, result: sim.result(), seen };
}

function gaps(times: number[]): number[] {
  return times.slice(1).map((t, i) => t - times[i]!);
}

describe("the Lease schedule, computed", () => {
  it.each(["examples/node-network-partition.yaml", "examples/kubelet-stop.yaml"])(
    "%s: the schedule's renewals are the values the Lease took, node by node, and reading them changes nothing",
    (file) => {
      const { scenario, result, seen } = polled(file, true);
      const schedule = renewalTimes(result.leases!);
      for (const n of scenario.nodes) expect(schedule[n.name], n.name).toEqual(seen[n.name]);
      const unread = polled(file, false);
      expect(formatTimeline(unread.result, unread.scenario, { allLeases: true })).toBe(
        formatTimeline(result, scenario, { allLeases: true }),
      );
    },
  );

  it("a healthy node renews every 10s × U[1, 1.04); a partitioned one not at all, and within 7s of the heal", () => {
    const { result } = polled("examples/node-network-partition.yaml", false);
    const schedule = renewalTimes(result.leases!);
    for (const g of gaps(schedule["worker-1"]!)) {
      expect(g).toBeGreaterThanOrEqual(10);
      expect(g).toBeLessThan(10.4);
    }
    const cut = schedule["worker-2"]!;
    // Partitioned at 10s, healed at 12m: no renewal between, the first within backoffEnsureLease's 7s.
    expect(cut.filter((t) => t > 10 && t < 720)).toEqual([]);
    const back = cut.find((t) => t >= 720)!;
    expect(back - 720).toBeLessThanOrEqual(7);
    expect(result.summary.eventCounts.LeaseRenewed).toBe(Object.values(schedule).flat().length);
  });

  it("a stopped kubelet renews nothing; a started one renews at once", () => {
    const { result } = polled("examples/kubelet-stop.yaml", false);
    const times = renewalTimes(result.leases!)["worker-2"]!;
    expect(times.filter((t) => t > 10 && t < 600)).toEqual([]);
    expect(times.find((t) => t >= 600)).toBe(600);
  });
});
