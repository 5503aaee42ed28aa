// kubectl drain (staging/src/k8s.io/kubectl/pkg/drain/filters.go and drain.go, pkg/cmd/drain/
// drain.go): cordon; list the pods on the node and run each through the filters; if any filter
// refuses a pod, stop with kubectl's error before evicting anything; else evict every pod left
// through the Eviction API, each pod on its own (a goroutine each), retrying a 429 every 5s.
// A refusal is one line in the timeline; the run's summary says how each drain stands at the end.

import type { Cluster } from "../cluster/context.ts";
import { evictPod } from "../cluster/eviction.ts";
import { controllerOf, keyOf } from "../cluster/store.ts";
import { DRAIN_EVICTION_RETRY } from "../kubernetes/defaults.ts";
import type { Pod } from "../kubernetes/objects.ts";
import type { TimelineStep } from "../scenario/types.ts";
import type { DrainSummary } from "../trace/result.ts";
import type { TimelineStepRef } from "../trace/timeline-events.ts";

/** filters.go's fatal messages, in the order of its filters (daemonSet, localStorage, unreplicated). */
export const DRAIN_FATAL = {
  daemonSet: "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)",
  localStorage: "Pods with local storage (use --delete-emptydir-data to override)",
  unmanaged: "cannot delete Pods that declare no controller (use --force to override)",
} as const;

interface Blocked {
  /** `<ns>/<name>` */
  pod: string;
  pdb: string;
  since: number;
  refusals: number;
}

interface DrainRun {
  node: string;
  at: number;
  /** the pods the Eviction API accepted, by uid */
  evicted: Map<string, Pod>;
  blocked: Map<string, Blocked>;
  error?: string;
}

export class Drains {
  private readonly runs: DrainRun[] = [];

  constructor(private readonly cluster: Cluster) {}

  /** Run `kubectl drain` as the step sets its flags; the node is already cordoned. */
  drain(step: TimelineStep, ref: TimelineStepRef): void {
    const node = step.node ?? "";
    const run: DrainRun = { node, at: this.cluster.engine.now, evicted: new Map(), blocked: new Map() };
    this.runs.push(run);
    const { pods, error } = this.podsForDeletion(node, {
      force: step.force ?? false,
      deleteEmptyDirData: step.deleteEmptyDirData ?? false,
      // kubectl's --ignore-daemonsets defaults to false (pkg/cmd/drain/drain.go); the scenario's
      // default is true, as nearly every drain is run (README "Scenario file", drain).
      ignoreDaemonSets: step.ignoreDaemonSets ?? true,
    });
    if (error !== undefined) {
      run.error = error;
      this.cluster.trace.emit({
        type: "DrainFailed",
        lane: "operator",
        object: `Node/${node}`,
        node,
        step: ref,
        error,
      });
      return;
    }
    for (const pod of pods) this.evict(run, pod, ref);
  }

  /**
   * GetPodsForDeletion: the pods on the node in the API's list order, each through the filters
   * until one does not delete it. A finished pod (Succeeded, Failed) always goes; a DaemonSet's pod
   * is left with --ignore-daemonsets, else an error; a pod with an emptyDir needs
   * --delete-emptydir-data; a pod without a controller needs --force. The errors are grouped by
   * message (PodDeleteList.errors; kubectl's map order is random, here the filters' order) and
   * joined as utilerrors.NewAggregate prints them.
   */
  private podsForDeletion(
    node: string,
    flags: { force: boolean; deleteEmptyDirData: boolean; ignoreDaemonSets: boolean },
  ): { pods: Pod[]; error?: string } {
    const pods: Pod[] = [];
    const failed = new Map<string, string[]>(Object.values(DRAIN_FATAL).map((m) => [m, []]));
    // podsOnNode is in the API's list order (namespace/name, as etcd's keys).
    for (const pod of this.cluster.store.podsOnNode(node)) {
      const finished = pod.status.phase === "Succeeded" || pod.status.phase === "Failed";
      const owner = controllerOf(pod);
      let fatal: string | undefined;
      if (!finished && owner?.startsWith("DaemonSet/")) {
        if (flags.ignoreDaemonSets) continue;
        fatal = DRAIN_FATAL.daemonSet;
      } else if (!finished && (pod.spec.volumes ?? []).some((v) => v.emptyDir) && !flags.deleteEmptyDirData)
        fatal = DRAIN_FATAL.localStorage;
      else if (!finished && owner === undefined && !flags.force) fatal = DRAIN_FATAL.unmanaged;
      if (fatal) failed.get(fatal)!.push(keyOf(pod));
      else pods.push(pod);
    }
    const errors = [...failed]
      .filter(([, list]) => list.length > 0)
      .map(([msg, list]) =>
        msg.toLowerCase().startsWith("cannot delete")
          ? `${msg}: ${list.join(", ")}`
          : `cannot delete ${msg}: ${list.join(", ")}`,
      );
    if (errors.length === 0) return { pods };
    return { pods, error: errors.length === 1 ? errors[0]! : `[${errors.join(", ")}]` };
  }

