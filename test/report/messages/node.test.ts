// The prose of the kubelet's events, written from their fields (report/messages/node.ts): each case
// is an event as a model emits it and the words a person reads.

import { describe, expect, it } from "vitest";
import type { PodRow } from "../../../src/kubernetes/kubectl.ts";
import { proseOf } from "../../../src/report/messages/index.ts";
import type { Prose } from "../../../src/report/messages/prose.ts";
import type { TraceEvent } from "../../../src/trace/events.ts";

const POD = "Pod/default/app-7d4b9-x2x";
const row: PodRow = {
  name: "app-7d4b9-x2x",
  namespace: "default",
  ready: "0/1",
  status: "CrashLoopBackOff",
  restarts: 3,
  age: "10m",
  ip: "10.244.1.1",
  node: "worker-1",
};
const GET_POD = [
  "$ kubectl get pod app-7d4b9-x2x -o wide",
  "NAME            READY   STATUS             RESTARTS   AGE   IP           NODE",
  "app-7d4b9-x2x   0/1     CrashLoopBackOff   3          10m   10.244.1.1   worker-1",
].join("\n");

/** An event of the kubelet on worker-1 about the pod (or its node). */
function ev(fields: Record<string, unknown>): TraceEvent {
  return { t: 1, lane: "kubelet", object: POD, node: "worker-1", ...fields } as unknown as TraceEvent;
}

const probe = { container: "app", periodSeconds: 10, schedule: "kubernetes" };

