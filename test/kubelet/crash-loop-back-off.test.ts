// CrashLoopBackOff (kubernetes.md §8): the first restart immediate, then 10s doubling to a 300s cap,
// reset after 10 minutes of running; restarts in place.

import { describe, expect, it } from "vitest";
import { Backoff } from "../../src/kubelet/backoff.ts";
import { resolveKubelet } from "../../src/kubernetes/defaults.ts";
import type { KubeletOverrides, KubernetesVersion } from "../../src/scenario/types.ts";
import { eventsOf, first, run, US } from "../helpers/sim.ts";
import { app } from "../probes/helpers.ts";

describe("flowcontrol.Backoff as the kubelet configures it", () => {
  it("gives 10, 20, 40, 80, 160, 300, 300 for exits in quick succession", () => {
    const b = new Backoff();
    const delays: number[] = [];
    let t = 0;
    b.next("c", t, t); // the first exit: no entry, the restart is immediate
    for (let i = 0; i < 7; i++) {
      t += 1; // the container exits a second after its restart
      expect(b.isInBackOffSince("c", t, t)).toBe(true);
      const until = b.backOffUntil("c", t)!;
      delays.push(until - t);
      expect(b.isInBackOffSince("c", t, until - 1e-6)).toBe(true); // one tick of the engine grid before
      expect(b.isInBackOffSince("c", t, until)).toBe(false);
      b.next("c", t, until);
      t = until;
    }
    expect(delays).toEqual([10, 20, 40, 80, 160, 300, 300]);
  });

  it("forgets a container that ran more than 600s since its last restart", () => {
    const b = new Backoff();
    b.next("c", 0, 0);
    b.next("c", 1, 11); // back-off 20 now, last restart at 11
    expect(b.isInBackOffSince("c", 611, 611)).toBe(true); // 600s exactly: not expired (strict >)
    expect(b.isInBackOffSince("c", 611.5, 611.5)).toBe(false);
    expect(b.next("c", 611.5, 611.5)).toBe(10);
  });
});

describe("a container killed by liveness over and over", () => {
  // The app never answers; liveness (period 1, threshold 1) kills it a second after each start.
  const looping = (version: string) =>
    run(
      app({
        version,
        probes: { livenessProbe: { tcpSocket: { port: 8000 }, periodSeconds: 1, failureThreshold: 1 } },
        behaviour: { bootSeconds: 100_000 },
        duration: "20m",
      }),
    );

  it("restarts twice at once, then backs off 10, 20, 40, 80, 160, 300 (1.37: restart at expiry)", () => {
    const r = looping("1.37");
    const exits = eventsOf(r, "ContainerExited").map((e) => e.t);
    const starts = eventsOf(r, "ContainerStarted").map((e) => e.t);
    // starts[i+1] follows exits[i].
    const waits = exits.slice(0, 10).map((t, i) => Math.round((starts[i + 1]! - t) * 1e6) / 1e6);
    // doBackOff reads the pod status from before the kill (the SyncPod that kills also starts):
    // the first kill finds no exited instance and records nothing; the second finds the first's
    // exit, with no entry yet, so it records 10s and restarts at once; the third is 1s after the
    // second's exit, inside 10s. At the cap a kill comes 301s after the previous exit: the restart
    // is immediate, and the next kill waits 300s again.
    expect(waits).toEqual([0, 0, 10, 20, 40, 80, 160, 300, 0, 300]);
    expect(
      eventsOf(r, "BackOff")
        .map((e) => e.delaySeconds)
        .slice(0, 7),
    ).toEqual([10, 20, 40, 80, 160, 300, 300]);
    // In place: one pod, restartCount climbing, STATUS CrashLoopBackOff while it waits.
    expect(eventsOf(r, "PodCreated")).toHaveLength(1);
    expect(
      eventsOf(r, "ContainerStarted")
        .map((e) => e.restartCount)
        .slice(0, 5),
    ).toEqual([0, 1, 2, 3, 4]);
    const backOff = eventsOf(r, "BackOff")[2]!;
    // Two immediate restarts, then each BackOff follows one more: the third waits after the fourth.
    expect(backOff.podRow).toMatchObject({ status: "CrashLoopBackOff", restarts: 4 });
  });

  it("a process that crashes a second after every start waits 10, 20, 40, 80, 160, 300, 300", () => {
    const timeline = Array.from({ length: 1300 }, (_, i) => ({
      at: 100 + i,
      do: "crash",
      pod: "Deployment/app",
    }));
    const r = run(app({ version: "1.37", probes: {}, timeline, duration: "25m" }));
    const exits = eventsOf(r, "ContainerExited").map((e) => e.t);
    const starts = eventsOf(r, "ContainerStarted").map((e) => e.t);
    const waits = exits.slice(0, 8).map((t, i) => Math.round((starts[i + 1]! - t) * 1e6) / 1e6);
    expect(waits).toEqual([0, 10, 20, 40, 80, 160, 300, 300]);
  });

  it("before ≈1.35 the pod worker retries every 10–15s, so a restart comes up to 15s after the back-off ends", () => {
    const r = looping("1.34");
    const exits = eventsOf(r, "ContainerExited").map((e) => e.t);
    const starts = eventsOf(r, "ContainerStarted").map((e) => e.t);
    const backoffs = [0, 0, 10, 20, 40, 80, 160, 300];
    backoffs.forEach((b, i) => {
      const wait = starts[i + 1]! - exits[i]!;
      expect(wait).toBeGreaterThanOrEqual(b - 1e-6);
      expect(wait).toBeLessThan(b === 0 ? 1e-6 : b + 15);
    });
  });
});

