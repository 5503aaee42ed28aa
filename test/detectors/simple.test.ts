import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EvictionGuard,
  FailureDetectorRegistry,
  FixedTimeoutDetector,
  LeaseDetector,
  PerActionThresholds,
  PhiAccrualFailureDetector,
  ProgressDetector,
} from "../../src/detectors/index.ts";

describe("FixedTimeoutDetector", () => {
  it("is available until exactly the timeout, then suspects (same boundary as Akka's deadline detector)", () => {
    const d = new FixedTimeoutDetector({ timeoutMs: 5000 });
    expect(d.isAvailable(1e9)).toBe(true);
    d.heartbeat(0);
    expect(d.isAvailable(4999)).toBe(true);
    expect(d.isAvailable(5000)).toBe(false);
    expect(d.suspicion(2500)).toBe(0.5);
    d.heartbeat(5001);
    expect(d.isAvailable(5002)).toBe(true);
  });

  it("requires a positive timeout", () => {
    expect(() => new FixedTimeoutDetector({ timeoutMs: 0 })).toThrow(RangeError);
  });
});

describe("LeaseDetector", () => {
  it("defaults to the kubelet's 40s lease renewed every 10s", () => {
    const l = new LeaseDetector();
    expect([l.durationMs, l.renewIntervalMs]).toEqual([40_000, 10_000]);
    expect(l.nextRenewAt(5000)).toBe(15_000);
  });

  it("grants one holder at a time and not to another before expiry (the grantor's guarantee)", () => {
    const l = new LeaseDetector({ durationMs: 40_000, renewIntervalMs: 10_000 });
    expect(l.tryAcquire("a", 0)).toBe(true);
    expect(l.tryAcquire("b", 39_999)).toBe(false);
    expect(l.renew("a", 10_000)).toBe(true);
    expect(l.holder(49_999)).toBe("a");
    expect(l.tryAcquire("b", 49_999)).toBe(false);
    expect(l.holder(50_000)).toBeUndefined();
    expect(l.renew("a", 50_000)).toBe(false); // too late: must re-acquire
    expect(l.tryAcquire("b", 50_000)).toBe(true);
    expect(l.expiresAtMs).toBe(90_000);
  });

  it("the holder stops acting before the grantor's expiry by the allowed drift", () => {
    const l = new LeaseDetector({ durationMs: 40_000, renewIntervalMs: 10_000, maxClockDriftMs: 2000 });
    expect(l.holderMustStopBy(1000)).toBe(39_000);
  });

  it("never has two holders at once, whatever the sequence of requests", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            who: fc.constantFrom("a", "b", "c"),
            op: fc.constantFrom("acquire", "renew", "release"),
            dt: fc.integer({ min: 0, max: 30_000 }),
          }),
          {
            maxLength: 60,
          },
        ),
        (ops) => {
          const l = new LeaseDetector({ durationMs: 20_000, renewIntervalMs: 5000 });
          let t = 0;
          let owner: string | undefined;
          let ownerUntil = -1;
          for (const o of ops) {
            t += o.dt;
            const granted =
              o.op === "acquire"
                ? l.tryAcquire(o.who, t)
                : o.op === "renew"
                  ? l.renew(o.who, t)
                  : l.release(o.who);
            if (granted && o.op !== "release") {
              // nobody else may hold an unexpired lease at this moment
              if (owner !== undefined && owner !== o.who) expect(t).toBeGreaterThanOrEqual(ownerUntil);
              owner = o.who;
              ownerUntil = t + 20_000;
            }
            if (granted && o.op === "release") owner = undefined;
          }
        },
      ),
    );
  });
});

describe("ProgressDetector", () => {
  it("defaults to Kafka's max.poll.interval.ms (5 min) and session.timeout.ms (45 s)", () => {
    const p = new ProgressDetector();
    expect([p.progressDeadlineMs, p.heartbeatTimeoutMs]).toEqual([300_000, 45_000]);
  });

  it("catches a node that keeps beating while its progress counter stalls", () => {
    const p = new ProgressDetector({ progressDeadlineMs: 30_000, heartbeatTimeoutMs: 5000 });
    expect(p.status(0)).toBe("unmonitored");
    let progress = 0;
    for (let t = 0; t <= 20_000; t += 1000) p.heartbeat(t, ++progress);
    for (let t = 21_000; t <= 49_000; t += 1000) p.heartbeat(t, progress); // beats continue, no progress
    expect(p.status(49_999)).toBe("alive");
    expect(p.status(50_000)).toBe("stalled"); // 30 s after the last change (at 20 s)
    expect(p.stalledForMs(50_000)).toBe(30_000);
    expect(p.isAvailable(50_000)).toBe(false);
    for (let t = 50_000; t <= 60_000; t += 1000) p.heartbeat(t, progress);
    expect(p.status(60_000)).toBe("stalled");
    p.heartbeat(60_500, progress + 1);
    expect(p.status(60_500)).toBe("alive");
    expect(p.status(65_500)).toBe("silent");
  });
});

describe("PerActionThresholds", () => {
  it("one detector, two consumers: stop routing at 3, evict at 8", () => {
    const d = new PhiAccrualFailureDetector({ acceptableHeartbeatPauseMs: 0 });
    for (let t = 0; t <= 100_000; t += 1000) d.heartbeat(t);
    const actions = new PerActionThresholds(d, { "stop-routing": 3, evict: 8 });
    expect(actions.poll(100_500)).toEqual([]);
    const t3 = 100_000 + 1000 + 390; // phi ≈ 3.x with mean 1000, sd floored at 100
    const firstChanges = actions.poll(t3);
    expect(firstChanges.map((c) => c.action)).toEqual(["stop-routing"]);
    expect(actions.active(t3)).toEqual(["stop-routing"]);
    expect(actions.poll(103_000).map((c) => [c.action, c.active])).toEqual([["evict", true]]);
    d.heartbeat(103_100);
    expect(actions.poll(103_200).map((c) => [c.action, c.active])).toEqual([
      ["stop-routing", false],
      ["evict", false],
    ]);
  });
});

describe("EvictionGuard", () => {
  it("caps convictions per sliding minute to a fraction of the cluster", () => {
    const g = new EvictionGuard({ maxFraction: 0.1, clusterSize: 30 });
    expect(g.limit).toBe(3);
    expect([g.tryEvict(0), g.tryEvict(1), g.tryEvict(2), g.tryEvict(3)]).toEqual([true, true, true, false]);
    expect(g.remaining(59_999)).toBe(0);
    expect(g.remaining(60_000)).toBe(1); // the first one left the window
    expect(g.tryEvict(60_001)).toBe(true);
    expect(g.deniedCount).toBe(1);
  });

  it("allows at least minPerWindow in tiny clusters", () => {
    expect(new EvictionGuard({ maxFraction: 0.1, clusterSize: 3 }).limit).toBe(1);
  });
});

describe("FailureDetectorRegistry (Akka DefaultFailureDetectorRegistry semantics)", () => {
  it("unknown peers are available and not monitored; remove starts fresh", () => {
    const r = new FailureDetectorRegistry<string>(() => new FixedTimeoutDetector({ timeoutMs: 1000 }));
    expect(r.isAvailable("x", 1e9)).toBe(true);
    expect(r.isMonitoring("x")).toBe(false);
    r.heartbeat("x", 0);
    expect(r.isMonitoring("x")).toBe(true);
    expect(r.isAvailable("x", 1000)).toBe(false);
    r.remove("x");
    expect(r.isAvailable("x", 1000)).toBe(true);
  });
});
