// The pods Table's READY, STATUS and RESTARTS for init containers and sidecars, as printPod
// (pkg/printers/internalversion/printers.go) computes them: Init:<i>/<n> for the first init
// container not completed, Init:<reason> for one that failed or waits, a started sidecar counted
// as done and in READY; once Initialized, the app containers and the sidecars' restarts.

import { describe, expect, it } from "vitest";
import type { ApiObject } from "../../src/serve/api-types.ts";
import { PRINTERS } from "../../src/serve/tables.ts";

type State = Record<string, unknown>;
const cs = (
  name: string,
  state: State,
  o: { ready?: boolean; started?: boolean; restartCount?: number } = {},
) => ({
  name,
  state,
  lastState: {},
  ready: o.ready ?? false,
  started: o.started ?? false,
  restartCount: o.restartCount ?? 0,
});

function pod(init: unknown[], app: unknown[], initialized: boolean): ApiObject {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "web", namespace: "default", creationTimestamp: "2026-01-01T00:00:00Z" },
    spec: {
      initContainers: [{ name: "migrate" }, { name: "proxy", restartPolicy: "Always" }],
      containers: [{ name: "app" }],
    },
    status: {
      phase: initialized ? "Running" : "Pending",
      conditions: [{ type: "Initialized", status: initialized ? "True" : "False" }],
      initContainerStatuses: init,
      containerStatuses: app,
    },
  } as unknown as ApiObject;
}

const cells = (p: ApiObject) => PRINTERS.pods!.cells(p, 0).slice(1, 4);
const waiting = (reason: string) => ({ waiting: { reason } });

describe("printPod with init containers", () => {
  it("Init:0/2 while the first runs; Init:1/2 while the sidecar has not started", () => {
    expect(
      cells(
        pod(
          [cs("migrate", { running: {} }), cs("proxy", waiting("PodInitializing"))],
          [cs("app", waiting("PodInitializing"))],
          false,
        ),
      ),
    ).toEqual(["0/2", "Init:0/2", "0"]);
    expect(
      cells(
        pod(
          [cs("migrate", { terminated: { exitCode: 0, reason: "Completed" } }), cs("proxy", { running: {} })],
          [cs("app", waiting("PodInitializing"))],
          false,
        ),
      ),
    ).toEqual(["0/2", "Init:1/2", "0"]);
  });

  it("Init:CrashLoopBackOff and Init:Error, with the init containers' restarts", () => {
    expect(
      cells(
        pod(
          [cs("migrate", waiting("CrashLoopBackOff"), { restartCount: 3 })],
          [cs("app", waiting("PodInitializing"))],
          false,
        ),
      ),
    ).toEqual(["0/2", "Init:CrashLoopBackOff", "3"]);
    expect(cells(pod([cs("migrate", { terminated: { exitCode: 1, reason: "Error" } })], [], false))).toEqual([
      "0/2",
      "Init:Error",
      "0",
    ]);
  });

  it("initialized: the app's status; the started, ready sidecar counts in READY and its restarts in RESTARTS", () => {
    expect(
      cells(
        pod(
          [
            cs("migrate", { terminated: { exitCode: 0, reason: "Completed" } }, { restartCount: 2 }),
            cs("proxy", { running: {} }, { ready: true, started: true, restartCount: 1 }),
          ],
          [cs("app", { running: {} }, { ready: true, started: true })],
          true,
        ),
      ),
    ).toEqual(["2/2", "Running", "1"]);
  });
});
