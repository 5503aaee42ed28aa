// The prose for the events of trace/node-events.ts (the kubelet's Lease and node status, its pods'
// containers, probes and restarts), and for the kubelet's variants of PodReady, PodNotReady and
// PodDeleted, which the control-plane printers delegate to.

import {
  CRASH_LOOP_BACKOFF_RESET,
  LEASE_RENEW_JITTER,
  MAX_WAIT_FOR_CONTAINER_RUNTIME,
  NODE_LEASE_RENEW_INTERVAL_FRACTION,
  PLEG_RELIST_THRESHOLD,
  RUNTIME_UP_PERIOD,
} from "../../kubernetes/defaults.ts";
import { printNodeRow, printPodRow } from "../../kubernetes/kubectl.ts";
import type { EventOf } from "../../trace/events.ts";
import { fmt, round3 } from "../../trace/format.ts";
import type {
  ExitCause,
  KubeletPodDeletedFields,
  KubeletPodReadyFields,
  KubeletStart,
  NodeEventFields,
  NodeReadyCause,
  PreStopRun,
  ProbeType,
  RuntimeErrors,
} from "../../trace/node-events.ts";
import type { Printers, Prose } from "./prose.ts";
import { SHUTDOWN_PRINTERS } from "./shutdown.ts";
import { timelineWhy } from "./timeline.ts";

/** `Pod/<ns>/<name>` → `<name>` */
function nameOf(object: string): string {
  return object.slice(object.lastIndexOf("/") + 1);
}

/** `Pod/<ns>/<name>` → `<ns>` */
function namespaceOf(object: string): string {
  return object.split("/")[1] ?? "";
}

function started(after: KubeletStart): string {
  return after === "boot" ? "the machine booted and its kubelet started" : "the kubelet started again";
}

/** Why the kubelet posted its Ready condition now (tryUpdateNodeStatus). */
function nodeStatusWhy(e: NodeReadyCause): string {
  switch (e.cause) {
    case "network-healed":
      return `its status loop (nodeStatusUpdateFrequency=${fmt(e.nodeStatusUpdateFrequency)}s) runs again after the network healed`;
    case "status-differs":
      return `its status loop (every nodeStatusUpdateFrequency=${fmt(e.nodeStatusUpdateFrequency)}s) finds the Node's conditions differ from its own (the node controller changed them while this kubelet was fine) and patches them at once, not waiting for nodeStatusReportFrequency`;
    case "runtime":
      return `its status loop (every nodeStatusUpdateFrequency=${fmt(e.nodeStatusUpdateFrequency)}s) posts the change at its next run`;
    case "volumes-in-use":
      return `its status loop (every nodeStatusUpdateFrequency=${fmt(e.nodeStatusUpdateFrequency)}s) posts the volumes in use that changed at its next run, with the conditions as they are`;
    case "status-report":
      return `nodeStatusReportFrequency=${e.nodeStatusReportFrequency}s: the kubelet re-posts an unchanged status this often`;
    case "node-shutdown":
      return "its node shutdown manager posts the status at once on the shutdown event (syncNodeStatus)";
    default:
      return `${started(e.cause)}; fastStatusUpdateOnce posts the node status at start-up`;
  }
}

/** What runtimeErrors says, and since when (pkg/kubelet/runtime.go, pleg/generic.go). */
function runtimeErrorsWhy(errors: RuntimeErrors, t: number): string {
  const parts: string[] = [];
  if (errors.shuttingDown)
    parts.push("the node is shutting down: its kubelet's shutdown manager reports it in the Ready condition");
  if (errors.lastRuntimeSync !== undefined)
    parts.push(
      `the container runtime has not answered the kubelet's status check (every ${RUNTIME_UP_PERIOD}s) for ${fmt(round3(t - errors.lastRuntimeSync))}s, past maxWaitForContainerRuntime=${MAX_WAIT_FOR_CONTAINER_RUNTIME}s`,
    );
  else if (errors.message.includes("container runtime status check"))
    parts.push("the kubelet started while the container runtime is down: its status check never succeeded");
  if (errors.pleg)
    parts.push(
      errors.pleg.lastRelist === undefined
        ? "the PLEG never relisted since the kubelet started"
        : `the PLEG has not relisted for more than relistThreshold=${PLEG_RELIST_THRESHOLD / 60}m`,
    );
  if (errors.shuttingDown && parts.length === 1) return parts[0]!;
  return `${parts.join("; ")}; syncLoop skips pod synchronization meanwhile: no container is started, restarted or stopped here, but those running keep running`;
}

