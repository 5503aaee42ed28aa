// Seed 004's sequence on the default kubelet, step by step, and the prober's finer rules.

import { describe, expect, it } from "vitest";
import { eventsOf, example, first, only, run, US } from "../helpers/sim.ts";
import { app, cli } from "../probes/helpers.ts";

describe('the article "Startup, Liveness and Readiness Probes": startup, liveness and readiness on the default kubelet (examples/probes.yaml)', () => {
  const r = run(example("probes.yaml"));
  const started = eventsOf(r, "ContainerStarted");

  it("1-2: only startup runs until it passes; then liveness and readiness run", () => {
    for (let i = 0; i < started.length; i++) {
      const from = started[i]!.t;
      const to = started[i + 1]?.t ?? Number.POSITIVE_INFINITY;
      const passed = eventsOf(
        r,
        "ProbeSucceeded",
        (e) => e.probe === "startup" && e.t >= from && e.t < to,
      )[0];
      const others = [...eventsOf(r, "ProbeFailed"), ...eventsOf(r, "ProbeSucceeded")].filter(
        (e) => e.probe !== "startup" && e.t >= from && e.t < to,
      );
      for (const e of others) expect(e.t, `${e.type} ${e.probe}`).toBeGreaterThanOrEqual(passed!.t);
      // Startup never runs again once it passed for this container.
      const laterStartup = eventsOf(
        r,
        "ProbeFailed",
        (e) => e.probe === "startup" && e.t > (passed?.t ?? to) && e.t < to,
      );
      expect(laterStartup).toEqual([]);
    }
  });

  it("3: the app boots in 24s and is ready after 40s: Ready and a ready endpoint at 40s after its start", () => {
    expect(first(r, "ProbeSucceeded", (e) => e.probe === "startup").t).toBe(26);
    // The real kubelet runs readiness at once when startup passes (the pod sync triggers it) and
    // every 5s from there, plus the pod worker's 60–90s resyncs: the first pass comes within 5s of
    // the app being ready at 42 (2 + 40).
    const ready = first(r, "PodReady");
    expect(ready.t).toBeGreaterThanOrEqual(42);
    expect(ready.t).toBeLessThanOrEqual(47);
    expect(first(r, "EndpointReady").t).toBe(ready.t);
  });

  it("4: a dependency outage fails readiness: the endpoint goes not ready, nothing restarts", () => {
    const down = only(r, "FaultInjected", (e) => e.do === "dependency-down");
    const notReady = first(r, "EndpointNotReady", (e) => e.t >= down.t);
    expect(notReady.t - down.t).toBeGreaterThan(10 - 1e-6);
    expect(notReady.t - down.t).toBeLessThanOrEqual(15 + 1e-6);
    const up = only(r, "FaultInjected", (e) => e.do === "dependency-up");
    expect(eventsOf(r, "ContainerKilled", (e) => e.t >= down.t && e.t <= up.t)).toEqual([]);
    expect(eventsOf(r, "ContainerStarted", (e) => e.t >= down.t && e.t <= up.t)).toEqual([]);
    const back = first(r, "EndpointReady", (e) => e.t >= up.t);
    expect(back.t - up.t).toBeLessThanOrEqual(5 + 1e-6);
  });

  it("5-6: a deadlock fails liveness: the container restarts in place (same pod, node, IP), restartCount 1", () => {
    const deadlock = only(r, "FaultInjected", (e) => e.do === "deadlock");
    const killed = first(r, "ContainerKilled", (e) => e.t >= deadlock.t);
    expect(killed.probe).toBe("liveness");
    // Within periodSeconds × failureThreshold + timeoutSeconds of the deadlock.
    expect(killed.t - deadlock.t).toBeLessThanOrEqual(31 + 1e-6);
    expect(killed).toMatchObject({ cause: "probe", periodSeconds: 10, failureThreshold: 3, hung: true });
    // The endpoint was already out (readiness also fails on a hung process).
    expect(first(r, "EndpointNotReady", (e) => e.t >= deadlock.t).t).toBeLessThan(killed.t);
    const restarted = first(r, "ContainerStarted", (e) => e.t >= killed.t);
    expect(restarted.restartCount).toBe(1);
    expect(restarted.object).toBe(killed.object);
    expect(restarted.node).toBe(killed.node);
    expect(restarted.podRow).toMatchObject({ ip: "10.244.1.1", node: killed.node, restarts: 1 });
    expect(eventsOf(r, "PodCreated")).toHaveLength(1);
    // Startup runs again; the endpoint is not ready until readiness passes again.
    const startup = first(r, "ProbeSucceeded", (e) => e.probe === "startup" && e.t > restarted.t);
    const readiness = first(r, "ProbeSucceeded", (e) => e.probe === "readiness" && e.t > restarted.t);
    const endpoint = first(r, "EndpointReady", (e) => e.t > restarted.t);
    expect(startup.t).toBeLessThan(readiness.t);
    expect(endpoint.t).toBe(readiness.t);
    expect(endpoint.t - restarted.t).toBeGreaterThanOrEqual(40);
  });

  it("crashes then back off, and kubectl shows CrashLoopBackOff with the restarts", () => {
    const backOffs = eventsOf(r, "BackOff");
    expect(backOffs.length).toBeGreaterThanOrEqual(2);
    expect(backOffs[0]!.podRow.status).toBe("CrashLoopBackOff");
  });
});

