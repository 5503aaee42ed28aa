// The node lifecycle controller skips the passes of quiet nodes (Ready, unwritten, their Lease on
// the computed schedule: controllers/quiet-nodes.ts). Rule: monitorNodeHealth and tryUpdateNodeHealth
// (pkg/controller/nodelifecycle/node_lifecycle_controller.go) behave as if every node were read at
// every pass: the grace period counts from the pass that first saw the last renewal. Each scenario
// below runs with the skipping and without it, and the two runs are the same, byte for byte (every
// renewal and every event, with its probeTimestamp): faults after a long quiet stretch, at instants
// that fall between passes and renewals, of every kind that takes a Lease off its schedule.

import { describe, expect, it } from "vitest";
import { quietSkipping } from "../../src/controllers/quiet-nodes.ts";
import { type Doc, onAndOff, variant } from "../helpers/sim.ts";

function both(file: string, edit: (doc: Doc) => void): { skipped: string; full: string } {
  const { on, off } = onAndOff(variant(file, edit), [quietSkipping]);
  return { skipped: on, full: off };
}

describe("quiet nodes: skipped passes give the run every pass gives", () => {
  it.each([
    ["node-power-loss.yaml", [{ at: "1h3m7.3s", do: "power-off", node: "worker-2" }]],
    [
      "node-network-partition.yaml",
      [
        { at: "1h0m13.71s", do: "network-partition", node: "worker-2" },
        { at: "1h12m", do: "network-heal", node: "worker-2" },
      ],
    ],
    [
      "kubelet-stop.yaml",
      [
        { at: "1h0m4.02s", do: "kubelet-stop", node: "worker-2" },
        { at: "1h10m", do: "kubelet-start", node: "worker-2" },
      ],
    ],
    [
      "cluster-wide-outage.yaml",
      ["worker-1", "worker-2", "worker-3"].map((node) => ({
        at: "1h0m9.9s",
        do: "network-partition",
        node,
      })),
    ],
    [
      "node-power-loss.yaml",
      [
        // Writes to the Node that carry no heartbeat, then the power goes and comes back.
        { at: "40m2.2s", do: "cordon", node: "worker-2" },
        { at: "1h0m1.1s", do: "uncordon", node: "worker-2" },
        { at: "1h0m3.3s", do: "power-off", node: "worker-2" },
        { at: "1h6m", do: "power-on", node: "worker-2" },
        { at: "1h9m", do: "delete-node", node: "worker-1" },
      ],
    ],
  ])("%s, its fault an hour in", (file, timeline) => {
    const { skipped, full } = both(file, (doc) => {
      doc.duration = "1h20m";
      doc.timeline = timeline;
    });
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped).toBe(full);
  });

  it("a grace period shorter than the Lease's gaps: no node is quiet, the same run", () => {
    const { skipped, full } = both("short-grace.yaml", (doc) => {
      doc.controlPlane = { nodeMonitorGracePeriod: "9s" };
    });
    expect(skipped).toBe(full);
  });
});
