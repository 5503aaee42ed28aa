// The kubelet's graceful node shutdown (KEP-2000; KEP-2712 for the priority groups), as
// pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go does it (read at kubernetes/kubernetes
// 0239cd73, the same logic since 1.24):
// - NewManager: the groups are shutdownGracePeriodByPodPriority when given (the
//   GracefulNodeShutdownBasedOnPodPriority gate, beta and on since 1.24), else migrateConfig's two:
//   priority 0 (DefaultPriorityWhenNoDefaultClassExists) gets shutdownGracePeriod −
//   shutdownGracePeriodCriticalPods, priority 2000000000 (SystemCriticalPriority) the rest; no
//   groups (shutdownGracePeriod 0, the default) means the manager is a stub: "node shutdown will be
//   immediate". Groups are sorted by priority, low to high.
// - On the shutdown event (logind's PrepareForShutdown): the event NodeShutdown "Shutdown manager
//   detected shutdown event", nodeShuttingDownNow, an immediate node status sync (ShutdownStatus
//   is the error "node is shutting down" in the Ready condition's aggregate), and
//   processShutdownEvent: group by group, low priority first, every pod of the group killed at once
//   with gracePeriodOverride = the group's shutdownGracePeriodSeconds, or the pod's own
//   terminationGracePeriodSeconds when that is not longer; the next group starts when all of this
//   one's pods ended or its period ran out, whichever is first; a group with no pods is skipped
//   without waiting. Then the inhibit lock is released and the machine goes on shutting down.
// - groupByPriority: a pod goes to the highest group whose priority is ≤ its own, and to the lowest
//   group when it is below them all.
// - Admit rejects every new pod while shutting down (reason NodeShutdown, "Pod was rejected as the
//   node is shutting down.").

import type { ShutdownGracePeriodByPodPriority } from "../kubernetes/configuration.ts";
import type { ShutdownConfig } from "../kubernetes/defaults.ts";
import {
  DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS,
  SYSTEM_CRITICAL_PRIORITY,
} from "../kubernetes/priority.ts";

/** nodeshutdown_manager_linux.go: the pod's end, and a new pod's rejection, while the node shuts down. */
export const NODE_SHUTDOWN_REASON = "Terminated";
export const NODE_SHUTDOWN_MESSAGE = "Pod was terminated in response to imminent node shutdown.";
export const NODE_SHUTDOWN_NOT_ADMITTED_REASON = "NodeShutdown";
export const NODE_SHUTDOWN_NOT_ADMITTED_MESSAGE = "Pod was rejected as the node is shutting down.";
/** ShutdownStatus's error, which the Ready condition carries (nodestatus/setters.go ReadyCondition). */
export const NODE_SHUTTING_DOWN_ERROR = "node is shutting down";

export type { ShutdownConfig };

/** NewManager: the priority groups, sorted low to high; empty when the shutdown is immediate. */
export function shutdownPeriods(config: ShutdownConfig): ShutdownGracePeriodByPodPriority[] {
  const given = config.shutdownGracePeriodByPodPriority;
  const periods = given.length > 0 ? [...given] : migrateConfig(config);
  return periods.sort((a, b) => a.priority - b.priority);
}

/** migrateConfig: the two groups of shutdownGracePeriod and shutdownGracePeriodCriticalPods. */
function migrateConfig(config: ShutdownConfig): ShutdownGracePeriodByPodPriority[] {
  const all = config.shutdownGracePeriod;
  if (all === 0) return [];
  const normal = all - config.shutdownGracePeriodCriticalPods;
  if (normal < 0) return [];
  return [
    { priority: DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS, shutdownGracePeriodSeconds: normal },
    { priority: SYSTEM_CRITICAL_PRIORITY, shutdownGracePeriodSeconds: all - normal },
  ];
}

export interface ShutdownGroup<P> {
  priority: number;
  shutdownGracePeriodSeconds: number;
  pods: P[];
}