/** What stopped the container, as the restart decision's "why" opens. */
function exitText(exit: ExitCause): string {
  switch (exit.kind) {
    case "probe":
      return `its ${exit.probe} probe failed`;
    case "exit":
      return `it exited with code ${exit.exitCode}`;
    case "kubelet-restart":
      return "the kubelet started again and finds it exited";
  }
}

/** How the probe is run, as every probe event's "why" opens. */
function checkText(e: {
  probe: ProbeType;
  periodSeconds: number;
  schedule: "kubernetes" | "period-end";
}): string {
  return e.schedule === "period-end"
    ? `the ${e.probe} probe checks at the end of each periodSeconds=${e.periodSeconds} (probeSchedule: period-end)`
    : `the ${e.probe} probe worker checks every periodSeconds=${e.periodSeconds} on its own ticker${
        e.probe === "readiness" ? ", and at once on each pod sync while not ready" : ""
      }`;
}

function cap(s: string): string {
  return s[0]!.toUpperCase() + s.slice(1);
}

/** PodTerminated's prose, before the sidecars' stop order. */
function podTerminated(e: EventOf<"PodTerminated">): Prose {
  const hook = e.preStop;
  const sigterm = hook ? hook.ranSeconds : 0;
  const grace = hook
    ? `the ${hook.graceLeftSeconds}s its preStop hook (${hook.describe}, ${fmt(hook.ranSeconds)}s) left of terminationGracePeriodSeconds=${e.terminationGracePeriodSeconds}`
    : `terminationGracePeriodSeconds=${e.terminationGracePeriodSeconds}`;
  if (e.ownExit)
    return {
      message: `${nameOf(e.object)}'s containers are gone, ${fmt(e.exitAfterSeconds)}s into their kill`,
      why: `the process exited by itself during its kill, before ${grace} ran out: the kill ends with it`,
    };
  return {
    message: `${nameOf(e.object)}'s containers exit after ${hook ? "their preStop hook and " : ""}SIGTERM`,
    why:
      e.signal === "SIGTERM"
        ? `the process exits ${fmt(e.exitAfterSeconds - sigterm)}s after SIGTERM (behaviour shutdownSeconds), within ${grace}`
        : `${grace} ran out: SIGKILL`,
  };
}

function startWhy(e: EventOf<"ContainerStarted">): string {
  switch (e.start) {
    case "scheduled":
      return "the pod was bound here; sandbox and container start take ~2s";
    case "rebooted":
      return `the pod is still bound to ${e.node} and its containers are not running (restartPolicy ${e.restartPolicy})`;
    case "restart":
      if (e.backOff === "disabled")
        return `${exitText(e.exit)}; restartPolicy ${e.restartPolicy}, and this kubelet restarts without back-off (crashLoopBackOff: false)`;
      return `${exitText(e.exit)}; restartPolicy ${e.restartPolicy}: ${
        e.backOff === "no-exit"
          ? "the sync that kills it also starts it again, with the pod status read before the kill, where no instance has exited yet: the restart is immediate and the back-off records nothing (doBackOff)"
          : e.backOff === "first"
            ? "the first restart is immediate (CrashLoopBackOff starts with the next exit)"
            : e.backOff === "reset"
              ? "it ran more than 10 minutes since its last restart, so the back-off was reset and the restart is immediate"
              : "the back-off since its last exit has passed"
      }`;
    case "back-off-expired":
      return `${exitText(e.exit)}; the CrashLoopBackOff delay of ${e.delaySeconds}s since it exited has passed`;
    case "init-next":
      return e.sidecar
        ? `sidecar ${e.after} has started (restartPolicy: Always; the next init container waits only for its start)`
        : `init container ${e.after} completed; init containers run one at a time, in order`;
    case "initialized":
      return `every init container completed${
        e.sidecars > 0 ? ` and its ${e.sidecars} sidecar${e.sidecars === 1 ? "" : "s"} started` : ""
      }: the pod is Initialized and its app containers start`;
  }
}

/** "init container" or "sidecar" before the container's name, for the events of either. */
function roleText(e: { role?: "init" | "sidecar" }): string {
  return e.role === "init" ? "init container" : e.role === "sidecar" ? "sidecar" : "container";
}