describe("prober rules", () => {
  it("a tcpSocket liveness probe does not catch a deadlock: the kernel still accepts the connection", () => {
    const r = run(
      app({
        probes: { livenessProbe: { tcpSocket: { port: 8000 }, periodSeconds: 10 } },
        timeline: [{ at: 60, do: "deadlock", pod: "Deployment/app" }],
      }),
    );
    expect(eventsOf(r, "ContainerKilled")).toEqual([]);
  });

  it("recover ends a deadlock before liveness acts", () => {
    const r = run(
      app({
        timeline: [
          { at: 100, do: "deadlock", pod: "Deployment/app" },
          { at: 112, do: "recover", pod: "Deployment/app" },
        ],
        behaviour: { bootSeconds: 5 },
      }),
    );
    expect(eventsOf(r, "ContainerKilled")).toEqual([]);
  });

  it("probe-level terminationGracePeriodSeconds bounds the kill of a hung process", () => {
    const r = run(
      app({
        probes: {
          livenessProbe: {
            httpGet: { path: "/", port: 8000 },
            periodSeconds: 5,
            terminationGracePeriodSeconds: 3,
          },
        },
        timeline: [{ at: 60, do: "deadlock", pod: "Deployment/app" }],
      }),
    );
    const killed = first(r, "ContainerKilled");
    const exited = first(r, "ContainerExited");
    expect(exited.t - killed.t).toBe(3);
    expect(exited.exitCode).toBe(137);
    expect(killed).toMatchObject({ terminationGracePeriodSeconds: 3, gracePeriodFrom: "probe" });
  });

  it("a pod with an unmet readinessGate never becomes Ready, though its containers are", () => {
    const r = run(
      app({ probes: {}, extraSpec: { readinessGates: [{ conditionType: "example.com/lb-ready" }] } }),
    );
    expect(eventsOf(r, "PodReady")).toEqual([]);
    expect(eventsOf(r, "EndpointReady")).toEqual([]);
    expect(r.summary.pods[0]?.status).toBe("Running");
  });

  it("a pod without probes is Ready as soon as its containers start (~2s after scheduling)", () => {
    const r = run(app({ probes: {} }));
    expect(first(r, "PodReady").t - first(r, "PodScheduled").t).toBe(2);
  });

  it("with a readiness probe, the default kubelet probes at once on the container's start; the toy waits a period", () => {
    const probes = { readinessProbe: { httpGet: { path: "/", port: 8000 }, periodSeconds: 10 } };
    expect(first(run(app({ probes })), "PodReady").t).toBe(2);
    expect(first(run(app({ probes, kubelet: { probeSchedule: "period-end" } })), "PodReady").t).toBe(12);
  });

  // worker.go doProbe: "Probe disabled for InitialDelaySeconds" comes before any check, whatever
  // woke the worker (its ticker, or a pod sync's manual readiness run): until then the result keeps
  // its initial value, Failure for readiness, so the pod is not Ready.
  it.each([
    { version: "1.28", delay: 30, period: 10, boot: 0 },
    { version: "1.37", delay: 30, period: 10, boot: 0 },
    { version: "1.37", delay: 15, period: 4, boot: 5 },
    { version: "1.32", delay: 45, period: 20, boot: 0 },
  ])(
    "readiness initialDelaySeconds $delay (periodSeconds $period, $version): no check and not Ready before the delay",
    ({ version, delay, period, boot }) => {
      const probes = {
        readinessProbe: {
          httpGet: { path: "/", port: 8000 },
          initialDelaySeconds: delay,
          periodSeconds: period,
        },
      };
      const r = run(app({ version, probes, behaviour: { bootSeconds: boot } }));
      const start = first(r, "ContainerStarted").t;
      const checks = [...eventsOf(r, "ProbeFailed"), ...eventsOf(r, "ProbeSucceeded")];
      expect(checks.length).toBeGreaterThan(0);
      for (const e of checks) expect(e.t - start).toBeGreaterThanOrEqual(delay - US);
      const ready = first(r, "PodReady").t - start;
      expect(ready).toBeGreaterThanOrEqual(delay - US);
      // The first tick of the worker's ticker at or after the delay.
      expect(ready).toBeLessThanOrEqual(delay + period + US);
      expect(first(r, "EndpointReady").t).toBe(first(r, "PodReady").t);
    },
  );

  it("successThreshold counts consecutive readiness successes", () => {
    const probes = {
      readinessProbe: { httpGet: { path: "/", port: 8000 }, periodSeconds: 10, successThreshold: 3 },
    };
    expect(first(run(app({ probes, kubelet: { probeSchedule: "period-end" } })), "PodReady").t).toBe(32);
  });
});

