// Events of the nodes themselves: the kubelet's Lease and node status, its pods' containers, probes
// and restarts. Fields only: the cause, the flag or field and its value that set the moment, the
// objects involved (the pod's owner), and the columns kubectl would print then; the prose is
// written from them by report/messages/node.ts.

import type { NodeRow, PodRow } from "../kubernetes/kubectl.ts";
import type { TimelineStepRef } from "./timeline-events.ts";

/** Why the kubelet process (re)started: the machine booted, or only the kubelet restarted. */
export type KubeletStart = "boot" | "kubelet-restart";

export type ProbeType = "startup" | "liveness" | "readiness";

/**
 * Fields every event about one pod's containers carries: the pod's workload as the JSON names
 * owners (`Deployment/<ns>/<name>`, `StatefulSet/…`), absent for a bare Pod.
 */
interface PodEvent {
  owner?: string;
}

/**
 * Why a container stopped, as the kubelet's restart decision names it (computePodActions): a probe
 * that failed and had it killed, an exit of its own, or an exited container a new kubelet process
 * finds.
 */
export type ExitCause =
  | { kind: "probe"; probe: ProbeType }
  | { kind: "exit"; exitCode: number }
  | { kind: "kubelet-restart" };

/**
 * Why a process exits by itself: the timeline's `crash` step, or its behaviour.exitAfterSeconds
 * counted from each start.
 */
export type OwnExit =
  | { cause: "crash"; step: TimelineStepRef }
  | { cause: "exit-after"; exitAfterSeconds: number }
  /** an init container ran to its end: behaviour exitAfterSeconds (`set`), else at once */
  | { cause: "init-run"; runSeconds: number; set: boolean };

/** How a container comes to start (or start again, in place). */
export type StartCause =
  /** the pod was bound to this node; sandbox and containers start */
  | { start: "scheduled" }
  /** the machine came back with the pod still bound to it */
  | { start: "rebooted"; restartPolicy: string }
  /** computePodActions restarts it at once: the first restart, a back-off that expired, or none at all */
  | {
      start: "restart";
      exit: ExitCause;
      restartPolicy: string;
      /**
       * doBackOff: no exited instance in the pod status it reads (no-exit: nothing recorded), no entry
       * yet (first), an entry older than 10 minutes (reset), its delay passed, or CrashLoopBackOff off
       */
      backOff: "no-exit" | "first" | "reset" | "passed" | "disabled";
    }
  /** the pod worker's retry after ErrCrashLoopBackOff finds the back-off over */
  | { start: "back-off-expired"; exit: ExitCause; delaySeconds: number }
  /** computeInitContainerActions: the init container before it completed, or the sidecar before it started */
  | { start: "init-next"; after: string; sidecar: boolean }
  /** every init container completed and every sidecar started: the app containers start */
  | { start: "initialized"; initContainers: number; sidecars: number };

/** An init container (runs to completion) or a sidecar (restartPolicy: Always); absent for an app container. */
export interface ContainerRoleField {
  role?: "init" | "sidecar";
}

/**
 * A container's preStop hook as a kill ran it (kuberuntime_container.go killContainer,
 * executePreStopHook): how long it takes left alone and where faultline took that from (the sleep
 * action's seconds; an exec hook's `sleep N`; behaviour preStopSeconds; at once: an exec without a
 * sleep, an httpGet answered at once; a hung process never answering an httpGet; tcpSocket, which
 * the kubelet does not run), how long it ran (at most the grace period) and the grace period left
 * for SIGTERM after it (at least minimumGracePeriodInSeconds).
 */
export interface PreStopRun {
  container: string;
  handler: "sleep" | "exec" | "httpGet" | "tcpSocket";
  /** the handler as written: `sleep 5s`, `exec sh -c sleep 10`, `httpGet :8080/drain` */
  describe: string;
  from: "sleep-action" | "exec-sleep" | "behaviour" | "instant" | "hung" | "unsupported";
  seconds: number;
  ranSeconds: number;
  graceLeftSeconds: number;
}

/** Why the kubelet kills a running container. */
export type KillCause =
  /** the pod object is gone (HandlePodCleanups) */
  | { cause: "orphan"; probe?: undefined }
  /** computePodActions: the probe's result is Failure */
  | {
      cause: "probe";
      probe: ProbeType;
      periodSeconds: number;
      failureThreshold: number;
      initialDelaySeconds: number;
      terminationGracePeriodSeconds: number;
      /** whose terminationGracePeriodSeconds applies: the probe's own, or the pod's */
      gracePeriodFrom: "probe" | "pod";
      /** the process hangs: no answer (a timeout), and it never finishes its shutdown */
      hung: boolean;
      /** the failed check that reached failureThreshold found no answer within timeoutSeconds */
      timedOut?: true;
      /** the preStop hook runs first, inside the grace period */
      preStop?: PreStopRun;
    };

