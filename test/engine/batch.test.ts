// InstantBatches runs its items exactly where an event of their own would have run: the same log
// of what ran, in the same order, whatever else is queued around them (before, between, at the
// same instant, from inside an item), with one engine event per batch.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InstantBatches } from "../../src/engine/batch.ts";
import { Engine } from "../../src/engine/engine.ts";

/** A step of a script: an event of its own or an item, at `dt` from now, that may queue more when it runs. */
interface Step {
  batched: boolean;
  dt: number;
  /** what the event or item queues when it runs, each at its `dt` from then */
  queues: { dt: number; batched: boolean }[];
}

const step: fc.Arbitrary<Step> = fc.record({
  batched: fc.boolean(),
  dt: fc.constantFrom(0, 0, 1, 1, 2.5),
  queues: fc.array(fc.record({ dt: fc.constantFrom(0, 1), batched: fc.boolean() }), { maxLength: 2 }),
});

/** Plays the script; with `batch`, the batched steps go through InstantBatches, else each is an event. */
function play(script: Step[], batch: boolean): { log: string[]; events: number } {
  const engine = new Engine(1);
  const log: string[] = [];
  const batches = new InstantBatches<() => void>(engine, (fn) => fn());
  let n = 0;
  const queue = (batched: boolean, dt: number, queues: Step["queues"]) => {
    const id = n++;
    const fn = () => {
      log.push(`${id}@${engine.now}`);
      for (const t of queues) queue(t.batched, t.dt, []);
    };
    if (batched && batch) batches.add(engine.now + dt, fn);
    else engine.at(engine.now + dt, fn);
  };
  for (const s of script) queue(s.batched, s.dt, s.queues);
  engine.run(100);
  return { log, events: engine.processed };
}

describe("InstantBatches", () => {
  it("runs every item where its own event would have run", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (script) => {
        const alone = play(script, false);
        const batched = play(script, true);
        expect(batched.log).toEqual(alone.log);
        expect(batched.events).toBeLessThanOrEqual(alone.events);
      }),
      { numRuns: 500 },
    );
  });

  it("items queued one after the other for one instant are one event", () => {
    const script: Step[] = Array.from({ length: 300 }, () => ({ batched: true, dt: 1, queues: [] }));
    expect(play(script, false).events).toBe(300);
    expect(play(script, true).events).toBe(1);
  });

  it("an event queued between two items splits the batch", () => {
    const script: Step[] = [
      { batched: true, dt: 1, queues: [] },
      { batched: false, dt: 1, queues: [] },
      { batched: true, dt: 1, queues: [] },
    ];
    expect(play(script, true)).toEqual({ log: ["0@1", "1@1", "2@1"], events: 3 });
  });
});