describe("cost: healthy probes are free", () => {
  it("1,500 healthy pods with three probes each over 15 minutes add no probe events once they are up", () => {
    const base = run(app({ replicas: 1500, nodes: 15, probes: {}, duration: "15m" })).summary.engineEvents;
    const probed = run(app({ replicas: 1500, nodes: 15, duration: "15m" })).summary.engineEvents;
    // Naively: 1,500 × (90 liveness + 180 readiness) ticks. Here: the startup checks of each pod's
    // boot and one readiness run; nothing after.
    expect(probed - base).toBeLessThan(1500 * 5);
  });
});

describe("bad input through the CLI: exit 2 with file, line and field", () => {
  it.each([
    [
      "a probe without a handler",
      "          livenessProbe:\n            periodSeconds: 5\n",
      /livenessProbe: a probe needs exactly one handler/,
    ],
    [
      "negative periodSeconds (0 is the default, as SetDefaults_Probe makes it)",
      "          readinessProbe:\n            tcpSocket: {port: 80}\n            periodSeconds: -1\n",
      /readinessProbe\.periodSeconds/,
    ],
    [
      "negative initialDelaySeconds",
      "          startupProbe:\n            tcpSocket: {port: 80}\n            initialDelaySeconds: -1\n",
      /startupProbe\.initialDelaySeconds/,
    ],
    [
      "negative failureThreshold",
      "          livenessProbe:\n            tcpSocket: {port: 80}\n            failureThreshold: -1\n",
      /livenessProbe\.failureThreshold/,
    ],
    [
      "successThreshold 2 on liveness",
      "          livenessProbe:\n            tcpSocket: {port: 80}\n            successThreshold: 2\n",
      /livenessProbe\.successThreshold: .*must be 1/,
    ],
  ])("faultline probes: %s", async (_name, probe, message) => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const dir = mkdtempSync("/tmp/faultline-probes-");
    const file = `${dir}/bad.yaml`;
    writeFileSync(
      file,
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n        - name: c\n${probe}`,
    );
    const { code, err } = await cli("probes", file);
    expect(code).toBe(2);
    expect(err).toMatch(new RegExp(`^${file}:\\d+:\\d+: spec\\.containers\\[0\\]\\.`));
    expect(err).toMatch(message);
  });

  it("faultline simulate: an unknown pod target", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const dir = mkdtempSync("/tmp/faultline-probes-");
    const file = `${dir}/bad.yaml`;
    writeFileSync(
      file,
      `duration: 1m\nnodes: [{name: n1}]\nmanifests: ["${process.cwd()}/examples/manifests-probes/app.yaml"]\ntimeline:\n  - {at: 10s, do: deadlock, pod: Deployment/ap}\n`,
    );
    const { code, err } = await cli("simulate", file);
    expect(code).toBe(2);
    expect(err).toMatch(new RegExp(`^${file}:5:\\d+: timeline\\[0\\]\\.pod: no Deployment named "ap"`));
  });

  it("faultline probes: a file that does not exist, a bad --boot", async () => {
    expect((await cli("probes", "nope.yaml")).code).toBe(2);
    const bad = await cli("probes", "examples/manifests-probes/app.yaml", "--boot", "soon");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--boot");
  });
});
