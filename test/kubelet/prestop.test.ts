// preStop hooks (pkg/kubelet/kuberuntime/kuberuntime_container.go killContainer, executePreStopHook):
// the hook runs before SIGTERM and is waited for at most the grace period; the whole seconds it ran
// come off the grace period, which is then raised to minimumGracePeriodInSeconds (2s); the process
// runs and serves meanwhile. The `sleep` action needs PodLifecycleSleepAction (on from 1.30).

import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { killPlan, type PreStopHook, preStopHook, sleepSeconds } from "../../src/kubelet/kill.ts";
import { LoadError } from "../../src/load/errors.ts";
import type { SimulationResult } from "../../src/run/simulate.ts";
import { eventsOf, first, only, run, scenario } from "../helpers/sim.ts";

describe("how long an exec hook sleeps, read from its command (never run)", () => {
  it.each([
    [["sleep", "5"], 5],
    [["/bin/sleep", "3"], 3],
    [["/bin/sh", "-c", "sleep 10"], 10],
    [["sh", "-c", "sleep 5 && nginx -s quit"], 5],
    [["sh", "-c", "echo draining; sleep 2m"], 120],
    [["sh", "-c", "sleep 1; sleep 0.5"], 1.5],
    [["nginx", "-s", "quit"], undefined],
    [["sh", "-c", "sleep $DELAY"], undefined],
    [["sh", "-c", "nosleep 5"], undefined],
  ])("%j: %s", (command, seconds) => {
    expect(sleepSeconds(command)).toBe(seconds);
  });
});

const hook = (seconds: number): PreStopHook => ({
  handler: "sleep",
  describe: `sleep ${seconds}s`,
  seconds,
  from: "sleep-action",
});

describe("killContainer's arithmetic", () => {
  it.each([
    // grace, hook seconds, hung, shutdownSeconds → SIGTERM at, StopContainer's grace, exit at, signal
    { grace: 30, hook: 5, hung: false, shutdown: 0, sigterm: 5, stop: 25, exit: 5, signal: "SIGTERM" },
    { grace: 30, hook: 5, hung: false, shutdown: 3, sigterm: 5, stop: 25, exit: 8, signal: "SIGTERM" },
    // the hook is waited for at most the grace period; what is left is raised to 2s
    { grace: 30, hook: 40, hung: false, shutdown: 0, sigterm: 30, stop: 2, exit: 30, signal: "SIGTERM" },
    { grace: 30, hook: 40, hung: false, shutdown: 3, sigterm: 30, stop: 2, exit: 32, signal: "SIGKILL" },
    // int64 of the seconds the hook ran: 5.5s takes 5 off the grace period
    { grace: 30, hook: 5.5, hung: true, shutdown: 0, sigterm: 5.5, stop: 25, exit: 30.5, signal: "SIGKILL" },
    { grace: 10, hook: 9, hung: false, shutdown: 5, sigterm: 9, stop: 2, exit: 11, signal: "SIGKILL" },
    // no hook: the grace period as it is, at least 2s
    { grace: 1, hook: undefined, hung: true, shutdown: 0, sigterm: 0, stop: 2, exit: 2, signal: "SIGKILL" },
    // a zero grace period runs no hook ("gracePeriod > 0")
    { grace: 0, hook: 5, hung: false, shutdown: 0, sigterm: 0, stop: 2, exit: 0, signal: "SIGTERM" },
  ])(
    "grace $grace, hook $hook, hung $hung, shutdown $shutdown: SIGTERM at $sigterm, $stop s to SIGKILL, exit at $exit ($signal)",
    (c) => {
      const plan = killPlan(
        "app",
        c.grace,
        c.hook === undefined ? undefined : hook(c.hook),
        c.hung,
        c.shutdown,
      );
      expect(plan).toMatchObject({
        sigtermAfter: c.sigterm,
        stopGrace: c.stop,
        exitAfter: c.exit,
        signal: c.signal,
      });
    },
  );

  it("an httpGet hook to a hung process never gets an answer: it runs out the grace period", () => {
    const spec = { name: "app", lifecycle: { preStop: { httpGet: { port: 8080, path: "/drain" } } } };
    const h = preStopHook(spec, {}, true)!;
    expect(h.from).toBe("hung");
    expect(killPlan("app", 30, h, true, 0)).toMatchObject({ sigtermAfter: 30, stopGrace: 2, exitAfter: 32 });
    expect(preStopHook(spec, {}, false)).toMatchObject({ seconds: 0, from: "instant" });
    expect(preStopHook(spec, { preStopSeconds: 4 }, false)).toMatchObject({ seconds: 4, from: "behaviour" });
  });
});

