// behaviour.exitAfterSeconds: a process that exits by itself that long after every start (a bad
// configuration). The kubelet restarts it in place and backs off as newCrashLoopBackOff configures
// client-go's flowcontrol.Backoff (kuberuntime_manager.go doBackOff, kubelet.go): the first restart
// at once, then 10s doubling to the 300s cap, each counted from the exit.

import { describe, expect, it } from "vitest";
import { DEFAULT_BUDGET, estimateWork, overBudget } from "../../src/run/budget.ts";
import { eventsOf, run, US } from "../helpers/sim.ts";
import { app } from "../probes/helpers.ts";

/** Seconds from each exit to the next start. */
function waits(r: ReturnType<typeof run>, n: number): number[] {
  const exits = eventsOf(r, "ContainerExited").map((e) => e.t);
  const starts = eventsOf(r, "ContainerStarted").map((e) => e.t);
  return exits.slice(0, n).map((t, i) => Math.round((starts[i + 1]! - t) * 1e6) / 1e6);
}

describe("behaviour.exitAfterSeconds", () => {
  it.each([
    { exitAfter: 5, exitCode: 3 },
    { exitAfter: 0.5, exitCode: 1 },
    { exitAfter: 45, exitCode: 2 },
  ])(
    "exits $exitAfter s after every start with code $exitCode; restarts wait 0, 10, 20, 40 … 300 (1.37)",
    ({ exitAfter, exitCode }) => {
      const r = run(
        app({
          version: "1.37",
          probes: {},
          behaviour: { exitAfterSeconds: exitAfter, exitCode },
          duration: "40m",
        }),
      );
      const starts = eventsOf(r, "ContainerStarted");
      const exits = eventsOf(r, "ContainerExited");
      expect(exits.length).toBeGreaterThanOrEqual(9);
      exits.forEach((e, i) => {
        expect(e).toMatchObject({ cause: "exit-after", exitCode, exitAfterSeconds: exitAfter });
        expect(e.t - starts[i]!.t).toBeCloseTo(exitAfter, 6);
      });
      expect(waits(r, 9)).toEqual([0, 10, 20, 40, 80, 160, 300, 300, 300]);
      expect(
        eventsOf(r, "BackOff")
          .slice(0, 3)
          .map((e) => [e.delaySeconds, e.podRow.status]),
      ).toEqual([
        [10, "CrashLoopBackOff"],
        [20, "CrashLoopBackOff"],
        [40, "CrashLoopBackOff"],
      ]);
      // In place: one pod, restartCount climbing.
      expect(eventsOf(r, "PodCreated")).toHaveLength(1);
      expect(starts.slice(0, 4).map((e) => e.restartCount)).toEqual([0, 1, 2, 3]);
    },
  );

  it("before ≈1.35 the pod worker retries every 10–15s: each restart within 15s after its back-off", () => {
    const r = run(app({ version: "1.34", probes: {}, behaviour: { exitAfterSeconds: 5 }, duration: "30m" }));
    [0, 10, 20, 40, 80, 160, 300].forEach((b, i) => {
      const w = waits(r, 8)[i]!;
      expect(w).toBeGreaterThanOrEqual(b - US);
      expect(w).toBeLessThan(b === 0 ? US : b + 15);
    });
  });

  it("restartPolicy OnFailure leaves a process that exits 0 Completed; Never leaves exit 1 Error", () => {
    const once = run(
      app({
        pod: true,
        restartPolicy: "OnFailure",
        probes: {},
        behaviour: { exitAfterSeconds: 30, exitCode: 0 },
      }),
    );
    expect(eventsOf(once, "ContainerStarted")).toHaveLength(1);
    expect(once.summary.pods[0]?.status).toBe("Completed");
    const never = run(
      app({ pod: true, restartPolicy: "Never", probes: {}, behaviour: { exitAfterSeconds: 30 } }),
    );
    expect(eventsOf(never, "ContainerStarted")).toHaveLength(1);
    expect(never.summary.pods[0]?.status).toBe("Error");
  });

  it("an exit while the kubelet is stopped waits for the kubelet, which restarts it at once", () => {
    const r = run(
      app({
        version: "1.37",
        probes: {},
        behaviour: { exitAfterSeconds: 20 },
        timeline: [
          { at: "10s", do: "kubelet-stop", node: "worker-1" },
          { at: "60s", do: "kubelet-start", node: "worker-1" },
        ],
      }),
    );
    expect(eventsOf(r, "ContainerExited").map((e) => e.t)[0]).toBe(22);
    expect(
      eventsOf(r, "ContainerStarted")
        .map((e) => e.t)
        .slice(0, 2),
    ).toEqual([2, 60]);
  });

  it("is in the run's estimate: an exit at every start without back-off is refused before it runs", () => {
    const looping = app({
      probes: {},
      behaviour: { exitAfterSeconds: 0 },
      kubelet: { crashLoopBackOff: false },
    });
    expect(overBudget(estimateWork(looping), DEFAULT_BUDGET)).toMatch(
      /restarts of processes that exit by themselves/,
    );
    // With the back-off a container restarts about ten times in its first 15 minutes, whatever its exitAfterSeconds.
    const backingOff = estimateWork(app({ probes: {}, behaviour: { exitAfterSeconds: 0 } }));
    const term = backingOff.eventTerms.find((t) => t.what.startsWith("restarts of processes"))!;
    expect(term.count).toBeLessThan(20 * 6);
  });
});