describe("doBackOff after a probe kill reads the pod status from before the kill", () => {
  // kuberuntime_manager.go doBackOff: with no exited instance of the container in the status it is
  // given, it returns before IsInBackOffSince and Next. The first liveness kill is such a case, so
  // it leaves no back-off behind: a crash 5s after that restart is the container's first recorded
  // exit and restarts at once.
  it.each(["1.32", "1.37"])(
    "%s: a liveness kill, then a crash 5s after the restart: both restart at once",
    (version) => {
      const r = run(
        app({
          version,
          probes: {
            livenessProbe: { httpGet: { path: "/", port: 8000 }, periodSeconds: 5, failureThreshold: 1 },
          },
          timeline: [{ at: 60, do: "deadlock", pod: "Deployment/app" }],
          duration: "200s",
        }),
      );
      const killed = first(r, "ContainerKilled");
      const restarted = first(r, "ContainerStarted", (e) => e.t > killed.t - US && e.restartCount === 1);
      expect(restarted).toMatchObject({ start: "restart", backOff: "no-exit" });
      const r2 = run(
        app({
          version,
          probes: {
            livenessProbe: { httpGet: { path: "/", port: 8000 }, periodSeconds: 5, failureThreshold: 1 },
          },
          timeline: [
            { at: 60, do: "deadlock", pod: "Deployment/app" },
            { at: restarted.t + 5, do: "crash", pod: "Deployment/app" },
          ],
          duration: "200s",
        }),
      );
      const crash = first(r2, "ContainerExited", (e) => e.cause === "crash");
      const after = first(r2, "ContainerStarted", (e) => e.t >= crash.t);
      expect(after.t).toBe(crash.t);
      expect(eventsOf(r2, "BackOff")).toEqual([]);
    },
  );
});

describe("crashes and the 10-minute reset", () => {
  it("a crash after more than 10 minutes of running restarts at once", () => {
    const r = run(
      app({
        version: "1.37",
        probes: {},
        timeline: [
          { at: 100, do: "crash", pod: "Deployment/app" },
          { at: 105, do: "crash", pod: "Deployment/app" },
          { at: 800, do: "crash", pod: "Deployment/app" },
        ],
        duration: "15m",
      }),
    );
    const starts = eventsOf(r, "ContainerStarted").map((e) => e.t);
    expect(starts).toEqual([2, 100, 115, 800]);
    expect(eventsOf(r, "BackOff").map((e) => e.delaySeconds)).toEqual([10]);
    expect(eventsOf(r, "ContainerExited").map((e) => e.exitCode)).toEqual([1, 1, 1]);
  });

  it("crashLoopBackOff: false restarts every time at once", () => {
    const r = run(
      app({
        kubelet: { crashLoopBackOff: false },
        probes: {},
        timeline: [100, 101, 102, 103].map((at) => ({ at, do: "crash", pod: "Deployment/app" })),
      }),
    );
    expect(eventsOf(r, "ContainerStarted").map((e) => e.t)).toEqual([2, 100, 101, 102, 103]);
    expect(eventsOf(r, "BackOff")).toEqual([]);
  });
});

describe("restartPolicy", () => {
  const crashOnce = (restartPolicy: string, exitCode: number) =>
    run(
      app({
        pod: true,
        restartPolicy,
        probes: {},
        behaviour: { exitCode },
        timeline: [{ at: 50, do: "crash", pod: "default/app" }],
      }),
    );

  // kubectl's STATUS column shows the container's terminated reason: Error (phase Failed) or Completed (Succeeded).
  it("Never: the pod ends Error/Failed (exit 1) or Completed/Succeeded (exit 0), not Ready, no restart", () => {
    for (const [code, phase] of [
      [1, "Error"],
      [0, "Completed"],
    ] as const) {
      const r = crashOnce("Never", code);
      expect(eventsOf(r, "ContainerStarted")).toHaveLength(1);
      expect(r.summary.pods[0]).toMatchObject({ status: phase, ready: false });
    }
  });

  it("OnFailure: restarts a failed exit, not a clean one", () => {
    expect(eventsOf(crashOnce("OnFailure", 1), "ContainerStarted")).toHaveLength(2);
    const clean = crashOnce("OnFailure", 0);
    expect(eventsOf(clean, "ContainerStarted")).toHaveLength(1);
    expect(clean.summary.pods[0]?.status).toBe("Completed");
  });
});