/** One node, one replica behind a Service, the container's preStop given; drained at 30s. */
function drained(
  preStop: unknown,
  o: { version?: string; grace?: number; behaviour?: object; traffic?: boolean; created?: boolean } = {},
) {
  const doc = {
    kubernetesVersion: o.version ?? "1.37",
    duration: "120s",
    ...(o.created ? { start: "created" } : {}),
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
              ...(o.grace === undefined ? {} : { terminationGracePeriodSeconds: o.grace }),
              containers: [
                {
                  name: "web",
                  image: "nginx:1.27",
                  ports: [{ containerPort: 80 }],
                  ...(preStop === undefined ? {} : { lifecycle: { preStop } }),
                },
              ],
            },
          },
        },
      },
      {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "web" },
        // its callers come in through a cloud load balancer, which balances each request anew
        spec: { type: "LoadBalancer", selector: { app: "web" }, ports: [{ port: 80, targetPort: 80 }] },
      },
    ],
    ...(o.behaviour ? { behaviour: { web: o.behaviour } } : {}),
    ...(o.traffic ? { traffic: [{ service: "default/web", rate: 100, timeout: "2s" }] } : {}),
    timeline: [{ at: "30s", do: "drain", node: "worker-1" }],
  };
  return scenario(stringify(doc));
}

/** Seconds from the eviction to the pod's end, on the drained node. */
function terminationSeconds(r: SimulationResult): number {
  const evicted = first(r, "PodEvicted");
  return only(r, "PodTerminated", (e) => e.object === evicted.object).t - evicted.t;
}

describe("a drained pod runs its preStop hook before SIGTERM", () => {
  it.each([
    { preStop: { sleep: { seconds: 5 } }, behaviour: undefined, expected: 5, from: "sleep-action" },
    {
      preStop: { exec: { command: ["/bin/sh", "-c", "sleep 10"] } },
      behaviour: undefined,
      expected: 10,
      from: "exec-sleep",
    },
    {
      preStop: { exec: { command: ["/bin/sh", "-c", "sleep 10"] } },
      behaviour: { preStopSeconds: 7 },
      expected: 7,
      from: "behaviour",
    },
    {
      preStop: { httpGet: { path: "/drain", port: 80 } },
      behaviour: { preStopSeconds: 4 },
      expected: 4,
      from: "behaviour",
    },
    {
      preStop: { exec: { command: ["nginx", "-s", "quit"] } },
      behaviour: undefined,
      expected: 0,
      from: "instant",
    },
    { preStop: undefined, behaviour: undefined, expected: 0, from: undefined },
  ])(
    "$preStop ($from): the pod ends $expected s after its eviction",
    ({ preStop, behaviour, expected, from }) => {
      const r = run(drained(preStop, behaviour ? { behaviour } : {}));
      expect(terminationSeconds(r)).toBeCloseTo(expected, 6);
      const done = eventsOf(r, "PreStopHookDone");
      if (from === undefined) expect(done).toEqual([]);
      else
        expect(done[0]).toMatchObject({
          kill: "deletion",
          preStop: { from, ranSeconds: expected, graceLeftSeconds: 30 - expected },
        });
    },
  );

  it("shutdownSeconds counts from SIGTERM, after the hook; a hook past the grace period leaves 2s", () => {
    expect(
      terminationSeconds(run(drained({ sleep: { seconds: 5 } }, { behaviour: { shutdownSeconds: 3 } }))),
    ).toBeCloseTo(8, 6);
    const r = run(
      drained({ exec: { command: ["sleep", "60"] } }, { grace: 20, behaviour: { shutdownSeconds: 5 } }),
    );
    expect(terminationSeconds(r)).toBeCloseTo(22, 6);
    expect(first(r, "PodTerminated")).toMatchObject({ signal: "SIGKILL", terminationGracePeriodSeconds: 20 });
  });

  it("the process serves during the hook: with a 5s sleep a drain refuses no request; without one it does", () => {
    const total = (r: SimulationResult) => r.traffic!.totals;
    const bare = total(run(drained(undefined, { traffic: true })));
    const hooked = total(run(drained({ sleep: { seconds: 5 } }, { traffic: true })));
    expect(bare.refused + bare.error + bare.timeout).toBeGreaterThan(0);
    expect(hooked.refused + hooked.error + hooked.timeout).toBe(0);
  });
});

