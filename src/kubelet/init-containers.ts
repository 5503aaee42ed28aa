// Init containers and native sidecars, as the kubelet runs them (pkg/kubelet/kuberuntime/
// kuberuntime_manager.go computeInitContainerActions, SyncPod; KEP-753 sidecar containers):
// - the init containers run one at a time, in spec order, each to completion before the next, and
//   all before the app containers; one that fails is restarted with the container back-off unless
//   the pod's restartPolicy is Never, which fails the pod (pod-worker.ts, restart.ts);
// - a sidecar (`restartPolicy: Always`) is started in its turn and the next init container waits
//   only for it to be started (its startup probe passed, or it has none); it keeps running, is
//   restarted whenever it exits (back-off as any container), and its readiness counts toward the
//   pod's (status-manager.ts);
// - at the pod's termination the sidecars are stopped after the app containers, in reverse order
//   (kuberuntime_termination_order.go: each sidecar waits for every app container and for the
//   sidecar declared after it, within the grace period; its preStop hook runs at once: kill.ts).
//
// How long an init container runs is the scenario's `behaviour.<workload>/<container>`:
// exitAfterSeconds (default 0: it completes at once) and exitCode (default 0 for an init container).

import type { EventOf } from "../trace/events.ts";
import type { OwnExit } from "../trace/node-events.ts";
import type { EndedKill } from "./kill.ts";
import type { ContainerRun } from "./runtime.ts";

/** A pod with sidecars: each container's exit at its termination, in the order they ended. */
export type StopOrder = NonNullable<EventOf<"PodTerminated">["stopOrder"]>;

/** An init container's own end: behaviour exitAfterSeconds when set, else at once. */
export function initExit(c: ContainerRun, runSeconds: number): OwnExit {
  return { cause: "init-run", runSeconds, set: c.behaviour.exitAfterSeconds !== undefined };
}

/**
 * newTerminationOrdering: what each container's SIGTERM waits for. A sidecar waits for every app
 * container and for the sidecar after it in spec.initContainers (which waits for the one after it,
 * so they stop in reverse order); an app container or an init container that runs to completion
 * waits for nothing. Only the containers still running count (the others' channels are closed).
 */
export function sidecarTurns(
  inits: readonly ContainerRun[],
  containers: readonly ContainerRun[],
): (c: ContainerRun) => readonly ContainerRun[] {
  const prereqs = new Map<ContainerRun, ContainerRun[]>();
  let later: ContainerRun | undefined;
  for (let i = inits.length - 1; i >= 0; i--) {
    const c = inits[i]!;
    if (c.role !== "sidecar") continue;
    prereqs.set(c, later ? [...containers, later] : [...containers]);
    later = c;
  }
  return (c) => prereqs.get(c) ?? [];
}

/** PodTerminated's stopOrder: each container's kill as it ended (kill.ts terminatePod). */
export function stopOrderOf(ended: readonly EndedKill[]): StopOrder {
  return ended.map((k) => ({
    container: k.container.name,
    sidecar: k.container.role === "sidecar",
    exitAfterSeconds: k.afterSeconds,
    signal: k.signal,
  }));
}
