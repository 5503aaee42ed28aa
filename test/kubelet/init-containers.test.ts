// Init containers and native sidecars, from kuberuntime_manager.go computeInitContainerActions (one
// at a time, in order, each to completion before the next and before the app containers; a failed
// one restarted with the back-off unless restartPolicy is Never), KEP-753 (a sidecar, restartPolicy:
// Always, is started before the next init container and kept running; its readiness counts) and
// kuberuntime_termination_order.go (at deletion the sidecars stop after the app containers, in
// reverse order); kubectl's STATUS as printPod words it (Init:0/2, Init:CrashLoopBackOff,
// Init:Error, PodInitializing).

import { describe, expect, it } from "vitest";
import { POD_STARTUP_SECONDS } from "../../src/kubelet/kubelet.ts";
import { createSimulation } from "../../src/run/simulate.ts";
import { eventsOf, run, scenario, US } from "../helpers/sim.ts";

interface Opts {
  version?: string;
  restartPolicy?: string;
  inits?: string;
  behaviour?: string;
  timeline?: string;
  grace?: number;
  duration?: string;
}

/** A bare pod `web` with the init containers given (YAML list items, indented 4) and one app container. */
function pod(o: Opts): ReturnType<typeof scenario> {
  return scenario(`kubernetesVersion: "${o.version ?? "1.33"}"
duration: ${o.duration ?? "2m"}
start: created
nodes: [{name: worker-1}]
manifests:
  - apiVersion: v1
    kind: Pod
    metadata: {name: web, labels: {app: web}}
    spec:
${o.restartPolicy ? `      restartPolicy: ${o.restartPolicy}\n` : ""}${o.grace === undefined ? "" : `      terminationGracePeriodSeconds: ${o.grace}\n`}      initContainers:
${o.inits}
      containers:
        - name: app
          image: example/app:1
          readinessProbe: {httpGet: {path: /ready, port: 8000}, periodSeconds: 1}
behaviour:
${o.behaviour ?? "  web: {}"}
${o.timeline ? `timeline:\n${o.timeline}` : ""}`);
}

const TWO_INITS = `        - {name: migrate, image: example/migrate:1}
        - {name: warm, image: example/warm:1}`;

function starts(r: ReturnType<typeof run>) {
  return eventsOf(r, "ContainerStarted").map((e) => ({ t: e.t, container: e.container, role: e.role }));
}

describe("init containers", () => {
  it("run one at a time, in order, each for its exitAfterSeconds, before the app container", () => {
    const r = run(
      pod({
        inits: TWO_INITS,
        behaviour: "  web/migrate: {exitAfterSeconds: 5}\n  web/warm: {exitAfterSeconds: 3}",
      }),
    );
    const t0 = POD_STARTUP_SECONDS;
    expect(starts(r)).toEqual([
      { t: expect.closeTo(t0, 6), container: "migrate", role: "init" },
      { t: expect.closeTo(t0 + 5, 6), container: "warm", role: "init" },
      { t: expect.closeTo(t0 + 8, 6), container: "app", role: undefined },
    ]);
    const exits = eventsOf(r, "ContainerExited");
    expect(exits.map((e) => [e.container, e.exitCode, e.cause])).toEqual([
      ["migrate", 0, "init-run"],
      ["warm", 0, "init-run"],
    ]);
    // kubectl's STATUS at each start: Init:0/2, Init:1/2, then the app runs.
    expect(eventsOf(r, "ContainerStarted").map((e) => e.podRow.status)).toEqual([
      "Init:0/2",
      "Init:1/2",
      "Running",
    ]);
    // The pod becomes Ready only after the init containers' 8 seconds.
    const ready = eventsOf(r, "PodReady")[0]!;
    expect(ready.t).toBeGreaterThanOrEqual(t0 + 8 - US);
    expect(r.summary.pods[0]).toMatchObject({ status: "Running", ready: true });
  });

  it("an init container without behaviour completes at once", () => {
    const r = run(pod({ inits: TWO_INITS }));
    expect(starts(r).map((s) => [s.container, s.t])).toEqual([
      ["migrate", expect.closeTo(POD_STARTUP_SECONDS, 6)],
      ["warm", expect.closeTo(POD_STARTUP_SECONDS, 6)],
      ["app", expect.closeTo(POD_STARTUP_SECONDS, 6)],
    ]);
  });

  it("a failing init container restarts with the back-off (Init:CrashLoopBackOff); the app never starts", () => {
    const r = run(
      pod({
        inits: TWO_INITS,
        behaviour: "  web/migrate: {exitAfterSeconds: 2, exitCode: 1}",
        duration: "3m",
      }),
    );
    const s = starts(r);
    expect(new Set(s.map((x) => x.container))).toEqual(new Set(["migrate"]));
    const exits = eventsOf(r, "ContainerExited").map((e) => e.t);
    const gaps = s.slice(1, 5).map((x, i) => Math.round(x.t - exits[i]!));
    // The first restart at once, then 10s, 20s, 40s (CrashLoopBackOff, 1.33's pod worker retry ≤ 15s late).
    expect(gaps[0]).toBe(0);
    expect(gaps[1]).toBeGreaterThanOrEqual(10);
    expect(eventsOf(r, "BackOff")[0]?.podRow.status).toBe("Init:CrashLoopBackOff");
    expect(eventsOf(r, "BackOff")[0]?.podRow.restarts).toBeGreaterThan(0);
    expect(r.summary.pods[0]).toMatchObject({ ready: false });
  });

  it("under restartPolicy Never a failed init container fails the pod: Init:Error", () => {
    const r = run(
      pod({
        restartPolicy: "Never",
        inits: TWO_INITS,
        behaviour: "  web/migrate: {exitAfterSeconds: 2, exitCode: 3}",
      }),
    );
    expect(starts(r).map((s) => s.container)).toEqual(["migrate"]);
    expect(eventsOf(r, "ContainerExited")[0]?.podRow.status).toBe("Init:Error");
    expect(r.summary.pods[0]).toMatchObject({ status: "Init:Error", ready: false });
  });
});