/** groupByPriority: each pod in the highest group at or below its priority (the lowest when below all). */
export function groupByPriority<P>(
  periods: readonly ShutdownGracePeriodByPodPriority[],
  pods: readonly P[],
  priorityOf: (pod: P) => number,
): ShutdownGroup<P>[] {
  const groups = periods.map((p) => ({ ...p, pods: [] as P[] }));
  for (const pod of pods) {
    const priority = priorityOf(pod);
    let index = 0;
    for (let i = 0; i < groups.length; i++) if (groups[i]!.priority <= priority) index = i;
    groups[index]!.pods.push(pod);
  }
  return groups;
}

/** The pod's grace in its group: the group's period, or the pod's own when that is not longer. */
export function shutdownGrace(groupSeconds: number, terminationGracePeriodSeconds: number): number {
  return Math.min(terminationGracePeriodSeconds, groupSeconds);
}

/** What the manager needs of its kubelet and its clock. */
export interface ShutdownHost<P> {
  after(seconds: number, fn: () => void): unknown;
  cancel(timer: unknown): void;
  /** getPods: the pods the kubelet runs (admitted, not terminal) */
  activePods(): P[];
  priorityOf(pod: P): number;
  terminationGracePeriodOf(pod: P): number;
  /** TerminatePodAbnormallyAndWait: kill it with this grace; `ended` once its containers are gone */
  kill(pod: P, grace: number, group: ShutdownGroup<P>, ended: () => void): void;
  /** the group's period ran out before all its pods ended (the manager moves on) */
  timedOut?(group: ShutdownGroup<P>): void;
}

/** The kubelet's node shutdown manager for one shutdown event. */
export class NodeShutdownManager<P> {
  private shuttingDown = false;

  constructor(private readonly host: ShutdownHost<P>) {}

  /** ShutdownStatus: the error the Ready condition carries while shutting down. */
  status(): string | undefined {
    return this.shuttingDown ? NODE_SHUTTING_DOWN_ERROR : undefined;
  }

  /** Admit: every new pod is rejected while shutting down. */
  admits(): boolean {
    return !this.shuttingDown;
  }

  /**
   * The shutdown event: undefined when the manager is a stub (no groups: the shutdown is immediate),
   * else the groups it works through, and `done` once the last has ended (the inhibit lock released).
   */
  shutdown(config: ShutdownConfig, done: () => void): ShutdownGroup<P>[] | undefined {
    const periods = shutdownPeriods(config);
    if (periods.length === 0 || this.shuttingDown) return undefined;
    this.shuttingDown = true;
    const host = this.host;
    const groups = groupByPriority(periods, host.activePods(), (p) => host.priorityOf(p));
    this.runGroup(groups, 0, done);
    return groups;
  }

  /** The machine stopped (or booted again): a new boot starts with no shutdown in progress. */
  reset(): void {
    this.shuttingDown = false;
  }

  private runGroup(groups: ShutdownGroup<P>[], i: number, done: () => void): void {
    const group = groups[i];
    if (!group) {
      done();
      return;
    }
    // "If there are no pods in a particular range, then do not wait for pods in that priority range."
    if (group.pods.length === 0) {
      this.runGroup(groups, i + 1, done);
      return;
    }
    const host = this.host;
    let left = group.pods.length;
    let moved = false;
    const next = () => {
      if (moved) return;
      moved = true;
      host.cancel(timer);
      this.runGroup(groups, i + 1, done);
    };
    const timer = host.after(group.shutdownGracePeriodSeconds, () => {
      host.timedOut?.(group);
      next();
    });
    for (const pod of group.pods) {
      const grace = shutdownGrace(group.shutdownGracePeriodSeconds, host.terminationGracePeriodOf(pod));
      host.kill(pod, grace, group, () => {
        left--;
        if (left === 0) next();
      });
    }
  }
}