const CASES: [string, TraceEvent, Prose][] = [
  [
    "a Lease renewal",
    ev({
      type: "LeaseRenewed",
      object: "Lease/kube-node-lease/worker-1",
      nodeLeaseDurationSeconds: 40,
      renewIntervalSeconds: 10,
    }),
    {
      message: "kubelet on worker-1 renews its Lease",
      why: "every nodeLeaseDurationSeconds × 0.25 = 10s, plus up to 4% jitter",
    },
  ],
  [
    "the Node registered again after a boot",
    ev({ type: "NodeRegistered", object: "Node/worker-1", after: "boot" }),
    {
      message: "kubelet registers node worker-1 with the API server",
      why: "the machine booted and its kubelet started; the Node object no longer existed, so the kubelet registers it (registerNode, default true)",
    },
  ],
  ...(
    [
      [
        "kubelet-restart",
        "the kubelet started again; fastStatusUpdateOnce posts the node status at start-up",
        {},
      ],
      [
        "network-healed",
        "its status loop (nodeStatusUpdateFrequency=4s) runs again after the network healed",
        { nodeStatusUpdateFrequency: 4 },
      ],
      [
        "status-report",
        "nodeStatusReportFrequency=300s: the kubelet re-posts an unchanged status this often",
        { nodeStatusReportFrequency: 300 },
      ],
    ] as const
  ).map(([cause, why, extra]): [string, TraceEvent, Prose] => [
    `Ready=True posted: ${cause}`,
    ev({
      type: "NodeReady",
      object: "Node/worker-1",
      cause,
      ...extra,
      nodeRow: { name: "worker-1", status: "Ready", roles: "<none>", age: "61m", version: "v1.32.0" },
    }),
    {
      message: "kubelet on worker-1 posts Ready=True (KubeletReady: kubelet is posting ready status)",
      why,
      see: "$ kubectl get node worker-1\nNAME       STATUS   ROLES    AGE   VERSION\nworker-1   Ready    <none>   61m   v1.32.0",
    },
  ]),
  [
    "a graceful exit within the grace period",
    ev({
      type: "PodTerminated",
      signal: "SIGTERM",
      exitAfterSeconds: 2.5,
      terminationGracePeriodSeconds: 30,
    }),
    {
      message: "app-7d4b9-x2x's containers exit after SIGTERM",
      why: "the process exits 2.5s after SIGTERM (behaviour shutdownSeconds), within terminationGracePeriodSeconds=30",
    },
  ],
  [
    "a grace period that ran out",
    ev({ type: "PodTerminated", signal: "SIGKILL", exitAfterSeconds: 30, terminationGracePeriodSeconds: 30 }),
    {
      message: "app-7d4b9-x2x's containers exit after SIGTERM",
      why: "terminationGracePeriodSeconds=30 ran out: SIGKILL",
    },
  ],
  [
    "a StatefulSet member twice",
    ev({
      type: "PodRunsTwice",
      lane: "app",
      object: "Pod/default/db-0",
      node: "worker-2",
      copies: 2,
      owner: "StatefulSet/default/db",
      sameIdentity: true,
      replacement: "db-0",
      replacementNode: "worker-3",
    }),
    {
      message:
        "db-0 now runs twice: the replacement on worker-3 and the old copy on worker-2, which nobody can stop",
      why: "worker-2's containers keep running while its kubelet cannot reach the API server; nothing stops them until it does",
    },
  ],
  [
    "more Deployment replicas than wanted",
    ev({
      type: "PodRunsTwice",
      lane: "app",
      object: "Pod/default/web-1-a",
      node: "worker-2",
      copies: 4,
      owner: "Deployment/default/web",
      sameIdentity: false,
      replacement: "web-1-b",
      replacementNode: "worker-3",
    }),
    {
      message:
        "web-1-a still runs on worker-2 while its replacement web-1-b runs on worker-3: 4 copies of web run",
      why: "worker-2's containers keep running while its kubelet cannot reach the API server; nothing stops them until it does",
    },
  ],
  [
    "a first start",
    ev({ type: "ContainerStarted", container: "app", restartCount: 0, start: "scheduled", podRow: row }),
    {
      message: "kubelet on worker-1 starts container app of app-7d4b9-x2x",
      why: "the pod was bound here; sandbox and container start take ~2s",
      see: GET_POD,
    },
  ],
  [
    "a start after the machine came back",
    ev({
      type: "ContainerStarted",
      container: "app",
      restartCount: 1,
      start: "rebooted",
      restartPolicy: "Always",
      podRow: row,
    }),
    {
      message: "kubelet on worker-1 restarts container app of app-7d4b9-x2x in place (restartCount 1)",
      why: "the pod is still bound to worker-1 and its containers are not running (restartPolicy Always)",
      see: GET_POD,
    },
  ],
  ...(
    [
      [
        "no-exit",
        "the sync that kills it also starts it again, with the pod status read before the kill, where no instance has exited yet: the restart is immediate and the back-off records nothing (doBackOff)",
      ],
      ["first", "the first restart is immediate (CrashLoopBackOff starts with the next exit)"],
      [
        "reset",
        "it ran more than 10 minutes since its last restart, so the back-off was reset and the restart is immediate",
      ],
      ["passed", "the back-off since its last exit has passed"],
    ] as const
  ).map(([backOff, tail]): [string, TraceEvent, Prose] => [
    `a restart: back-off ${backOff}`,
    ev({
      type: "ContainerStarted",
      container: "app",
      restartCount: 2,
      start: "restart",
      exit: { kind: "probe", probe: "liveness" },
      restartPolicy: "Always",
      backOff,
      podRow: row,
    }),
    {
      message: "kubelet on worker-1 restarts container app of app-7d4b9-x2x in place (restartCount 2)",
      why: `its liveness probe failed; restartPolicy Always: ${tail}`,
      see: GET_POD,
    },
  ]),
  [
    "a restart without back-off",
    ev({
      type: "ContainerStarted",
      container: "app",
      restartCount: 2,
      start: "restart",
      exit: { kind: "exit", exitCode: 1 },
      restartPolicy: "OnFailure",
      backOff: "disabled",
      podRow: row,
    }),
    {
      message: "kubelet on worker-1 restarts container app of app-7d4b9-x2x in place (restartCount 2)",
      why: "it exited with code 1; restartPolicy OnFailure, and this kubelet restarts without back-off (crashLoopBackOff: false)",
      see: GET_POD,
    },
  ],
  [
    "a restart when the back-off expired",
    ev({
      type: "ContainerStarted",
      container: "app",
      restartCount: 4,
      start: "back-off-expired",
      exit: { kind: "kubelet-restart" },
      delaySeconds: 40,
      podRow: row,
    }),
    {
      message: "kubelet on worker-1 restarts container app of app-7d4b9-x2x in place (restartCount 4)",
      why: "the kubelet started again and finds it exited; the CrashLoopBackOff delay of 40s since it exited has passed",
      see: GET_POD,
    },
  ],
  [
    "a crash from the timeline",
    ev({
      type: "ContainerExited",
      lane: "app",
      container: "app",
      exitCode: 1,
      cause: "crash",
      step: { at: 6.004, do: "crash", pod: "Deployment/app" },
      podRow: row,
    }),
    {
      message: "container app of app-7d4b9-x2x exits with code 1",
      why: "the scenario's timeline: {at: 6.004s, do: crash, pod: Deployment/app}: the process exits",
      see: GET_POD,
    },
  ],
  [
    "an exit by itself, exitAfterSeconds after the start",
    ev({
      type: "ContainerExited",
      lane: "app",
      container: "app",
      exitCode: 3,
      cause: "exit-after",
      exitAfterSeconds: 5,
      podRow: row,
    }),
    {
      message: "container app of app-7d4b9-x2x exits with code 3",
      why: "the process exits by itself 5s after each start (behaviour exitAfterSeconds)",
      see: GET_POD,
    },
  ],
  [
    "an exit after a probe kill",
    ev({
      type: "ContainerExited",
      lane: "app",
      container: "app",
      exitCode: 137,
      cause: "probe-kill",
      probe: "liveness",
      podRow: row,
    }),
    {
      message: "container app of app-7d4b9-x2x exits with code 137",
      why: "killed after its liveness probe failed",
      see: GET_POD,
    },
  ],
  [
    "an orphan stopped",
    ev({ type: "ContainerKilled", container: "app", cause: "orphan" }),
    {
      message: "kubelet on worker-1 stops the containers of app-7d4b9-x2x, whose pod object no longer exists",
      why: "the kubelet reached the API again and cleans up pods it should no longer run (HandlePodCleanups)",
    },
  ],
  [
    "a liveness kill of a hung process, the probe's own grace period",
    ev({
      type: "ContainerKilled",
      object: "Pod/shop/app-7d4b9-x2x",
      container: "app",
      cause: "probe",
      probe: "liveness",
      periodSeconds: 10,
      failureThreshold: 3,
      initialDelaySeconds: 0,
      terminationGracePeriodSeconds: 3,
      gracePeriodFrom: "probe",
      hung: true,
    }),
    {
      message:
        "kubelet on worker-1 kills container app of app-7d4b9-x2x: Container app failed liveness probe, will be restarted",
      why: "liveness failed 3× in a row, periodSeconds=10, failureThreshold=3; SIGTERM, then SIGKILL after the probe's terminationGracePeriodSeconds=3 (a hung process never finishes its shutdown)",
      see: [
        "$ kubectl describe pod app-7d4b9-x2x -n shop",
        "  Warning  Unhealthy  kubelet  Liveness probe failed: context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
        "  Normal   Killing    kubelet  Container app failed liveness probe, will be restarted",
      ].join("\n"),
    },
  ],
  [
    "a startup kill: the boot budget ran out",
    ev({
      type: "ContainerKilled",
      container: "app",
      cause: "probe",
      probe: "startup",
      periodSeconds: 2,
      failureThreshold: 30,
      initialDelaySeconds: 5,
      terminationGracePeriodSeconds: 30,
      gracePeriodFrom: "pod",
      hung: false,
    }),
    {
      message:
        "kubelet on worker-1 kills container app of app-7d4b9-x2x: Container app failed startup probe, will be restarted",
      why: "startup failed 30× in a row, periodSeconds=2, failureThreshold=30: the boot budget of 65s ran out; SIGTERM, then SIGKILL after terminationGracePeriodSeconds=30",
      see: [
        "$ kubectl describe pod app-7d4b9-x2x",
        "  Warning  Unhealthy  kubelet  Startup probe failed: connection refused",
        "  Normal   Killing    kubelet  Container app failed startup probe, will be restarted",
      ].join("\n"),
    },
  ],
  ...(
    [
      [
        { finding: "timeout", timeoutSeconds: 1 },
        "liveness",
        "the process hangs: no answer within timeoutSeconds=1",
      ],
      [
        { finding: "booting", bootSeconds: 24, upSeconds: 4.25 },
        "liveness",
        "nothing answers yet: the app boots in 24s (behaviour bootSeconds) and has run 4.25s",
      ],
      [
        { finding: "dependency-down" },
        "readiness",
        "a dependency is down, so the readiness endpoint reports failure",
      ],
      [
        { finding: "not-ready-yet", readyAfterSeconds: 40 },
        "readiness",
        "the app is not ready until 40s after its start (behaviour readyAfterSeconds)",
      ],
    ] as const
  ).map(([finding, type, tail]): [string, TraceEvent, Prose] => [
    `a failed ${type} check: ${finding.finding}`,
    ev({ type: "ProbeFailed", ...probe, probe: type, consecutive: 2, failureThreshold: 3, ...finding }),
    {
      message: `app-7d4b9-x2x: app's ${type} probe fails (2 of failureThreshold=3)`,
      why: `the ${type} probe worker checks every periodSeconds=10 on its own ticker${
        type === "readiness" ? ", and at once on each pod sync while not ready" : ""
      }; ${tail}`,
    },
  ]),
  [
    "a failed check on the toy kubelet",
    ev({
      type: "ProbeFailed",
      ...probe,
      schedule: "period-end",
      probe: "startup",
      consecutive: 1,
      failureThreshold: 30,
      finding: "booting",
      bootSeconds: 24,
      upSeconds: 2,
    }),
    {
      message: "app-7d4b9-x2x: app's startup probe fails (1 of failureThreshold=30)",
      why: "the startup probe checks at the end of each periodSeconds=10 (probeSchedule: period-end); nothing answers yet: the app boots in 24s (behaviour bootSeconds) and has run 2s",
    },
  ],
  [
    "startup passes",
    ev({
      type: "ProbeSucceeded",
      ...probe,
      probe: "startup",
      handler: "httpGet :8000/healthz",
      upSeconds: 26,
      consecutive: 1,
      successThreshold: 1,
    }),
    {
      message: "app-7d4b9-x2x: app's startup probe passes; liveness and readiness begin",
      why: "the startup probe worker checks every periodSeconds=10 on its own ticker; the app answers 26s after its start",
    },
  ],
  [
    "readiness passes after successThreshold checks",
    ev({
      type: "ProbeSucceeded",
      ...probe,
      probe: "readiness",
      handler: "httpGet :8000/ready",
      upSeconds: 41.5,
      consecutive: 3,
      successThreshold: 3,
    }),
    {
      message: "app-7d4b9-x2x: app's readiness probe passes (httpGet :8000/ready)",
      why: "the readiness probe worker checks every periodSeconds=10 on its own ticker, and at once on each pod sync while not ready; the app answers 41.5s after its start (successThreshold=3: 3 in a row)",
    },
  ],
  ...(
    [
      [
        "exact",
        10,
        300,
        "the first restart immediate, then 10s doubling to a 300s cap",
        "the pod worker retries when the back-off expires (≈1.35+, PR #133066)",
      ],
      [
        "period",
        1,
        60,
        "the first restart immediate, then 1s doubling to a 60s cap",
        "the pod worker retries every backOffPeriod=10s + up to 50% jitter, so the restart comes at the first retry after 20s",
      ],
    ] as const
  ).map(([requeue, initialSeconds, maxSeconds, doubling, tail]): [string, TraceEvent, Prose] => [
    `a back-off, retried ${requeue}`,
    ev({
      type: "BackOff",
      container: "app",
      delaySeconds: 20,
      exit: { kind: "exit", exitCode: 2 },
      initialSeconds,
      maxSeconds,
      requeue,
      backOffPeriod: 10,
      podRow: row,
    }),
    {
      message: "Back-off restarting failed container app in pod app-7d4b9-x2x: 20s",
      why: `it exited with code 2; it has restarted before within 10 minutes, so this restart waits the back-off, now 20s (CrashLoopBackOff: ${doubling}, reset after 10 minutes of running); ${tail}`,
      see: GET_POD,
    },
  ]),
];

