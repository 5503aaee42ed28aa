// Which events the text timeline shows: Lease renewals only where they stop (trace/visible.ts).

import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../../src/trace/events.ts";
import { visibleEventIndexes } from "../../src/trace/visible.ts";

function renewal(t: number, node: string): TraceEvent {
  return {
    t,
    type: "LeaseRenewed",
    lane: "kubelet",
    object: `Lease/kube-node-lease/${node}`,
    node,
    nodeLeaseDurationSeconds: 40,
    renewIntervalSeconds: 10,
  };
}

describe("visible events", () => {
  it.each([
    { name: "the default 10s renewals", every: 10, until: 50 },
    { name: "a fast lease (doks-measured's 0.25s)", every: 0.25, until: 5 },
  ])("shows only the last renewal before a node goes silent: $name", ({ every, until }) => {
    const events: TraceEvent[] = [];
    for (let t = 0; t <= until + 1e-9; t += every) events.push(renewal(t, "worker-2"));
    // A healthy node keeps renewing for the whole run: none of its renewals is shown.
    for (let t = 1; t < 300; t += every) events.push(renewal(t, "worker-1"));
    events.push({
      t: until + 20,
      type: "NodeNotReady",
      lane: "control-plane",
      object: "Node/worker-2",
    } as TraceEvent);
    events.sort((a, b) => a.t - b.t);
    const shown = visibleEventIndexes(events, 300).map((i) => events[i]!);
    expect(shown.map((e) => `${e.type}@${e.node ?? ""}`)).toEqual(["LeaseRenewed@worker-2", "NodeNotReady@"]);
    expect(shown[0]!.t).toBeCloseTo(Math.floor(until / every) * every, 6);
  });

  it("does not show a renewal just before the run ends (nothing says the node went silent)", () => {
    const events = [renewal(0, "a"), renewal(10, "a"), renewal(20, "a")];
    expect(visibleEventIndexes(events, 25)).toEqual([]);
  });
});