/** What a failed check found. */
export type ProbeFinding =
  /** no answer within the probe's timeoutSeconds (a hung process, or a queue ahead of the check) */
  | { finding: "timeout"; timeoutSeconds: number }
  /** nothing listens yet: the app has run `upSeconds` of its `bootSeconds` */
  | { finding: "booting"; bootSeconds: number; upSeconds: number }
  /** the readiness endpoint reports a dependency down */
  | { finding: "dependency-down" }
  /** the app is not ready until readyAfterSeconds after its start */
  | { finding: "not-ready-yet"; readyAfterSeconds: number | undefined };

/** How one probe is run: its period, and which prober (the real kubelet's ticker, or the seed's toy). */
interface ProbeRun {
  container: string;
  probe: ProbeType;
  periodSeconds: number;
  /** kubelet setting probeSchedule */
  schedule: "kubernetes" | "period-end";
}

/** Why the kubelet's status manager set the pod's Ready condition (generateAPIPodStatus). */
export type KubeletReadyCause =
  /** the startup probe of `container` passed (Started) */
  | { cause: "startup-passed"; container: string }
  /** the readiness result of `container` turned Success after successThreshold checks */
  | { cause: "readiness-passed"; container: string; successThreshold: number }
  /** the readiness result of `container` turned Failure after failureThreshold checks */
  | { cause: "readiness-failed"; container: string; failureThreshold: number; periodSeconds: number }
  /** `container` is not running any more */
  | { cause: "container-exited"; container: string; exitCode: number }
  /** every container runs and passes readiness */
  | { cause: "containers-ready"; readinessProbe: boolean }
  /** containers with unready status */
  | { cause: "containers-not-ready"; containers: string[] }
  /** spec.readinessGates conditions that are not True */
  | { cause: "readiness-gates"; gates: string[] }
  /** the API's Ready was written by someone else (MarkPodsNotReady): the status manager writes its own back */
  | { cause: "status-reconcile"; syncPeriod: number }
  /** no container will run again (phase Succeeded or Failed) */
  | { cause: "completed"; phase: string; restartPolicy: string; exitedZero: boolean }
  /** the node's graceful shutdown ended the pod (phase Failed, reason Terminated) */
  | { cause: "node-shutdown" };

/** Why the status loop runs early: after the network healed, on a Node someone else changed, on the runtime's news. */
export type NodeStatusLoopCause =
  | { cause: "network-healed" }
  /** the API's conditions differ from the kubelet's (the node controller's Unknown while it was fine) */
  | { cause: "status-differs" }
  /** the container runtime's errors began or cleared (runtime-state.ts) */
  | { cause: "runtime" }
  /** the volumes mounted here changed (the VolumesInUse setter): the loop's next run patches them */
  | { cause: "volumes-in-use" };

/**
 * Why the kubelet posts a changed Ready condition: it started (fastStatusUpdateOnce), a run of its
 * status loop found a change, or the periodic report of an unchanged status.
 */
export type NodeReadyCause =
  | { cause: KubeletStart }
  | (NodeStatusLoopCause & { nodeStatusUpdateFrequency: number })
  | { cause: "status-report"; nodeStatusReportFrequency: number }
  /** the node shutdown manager syncs the node status at once on the shutdown event */
  | { cause: "node-shutdown" };

/** runtimeState.runtimeErrors (pkg/kubelet/runtime.go), as the kubelet's Ready=False carries them. */
export interface RuntimeErrors {
  /** the aggregated message (utilerrors.NewAggregate: one error as is, several as "[a, b]") */
  message: string;
  /** when updateRuntimeUp last reached the runtime; absent: not since this kubelet process started */
  lastRuntimeSync?: number;
  /** the PLEG health check fails: when it last relisted (absent: never since the kubelet started) */
  pleg?: { lastRelist?: number };
  /** the node shutdown manager's ShutdownStatus: "node is shutting down" (KEP-2000) */
  shuttingDown?: true;
}

/**
 * The kubelet's side of events the API server records for any component (cluster/api.ts):
 * PodReady / PodNotReady (the status manager), PodDeleted (the final delete after termination).
 * control-plane-events.ts unions them in under `by: "kubelet"` (the API server adds the pod's row);
 * report/messages/node.ts prints them (kubeletPodReadyProse, kubeletPodDeletedProse).
 */
export type KubeletPodReadyFields = {
  by: "kubelet";
  owner?: string;
  /** the Ready condition's reason when False: ContainersNotReady, ReadinessGatesNotReady or PodCompleted (pkg/kubelet/status/generate.go) */
  reason?: string;
} & KubeletReadyCause;
export type KubeletPodDeletedFields = {
  by: "kubelet";
  /** the pod was marked for deletion and nothing of it ran here any more, or its containers just exited */
  cause: "not-running" | "containers-exited";
};

