// The prose of init containers' and sidecars' events (report/messages/node.ts): the start of the
// next init container, the app containers' start once the pod is Initialized, an init container's
// run to its end, and a pod with sidecars' stop order at its termination.

import { describe, expect, it } from "vitest";
import type { PodRow } from "../../../src/kubernetes/kubectl.ts";
import { proseOf } from "../../../src/report/messages/index.ts";
import type { TraceEvent } from "../../../src/trace/events.ts";

const row: PodRow = {
  name: "web",
  namespace: "default",
  ready: "0/2",
  status: "Init:1/2",
  restarts: 0,
  age: "5s",
  ip: "10.244.1.1",
  node: "worker-1",
};

function ev(fields: Record<string, unknown>): TraceEvent {
  return {
    t: 1,
    lane: "kubelet",
    object: "Pod/default/web",
    node: "worker-1",
    podRow: row,
    ...fields,
  } as unknown as TraceEvent;
}

describe("init containers and sidecars, in words", () => {
  it("the next init container starts after the one before it completed, or after a sidecar started", () => {
    const after = proseOf(
      ev({
        type: "ContainerStarted",
        role: "init",
        container: "warm",
        restartCount: 0,
        start: "init-next",
        after: "migrate",
        sidecar: false,
      }),
    );
    expect(after.message).toBe("kubelet on worker-1 starts init container warm of web");
    expect(after.why).toBe("init container migrate completed; init containers run one at a time, in order");
    const sidecar = proseOf(
      ev({
        type: "ContainerStarted",
        role: "sidecar",
        container: "logs",
        restartCount: 0,
        start: "init-next",
        after: "proxy",
        sidecar: true,
      }),
    );
    expect(sidecar.message).toBe("kubelet on worker-1 starts sidecar logs of web");
    expect(sidecar.why).toMatch(/^sidecar proxy has started \(restartPolicy: Always/);
  });

  it("the app containers start once the pod is Initialized", () => {
    const p = proseOf(
      ev({
        type: "ContainerStarted",
        container: "app",
        restartCount: 0,
        start: "initialized",
        initContainers: 3,
        sidecars: 2,
      }),
    );
    expect(p.why).toBe(
      "every init container completed and its 2 sidecars started: the pod is Initialized and its app containers start",
    );
  });

  it("an init container runs to its end: exit 0 completes it, another code fails it", () => {
    const done = proseOf(
      ev({
        type: "ContainerExited",
        role: "init",
        container: "migrate",
        exitCode: 0,
        cause: "init-run",
        runSeconds: 5,
        set: true,
      }),
    );
    expect(done.message).toBe("init container migrate of web exits with code 0");
    expect(done.why).toBe(
      "it runs to its end 5s after its start (behaviour exitAfterSeconds); exit code 0 completes it",
    );
    const failed = proseOf(
      ev({
        type: "ContainerExited",
        role: "init",
        container: "migrate",
        exitCode: 1,
        cause: "init-run",
        runSeconds: 0,
        set: false,
      }),
    );
    expect(failed.why).toMatch(/no behaviour exitAfterSeconds: at once\); a non-zero exit fails it/);
  });

  it("a pod with sidecars terminates them after its app containers, and says in which order", () => {
    const p = proseOf(
      ev({
        type: "PodTerminated",
        signal: "SIGTERM",
        exitAfterSeconds: 8,
        terminationGracePeriodSeconds: 30,
        stopOrder: [
          { container: "app", sidecar: false, exitAfterSeconds: 5, signal: "SIGTERM" },
          { container: "logs", sidecar: true, exitAfterSeconds: 7, signal: "SIGTERM" },
          { container: "proxy", sidecar: true, exitAfterSeconds: 8, signal: "SIGKILL" },
        ],
      }),
    );
    expect(p.why).toBe(
      "each sidecar's SIGTERM waits for the app containers and the sidecar declared after it, within terminationGracePeriodSeconds=30 (kubelet termination ordering, KEP-753); seconds from the kill's start to each exit: app 5s, logs 7s, proxy 8s (SIGKILL)",
    );
  });
});
