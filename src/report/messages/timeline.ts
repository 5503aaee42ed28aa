// The prose for the events of trace/timeline-events.ts: what each timeline step does, and what a
// node action means for each lane before the control plane notices anything.

import { MAX_WAIT_FOR_CONTAINER_RUNTIME, RUNTIME_UP_PERIOD } from "../../kubernetes/defaults.ts";
import type { FaultAction } from "../../scenario/types.ts";
import type { EventOf } from "../../trace/events.ts";
import { stepText } from "../../trace/format.ts";
import type { TimelineEventFields, TimelineStepRef } from "../../trace/timeline-events.ts";
import type { Printers, Prose } from "./prose.ts";

/** "the scenario's timeline: {at: 10s, do: power-off, node: worker-2}" */
export function timelineWhy(step: TimelineStepRef): string {
  return `the scenario's timeline: ${stepText(step)}`;
}

/** What a node action is, as the operator (or the machine) does it. */
const NODE_ACTIONS: Partial<Record<FaultAction, (node: string) => string>> = {
  "power-off": (n) => `${n} loses power`,
  shutdown: (n) => `${n} is asked to shut down (systemctl poweroff, or the cloud stopping its instance)`,
  "vm-terminated": (n) =>
    `${n}'s instance is terminated (deleted in the cloud: a scale-in, a spot reclaim, an operator)`,
  "spot-interruption": (n) =>
    `the cloud reclaims ${n}'s spot instance: an interruption notice now, the instance terminated when it runs out`,
  "power-on": (n) => `${n} is powered on again`,
  "network-partition": (n) => `${n} is cut off: it cannot reach the control plane and nobody reaches it`,
  "network-heal": (n) => `${n}'s network is back`,
  "kubelet-stop": (n) => `the kubelet on ${n} stops (crash or systemctl stop kubelet)`,
  "kubelet-start": (n) => `the kubelet on ${n} starts again`,
  "runtime-down": (n) => `the container runtime on ${n} stops (containerd or CRI-O: a crash, systemctl stop)`,
  "runtime-up": (n) => `the container runtime on ${n} runs again`,
  cordon: (n) => `kubectl cordon ${n}`,
  uncordon: (n) => `kubectl uncordon ${n}`,
  "delete-node": (n) => `kubectl delete node ${n}`,
  "taint-out-of-service": (n) =>
    `kubectl taint nodes ${n} node.kubernetes.io/out-of-service=nodeshutdown:NoExecute`,
};

/** What a pod action does to the process, and what follows when it reaches it. */
const POD_ACTIONS: Partial<Record<FaultAction, { message: (pod: string) => string; effect: string }>> = {
  deadlock: {
    message: (p) => `the process of ${p} deadlocks: it still runs but answers nothing`,
    effect:
      "health checks time out (a tcpSocket check still connects: the kernel completes the handshake); requests hang until the caller's timeout",
  },
  crash: {
    message: (p) => `the process of ${p} crashes`,
    effect: "its containers exit; the kubelet restarts them per restartPolicy",
  },
  "dependency-down": {
    message: (p) => `a dependency of ${p} goes down`,
    effect: "its readiness endpoint reports failure; liveness still passes, so nothing restarts",
  },
  "dependency-up": {
    message: (p) => `the dependency of ${p} is back`,
    effect: "its readiness endpoint passes again",
  },
  recover: {
    message: (p) => `${p} recovers: the deadlock or slowness ends`,
    effect: "it answers again",
  },
};