  /** One pod's eviction loop (drain.go evictPods): 429 → again in 5s; another error ends it. */
  private evict(run: DrainRun, pod: Pod, ref: TimelineStepRef): void {
    const store = this.cluster.store;
    // NotFound: the pod is gone (or replaced by a new object of the same name), kubectl is done with it.
    if (!store.exists(pod)) {
      run.blocked.delete(pod.metadata.uid!);
      return;
    }
    const result = evictPod(this.cluster, pod, { lane: "operator", by: "operator", step: ref });
    const uid = pod.metadata.uid!;
    if (result.evicted) {
      run.blocked.delete(uid);
      run.evicted.set(uid, pod);
      return;
    }
    const object = `Pod/${keyOf(pod)}`;
    const node = pod.spec.nodeName ? { node: pod.spec.nodeName } : {};
    if (result.code === 500) {
      run.blocked.delete(uid);
      const error = `error when evicting pods/"${pod.metadata.name}" -n "${pod.metadata.namespace}": ${result.message}`;
      run.error = run.error === undefined ? error : `${run.error}, ${error}`;
      this.cluster.trace.emit({
        type: "EvictionFailed",
        lane: "operator",
        object,
        ...node,
        code: 500,
        error: result.message,
        pdbs: result.pdbs.map((b) => `${b.metadata.namespace}/${b.metadata.name}`),
      });
      return;
    }
    const pdb = `${result.pdb.metadata.namespace}/${result.pdb.metadata.name}`;
    const blocked = run.blocked.get(uid);
    if (blocked) blocked.refusals++;
    else {
      run.blocked.set(uid, { pod: keyOf(pod), pdb, since: this.cluster.engine.now, refusals: 1 });
      const { syncError, ...status } = result.status;
      this.cluster.trace.emit({
        type: "EvictionBlocked",
        lane: "operator",
        object,
        ...node,
        pdb,
        ...status,
        ...(syncError !== undefined ? { syncError } : {}),
        retryAfter: DRAIN_EVICTION_RETRY,
      });
    }
    this.cluster.engine.after(DRAIN_EVICTION_RETRY, () => this.evict(run, pod, ref));
  }

  /** How each drain stands at the end of the run. */
  summary(): DrainSummary[] {
    const store = this.cluster.store;
    return this.runs.map((run) => {
      const terminating = [...run.evicted.values()].filter((p) => store.exists(p)).length;
      const blocked = [...run.blocked.values()].map((b) => ({ ...b }));
      const status: DrainSummary["status"] =
        blocked.length > 0
          ? "blocked"
          : run.error !== undefined
            ? "failed"
            : terminating > 0
              ? "evicting"
              : "drained";
      return {
        node: run.node,
        at: run.at,
        status,
        evicted: run.evicted.size,
        ...(terminating > 0 ? { terminating } : {}),
        ...(run.error !== undefined ? { error: run.error } : {}),
        ...(blocked.length > 0 ? { blocked } : {}),
      };
    });
  }
}