/** Where the hook's duration comes from. */
function preStopTime(h: PreStopRun): string {
  switch (h.from) {
    case "sleep-action":
      return `the sleep action sleeps ${h.seconds}s`;
    case "exec-sleep":
      return `its command sleeps ${fmt(h.seconds)}s`;
    case "behaviour":
      return `it takes ${fmt(h.seconds)}s (behaviour preStopSeconds)`;
    case "instant":
      return h.handler === "exec"
        ? "its command has no sleep, so it is taken to end at once (set behaviour preStopSeconds if it takes longer)"
        : "the app answers at once (set behaviour preStopSeconds if it takes longer)";
    case "hung":
      return "the process hangs and never answers it";
    case "unsupported":
      return "tcpSocket is no handler the kubelet runs: the hook fails at once (FailedPreStopHook)";
  }
}

function probeFinding(e: EventOf<"ProbeFailed">): string {
  switch (e.finding) {
    case "timeout":
      return `the process hangs: no answer within timeoutSeconds=${e.timeoutSeconds}`;
    case "booting":
      return `nothing answers yet: the app boots in ${e.bootSeconds}s (behaviour bootSeconds) and has run ${fmt(e.upSeconds)}s`;
    case "dependency-down":
      return "a dependency is down, so the readiness endpoint reports failure";
    case "not-ready-yet":
      return `the app is not ready until ${e.readyAfterSeconds}s after its start (behaviour readyAfterSeconds)`;
  }
}

