// A status post that changes only the heartbeats moves them in place (kubelet/node-status.ts
// heartbeatOnly) instead of building the conditions again. Rule: the Node after such a post is the one
// nodeConditions builds (lastHeartbeatTime now, every lastTransitionTime kept), and no reader keeps a
// condition across posts. Each scenario runs with the shortcut and without it, and the two runs give
// the same JSON and the same Nodes every 97 s, byte for byte: faults after many unchanged posts, of
// every kind that changes the conditions (the controller's Unknown, the runtime's errors, a restart,
// a partition), and volumes.

import { describe, expect, it } from "vitest";
import { heartbeatsInPlace } from "../../src/kubelet/node-status.ts";
import { formatJson } from "../../src/report/json.ts";
import { createSimulation } from "../../src/run/simulate.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import { type Doc, onAndOff, variant } from "../helpers/sim.ts";

/** The run's JSON, and its Nodes as the API holds them every 97 s (heartbeats and transitions included). */
function once(s: Scenario): string {
  const sim = createSimulation(s);
  const nodes: string[] = [];
  for (let t = 0; t < s.duration; t += 97) {
    sim.runUntil(t);
    nodes.push(JSON.stringify(sim.store.list("Node")));
  }
  sim.runUntil(s.duration);
  nodes.push(JSON.stringify(sim.store.list("Node")));
  return `${formatJson(sim.result(), s, { allLeases: true })}\n${nodes.join("\n")}`;
}

function both(file: string, edit: (doc: Doc) => void): { shortcut: string; plain: string } {
  const { on, off } = onAndOff(variant(file, edit), [heartbeatsInPlace], once);
  return { shortcut: on, plain: off };
}

describe("heartbeat-only posts in place: the run the plain posts give", () => {
  it.each([
    [
      "node-power-loss.yaml",
      [
        { at: "1h3m7.3s", do: "power-off", node: "worker-2" },
        { at: "1h9m", do: "power-on", node: "worker-2" },
      ],
    ],
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
    ["runtime-down.yaml", undefined],
    ["statefulset-recovery.yaml", undefined],
    ["node-drain.yaml", undefined],
  ])("%s, a long quiet stretch first", (file, timeline) => {
    const { shortcut, plain } = both(file, (doc) => {
      if (timeline) {
        doc.duration = "1h20m";
        doc.timeline = timeline;
      }
    });
    expect(shortcut).toContain('"lastHeartbeatTime"');
    expect(shortcut).toBe(plain);
  });
});