const READY_CASES: [string, Record<string, unknown>, string, string][] = [
  [
    "PodReady",
    { cause: "startup-passed", container: "app" },
    "app-7d4b9-x2x is Ready",
    "app's startup probe passed; readiness decides from here",
  ],
  [
    "PodReady",
    { cause: "readiness-passed", container: "app", successThreshold: 1 },
    "app-7d4b9-x2x is Ready",
    "app's readiness probe passed (successThreshold=1)",
  ],
  [
    "PodNotReady",
    { cause: "readiness-failed", container: "app", failureThreshold: 3, periodSeconds: 5 },
    "app-7d4b9-x2x is not Ready",
    "app's readiness probe failed 3× in a row (periodSeconds=5, failureThreshold=3); the container keeps running",
  ],
  [
    "PodNotReady",
    { cause: "container-exited", container: "app", exitCode: 137 },
    "app-7d4b9-x2x is not Ready",
    "container app is not running (exit code 137)",
  ],
  [
    "PodReady",
    { cause: "containers-ready", readinessProbe: true },
    "app-7d4b9-x2x is Ready",
    "its readiness probe passed",
  ],
  [
    "PodReady",
    { cause: "containers-ready", readinessProbe: false },
    "app-7d4b9-x2x is Ready",
    "its containers run and it has no readiness probe, so it is ready as soon as they start",
  ],
  [
    "PodNotReady",
    { cause: "containers-not-ready", containers: ["app", "sidecar"] },
    "app-7d4b9-x2x is not Ready",
    "containers with unready status: [app sidecar]",
  ],
  [
    "PodNotReady",
    { cause: "readiness-gates", gates: ["example.com/lb-ready", "example.com/warm"] },
    "app-7d4b9-x2x is not Ready",
    'the readiness gate condition "example.com/lb-ready", "example.com/warm" is not True (spec.readinessGates)',
  ],
  [
    "PodNotReady",
    { cause: "completed", phase: "Succeeded", restartPolicy: "OnFailure", exitedZero: true },
    "app-7d4b9-x2x is Succeeded: its containers will not run again",
    "restartPolicy OnFailure does not restart containers that exit 0",
  ],
  [
    "PodNotReady",
    { cause: "completed", phase: "Failed", restartPolicy: "Never", exitedZero: false },
    "app-7d4b9-x2x is Failed: its containers will not run again",
    "restartPolicy Never does not restart it",
  ],
];

describe("the kubelet's events in words (report/messages/node.ts)", () => {
  it.each(CASES)("%s", (_name, e, prose) => {
    expect(proseOf(e)).toEqual(prose);
  });

  it.each(READY_CASES)("%s by the kubelet: %o", (type, cause, message, why) => {
    const e = ev({ type, by: "kubelet", podRow: row, ...cause });
    expect(proseOf(e)).toEqual({ message, why, see: GET_POD });
  });

  it.each([
    [
      "not-running",
      "kubelet on worker-1 confirms app-7d4b9-x2x is gone; the API removes the pod",
      "the pod was marked for deletion and none of its containers run here any more",
    ],
    [
      "containers-exited",
      "kubelet on worker-1 confirms app-7d4b9-x2x stopped; the API removes the pod",
      "its containers have exited, so the kubelet completes the graceful deletion",
    ],
  ])("PodDeleted by the kubelet: %s", (cause, message, why) => {
    expect(proseOf(ev({ type: "PodDeleted", force: false, by: "kubelet", cause }))).toEqual({ message, why });
  });
});