const SIDECARS = `        - {name: migrate, image: example/migrate:1}
        - name: proxy
          image: example/proxy:1
          restartPolicy: Always
          startupProbe: {httpGet: {path: /healthz, port: 15021}, periodSeconds: 1, failureThreshold: 30}
        - name: logs
          image: example/logs:1
          restartPolicy: Always`;

describe("native sidecars (KEP-753)", () => {
  it("start in order before the app container, each waiting for its startup probe; they count in READY", () => {
    const r = run(
      pod({
        inits: SIDECARS,
        behaviour: "  web/migrate: {exitAfterSeconds: 4}\n  web/proxy: {bootSeconds: 3}",
      }),
    );
    const s = starts(r);
    expect(s.map((x) => [x.container, x.role])).toEqual([
      ["migrate", "init"],
      ["proxy", "sidecar"],
      ["logs", "sidecar"],
      ["app", undefined],
    ]);
    const t0 = POD_STARTUP_SECONDS;
    expect(s[1]!.t).toBeCloseTo(t0 + 4, 6);
    // logs waits for proxy's startup probe: proxy listens 3s after its start, probed every second.
    expect(s[2]!.t).toBeGreaterThanOrEqual(t0 + 4 + 3 - US);
    expect(s[2]!.t).toBeLessThan(t0 + 4 + 3 + 1.5);
    // logs has no startup probe: the app starts with it.
    expect(s[3]!.t).toBeCloseTo(s[2]!.t, 6);
    const last = eventsOf(r, "PodReady").at(-1)!;
    expect(r.summary.pods[0]).toMatchObject({ status: "Running", ready: true });
    expect(last.t).toBeGreaterThanOrEqual(s[3]!.t - US);
    // The sidecars have no readiness probe: started, they are ready, and count in READY with the app.
    expect(eventsOf(r, "ContainerStarted").at(-1)?.podRow.ready).toBe("2/3");
  });

  it("a sidecar that exits is restarted (restartPolicy Always) while the app keeps running", () => {
    const r = run(
      pod({
        inits: SIDECARS,
        behaviour: "  web/logs: {exitAfterSeconds: 20, exitCode: 0}",
        duration: "1m",
      }),
    );
    const logs = eventsOf(r, "ContainerStarted").filter((e) => e.container === "logs");
    expect(logs.length).toBeGreaterThanOrEqual(2);
    expect(logs[1]).toMatchObject({ restartCount: 1, start: "restart", restartPolicy: "Always" });
    expect(eventsOf(r, "ContainerStarted").filter((e) => e.container === "app")).toHaveLength(1);
  });
});

/** A one-replica Deployment `web` with the sidecars, drained at 30s: its pod is evicted and terminated. */
function drained(behaviour: string, grace = 30): ReturnType<typeof scenario> {
  return scenario(`kubernetesVersion: "1.33"
duration: 2m
start: created
nodes: [{name: worker-1}, {name: worker-2}]
manifests:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 1
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          nodeName: worker-1
          terminationGracePeriodSeconds: ${grace}
          initContainers:
            - {name: proxy, image: example/proxy:1, restartPolicy: Always}
            - {name: logs, image: example/logs:1, restartPolicy: Always}
          containers:
            - {name: app, image: example/app:1}
behaviour:
${behaviour}
timeline:
  - {at: 30s, do: drain, node: worker-1}
`);
}

/** The containers' exits of the drained pod on worker-1, in the order they ended. */
function stopOrder(r: ReturnType<typeof run>) {
  const t = eventsOf(r, "PodTerminated", (e) => e.node === "worker-1")[0];
  return t?.stopOrder?.map((s) => [s.container, Math.round(s.exitAfterSeconds * 1e6) / 1e6, s.signal]);
}