export const NODE_PRINTERS: Printers<keyof NodeEventFields> = {
  LeaseRenewed: (e) => ({
    message: `kubelet on ${e.node} renews its Lease`,
    why: `every nodeLeaseDurationSeconds × ${NODE_LEASE_RENEW_INTERVAL_FRACTION} = ${fmt(e.renewIntervalSeconds)}s, plus up to ${Math.round(LEASE_RENEW_JITTER * 100)}% jitter`,
  }),

  NodeRegistered: (e) => ({
    message: `kubelet registers node ${e.node} with the API server`,
    why: `${started(e.after)}; the Node object no longer existed, so the kubelet registers it (registerNode, default true)`,
  }),

  ...SHUTDOWN_PRINTERS,

  NodeReady: (e) => ({
    message: `kubelet on ${e.node} posts Ready=True (KubeletReady: kubelet is posting ready status)`,
    why: nodeStatusWhy(e),
    see: printNodeRow(e.nodeRow),
  }),

  KubeletNodeNotReady: (e) => ({
    message: `kubelet on ${e.node} posts Ready=False (KubeletNotReady: "${e.errors.message}")`,
    why: `${runtimeErrorsWhy(e.errors, e.t)}; ${nodeStatusWhy(e)}. Its Lease is still renewed, so the node controller never marks the pods not ready: they stay Ready endpoints while their containers run (issue #125618); the not-ready taints follow`,
    see: printNodeRow(e.nodeRow),
  }),

  PodTerminated: (e) => {
    const p = podTerminated(e);
    if (!e.stopOrder) return p;
    const order = e.stopOrder
      .map((s) => `${s.container} ${fmt(s.exitAfterSeconds)}s${s.signal === "SIGKILL" ? " (SIGKILL)" : ""}`)
      .join(", ");
    // The last container to exit is a sidecar whose SIGTERM came late: say the order, not its delay.
    return {
      message: p.message,
      why: `each sidecar's SIGTERM waits for the app containers and the sidecar declared after it, within terminationGracePeriodSeconds=${e.terminationGracePeriodSeconds} (kubelet termination ordering, KEP-753); seconds from the kill's start to each exit: ${order}`,
    };
  },

  PreStopHookDone: (e) => {
    const h = e.preStop;
    const cut = h.ranSeconds < h.seconds || h.from === "hung";
    return {
      message: `${nameOf(e.object)}: ${h.container}'s preStop hook (${h.describe}) ${cut ? "is cut short" : "ends"} after ${fmt(h.ranSeconds)}s; SIGTERM follows, ${h.graceLeftSeconds}s before SIGKILL`,
      why: `${
        e.kill === "deletion" ? "the pod is being deleted" : "its probe failed"
      }: the kubelet runs the preStop hook before SIGTERM, inside terminationGracePeriodSeconds=${e.terminationGracePeriodSeconds}, and the process serves meanwhile; ${preStopTime(h)}${
        cut ? "; the kubelet waits for a hook at most the grace period" : ""
      }; what is left, in whole seconds, and at least 2s, is SIGTERM's grace (killContainer)`,
    };
  },

  PodRunsTwice: (e) => ({
    message: e.sameIdentity
      ? `${e.replacement} now runs twice: the replacement on ${e.replacementNode} and the old copy on ${e.node}, which nobody can stop`
      : `${nameOf(e.object)} still runs on ${e.node} while its replacement ${e.replacement} runs on ${e.replacementNode}: ${e.copies} copies of ${e.owner.split("/").pop()} run`,
    why: `${e.node}'s containers keep running while its kubelet cannot reach the API server; nothing stops them until it does`,
  }),

  ContainerStarted: (e) => ({
    message:
      e.restartCount > 0 && e.start !== "scheduled"
        ? `kubelet on ${e.node} restarts ${roleText(e)} ${e.container} of ${nameOf(e.object)} in place (restartCount ${e.restartCount})`
        : `kubelet on ${e.node} starts ${roleText(e)} ${e.container} of ${nameOf(e.object)}`,
    why: startWhy(e),
    see: printPodRow(e.podRow),
  }),

  ContainerExited: (e) => ({
    message: `${roleText(e)} ${e.container} of ${nameOf(e.object)} exits with code ${e.exitCode}`,
    why:
      e.cause === "crash"
        ? `${timelineWhy(e.step)}: the process exits`
        : e.cause === "exit-after"
          ? `the process exits by itself ${fmt(e.exitAfterSeconds)}s after each start (behaviour exitAfterSeconds)`
          : e.cause === "init-run"
            ? `it runs to its end ${fmt(e.runSeconds)}s after its start (${e.set ? "behaviour exitAfterSeconds" : "no behaviour exitAfterSeconds: at once"}); ${
                e.exitCode === 0
                  ? "exit code 0 completes it"
                  : "a non-zero exit fails it: restarted with the back-off, or the pod fails under restartPolicy Never"
              }`
            : `killed after its ${e.probe} probe failed`,
    see: printPodRow(e.podRow),
  }),

  ContainerKilled: (e): Prose => {
    const pod = nameOf(e.object);
    if (e.cause === "orphan")
      return {
        message: `kubelet on ${e.node} stops the containers of ${pod}, whose pod object no longer exists`,
        why: "the kubelet reached the API again and cleans up pods it should no longer run (HandlePodCleanups)",
      };
    const failed =
      e.probe === "startup"
        ? `startup failed ${e.failureThreshold}× in a row, periodSeconds=${e.periodSeconds}, failureThreshold=${e.failureThreshold}: the boot budget of ${e.initialDelaySeconds + e.periodSeconds * e.failureThreshold}s ran out`
        : `${e.probe} failed ${e.failureThreshold}× in a row, periodSeconds=${e.periodSeconds}, failureThreshold=${e.failureThreshold}`;
    const grace =
      e.gracePeriodFrom === "probe"
        ? `the probe's terminationGracePeriodSeconds=${e.terminationGracePeriodSeconds}`
        : `terminationGracePeriodSeconds=${e.terminationGracePeriodSeconds}`;
    const ns = namespaceOf(e.object);
    return {
      message: `kubelet on ${e.node} kills container ${e.container} of ${pod}: Container ${e.container} failed ${e.probe} probe, will be restarted`,
      why: `${failed}; ${e.preStop ? `its preStop hook (${e.preStop.describe}) first, ` : ""}SIGTERM, then SIGKILL after ${e.preStop ? `what the hook leaves of ${grace}` : grace}${e.hung ? " (a hung process never finishes its shutdown)" : ""}`,
      see: `$ kubectl describe pod ${pod}${ns === "default" ? "" : ` -n ${ns}`}\n  Warning  Unhealthy  kubelet  ${cap(e.probe)} probe failed: ${
        // The prober's output for the check that failed (pkg/probe/http: a timeout is the client's
        // deadline; a dead listener refuses): a timeout whether the process hangs or answers too late.
        e.hung || e.timedOut
          ? "context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
          : "connection refused"
      }\n  Normal   Killing    kubelet  Container ${e.container} failed ${e.probe} probe, will be restarted`,
    };
  },

  ProbeFailed: (e) => ({
    message: `${nameOf(e.object)}: ${e.container}'s ${e.probe} probe fails (${e.consecutive} of failureThreshold=${e.failureThreshold})`,
    why: `${checkText(e)}; ${probeFinding(e)}`,
  }),

  ProbeSucceeded: (e) => ({
    message:
      e.probe === "startup"
        ? `${nameOf(e.object)}: ${e.container}'s startup probe passes; liveness and readiness begin`
        : `${nameOf(e.object)}: ${e.container}'s ${e.probe} probe passes (${e.handler})`,
    why: `${checkText(e)}; the app answers ${fmt(e.upSeconds)}s after its start${
      e.probe === "readiness" && e.successThreshold > 1
        ? ` (successThreshold=${e.successThreshold}: ${e.consecutive} in a row)`
        : ""
    }`,
  }),

  BackOff: (e) => ({
    message: `Back-off restarting failed container ${e.container} in pod ${nameOf(e.object)}: ${e.delaySeconds}s`,
    why: `${exitText(e.exit)}; it has restarted before within ${CRASH_LOOP_BACKOFF_RESET / 60} minutes, so this restart waits the back-off, now ${e.delaySeconds}s (CrashLoopBackOff: the first restart immediate, then ${e.initialSeconds}s doubling to a ${e.maxSeconds}s cap, reset after ${CRASH_LOOP_BACKOFF_RESET / 60} minutes of running); ${
      e.requeue === "exact"
        ? "the pod worker retries when the back-off expires (≈1.35+, PR #133066)"
        : `the pod worker retries every backOffPeriod=${e.backOffPeriod}s + up to 50% jitter, so the restart comes at the first retry after ${fmt(e.delaySeconds)}s`
    }`,
    see: printPodRow(e.podRow),
  }),
};

