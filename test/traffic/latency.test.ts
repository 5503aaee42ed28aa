// What callers feel is how long they wait: a request to the lost node waits out its whole timeout,
// so on a power-off the slowest percent of the loss window's requests wait at least the timeout;
// with an SLO, a shorter timeout shows in "lost or slow", and the 2s-timeout lever saves what a run
// with a 2s timeout really loses less.

import { describe, expect, it } from "vitest";
import { lostOrSlow } from "../../src/traffic/index.ts";
import { compareVariants, LEVERS, pullLevers } from "../../src/whatif/index.ts";
import { eventsOf, only, run } from "../helpers/sim.ts";
import { KILL, runTraffic, trafficScenario } from "./helpers.ts";

// one connection per caller, a new one for every request
const ONE_CONNECTION = { keepAlive: false, poolSize: 1 };

describe("latency", () => {
  it.each([
    ["10s", 10_000],
    ["5s", 5_000],
  ])("a power-off with a %s timeout: p99 in the loss window is at least the timeout", (timeout, ms) => {
    const { t } = runTraffic({ profile: "doks-measured", traffic: { ...ONE_CONNECTION, timeout } });
    const window = t.perSecond.filter((r) => r.t >= t.firstFailure! && r.t + 1 <= t.lastFailure!);
    expect(window.length).toBeGreaterThanOrEqual(1);
    let checked = 0;
    for (const r of window) {
      // a third of the requests go to the lost node while the load balancer and kube-proxy send there
      if (r.timeout < r.sent / 50) continue;
      checked++;
      expect(r.p99Ms!).toBeGreaterThanOrEqual(ms);
      expect(r.maxMs!).toBeGreaterThanOrEqual(r.p99Ms!);
    }
    // (not every second skipped: the check above ran)
    expect(checked).toBeGreaterThan(0);
    // before the kill: the pod's 20ms service time, and no caller waits anywhere near the timeout
    for (const r of t.perSecond.filter((x) => x.t >= 5 && x.t < KILL - 1)) {
      expect(r.p50Ms!).toBeGreaterThanOrEqual(20);
      expect(r.p99Ms!).toBeLessThan(ms / 10);
    }
    expect(t.totals.latencyMs!.max).toBeGreaterThanOrEqual(ms);
  });

  it("the app lane says when latency rose, to what, and when it came back", () => {
    const { r, t } = runTraffic({ profile: "doks-measured", traffic: ONE_CONNECTION });
    const rose = only(r, "LatencyRose", () => true);
    // the requests sent just before the kill are the first to wait out their timeout
    expect(rose.sentFrom).toBeGreaterThanOrEqual(KILL - 1);
    expect(rose.sentFrom).toBeLessThanOrEqual(KILL);
    expect(rose.p99Ms).toBeGreaterThan(rose.factor! * rose.calmP99Ms!);
    const back = only(r, "LatencyRecovered", () => true);
    expect(back.peakP99Ms).toBeGreaterThanOrEqual(10_000);
    // back once no request fails any more, and the queue behind the failures has drained
    expect(back.backAt).toBeGreaterThan(t.lastFailure!);
    expect(back.t).toBeGreaterThan(rose.t);
    // with an SLO, the SLO is the line
    const slo = runTraffic({ profile: "doks-measured", traffic: { ...ONE_CONNECTION, slo: "500ms" } });
    expect(only(slo.r, "LatencyRose", () => true).sloMs).toBe(500);
  });

  it("a request queued in the caller's pool is routed when it leaves, not when it was created", () => {
    // one connection per caller and a 30s timeout: each caller waits 30s behind its first request
    // to the lost pod; the surviving kube-proxies drop the endpoint ~13s after the kill
    const { r, t } = runTraffic({
      profile: "doks-measured",
      traffic: { ...ONE_CONNECTION, entry: "cluster-ip", timeout: "30s" },
    });
    const dropped = eventsOf(r, "KubeProxySynced", (e) => e.stopped.length > 0).at(-1)!;
    const routed = t.causes.find(
      (c) => c.cause === "routed by a surviving node to an endpoint not yet removed",
    )!;
    // every request routed to the lost pod left its pool before the rules changed…
    expect(routed.last).toBeLessThan(dropped.t);
    // …and no caller was routed there more than a few times: what queued behind its first one
    // left after the endpoint was dropped (routed at creation, a third of it would have failed)
    expect(routed.count).toBeLessThanOrEqual(3 * 20);
    expect(t.totals.ok).toBeGreaterThan(0.98 * t.totals.sent);
  });

  it("without an SLO nothing counts as slow; with one, slow answers are counted and explained", () => {
    const plain = runTraffic({ profile: "doks-measured", traffic: ONE_CONNECTION }).t;
    expect(plain.totals.slow).toBeUndefined();
    expect(plain.causes.every((c) => !c.cause.startsWith("slow"))).toBe(true);
    const slo = runTraffic({ profile: "doks-measured", traffic: { ...ONE_CONNECTION, slo: "500ms" } }).t;
    // the same requests fail: an SLO only looks at the answered ones
    expect(slo.totals.timeout).toBe(plain.totals.timeout);
    expect(slo.totals.slow!).toBeGreaterThan(0);
    expect(slo.totals.slow!).toBeLessThanOrEqual(slo.totals.ok);
    const slowCauses = slo.causes.filter((c) => c.cause.startsWith("slow"));
    expect(slowCauses.reduce((n, c) => n + c.count, 0)).toBe(slo.totals.slow);
    // those behind a request to the lost node waited in the caller's pool
    expect(slowCauses[0]!.cause).toBe("slow: queued in the caller's pool");
    expect(slo.perSecond.reduce((n, r) => n + r.slow!, 0)).toBe(slo.totals.slow);
  });

  it("--vary traffic.timeout=1s,30s differs in lost or slow with an SLO", () => {
    const s = trafficScenario({ profile: "doks-measured", traffic: { ...ONE_CONNECTION, slo: "500ms" } });
    const [short, long] = compareVariants(s, "traffic.timeout=1s,30s").map((v) => v.traffic!);
    // a 30s timeout holds the one connection 30s behind each request to the lost node: everything
    // queued behind it answers late
    expect(lostOrSlow(long!.totals)).toBeGreaterThan(2 * lostOrSlow(short!.totals));
    expect(long!.totals.latencyMs!.p99).toBeGreaterThanOrEqual(10_000);
    expect(short!.totals.latencyMs!.max).toBeLessThan(1_100);
  });

  it("the lever 'a 2s caller timeout' saves what a run with a 2s timeout loses or answers late less", () => {
    const s = trafficScenario({ profile: "doks-measured", traffic: { ...ONE_CONNECTION, slo: "500ms" } });
    const base = run(s, 1).traffic!;
    const lever = pullLevers(s, 1, base).find((l) => l.lever === "a 2s caller timeout")!;
    const twoSeconds = run(
      trafficScenario({
        profile: "doks-measured",
        traffic: { ...ONE_CONNECTION, slo: "500ms", timeout: "2s" },
      }),
      1,
    ).traffic!;
    expect(lever.lost).toBe(lostOrSlow(twoSeconds.totals));
    expect(lever.saves).toBe(lostOrSlow(base.totals) - lostOrSlow(twoSeconds.totals));
    expect(lever.saves).toBeGreaterThan(0);
    expect(lever.p99Ms!).toBeLessThanOrEqual(2_000 * 1.01);
    expect(LEVERS.some((l) => l.lever === lever.lever)).toBe(true);
  });
});