describe("a pod with sidecars terminates them after its app container, in reverse order", () => {
  it("app first; then logs (declared last); then proxy, each after the one it waits for", () => {
    const r = run(
      drained(
        "  web/app: {shutdownSeconds: 5}\n  web/logs: {shutdownSeconds: 2}\n  web/proxy: {shutdownSeconds: 1}",
      ),
    );
    expect(stopOrder(r)).toEqual([
      ["app", 5, "SIGTERM"],
      ["logs", 7, "SIGTERM"],
      ["proxy", 8, "SIGTERM"],
    ]);
  });

  it("within the grace period: a sidecar's wait ends when it runs out, and SIGTERM still gets 2s", () => {
    const r = run(drained("  web/app: {shutdownSeconds: 60}\n  web/proxy: {shutdownSeconds: 60}", 10));
    // app: SIGKILL at the 10s grace; logs (no shutdown time) exits at its SIGTERM once app is gone;
    // proxy waited for logs the whole 10s too (its turn came at 10s, with 0s of grace left), then
    // gets minimumGracePeriodInSeconds: SIGKILL 2s later.
    expect(stopOrder(r)).toEqual([
      ["app", 10, "SIGKILL"],
      ["logs", 10, "SIGTERM"],
      ["proxy", 12, "SIGKILL"],
    ]);
  });
});

describe("the scenario and the manifests, checked", () => {
  it("an init container's behaviour takes only exitAfterSeconds, exitCode and shutdownSeconds", () => {
    expect(() => pod({ inits: TWO_INITS, behaviour: "  web/migrate: {bootSeconds: 5}" })).toThrow(
      /"web\/migrate" is an init container: it runs to completion.*bootSeconds is for app containers and sidecars/,
    );
    // A sidecar is probed and serves: the app containers' fields apply.
    expect(() => pod({ inits: SIDECARS, behaviour: "  web/proxy: {bootSeconds: 5}" })).not.toThrow();
  });

  it("an init container that runs to completion may have no probe (validateInitContainers)", () => {
    expect(() => pod({ inits: "        - {name: migrate, readinessProbe: {tcpSocket: {port: 1}}}" })).toThrow(
      /readinessProbe.*Forbidden: may not be set for init containers without restartPolicy=Always/,
    );
  });

  it("1.28 (SidecarContainers alpha, off): a sidecar is listed as not modelled; 1.29 runs it silently", () => {
    const old = pod({ version: "1.28", inits: SIDECARS });
    expect(old.notModelled.map((n) => n.field)).toContain("Container.restartPolicy");
    expect(pod({ version: "1.29", inits: SIDECARS }).notModelled).toEqual([]);
  });

  it("kubectl shows Init:0/2 while the first init container runs, and the pod is not Ready", () => {
    const s = pod({ inits: TWO_INITS, behaviour: "  web/migrate: {exitAfterSeconds: 30}", duration: "10s" });
    const during = run(s).summary.pods[0]!;
    expect(during).toMatchObject({ status: "Init:0/2", ready: false });
    const r = run(pod({ inits: TWO_INITS }));
    expect(r.summary.pods[0]).toMatchObject({ status: "Running", ready: true });
  });
});

describe("a pod whose app containers are done (KEP-753)", () => {
  it("restartPolicy Never: once the app container completes, the sidecars are stopped and the pod is Completed", () => {
    const r = run(
      pod({
        restartPolicy: "Never",
        inits: SIDECARS,
        behaviour: "  web/app: {exitAfterSeconds: 10, exitCode: 0}\n  web/logs: {shutdownSeconds: 3}",
      }),
    );
    // The sidecars are not restarted, and the pod completes once logs (3s to exit) is gone.
    expect(eventsOf(r, "ContainerStarted").filter((e) => e.role === "sidecar")).toHaveLength(2);
    expect(r.summary.pods[0]).toMatchObject({ status: "Completed", ready: false });
    const appExit = eventsOf(r, "ContainerExited").find((e) => e.container === "app")!.t;
    const notReady = eventsOf(r, "PodNotReady").find((e) => e.t >= appExit);
    expect(notReady).toBeDefined();
  });
});

describe("the pod's conditions (generateAPIPodStatus, KEP-3085)", () => {
  /** The pod's conditions at each time, as the API has them. */
  function conditionsAt(version: string, times: number[]): Record<string, string>[] {
    const sim = createSimulation(
      pod({ version, inits: TWO_INITS, behaviour: "  web/migrate: {exitAfterSeconds: 10}", duration: "1m" }),
    );
    return times.map((t) => {
      sim.runUntil(t);
      const p = sim.store.list("Pod")[0]!;
      return Object.fromEntries(p.status.conditions.map((c) => [c.type, c.status]));
    });
  }

  it("Initialized is False until the last init container completes; PodReadyToStartContainers True from 1.29", () => {
    const [during, after] = conditionsAt("1.33", [POD_STARTUP_SECONDS + 5, POD_STARTUP_SECONDS + 11]);
    expect(during).toMatchObject({ Initialized: "False", PodReadyToStartContainers: "True" });
    expect(during?.Ready).not.toBe("True");
    expect(after).toMatchObject({ Initialized: "True", Ready: "True" });
    const [old] = conditionsAt("1.28", [POD_STARTUP_SECONDS + 5]);
    expect(old).toMatchObject({ Initialized: "False" });
    expect(old).not.toHaveProperty("PodReadyToStartContainers");
  });
});
