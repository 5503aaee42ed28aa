// The page's packed trace: unpacking gives back every event as JSON would carry it (same fields, same
// values, same order), for real runs and for arbitrary objects.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { packEvents, packPayload, unpackEvents, unpackPayload } from "../../src/report/html/model/pack.ts";
import { DEFAULT_BUDGET } from "../../src/run/budget.ts";
import { simulate } from "../../src/run/simulate.ts";
import type { TraceEvent } from "../../src/trace/events.ts";
import { timelineEvents } from "../../src/trace/visible.ts";
import { example } from "../helpers/sim.ts";

const viaJson = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe("packEvents / unpackEvents", () => {
  it.each(["node-power-loss.yaml", "probes.yaml", "traffic-doks-power-off.yaml", "zone-outage.yaml"])(
    "%s: the trace round-trips through the packed form and JSON",
    (f) => {
      // The whole trace, every Lease renewal of the schedule in it.
      const events = timelineEvents(simulate(example(f)), true);
      const packed = viaJson(packEvents(events));
      expect(unpackEvents(packed)).toEqual(viaJson(events));
      // Smaller than the events as JSON: the keys are written once per type.
      expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(events).length);
    },
  );

  it("round-trips arbitrary events: times on the grid or off, strings, numbers, nulls, nested values, absent fields", () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constant(null),
      fc.boolean(),
      fc.array(fc.integer(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.string(), { maxKeys: 2 }),
    );
    const event = fc.record(
      {
        // On the microsecond grid (delta-packed) or off it (kept as written).
        t: fc.oneof(
          fc.nat(),
          fc.integer({ min: 0, max: 10 ** 12 }).map((us) => us / 1e6),
          fc.double({ noNaN: true, noDefaultInfinity: true }),
        ),
        type: fc.constantFrom("A", "B", "C"),
        x: value,
        y: value,
        node: fc.string({ maxLength: 4 }),
      },
      { requiredKeys: ["t", "type"] },
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        const json = viaJson(events) as unknown as TraceEvent[];
        expect(unpackEvents(viaJson(packEvents(json)))).toEqual(json);
      }),
    );
  });

  it("a payload round-trips: every run's events and its pods at the start and at the end", () => {
    const scenario = example("zone-outage.yaml");
    const result = simulate(scenario);
    const payload = viaJson({
      kind: "simulate" as const,
      scenario,
      result,
      budget: DEFAULT_BUDGET,
      variants: [
        { label: "seed=1", key: "seed", value: "1" },
        { label: "seed=2", key: "seed", value: "2", result },
      ],
    });
    expect(unpackPayload(viaJson(packPayload(payload)))).toEqual(payload);
  });
});
