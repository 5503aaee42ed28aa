// The printers of report/messages/timeline.ts: each timeline action, the pod actions' three
// outcomes, and the notes a node action writes in each lane.

import { describe, expect, it } from "vitest";
import { proseOf } from "../../src/report/messages/index.ts";
import type { TraceEvent } from "../../src/trace/events.ts";

const fault = (e: Record<string, unknown>) =>
  proseOf({
    t: 0,
    type: "FaultInjected",
    lane: "operator",
    object: "Node/worker-2",
    ...e,
  } as unknown as TraceEvent);
const nodeStep = (action: string) => ({ do: action, step: { at: 10, do: action, node: "worker-2" } });
const why = (action: string) => `the scenario's timeline: {at: 10s, do: ${action}, node: worker-2}`;

describe("timeline printers", () => {
  it.each([
    ["power-off", "worker-2 loses power"],
    ["power-on", "worker-2 is powered on again"],
    ["network-partition", "worker-2 is cut off: it cannot reach the control plane and nobody reaches it"],
    ["network-heal", "worker-2's network is back"],
    ["kubelet-stop", "the kubelet on worker-2 stops (crash or systemctl stop kubelet)"],
    ["kubelet-start", "the kubelet on worker-2 starts again"],
    ["cordon", "kubectl cordon worker-2"],
    ["uncordon", "kubectl uncordon worker-2"],
    ["drain", "kubectl drain worker-2 --ignore-daemonsets"],
    ["delete-node", "kubectl delete node worker-2"],
    [
      "taint-out-of-service",
      "kubectl taint nodes worker-2 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute",
    ],
  ])("%s", (action, message) => {
    expect(fault(nodeStep(action))).toEqual({ message, why: why(action) });
  });

  it("drain with its flags: the kubectl command, the step as written", () => {
    const step = {
      at: 10,
      do: "drain",
      node: "worker-2",
      force: true,
      deleteEmptyDirData: true,
      ignoreDaemonSets: false,
    };
    expect(fault({ do: "drain", step })).toEqual({
      message: "kubectl drain worker-2 --delete-emptydir-data --force",
      why: "the scenario's timeline: {at: 10s, do: drain, node: worker-2, force: true, deleteEmptyDirData: true, ignoreDaemonSets: false}",
    });
  });

  it("DrainFailed: kubectl's error, and what kubectl drain prints", () => {
    const error = "cannot delete Pods that declare no controller (use --force to override): default/solo";
    expect(
      proseOf({
        t: 10,
        type: "DrainFailed",
        lane: "operator",
        object: "Node/worker-2",
        node: "worker-2",
        step: { at: 10, do: "drain", node: "worker-2" },
        error,
      } as TraceEvent),
    ).toEqual({
      message: `kubectl drain worker-2 stops: ${error}`,
      why: "the scenario's timeline: {at: 10s, do: drain, node: worker-2}: kubectl drain's filters refuse these pods before it evicts anything (staging/src/k8s.io/kubectl/pkg/drain/filters.go); worker-2 stays cordoned and its pods keep running",
      see: `$ kubectl drain worker-2 --ignore-daemonsets\nnode/worker-2 cordoned\nerror: unable to drain node "worker-2", aborting command...\n\nThere are pending nodes to be drained:\n worker-2\nerror: ${error}`,
    });
  });

  const podStep = (action: string, pod: string) => ({ do: action, step: { at: 122, do: action, pod } });
  it.each([
    {
      e: {
        ...podStep("deadlock", "Deployment/app[0]"),
        lane: "app",
        pod: "default/app-x",
        outcome: "applied",
      },
      message: "the process of app-x deadlocks: it still runs but answers nothing",
      why: "the scenario's timeline: {at: 122s, do: deadlock, pod: Deployment/app[0]}: health checks time out (a tcpSocket check still connects: the kernel completes the handshake); requests hang until the caller's timeout",
    },
    {
      e: { ...podStep("crash", "Deployment/app"), lane: "app", pod: "default/app-x", outcome: "not-running" },
      message: "the process of app-x crashes",
      why: "the scenario's timeline: {at: 122s, do: crash, pod: Deployment/app}; its containers are not running, so nothing changes",
    },
    {
      e: { ...podStep("dependency-down", "default/app-x"), outcome: "no-pod" },
      message: "a dependency of default/app-x goes down",
      why: "the scenario's timeline: {at: 122s, do: dependency-down, pod: default/app-x}; no such pod exists at this moment, so nothing happens",
    },
    {
      e: {
        ...podStep("dependency-up", "Deployment/app"),
        lane: "app",
        pod: "default/app-x",
        outcome: "applied",
      },
      message: "the dependency of app-x is back",
      why: "the scenario's timeline: {at: 122s, do: dependency-up, pod: Deployment/app}: its readiness endpoint passes again",
    },
    {
      e: { ...podStep("recover", "Deployment/app"), lane: "app", pod: "default/app-x", outcome: "applied" },
      message: "app-x recovers: the deadlock or slowness ends",
      why: "the scenario's timeline: {at: 122s, do: recover, pod: Deployment/app}: it answers again",
    },
    {
      e: { ...podStep("force-delete-pod", "StatefulSet/db[0]"), pod: "default/db-0" },
      message: "kubectl delete pod db-0 --grace-period=0 --force",
      why: "the scenario's timeline: {at: 122s, do: force-delete-pod, pod: StatefulSet/db[0]}",
    },
    {
      e: { ...podStep("force-delete-pod", "default/gone"), outcome: "no-pod" },
      message: "kubectl delete pod default/gone --grace-period=0 --force",
      why: "the scenario's timeline: {at: 122s, do: force-delete-pod, pod: default/gone}",
    },
  ])("$message", ({ e, message, why }) => {
    expect(fault(e)).toEqual({ message, why });
  });

  it.each([
    [
      "power-off",
      "kubelet",
      {
        message: "the kubelet on worker-2 stops renewing its Lease",
        why: "the machine is gone; from the control plane a dead machine, a lost network and a crashed kubelet look the same: heartbeats stop",
      },
    ],
    [
      "power-off",
      "app",
      {
        message: "requests to pods on worker-2 stop being answered; each caller waits on its own timeout",
        why: "nothing on the machine runs to answer or refuse",
        see: "rising latency in the callers, before any Kubernetes object changes state",
      },
    ],
    [
      "power-off",
      "network",
      {
        message: "nothing removes worker-2's endpoints yet: Services keep sending new requests there",
        why: "nothing has been detected: a missing heartbeat is not yet meaningful",
      },
    ],
    [
      "network-partition",
      "kubelet",
      {
        message: "the kubelet on worker-2 keeps running but cannot renew its Lease",
        why: "its requests to the API server fail; it retries with backoff (200ms doubling to 7s)",
      },
    ],
    [
      "network-partition",
      "app",
      {
        message: "worker-2's containers keep running, but no caller can reach them",
        why: "the partition cuts traffic both ways",
        see: "timeouts rather than connection refusals",
      },
    ],
    [
      "kubelet-stop",
      "kubelet",
      { message: "no Lease renewals from worker-2", why: "the kubelet process is gone" },
    ],
    [
      "kubelet-stop",
      "app",
      {
        message: "worker-2's containers keep running and keep answering",
        why: "stopping the kubelet does not stop its pods",
      },
    ],
  ])("Note: %s, %s", (action, lane, prose) => {
    const e = { t: 10, type: "Note", lane, object: "Node/worker-2", node: "worker-2", do: action };
    expect(proseOf(e as unknown as TraceEvent)).toEqual(prose);
  });
});
