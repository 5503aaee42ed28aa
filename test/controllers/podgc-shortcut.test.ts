// PodGC's orphan pass returns at once while every node with pods is still stored (podgc-controller.ts
// allStored: the same nodesWithPods() array, no Node deleted since, none in quarantine). Rule:
// gcOrphaned (pkg/controller/podgc/gc_controller.go) finds no orphan then, so the pass does nothing.
// Each scenario runs with the shortcut and without it: the same JSON, byte for byte, with nodes
// deleted (their pods orphaned, the 40 s quarantine), recreated, and pods moved.

import { describe, expect, it } from "vitest";
import { orphanShortcut } from "../../src/controllers/podgc-controller.ts";
import { type Doc, onAndOff, variant } from "../helpers/sim.ts";

function both(file: string, edit: (doc: Doc) => void): { shortcut: string; plain: string } {
  const { on, off } = onAndOff(variant(file, edit), [orphanShortcut]);
  return { shortcut: on, plain: off };
}

describe("PodGC's orphan pass skipped while every node with pods is stored: the same run", () => {
  it.each([
    [
      "node-power-loss.yaml",
      [
        { at: "10m3.3s", do: "power-off", node: "worker-2" },
        { at: "12m", do: "delete-node", node: "worker-2" },
        { at: "14m", do: "delete-node", node: "worker-1" },
        { at: "20m", do: "power-on", node: "worker-2" },
      ],
    ],
    ["statefulset-recovery.yaml", undefined],
  ])("%s", (file, timeline) => {
    const { shortcut, plain } = both(file, (doc) => {
      if (timeline) {
        doc.duration = "30m";
        doc.timeline = timeline;
      }
    });
    expect(shortcut).toContain(
      file === "statefulset-recovery.yaml" ? '"gc":"terminating"' : '"gc":"orphaned"',
    );
    expect(shortcut).toBe(plain);
  });
});