describe("a process that exits by itself during its kill", () => {
  // Created at t=0, the containers start at 2s and exit by themselves at 42s; the drain is at 30s.
  it.each([
    // the sleep action sleeps on (runSleepHandler waits on its timer) and killContainer waits for it
    { preStop: { sleep: { seconds: 20 } }, ends: 50 },
    // an exec hook dies with its container
    { preStop: { exec: { command: ["sh", "-c", "sleep 20"] } }, ends: 42 },
    // after SIGTERM the exit ends the kill
    { preStop: { sleep: { seconds: 5 } }, shutdown: 20, ends: 42 },
  ])("$preStop, shutdownSeconds $shutdown: the pod ends at $ends s", ({ preStop, shutdown, ends }) => {
    const r = run(
      drained(preStop, {
        created: true,
        behaviour: { exitAfterSeconds: 40, ...(shutdown ? { shutdownSeconds: shutdown } : {}) },
      }),
    );
    const evicted = first(r, "PodEvicted");
    expect(evicted.t).toBe(30);
    expect(only(r, "PodTerminated", (e) => e.object === evicted.object).t).toBeCloseTo(ends, 6);
  });
});

/** A pod "app" on one node, its one container with `container`'s fields; `rest`: the scenario's other fields. */
const probed = (container: object, rest: object) =>
  scenario(
    stringify({
      start: "created",
      nodes: [{ name: "worker-1" }],
      manifests: [
        {
          apiVersion: "v1",
          kind: "Pod",
          metadata: { name: "app" },
          spec: { containers: [{ name: "app", image: "example/app:1", ...container }] },
        },
      ],
      ...rest,
    }),
  );

/** The pod hangs at 30s; its liveness probe (httpGet, every 5s, 1 failure) kills it, running `preStop`. */
const killed = (preStop: unknown, behaviour: object = {}) =>
  probed(
    {
      livenessProbe: { httpGet: { path: "/", port: 8000 }, periodSeconds: 5, failureThreshold: 1 },
      lifecycle: { preStop },
    },
    {
      duration: "120s",
      behaviour: { app: behaviour },
      timeline: [{ at: "30s", do: "deadlock", pod: "default/app" }],
    },
  );

describe("a probe kill runs the preStop hook too", () => {
  it("a hung process: the 5s hook, then SIGKILL when the 25s left run out (30s in all, exit 137)", () => {
    const r = run(killed({ sleep: { seconds: 5 } }));
    const kill = first(r, "ContainerKilled");
    expect(kill).toMatchObject({ preStop: { ranSeconds: 5, graceLeftSeconds: 25 } });
    expect(first(r, "PreStopHookDone").t - kill.t).toBeCloseTo(5, 6);
    const exit = first(r, "ContainerExited");
    expect(exit.t - kill.t).toBeCloseTo(30, 6);
    expect(exit.exitCode).toBe(137);
  });

  it("an httpGet hook to the hung process runs out the grace period, then 2s more (32s)", () => {
    const r = run(killed({ httpGet: { path: "/drain", port: 8000 } }));
    const kill = first(r, "ContainerKilled");
    expect(first(r, "ContainerExited").t - kill.t).toBeCloseTo(32, 6);
    expect(first(r, "PreStopHookDone").preStop).toMatchObject({
      from: "hung",
      ranSeconds: 30,
      graceLeftSeconds: 2,
    });
  });
});

