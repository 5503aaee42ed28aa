// A caller's failures are one episode per cause and window (traffic/episodes.ts): an episode closes
// after max(3s, the caller's longest request) without a failure of its cause.

import { describe, expect, it } from "vitest";
import { type EventOf, Trace } from "../../src/trace/events.ts";
import { Episodes } from "../../src/traffic/episodes.ts";
import { C_OVERLOADED, C_PROBE_RESTART, REFUSED, TIMEOUT } from "../../src/traffic/outcomes.ts";

function setup(longest: number) {
  const clock = { now: 0 };
  const trace = new Trace(clock);
  const episodes = new Episodes(trace, "default/web", longest, longest);
  const at = (t: number) => {
    clock.now = t;
    episodes.close(t);
  };
  const closed = () =>
    trace.events.filter((e): e is EventOf<"RequestsRecovered"> => e.type === "RequestsRecovered");
  const opened = () => trace.events.filter((e) => e.type === "RequestsFailing");
  return { episodes, at, closed, opened };
}

describe("episodes of a caller's failures", () => {
  it("failures of a cause closer than the caller's timeout are one episode; a longer gap starts another", () => {
    const { episodes, at, closed, opened } = setup(10);
    for (const t of [1, 5, 14, 23.9]) {
      at(t);
      episodes.fail(t, TIMEOUT, C_OVERLOADED);
    }
    at(33.9); // 10s after the last: still open
    expect(closed()).toEqual([]);
    at(34);
    expect(closed()).toMatchObject([{ t: 34, lost: 4, timeouts: 4, firstSentAt: 1, lastFailureAt: 23.9 }]);
    at(60);
    episodes.fail(60, TIMEOUT, C_OVERLOADED);
    expect(opened()).toHaveLength(2);
  });

  it("each cause has its own episode, and counts its outcomes apart", () => {
    const { episodes, at, closed } = setup(10);
    episodes.fail(1, TIMEOUT, C_OVERLOADED);
    episodes.fail(2, REFUSED, C_PROBE_RESTART);
    episodes.fail(3, REFUSED, C_PROBE_RESTART);
    at(11.5); // overloaded quiet 10.5s, probe restart 8.5s
    expect(closed().map((e) => [e.cause, e.timeouts, e.refused])).toEqual([
      ["pod overloaded: queued past the caller's timeout", 1, 0],
    ]);
    at(13.5);
    expect(closed().map((e) => [e.cause, e.timeouts, e.refused])).toEqual([
      ["pod overloaded: queued past the caller's timeout", 1, 0],
      ["probe restart", 0, 2],
    ]);
  });

  it("with a short timeout, 3s without a failure still ends an episode, no sooner", () => {
    const { episodes, at, closed } = setup(1);
    episodes.fail(1, TIMEOUT, C_OVERLOADED);
    at(3.9);
    episodes.fail(3.9, TIMEOUT, C_OVERLOADED);
    at(6.8);
    expect(closed()).toEqual([]);
    at(7);
    expect(closed()).toMatchObject([{ lost: 2, quietSeconds: 3 }]);
  });

  it("an episode the run ends inside is closed at the end, ongoing", () => {
    const { episodes, closed } = setup(10);
    episodes.fail(295, TIMEOUT, C_OVERLOADED);
    episodes.close(300, true);
    expect(closed()).toMatchObject([{ lost: 1, ongoing: true }]);
  });
});