function readyWhy(e: KubeletPodReadyFields): string {
  switch (e.cause) {
    case "startup-passed":
      return `${e.container}'s startup probe passed; readiness decides from here`;
    case "readiness-passed":
      return `${e.container}'s readiness probe passed (successThreshold=${e.successThreshold})`;
    case "readiness-failed":
      return `${e.container}'s readiness probe failed ${e.failureThreshold}× in a row (periodSeconds=${e.periodSeconds}, failureThreshold=${e.failureThreshold}); the container keeps running`;
    case "container-exited":
      return `container ${e.container} is not running (exit code ${e.exitCode})`;
    case "containers-ready":
      return e.readinessProbe
        ? "its readiness probe passed"
        : "its containers run and it has no readiness probe, so it is ready as soon as they start";
    case "containers-not-ready":
      return `containers with unready status: [${e.containers.join(" ")}]`;
    case "readiness-gates":
      return `the readiness gate condition ${e.gates.map((g) => `"${g}"`).join(", ")} is not True (spec.readinessGates)`;
    case "status-reconcile":
      return `the node controller had marked it not ready, but this kubelet is fine: its status manager (syncBatch every ${e.syncPeriod}s) finds the API's status differs from its own and writes its own back, the kubelet being the source of truth for pod status (needsReconcile)`;
    case "completed":
      return `restartPolicy ${e.restartPolicy} does not restart ${e.exitedZero ? "containers that exit 0" : "it"}`;
    case "node-shutdown":
      return "the node's graceful shutdown ended it: phase Failed, so not Ready (PodFailed)";
  }
}

/** PodReady / PodNotReady as the kubelet's status manager sets them. */
export function kubeletPodReadyProse(e: EventOf<"PodReady" | "PodNotReady"> & KubeletPodReadyFields): Prose {
  const pod = nameOf(e.object);
  return {
    message:
      e.cause === "completed"
        ? `${pod} is ${e.phase}: its containers will not run again`
        : e.type === "PodReady"
          ? `${pod} is Ready`
          : `${pod} is not Ready`,
    why: readyWhy(e),
    ...(e.podRow ? { see: printPodRow(e.podRow) } : {}),
  };
}

/** PodDeleted when the kubelet's final delete removes the pod object. */
export function kubeletPodDeletedProse(e: EventOf<"PodDeleted"> & KubeletPodDeletedFields): Prose {
  const pod = nameOf(e.object);
  return e.cause === "not-running"
    ? {
        message: `kubelet on ${e.node} confirms ${pod} is gone; the API removes the pod`,
        why: "the pod was marked for deletion and none of its containers run here any more",
      }
    : {
        message: `kubelet on ${e.node} confirms ${pod} stopped; the API removes the pod`,
        why: "its containers have exited, so the kubelet completes the graceful deletion",
      };
}
