// Stock Kubernetes 1.32: what callers feel when a node is lost, a container crashes, the kubelet
// stops; outlier detection; a long timeout exhausting the caller's pool.

import { describe, expect, it } from "vitest";
import { only } from "../helpers/sim.ts";
import { causeCount, failingSeconds, KILL, lost, runTraffic } from "./helpers.ts";

const IN_CLUSTER = { entry: "cluster-ip", keepAlive: false, timeout: "2s" };

describe("stock 1.32", () => {
  it("a power-off loses requests from the kill until the endpoints are removed, as timeouts not refusals", () => {
    const { r, t } = runTraffic({ traffic: IN_CLUSTER });
    // The pods are marked not ready 50s (+ one monitor pass) after the last Lease renewal, which
    // came up to 10.4s before the kill.
    const removed = only(r, "EndpointNotReady", (e) => e.node === "worker-2");
    expect(removed.t - KILL).toBeGreaterThan(50 - 10.4);
    expect(removed.t - KILL).toBeLessThan(55.1);
    expect(t.totals.refused).toBe(0);
    expect(t.totals.timeout).toBeGreaterThan(0);
    expect(t.firstFailure!).toBeLessThan(KILL + 0.5);
    // …and the callers' kube-proxies drop them within propagation + one sync interval
    const span = t.lastFailure! - KILL;
    expect(span).toBeGreaterThan(removed.t - KILL);
    expect(span).toBeLessThan(removed.t - KILL + 0.5 + 1 + 0.1);
    // failing every second of it
    expect(failingSeconds(t).length).toBeGreaterThanOrEqual(Math.floor(span) - 1);
  });

  it("a crashed container on a live node gives refusals, not timeouts", () => {
    const { t } = runTraffic({
      traffic: IN_CLUSTER,
      // the restarted process takes 10s to listen again
      behaviour: { bootSeconds: 10 },
      timeline: [{ at: `${KILL}s`, do: "crash", pod: "Deployment/web[0]" }],
    });
    expect(t.totals.refused).toBeGreaterThan(0);
    expect(t.totals.timeout).toBeLessThanOrEqual(t.totals.refused / 10);
  });

  it.each([
    ["cluster-ip", "Cluster"],
    ["load-balancer", "Cluster"],
  ] as const)("kubelet-stop loses nothing (%s, %s)", (entry, policy) => {
    const { t } = runTraffic({ traffic: { entry }, policy, fault: "kubelet-stop" });
    expect(t.totals.sent).toBeGreaterThan(30_000);
    expect(lost(t)).toBe(0);
  });

  it("Envoy-style outlier detection cuts the loss of a power-off at least fivefold", () => {
    const base = { entry: "cluster-ip", keepAlive: false, poolSize: 4, timeout: "1s" };
    const without = runTraffic({ traffic: base }).t;
    const withOd = runTraffic({ traffic: { ...base, outlierDetection: {} } }).t;
    expect(lost(without)).toBeGreaterThan(100);
    expect(lost(withOd) * 5).toBeLessThanOrEqual(lost(without));
  });

  it("a 30s timeout with retries and no retry budget exhausts the pool: requests that never touched the lost node fail", () => {
    const callers = { entry: "cluster-ip", keepAlive: false, poolSize: 2, retries: 2 };
    const { t } = runTraffic({ traffic: { ...callers, timeout: "30s" } });
    const pool = causeCount(t, "queued in the caller's pool");
    expect(pool).toBeGreaterThan(0.5 * lost(t));
    // without the retries (each a fresh 30s per-try timeout) the pool drains between hangs
    const once = runTraffic({ traffic: { ...callers, retries: 0, timeout: "30s" } }).t;
    expect(causeCount(once, "queued in the caller's pool")).toBeLessThan(pool / 10);
  });
});
