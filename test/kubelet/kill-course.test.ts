// A change to the process while its kill is under way (pkg/kubelet/kuberuntime/kuberuntime_container.go
// killContainer, executePreStopHook): the kubelet's clocks run whatever the process does. The hook
// is waited for at most terminationGracePeriodSeconds (time.After(gracePeriod)); StopContainer gets
// what is left in whole seconds, at least 2s, and SIGKILLs when that runs out. A process that hangs
// at any point before its exit (before the kill, during its preStop hook, after SIGTERM) never
// finishes its shutdown: SIGKILL at the end of the grace period (exit code 137). One that crashes
// during the kill ends it at the crash.

import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { SimulationResult } from "../../src/run/simulate.ts";
import { eventsOf, first, only, run, scenario } from "../helpers/sim.ts";

/** Two replicas of "web" on two nodes, grace 30s, `shutdownSeconds` given; worker-1 drained at 30s; `steps` on every web pod. */
function drained(preStop: unknown, steps: { at: number; do: string }[], behaviour: object = {}) {
  const doc = {
    kubernetesVersion: "1.37",
    duration: "120s",
    start: "created",
    nodes: { count: 2, zones: ["a"] },
    manifests: [
      {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: "web" },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: "web" } },
          template: {
            metadata: { labels: { app: "web" } },
            spec: {
              containers: [
                {
                  name: "web",
                  image: "example/web:1",
                  ports: [{ containerPort: 80 }],
                  ...(preStop === undefined ? {} : { lifecycle: { preStop } }),
                },
              ],
            },
          },
        },
      },
    ],
    behaviour: { web: { shutdownSeconds: 10, ...behaviour } },
    timeline: [
      { at: "30s", do: "drain", node: "worker-1" },
      ...steps.map((s) => ({ at: `${s.at * 1000}ms`, do: s.do, pod: "Deployment/web" })),
    ],
  };
  return scenario(stringify(doc));
}

/** The drained pod's end: seconds after its eviction (at 30s), and the signal that ended it. */
function ending(r: SimulationResult) {
  const evicted = first(r, "PodEvicted");
  expect(evicted.t).toBe(30);
  const end = only(r, "PodTerminated", (e) => e.object === evicted.object);
  return { after: Math.round((end.t - evicted.t) * 1e6) / 1e6, signal: end.signal, ownExit: end.ownExit };
}

const sleep5 = { sleep: { seconds: 5 } };

describe("a process that hangs is SIGKILLed at the end of the grace period, whenever the hang starts", () => {
  it.each([
    // left alone: the 5s hook, then the 10s shutdown after SIGTERM
    { name: "no hang", preStop: sleep5, hang: undefined, after: 15, signal: "SIGTERM" },
    { name: "hang before the kill", preStop: sleep5, hang: 20, after: 30, signal: "SIGKILL" },
    { name: "hang during the preStop hook", preStop: sleep5, hang: 32, after: 30, signal: "SIGKILL" },
    { name: "hang after SIGTERM", preStop: sleep5, hang: 37, after: 30, signal: "SIGKILL" },
    { name: "no hook: hang after SIGTERM", preStop: undefined, hang: 33, after: 30, signal: "SIGKILL" },
    // an exec hook runs beside the process: the hang does not stop its sleep, only the shutdown
    {
      name: "hang during an exec hook",
      preStop: { exec: { command: ["sh", "-c", "sleep 8"] } },
      hang: 31,
      after: 30,
      signal: "SIGKILL",
    },
  ])("$name: the pod ends $after s after its eviction ($signal)", ({ preStop, hang, after, signal }) => {
    const r = run(drained(preStop, hang === undefined ? [] : [{ at: hang, do: "deadlock" }]));
    expect(ending(r)).toMatchObject({ after, signal });
  });

  it("the hook ends on its own time whatever the process does; SIGTERM's grace is what it left", () => {
    const r = run(drained(sleep5, [{ at: 32, do: "deadlock" }]));
    const done = first(r, "PreStopHookDone");
    expect(done.t).toBe(35);
    expect(done.preStop).toMatchObject({ from: "sleep-action", ranSeconds: 5, graceLeftSeconds: 25 });
  });

  it("an httpGet hook the process stops answering runs out the grace period, then StopContainer's 2s", () => {
    const r = run(
      drained({ httpGet: { path: "/drain", port: 80 } }, [{ at: 32, do: "deadlock" }], {
        preStopSeconds: 8,
      }),
    );
    expect(ending(r)).toMatchObject({ after: 32, signal: "SIGKILL" });
    expect(first(r, "PreStopHookDone").preStop).toMatchObject({
      from: "hung",
      ranSeconds: 30,
      graceLeftSeconds: 2,
    });
  });

  it("a process that recovers after SIGTERM finishes the rest of its shutdown (faultline: resumed, not redone)", () => {
    // SIGTERM at 35s; 2s of the 10s shutdown done when it hangs at 37s; 8s left from 42s: exit at 50s.
    const r = run(
      drained(sleep5, [
        { at: 37, do: "deadlock" },
        { at: 42, do: "recover" },
      ]),
    );
    expect(ending(r)).toMatchObject({ after: 20, signal: "SIGTERM" });
  });
});