/** The notes of a node action, per lane: what it means there, why, and what one would see. */
const NOTES: Partial<Record<FaultAction, Partial<Record<string, (node: string) => Prose>>>> = {
  "power-off": {
    kubelet: (n) => ({
      message: `the kubelet on ${n} stops renewing its Lease`,
      why: "the machine is gone; from the control plane a dead machine, a lost network and a crashed kubelet look the same: heartbeats stop",
    }),
    app: (n) => ({
      message: `requests to pods on ${n} stop being answered; each caller waits on its own timeout`,
      why: "nothing on the machine runs to answer or refuse",
      see: "rising latency in the callers, before any Kubernetes object changes state",
    }),
    network: (n) => ({
      message: `nothing removes ${n}'s endpoints yet: Services keep sending new requests there`,
      why: "nothing has been detected: a missing heartbeat is not yet meaningful",
    }),
  },
  // Only when the kubelet has no shutdownGracePeriod (faults.ts shutdown): nothing holds the machine.
  shutdown: {
    kubelet: (n) => ({
      message: `the kubelet on ${n} holds nothing back: the machine powers off at once and its Lease stops`,
      why: "shutdownGracePeriod is 0 (the kubelet's default), so its node shutdown manager is a stub and takes no systemd inhibitor lock (graceful node shutdown, KEP-2000): the pods are not ended through the API",
    }),
    app: (n) => ({
      message: `${n}'s containers stop with the machine; requests to them stop being answered`,
      why: "the operating system stops every process on its way down",
    }),
    network: (n) => ({
      message: `nothing removes ${n}'s endpoints yet: Services keep sending new requests there`,
      why: "to the control plane the node is simply silent, as after a power-off",
    }),
  },
  "vm-terminated": {
    kubelet: (n) => ({
      message: `the kubelet on ${n} stops renewing its Lease`,
      why: "the instance is gone with its disks' attachments; to the control plane it looks like any lost node until the cloud is asked",
    }),
    app: (n) => ({
      message: `requests to pods on ${n} stop being answered; each caller waits on its own timeout`,
      why: "nothing on the machine runs to answer or refuse",
    }),
    network: (n) => ({
      message: `nothing removes ${n}'s endpoints yet: Services keep sending new requests there`,
      why: "nothing has been detected: a missing heartbeat is not yet meaningful",
    }),
  },
  "network-partition": {
    kubelet: (n) => ({
      message: `the kubelet on ${n} keeps running but cannot renew its Lease`,
      why: "its requests to the API server fail; it retries with backoff (200ms doubling to 7s)",
    }),
    app: (n) => ({
      message: `${n}'s containers keep running, but no caller can reach them`,
      why: "the partition cuts traffic both ways",
      see: "timeouts rather than connection refusals",
    }),
  },
  "runtime-down": {
    kubelet: (n) => ({
      message: `the kubelet on ${n} keeps renewing its Lease but can no longer start, restart or stop a container`,
      why: `its calls to the runtime fail; its status check (every ${RUNTIME_UP_PERIOD}s) reports "container runtime is down" once it has failed for maxWaitForContainerRuntime=${MAX_WAIT_FOR_CONTAINER_RUNTIME}s`,
    }),
    app: (n) => ({
      message: `${n}'s containers keep running and keep answering`,
      why: "each container's shim outlives the runtime daemon",
    }),
  },
  "kubelet-stop": {
    kubelet: (n) => ({ message: `no Lease renewals from ${n}`, why: "the kubelet process is gone" }),
    app: (n) => ({
      message: `${n}'s containers keep running and keep answering`,
      why: "stopping the kubelet does not stop its pods",
    }),
  },
};

const podName = (nsName: string) => nsName.slice(nsName.indexOf("/") + 1);

/** `kubectl drain worker-2 --ignore-daemonsets …`: the command a drain step stands for. */
function drainCommand(step: TimelineStepRef): string {
  return `kubectl drain ${step.node ?? ""}${step.ignoreDaemonSets === false ? "" : " --ignore-daemonsets"}${step.deleteEmptyDirData ? " --delete-emptydir-data" : ""}${step.force ? " --force" : ""}`;
}

function faultProse(e: EventOf<"FaultInjected">): Prose {
  const why = timelineWhy(e.step);
  const node = e.step.node ?? "";
  if (e.do === "force-delete-pod")
    return {
      message: `kubectl delete pod ${e.pod ? podName(e.pod) : (e.step.pod ?? "")} --grace-period=0 --force`,
      why,
    };
  if (e.do === "drain") return { message: drainCommand(e.step), why };
  if (e.do === "rollout-restart")
    return {
      message: `kubectl rollout restart ${(e.step.pod ?? "").toLowerCase()}`,
      why: `${why}: the pod template gets the kubectl.kubernetes.io/restartedAt annotation, a new revision the StatefulSet controller rolls out from the highest ordinal down`,
    };
  const pod = POD_ACTIONS[e.do];
  if (pod) {
    if (e.outcome === "no-pod" || e.pod === undefined)
      return {
        message: pod.message(e.step.pod ?? ""),
        why: `${why}; no such pod exists at this moment, so nothing happens`,
      };
    return {
      message: pod.message(podName(e.pod)),
      why:
        e.outcome === "not-running"
          ? `${why}; its containers are not running, so nothing changes`
          : `${why}: ${pod.effect}`,
    };
  }
  return { message: NODE_ACTIONS[e.do]?.(node) ?? `${e.do} ${node}`, why };
}

export const TIMELINE_PRINTERS: Printers<keyof TimelineEventFields> = {
  FaultInjected: faultProse,
  DrainFailed: (e) => {
    const node = e.step.node ?? "";
    return {
      message: `kubectl drain ${node} stops: ${e.error}`,
      why: `${timelineWhy(e.step)}: kubectl drain's filters refuse these pods before it evicts anything (staging/src/k8s.io/kubectl/pkg/drain/filters.go); ${node} stays cordoned and its pods keep running`,
      see: `$ ${drainCommand(e.step)}\nnode/${node} cordoned\nerror: unable to drain node "${node}", aborting command...\n\nThere are pending nodes to be drained:\n ${node}\nerror: ${e.error}`,
    };
  },
  Note: (e) => NOTES[e.do]?.[e.lane]?.(e.node ?? "") ?? { message: `${e.do} (${e.lane})` },
};
