// The container runtime's side of one pod: each container and its current instance (ID, running,
// started, exit), the containerStatuses the kubelet reports from them, and how a kill or a
// deletion ends: SIGTERM, then SIGKILL when the grace period runs out
// (pkg/kubelet/kuberuntime/kuberuntime_container.go killContainer, setTerminationGracePeriod).

import type { Timer } from "../engine/engine.ts";
import { DEFAULT_TERMINATION_GRACE_PERIOD, MINIMUM_GRACE_PERIOD } from "../kubernetes/defaults.ts";
import type { Container, ContainerStatus, Pod } from "../kubernetes/objects.ts";
import type { Behaviour } from "../scenario/types.ts";
import type { AppProcess } from "./app.ts";
import {
  type ContainerView,
  PROBE_TYPES,
  type ProbeType,
  type ProbeWorker,
  type ResolvedProbe,
  resolveProbe,
} from "./prober.ts";

/** Exit codes of a killed process: 128 + SIGTERM (15) when it exits in the grace period, 128 + SIGKILL (9) after. */
export const EXIT_SIGTERM = 143;
export const EXIT_SIGKILL = 137;
/** A crash with no behaviour.exitCode: a generic failure. */
export const DEFAULT_CRASH_EXIT_CODE = 1;

/** One container of the pod and its current instance. */
export class ContainerRun implements ContainerView, AppProcess {
  /** container ID: a new one per start; 0 before the first */
  id = 0;
  running = false;
  startedAt = Number.NaN;
  started = false;
  /** the status manager's view: running, started, readiness passed (or no readiness probe) */
  ready = false;
  /** the process hangs (deadlock): health checks time out, requests hang */
  hung = false;
  killing = false;
  restartCount = 0;
  /** FinishedAt of the last exited instance (doBackOff's eventTime) */
  finishedAt: number | undefined;
  exitCode: number | undefined;
  /** the pod worker's retry while the container waits out its CrashLoopBackOff */
  waitingTimer: Timer | undefined;
  /** behaviour.exitAfterSeconds: the process's own exit, counted from its start */
  exitTimer: Timer | undefined;
  /** the pod has been given up: restartPolicy says no restart */
  done = false;
  workers = new Map<ProbeType, ProbeWorker>();
  readonly probes: ResolvedProbe[];

  constructor(
    readonly spec: Container,
    readonly behaviour: Behaviour,
  ) {
    this.probes = PROBE_TYPES.flatMap((type) => {
      const p = spec[`${type}Probe`];
      return p ? [resolveProbe(type, p)] : [];
    });
  }

  get name(): string {
    return this.spec.name;
  }
}

/** Update the container's entry in pod.status.containerStatuses (added in the spec's order). */
export function writeContainerStatus(
  pod: Pod,
  containers: readonly ContainerRun[],
  c: ContainerRun,
  patch: Partial<ContainerStatus>,
): void {
  const statuses = pod.status.containerStatuses;
  let s = statuses.find((x) => x.name === c.name);
  if (!s) {
    s = { name: c.name, ready: false, started: false, restartCount: 0, state: "waiting" };
    statuses.push(s);
    statuses.sort(
      (a, b) =>
        containers.findIndex((x) => x.name === a.name) - containers.findIndex((x) => x.name === b.name),
    );
  }
  s.restartCount = c.restartCount;
  s.ready = c.ready;
  s.started = c.started;
  delete s.reason;
  delete s.exitCode;
  Object.assign(s, patch);
}

/**
 * The grace period of a kill for a failed probe: the probe's terminationGracePeriodSeconds, else
 * the pod's (setTerminationGracePeriod, GA 1.28), never below minimumGracePeriodInSeconds (2s).
 */
export function probeKillGracePeriod(
  pod: Pod,
  probe: ResolvedProbe,
): { grace: number; from: "probe" | "pod" } {
  const grace = Math.max(
    MINIMUM_GRACE_PERIOD,
    probe.terminationGracePeriodSeconds ??
      pod.spec.terminationGracePeriodSeconds ??
      DEFAULT_TERMINATION_GRACE_PERIOD,
  );
  return { grace, from: probe.terminationGracePeriodSeconds !== undefined ? "probe" : "pod" };
}

/** The grace period of a deletion: the pod's deletionGracePeriodSeconds, never below 2s. */
export function deletionGracePeriod(pod: Pod): number {
  return Math.max(
    MINIMUM_GRACE_PERIOD,
    pod.metadata.deletionGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD,
  );
}

/**
 * Seconds from SIGTERM to the process's exit: its shutdownSeconds within the grace period; a hung
 * process never completes its shutdown, so SIGKILL ends it when the grace period runs out.
 */
export function exitAfterSigterm(hung: boolean, shutdownSeconds: number | undefined, grace: number): number {
  return hung ? grace : Math.min(shutdownSeconds ?? 0, grace);
}