export interface NodeEventFields {
  /** The lease controller renewed the node's Lease (renewInterval = nodeLeaseDurationSeconds × 0.25). */
  LeaseRenewed: { nodeLeaseDurationSeconds: number; renewIntervalSeconds: number };
  /** The kubelet created its Node object again (registerNode). */
  NodeRegistered: { after: KubeletStart };
  /**
   * Graceful node shutdown (KEP-2000) ended the pod once its containers were gone: phase Failed,
   * its reason and message, DisruptionTarget=True (TerminationByKubelet) (kubelet/pod-end.ts).
   */
  PodShutDown: PodEvent & {
    reason: string;
    message: string;
    /** the kill's gracePeriodOverride: the group's period, or the pod's terminationGracePeriodSeconds when shorter */
    gracePeriodSeconds: number;
    /** the priority group it was in: its lower bound and its shutdownGracePeriodSeconds */
    groupPriority: number;
    groupSeconds: number;
    signal: "SIGTERM" | "SIGKILL";
    exitAfterSeconds: number;
  };
  /**
   * The kubelet's node shutdown manager saw the shutdown event (event NodeShutdown "Shutdown manager
   * detected shutdown event"): the priority groups it ends the pods by, low priority first.
   */
  NodeShutdownStarted: {
    groups: { priority: number; shutdownGracePeriodSeconds: number; pods: number }[];
  };
  /** Every group ended (or ran out of time): the kubelet releases its inhibit lock, and the machine powers off. */
  NodeShutdownDone: { timedOut: number[] };
  /** Admit refused a pod bound here while the node shuts down (kubelet.go rejectPod: phase Failed). */
  PodRejected: {
    reason: string;
    message: string;
    /** the pod's controller (`<Kind>/<ns>/<name>`): its next pods here are left bound, not rejected (kubelet-shutdown.ts) */
    controller?: string;
  };
  /** The kubelet posted Ready=True where the API had something else. */
  NodeReady: { nodeRow: NodeRow } & NodeReadyCause;
  /** The kubelet posted Ready=False (KubeletNotReady) with its runtime's errors; its Lease is still renewed. */
  KubeletNodeNotReady: { nodeRow: NodeRow; errors: RuntimeErrors } & NodeReadyCause;
  /** The pod's containers exited after SIGTERM, or were killed when the grace period ran out. */
  PodTerminated: PodEvent & {
    signal: "SIGTERM" | "SIGKILL";
    /** the container that ended last exited by itself during its kill (a crash, exitAfterSeconds): no signal ended it */
    ownExit?: true;
    /** seconds from the kill's start (SIGTERM, or the preStop hook before it) to the exit */
    exitAfterSeconds: number;
    terminationGracePeriodSeconds: number;
    /** the preStop hook of the container that exited last, run before its SIGTERM */
    preStop?: PreStopRun;
    /**
     * a pod with sidecars: each container's exit in the order they ended, seconds from the kill's
     * start (kuberuntime_termination_order.go: the sidecars after the app containers, in reverse order)
     */
    stopOrder?: {
      container: string;
      sidecar: boolean;
      exitAfterSeconds: number;
      signal: "SIGTERM" | "SIGKILL";
    }[];
  };
  /** A container's preStop hook ended (or ran out of grace period): SIGTERM follows. */
  PreStopHookDone: PodEvent & {
    preStop: PreStopRun;
    /** the kill it is part of: the pod's deletion, or a failed probe */
    kill: "deletion" | "probe";
    terminationGracePeriodSeconds: number;
  };
  /** A replacement runs while the old copy still runs on a node nobody can reach. */
  PodRunsTwice: {
    copies: number;
    owner: string;
    /** a StatefulSet: two members with one identity */
    sameIdentity: boolean;
    replacement: string;
    replacementNode: string;
  };
  ContainerStarted: PodEvent &
    ContainerRoleField & { container: string; restartCount: number; podRow: PodRow } & StartCause;
  ContainerExited: PodEvent &
    ContainerRoleField & { container: string; exitCode: number; podRow: PodRow } & (
      | OwnExit
      | { cause: "probe-kill"; probe: ProbeType }
    );
  ContainerKilled: PodEvent & { container: string } & KillCause;
  ProbeFailed: PodEvent &
    ProbeRun & {
      /** checks in a row that failed */
      consecutive: number;
      failureThreshold: number;
    } & ProbeFinding;
  ProbeSucceeded: PodEvent &
    ProbeRun & {
      /** the handler as written: `httpGet :8000/healthz` */
      handler: string;
      /** seconds since the container started */
      upSeconds: number;
      consecutive: number;
      successThreshold: number;
    };
  /** ErrCrashLoopBackOff: the restart waits. */
  BackOff: PodEvent & {
    container: string;
    delaySeconds: number;
    exit: ExitCause;
    /** the back-off's first delay and cap (newCrashLoopBackOff) */
    initialSeconds: number;
    maxSeconds: number;
    /** when the pod worker retries: when the back-off expires (≈1.35+), or every backOffPeriod + jitter */
    requeue: "exact" | "period";
    backOffPeriod: number;
    podRow: PodRow;
  };
}