describe("loading", () => {
  it.each(["1.28", "1.29"])(
    "a sleep action on %s is refused where the field is (PodLifecycleSleepAction)",
    (version) => {
      expect(() => drained({ sleep: { seconds: 5 } }, { version })).toThrow(LoadError);
      try {
        drained({ sleep: { seconds: 5 } }, { version });
      } catch (e) {
        expect((e as LoadError).message).toMatch(
          /spec\.template\.spec\.containers\[0\]\.lifecycle\.preStop\.sleep: the sleep action needs Kubernetes 1\.30/,
        );
      }
    },
  );

  // validateSleepAction: at most terminationGracePeriodSeconds (defaulted to 30), and above 0 before
  // PodLifecycleSleepActionAllowZero (on from 1.33).
  it.each([
    {
      version: "1.37",
      seconds: 31,
      grace: undefined,
      error: "must be non-negative and less than terminationGracePeriodSeconds (30)",
    },
    {
      version: "1.32",
      seconds: 15,
      grace: 10,
      error: "must be greater than 0 and less than terminationGracePeriodSeconds (10)",
    },
    {
      version: "1.32",
      seconds: 0,
      grace: undefined,
      error: "must be greater than 0 and less than terminationGracePeriodSeconds (30)",
    },
    { version: "1.33", seconds: 0, grace: undefined, error: undefined },
    { version: "1.30", seconds: 30, grace: undefined, error: undefined },
  ])(
    "a sleep of $seconds s with terminationGracePeriodSeconds $grace on $version: $error",
    ({ version, seconds, grace, error }) => {
      const load = () =>
        drained({ sleep: { seconds } }, { version, ...(grace === undefined ? {} : { grace }) });
      if (error === undefined) expect(load).not.toThrow();
      else
        expect(load).toThrow(
          new RegExp(
            `lifecycle\\.preStop\\.sleep\\.seconds: Invalid value: ${seconds}: ${error.replace(/[()]/g, "\\$&")}`,
          ),
        );
    },
  );

  it("a sleep action loads from 1.30", () => {
    expect(() => drained({ sleep: { seconds: 5 } }, { version: "1.30" })).not.toThrow();
  });

  it("preStopSeconds without an exec or httpGet hook to time is a mistake", () => {
    expect(() => drained({ sleep: { seconds: 5 } }, { behaviour: { preStopSeconds: 3 } })).toThrow(
      /behaviour\.web\.preStopSeconds: "web" has no container with an exec or httpGet preStop hook/,
    );
    expect(() => drained(undefined, { behaviour: { preStopSeconds: 3 } })).toThrow(LoadError);
  });
});

it("a probe kill is announced before the exit it causes, even an instant one", () => {
  const r = run(
    probed(
      { livenessProbe: { tcpSocket: { port: 8000 }, periodSeconds: 5, failureThreshold: 1 } },
      { duration: "60s", behaviour: { app: { bootSeconds: 1000 } } },
    ),
  );
  const order = r.events
    .filter((e) => e.type === "ContainerKilled" || e.type === "ContainerExited")
    .map((e) => e.type);
  expect(order.slice(0, 4)).toEqual([
    "ContainerKilled",
    "ContainerExited",
    "ContainerKilled",
    "ContainerExited",
  ]);
});

it("a process that exits by itself during a probe kill's hook restarts, and the kill leaves its successor alone", () => {
  // Liveness kills the hung process at about 35s; its 20s preStop sleep runs; the process exits by
  // itself 40s after its start (42s), during the hook; the restart at once is not killed at 55s.
  const r = run(killed({ sleep: { seconds: 20 } }, { exitAfterSeconds: 40 }));
  const kill = first(r, "ContainerKilled");
  expect(kill.t).toBeLessThan(42);
  const exits = eventsOf(r, "ContainerExited");
  expect(exits[0]).toMatchObject({ t: 42, cause: "exit-after" });
  expect(eventsOf(r, "PreStopHookDone")).toEqual([]);
  // The next exit is the new instance's own, 40s after its start at 42s.
  expect(exits[1]).toMatchObject({ t: 82, cause: "exit-after" });
});
