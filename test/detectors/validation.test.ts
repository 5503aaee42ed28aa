// Bad input to the library is a clear error at the call, never a detector broken for good or a wrong answer:
// NaN and ±Infinity times, time going backwards, missing, unknown or mistyped options, NaN settings.
import { describe, expect, it } from "vitest";
import {
  DeadlineFailureDetector,
  EventBudgetExceeded,
  EventLoop,
  EvictionGuard,
  ExponentialPhiDetector,
  FailureDetectorRegistry,
  FixedTimeoutDetector,
  type HeartbeatDetector,
  LeaseDetector,
  PerActionThresholds,
  PhiAccrualFailureDetector,
  ProgressDetector,
  SelfPauseGuard,
} from "../../src/detectors/index.ts";

const detectors: Array<[string, () => HeartbeatDetector]> = [
  ["PhiAccrualFailureDetector", () => new PhiAccrualFailureDetector()],
  ["ExponentialPhiDetector", () => new ExponentialPhiDetector()],
  ["DeadlineFailureDetector", () => new DeadlineFailureDetector()],
  ["FixedTimeoutDetector", () => new FixedTimeoutDetector({ timeoutMs: 5000 })],
  ["LeaseDetector", () => new LeaseDetector()],
  ["ProgressDetector", () => new ProgressDetector()],
];

describe.each(detectors)("%s: times", (name, make) => {
  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e300])(
    "heartbeat(%d) is a RangeError naming the class, and changes nothing",
    (bad) => {
      const d = make();
      d.heartbeat(0);
      d.heartbeat(1000);
      expect(() => d.heartbeat(bad)).toThrow(RangeError);
      expect(() => d.heartbeat(bad)).toThrow(new RegExp(`^${name}: time must be a finite number`));
      expect(() => d.isAvailable(bad)).toThrow(RangeError);
      // the detector is intact: it goes on judging and accepting heartbeats
      expect(d.isAvailable(1500)).toBe(true);
      d.heartbeat(2000);
      expect(d.isAvailable(2500)).toBe(true);
    },
  );

  it("a heartbeat or a query before the last heartbeat is a RangeError (time went backwards)", () => {
    const d = make();
    expect(d.isAvailable(-5)).toBe(true); // before any heartbeat, any time is fine
    d.heartbeat(1000);
    expect(() => d.heartbeat(999)).toThrow(/time went backwards: 999 is before the last heartbeat at 1000/);
    expect(() => d.isAvailable(999)).toThrow(/time went backwards/);
    expect(d.isAvailable(1000)).toBe(true);
  });
});

describe("the two phi detectors on bad times", () => {
  it("both refuse NaN, where NaN used to be accepted by one and make them disagree", () => {
    const akka = new PhiAccrualFailureDetector();
    const cassandra = new ExponentialPhiDetector();
    for (const d of [akka, cassandra]) {
      d.heartbeat(0);
      expect(() => d.heartbeat(Number.NaN)).toThrow(RangeError);
      d.heartbeat(1000);
    }
    expect(akka.phi(1500)).toBeLessThan(1);
    expect(cassandra.phi(1500)).toBeLessThan(1);
  });

  it("phi before the last heartbeat is an error, not 0 or a negative value", () => {
    const akka = new PhiAccrualFailureDetector();
    const cassandra = new ExponentialPhiDetector();
    for (const d of [akka, cassandra]) {
      d.heartbeat(0);
      d.heartbeat(1000);
      expect(() => d.phi(500)).toThrow(/time went backwards: 500 is before the last heartbeat at 1000/);
    }
    expect(() => cassandra.rawPhi(500)).toThrow(RangeError);
    expect(akka.phi(1000)).toBe(0);
    expect(cassandra.phi(1000)).toBe(0);
  });

  it("before the first heartbeat phi is 0 at any valid time", () => {
    expect(new PhiAccrualFailureDetector().phi(-1e9)).toBe(0);
    expect(new ExponentialPhiDetector().phi(-1e9)).toBe(0);
    expect(() => new ExponentialPhiDetector().phi(Number.NaN)).toThrow(RangeError);
  });
});

