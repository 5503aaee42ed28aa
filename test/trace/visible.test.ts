// Which events the text timeline shows: Lease renewals only where they stop (trace/visible.ts).

import fc from "fast-check";
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

  it("property: every other event in order, and a renewal exactly when its Lease is silent 3 median gaps after it", () => {
    const step = fc.record({
      dt: fc.integer({ min: 0, max: 40 }),
      node: fc.constantFrom("a", "b", "c", ""),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), fc.integer({ min: 0, max: 200 }), (steps, tail) => {
        let t = 0;
        const events: TraceEvent[] = steps.map(({ dt, node }) => {
          t += dt / 4;
          // "" is some other event at the same pace.
          return node
            ? renewal(t, node)
            : ({ t, type: "NodeReady", lane: "kubelet", object: "Node/x" } as TraceEvent);
        });
        const duration = t + tail / 4;
        const out = visibleEventIndexes(events, duration);
        for (let k = 1; k < out.length; k++) expect(out[k]!).toBeGreaterThan(out[k - 1]!);
        const shown = new Set(out);
        for (let i = 0; i < events.length; i++) {
          const e = events[i]!;
          if (e.type !== "LeaseRenewed") {
            expect(shown.has(i)).toBe(true);
            continue;
          }
          // This Lease's renewals in event order, and this one's place among them.
          const mine = events.flatMap((x, j) => (x.object === e.object ? [j] : []));
          const times = mine.map((j) => events[j]!.t);
          const gaps = times.slice(1).map((x, k) => x - times[k]!);
          const sorted = [...gaps].sort((x, y) => x - y);
          const silence = 3 * (sorted.length > 0 ? sorted[Math.floor(sorted.length / 2)]! : 10);
          const k = mine.indexOf(i);
          const until = k + 1 < times.length ? times[k + 1]! : duration;
          expect(shown.has(i)).toBe(until - e.t > silence);
        }
      }),
    );
  });
});
