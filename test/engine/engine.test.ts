// The engine runs events in (time, scheduling order), as a plain sorted queue would: whatever a run
// schedules for its own instant (the store's watch notifications, a work queue's pass), for the
// past (clamped to now), for later, or cancels, and however the runs are cut by run(until).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Engine, type Timer } from "../../src/engine/engine.ts";
import { quantize, TICK } from "../../src/engine/time.ts";

/** The order spelled out: every timer in a list, the smallest (time, sequence) taken each time. */
class SortedQueue {
  now = 0;
  private queue: { timer: Timer; seq: number }[] = [];
  private seq = 0;

  at(at: number, fn: () => void): Timer {
    let t = quantize(at);
    if (t <= this.now) t = at > this.now ? quantize(this.now + TICK) : this.now;
    const timer: Timer = { at: t, cancelled: false, fn };
    this.queue.push({ timer, seq: this.seq++ });
    return timer;
  }

  cancel(timer: Timer): void {
    timer.cancelled = true;
  }

  run(until: number): void {
    const end = quantize(until);
    for (;;) {
      let best = -1;
      for (let i = 0; i < this.queue.length; i++) {
        const e = this.queue[i]!;
        const b = this.queue[best];
        if (
          e.timer.at <= end &&
          (!b || e.timer.at < b.timer.at || (e.timer.at === b.timer.at && e.seq < b.seq))
        )
          best = i;
      }
      if (best < 0) break;
      const { timer } = this.queue.splice(best, 1)[0]!;
      if (timer.cancelled) continue;
      this.now = timer.at;
      timer.fn();
    }
    if (end > this.now) this.now = end;
  }
}

type Clock = Pick<Engine, "at" | "cancel" | "run" | "now">;

/** Each event that runs logs itself and acts out the next step: schedules its children, maybe cancels one. */
function play(clock: Clock, steps: { delays: number[]; cancel: number }[], cuts: number[]): string[] {
  const log: string[] = [];
  const timers: Timer[] = [];
  let next = 0;
  const event = (id: number) => () => {
    log.push(`${clock.now}:${id}`);
    const step = steps[next++];
    if (!step) return;
    for (const d of step.delays) {
      const child = timers.length;
      timers.push(clock.at(clock.now + d, event(child)));
    }
    if (step.cancel >= 0 && timers.length > 0) clock.cancel(timers[step.cancel % timers.length]);
  };
  for (let i = 0; i < 3; i++) timers.push(clock.at(i % 2, event(timers.length)));
  for (const cut of cuts) clock.run(cut);
  return log;
}

const delay = fc.constantFrom(0, 0, 0, -1, TICK, 0.5, 1, 2.25);
const steps = fc.array(
  fc.record({ delays: fc.array(delay, { maxLength: 4 }), cancel: fc.integer({ min: -3, max: 40 }) }),
  { maxLength: 80 },
);
const cuts = fc.array(fc.constantFrom(0, 0.5, 1, 1.75, 3, 10), { minLength: 1, maxLength: 4 });

describe("the engine's order", () => {
  it("is (time, scheduling order), with this instant's events after the earlier-scheduled ones of the same time", () => {
    fc.assert(
      fc.property(steps, cuts, (s, c) => {
        const sorted = [...c].sort((a, b) => a - b);
        expect(play(new Engine(1), s, sorted)).toEqual(play(new SortedQueue(), s, sorted));
      }),
      { numRuns: 300 },
    );
  });
});

/** A loop that schedules its next pass from each pass (re-arming its timer, or a new one each time), among other events. */
function loop(engine: Engine, rearm: boolean, passes: number[], others: number[]): string[] {
  const log: string[] = [];
  let pass = 0;
  let timer: Timer;
  const run = () => {
    log.push(`${engine.now}:loop`);
    const d = passes[pass++];
    if (d === undefined) return;
    // Events scheduled from the pass before its next one: the order among them must hold.
    engine.at(engine.now + d, () => log.push(`${engine.now}:child`));
    if (rearm) engine.rearm(timer, engine.now + d);
    else timer = engine.at(engine.now + d, run);
  };
  timer = engine.at(0, run);
  for (const [i, t] of others.entries()) engine.at(t, () => log.push(`${engine.now}:other-${i}`));
  engine.run(100);
  return log;
}

describe("a re-armed timer", () => {
  it("runs where a new timer scheduled at the same moment would", () => {
    const d = fc.constantFrom(0, TICK, 0.5, 1, 2.25);
    fc.assert(
      fc.property(
        fc.array(d, { maxLength: 30 }),
        fc.array(fc.constantFrom(0, 0.5, 1, 3, 7.25), { maxLength: 20 }),
        (passes, others) => {
          const rearmed = loop(new Engine(1), true, passes, others);
          expect(rearmed).toEqual(loop(new Engine(1), false, passes, others));
          expect(rearmed.filter((e) => e.endsWith(":loop"))).toHaveLength(passes.length + 1);
        },
      ),
      { numRuns: 200 },
    );
  });
});