describe("options", () => {
  it("a constructor without options, or with null, says which option is missing", () => {
    // biome-ignore lint/suspicious/noExplicitAny: calling as JavaScript would
    const Fixed = FixedTimeoutDetector as any;
    expect(() => new Fixed()).toThrow(
      "FixedTimeoutDetector: missing option timeoutMs (the silence, ms, after which a peer is suspected)",
    );
    expect(() => new Fixed(null)).toThrow(/missing option timeoutMs/);
    // biome-ignore lint/suspicious/noExplicitAny: calling as JavaScript would
    const Guard = EvictionGuard as any;
    expect(() => new Guard()).toThrow(/EvictionGuard: missing option maxFraction/);
    expect(() => new Guard(null)).toThrow(/missing option maxFraction/);
    expect(() => new Guard({ maxFraction: 0.1 })).toThrow(/missing option clusterSize/);
    // biome-ignore lint/suspicious/noExplicitAny: calling as JavaScript would
    expect(() => new (FailureDetectorRegistry as any)()).toThrow(/missing factory/);
  });

  it("null means every default where every option has one", () => {
    expect(new PhiAccrualFailureDetector(null).threshold).toBe(8);
    expect(new ExponentialPhiDetector(null).threshold).toBe(8);
    expect(new DeadlineFailureDetector(null).deadlineMs).toBe(13_000);
    expect(new LeaseDetector(null).durationMs).toBe(40_000);
    expect(new ProgressDetector(null).heartbeatTimeoutMs).toBe(45_000);
    expect(new SelfPauseGuard(null).maxLocalPauseMs).toBe(5000);
  });

  it("an unknown option (a typo) is an error, not silently the default", () => {
    // biome-ignore lint/suspicious/noExplicitAny: a JavaScript caller's typo
    expect(() => new PhiAccrualFailureDetector({ treshold: 3 } as any)).toThrow(
      /PhiAccrualFailureDetector: unknown option "treshold" \(known: threshold,/,
    );
  });

  it("a number given as a string is a TypeError", () => {
    // biome-ignore lint/suspicious/noExplicitAny: a JavaScript caller's string
    expect(() => new PhiAccrualFailureDetector({ threshold: "8" as any })).toThrow(TypeError);
    // biome-ignore lint/suspicious/noExplicitAny: a JavaScript caller's string
    expect(() => new ExponentialPhiDetector("fast" as any)).toThrow(/options must be an object/);
  });

  it.each([
    ["threshold", Number.NaN],
    ["threshold", Number.POSITIVE_INFINITY],
    ["minStdDeviationMs", Number.NaN],
    ["acceptableHeartbeatPauseMs", Number.POSITIVE_INFINITY],
    ["firstHeartbeatEstimateMs", 0.5],
  ])("PhiAccrualFailureDetector refuses %s = %d", (name, value) => {
    expect(() => new PhiAccrualFailureDetector({ [name]: value })).toThrow(RangeError);
  });

  it("EvictionGuard refuses a NaN minPerWindow, which used to lift the cap entirely", () => {
    expect(() => new EvictionGuard({ maxFraction: 0.1, clusterSize: 30, minPerWindow: Number.NaN })).toThrow(
      /EvictionGuard: minPerWindow must be an integer >= 0, got NaN/,
    );
    expect(() => new EvictionGuard({ maxFraction: Number.NaN, clusterSize: 30 })).toThrow(RangeError);
    expect(() => new EvictionGuard({ maxFraction: 0.1, clusterSize: 30, windowMs: Number.NaN })).toThrow(
      RangeError,
    );
  });

  it("ProgressDetector refuses a NaN or infinite progress counter (NaN would count as progress on every beat)", () => {
    const p = new ProgressDetector({ progressDeadlineMs: 30_000, heartbeatTimeoutMs: 5000 });
    p.heartbeat(0, 1);
    expect(() => p.heartbeat(1000, Number.NaN)).toThrow(
      /ProgressDetector: progress must be a finite number, got NaN/,
    );
    expect(() => p.heartbeat(1000, Number.POSITIVE_INFINITY)).toThrow(RangeError);
    p.heartbeat(31_000, 1); // beats without progress: stalled after 30 s
    expect(p.status(31_000)).toBe("stalled");
  });

  it("PerActionThresholds refuses a NaN threshold; the guards refuse bad times", () => {
    const d = new PhiAccrualFailureDetector();
    expect(() => new PerActionThresholds(d, { evict: Number.NaN })).toThrow(RangeError);
    const g = new SelfPauseGuard();
    g.check(1000);
    expect(() => g.check(Number.NaN)).toThrow(RangeError);
    expect(() => g.check(999)).toThrow(/time went backwards/);
    const e = new EvictionGuard({ maxFraction: 0.5, clusterSize: 4 });
    e.tryEvict(1000);
    expect(() => e.tryEvict(500)).toThrow(/time went backwards/);
  });
});

describe("EventLoop budget", () => {
  it("stops with the engine's EventBudgetExceeded instead of running on", () => {
    const loop = new EventLoop();
    loop.maxEvents = 100;
    const tick = (): void => loop.after(1, tick); // a timer that never stops
    loop.at(0, tick);
    expect(() => loop.run(1e9)).toThrow(EventBudgetExceeded);
    expect(loop.eventsRun).toBe(101);
  });

  it("refuses times that are not finite", () => {
    expect(() => new EventLoop().at(Number.NaN, () => {})).toThrow(RangeError);
    expect(() => new EventLoop().at(Number.POSITIVE_INFINITY, () => {})).toThrow(RangeError);
  });
});