describe("the back-off lives in the kubelet process", () => {
  it("a restarted kubelet has forgotten it: the container it finds exited starts at once", () => {
    // The process crashes a second after every start (liveness period 1, threshold 1, never boots).
    const r = run(
      app({
        version: "1.37",
        probes: { livenessProbe: { tcpSocket: { port: 8000 }, periodSeconds: 1, failureThreshold: 1 } },
        behaviour: { bootSeconds: 100_000 },
        duration: "10m",
        timeline: [
          { at: "200s", do: "kubelet-stop", node: "worker-1" },
          { at: "230s", do: "kubelet-start", node: "worker-1" },
        ],
      }),
    );
    const start = eventsOf(r, "FaultInjected", (e) => e.do === "kubelet-start")[0]!.t;
    const before = eventsOf(r, "BackOff", (e) => e.t < 200).map((e) => e.delaySeconds);
    expect(Math.max(...before)).toBeGreaterThanOrEqual(40); // deep into the back-off before the restart
    const after = eventsOf(r, "ContainerStarted", (e) => e.t >= start)[0]!;
    expect(after.t).toBe(start);
    // and the delays start over (10s, then 20s: doBackOff reads the exit before the kill, which for the
    // first kill after the restart is the old one, so that restart is immediate too)
    const next = eventsOf(r, "BackOff", (e) => e.t > start)[0]!;
    expect(next.delaySeconds).toBeLessThanOrEqual(20);
    expect(next.delaySeconds).toBeLessThan(Math.max(...before));
  });
});

describe("minimumGracePeriodInSeconds", () => {
  it("a liveness kill with a probe terminationGracePeriodSeconds of 1 still waits 2s for a hung process", () => {
    const r = run(
      app({
        probes: {
          livenessProbe: {
            httpGet: { path: "/healthz", port: 8000 },
            periodSeconds: 5,
            failureThreshold: 1,
            terminationGracePeriodSeconds: 1,
          },
        },
        duration: "60s",
        timeline: [{ at: "20s", do: "deadlock", pod: "Deployment/app[0]" }],
      }),
    );
    const killed = eventsOf(r, "ContainerKilled")[0]!;
    const exited = eventsOf(r, "ContainerExited", (e) => e.t >= killed.t)[0]!;
    expect(exited.t - killed.t).toBeCloseTo(2, 6);
  });
});

describe("the CrashLoopBackOff feature gates (newCrashLoopBackOff, pkg/kubelet/kubelet.go)", () => {
  it.each([
    { version: "1.32", kubelet: {}, initial: 10, max: 300 },
    {
      version: "1.33",
      kubelet: { featureGates: { ReduceDefaultCrashLoopBackOffDecay: true } },
      initial: 1,
      max: 60,
    },
    {
      version: "1.32",
      kubelet: {
        featureGates: { KubeletCrashLoopBackOffMax: true },
        crashLoopBackOff: { maxContainerRestartPeriod: 5 },
      },
      initial: 5,
      max: 5,
    },
    {
      version: "1.35",
      kubelet: { crashLoopBackOff: { maxContainerRestartPeriod: 60 } },
      initial: 10,
      max: 60,
    },
    {
      version: "1.35",
      kubelet: {
        featureGates: { ReduceDefaultCrashLoopBackOffDecay: true },
        crashLoopBackOff: { maxContainerRestartPeriod: 30 },
      },
      initial: 1,
      max: 30,
    },
  ])("$version $kubelet: first back-off $initial s, cap $max s", ({ version, kubelet, initial, max }) => {
    const k = resolveKubelet(version as KubernetesVersion, kubelet as KubeletOverrides);
    expect([k.crashLoopBackOffInitial, k.crashLoopBackOffMax]).toEqual([initial, max]);
  });

  const crashing = (version: string, kubelet: Record<string, unknown>) => {
    const timeline = Array.from({ length: 1300 }, (_, i) => ({
      at: 100 + i,
      do: "crash",
      pod: "Deployment/app",
    }));
    const r = run(app({ version, probes: {}, timeline, duration: "25m", kubelet }));
    const exits = eventsOf(r, "ContainerExited").map((e) => e.t);
    const starts = eventsOf(r, "ContainerStarted").map((e) => e.t);
    return exits.slice(0, 9).map((t, i) => Math.round((starts[i + 1]! - t) * 1e6) / 1e6);
  };

  it("ReduceDefaultCrashLoopBackOffDecay: 1s doubling to 60s", () => {
    expect(crashing("1.37", { featureGates: { ReduceDefaultCrashLoopBackOffDecay: true } })).toEqual([
      0, 1, 2, 4, 8, 16, 32, 60, 60,
    ]);
  });

  it("maxContainerRestartPeriod 1m (KubeletCrashLoopBackOffMax, on by default from 1.35): 10s doubling to 60s", () => {
    expect(crashing("1.37", { crashLoopBackOff: { maxContainerRestartPeriod: "1m" } })).toEqual([
      0, 10, 20, 40, 60, 60, 60, 60, 60,
    ]);
  });
});
