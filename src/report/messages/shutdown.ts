// The prose for graceful node shutdown (KEP-2000, kubelet/node-shutdown.ts): the kubelet's manager
// seeing the shutdown, each pod it ends, the end of its groups, and the pods Admit refuses meanwhile.

import { SYSTEM_CRITICAL_PRIORITY } from "../../kubernetes/priority.ts";
import { fmt } from "../../trace/format.ts";
import type { NodeEventFields } from "../../trace/node-events.ts";
import type { Printers } from "./prose.ts";

type ShutdownEvents = "NodeShutdownStarted" | "NodeShutdownDone" | "PodShutDown" | "PodRejected";

/** A group as kubectl's users know it: its priority bound and its period. */
function groupText(priority: number, seconds: number): string {
  const who =
    priority >= SYSTEM_CRITICAL_PRIORITY
      ? `critical pods (priority ≥ ${priority})`
      : `pods of priority ≥ ${priority}`;
  return `${who}: ${fmt(seconds)}s`;
}

const name = (object: string) => object.slice(object.lastIndexOf("/") + 1);

export const SHUTDOWN_PRINTERS: Printers<ShutdownEvents & keyof NodeEventFields> = {
  NodeShutdownStarted: (e) => {
    const groups = e.groups.map(
      (g) =>
        `${groupText(g.priority, g.shutdownGracePeriodSeconds)} (${g.pods} pod${g.pods === 1 ? "" : "s"})`,
    );
    return {
      message: `kubelet on ${e.node}: event NodeShutdown "Shutdown manager detected shutdown event"; it ends its pods by priority, lowest first: ${groups.join(", then ")}`,
      why: "the machine was asked to shut down and the kubelet holds a systemd inhibitor lock (graceful node shutdown, KEP-2000): each group's pods are killed together with the group's period as their grace (or their own terminationGracePeriodSeconds when shorter); the next group starts when they have all ended or the period ran out; an empty group is skipped",
    };
  },

  PodShutDown: (e) => ({
    message: `kubelet on ${e.node} ends ${name(e.object)} for the node's shutdown: phase Failed, reason ${e.reason}: "${e.message}", DisruptionTarget=True (TerminationByKubelet)`,
    why: `it was in the group of ${groupText(e.groupPriority, e.groupSeconds)}, killed with a ${fmt(e.gracePeriodSeconds)}s grace; its containers ${e.signal === "SIGKILL" ? "were SIGKILLed" : "exited after SIGTERM"} after ${fmt(e.exitAfterSeconds)}s. The status manager writes the terminal phase only once no container runs, so the pod stayed Ready until now; a Failed pod is no longer an endpoint, and its controller replaces it`,
  }),

  NodeShutdownDone: (e) => ({
    message: `kubelet on ${e.node} has ended its pods and releases its inhibitor lock: the shutdown goes on`,
    why:
      e.timedOut.length === 0
        ? "every group's pods ended within its period"
        : `the period of the group${e.timedOut.length === 1 ? "" : "s"} of priority ≥ ${e.timedOut.join(", ")} ran out before all its pods ended: the manager moved on without them`,
  }),

  PodRejected: (e) => ({
    message: `kubelet on ${e.node} rejects ${name(e.object)}: phase Failed, reason ${e.reason}: "${e.message}"`,
    why: `the node is shutting down, and its kubelet admits no new pod meanwhile, even one already bound here (the shutdown manager's Admit)${
      e.controller
        ? `; its controller creates another, which lands here again when it tolerates the node's taints: a real cluster piles up NodeShutdown pods at the pace of its API calls, which faultline does not model, so ${e.controller}'s next pods here stay bound and not started until the node goes`
        : ""
    }`,
  }),
};