describe("a process that crashes during its kill ends the kill at the crash", () => {
  it.each([
    // after SIGTERM (35s): the crash at 37s is the end
    { name: "after SIGTERM", preStop: sleep5, crash: 37, after: 7 },
    // during an exec hook: the hook dies with its container
    { name: "during an exec hook", preStop: { exec: { command: ["sleep", "5"] } }, crash: 32, after: 2 },
    // during a sleep action: runSleepHandler sleeps on, and killContainer waits for it
    { name: "during a sleep action", preStop: sleep5, crash: 32, after: 5 },
  ])("$name: the pod ends $after s after its eviction", ({ preStop, crash, after }) => {
    const r = run(drained(preStop, [{ at: crash, do: "crash" }]));
    expect(ending(r)).toMatchObject({ after, ownExit: true });
    const evicted = first(r, "PodEvicted").object;
    const exit = only(r, "ContainerExited", (e) => e.object === evicted);
    expect(exit).toMatchObject({ cause: "crash", exitCode: 1 });
  });
});

describe("a probe kill re-plans too", () => {
  /** A bare pod that never listens (bootSeconds 1000): liveness (tcpSocket, every 5s, 1 failure) kills it; `steps` on it. */
  const probed = (steps: { at: number; do: string }[]) =>
    scenario(
      stringify({
        start: "created",
        duration: "90s",
        nodes: [{ name: "worker-1" }],
        manifests: [
          {
            apiVersion: "v1",
            kind: "Pod",
            metadata: { name: "app" },
            spec: {
              containers: [
                {
                  name: "app",
                  image: "example/app:1",
                  livenessProbe: { tcpSocket: { port: 8000 }, periodSeconds: 5, failureThreshold: 1 },
                },
              ],
            },
          },
        ],
        behaviour: { app: { bootSeconds: 1000, shutdownSeconds: 10 } },
        timeline: steps.map((s) => ({ at: `${Math.round(s.at * 1e6)}us`, do: s.do, pod: "default/app" })),
      }),
    );

  it("left alone the process exits 10s after SIGTERM (143); hung 3s after SIGTERM, it is SIGKILLed at 30s (137)", () => {
    const alone = run(probed([]));
    const kill = first(alone, "ContainerKilled");
    expect(first(alone, "ContainerExited").t - kill.t).toBeCloseTo(10, 6);
    expect(first(alone, "ContainerExited").exitCode).toBe(143);
    const hung = run(probed([{ at: kill.t + 3, do: "deadlock" }]));
    expect(first(hung, "ContainerKilled").t).toBe(kill.t);
    const exit = first(hung, "ContainerExited");
    expect(exit.t - kill.t).toBeCloseTo(30, 6);
    expect(exit).toMatchObject({ cause: "probe-kill", exitCode: 137 });
    // the restart that follows is a new instance, not hung
    expect(eventsOf(hung, "ContainerStarted").length).toBeGreaterThan(1);
  });
});
