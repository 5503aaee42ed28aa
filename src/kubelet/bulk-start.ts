// The pods of a `start: running` cluster come up together during the warm-up, as a kubelet that
// finds them running would have them (like registerAtStart for the node, startRunning for its
// loops). The workload controllers create them and the scheduler places them as ever; each pod's
// kubelet starts it POD_STARTUP_SECONDS after the bind through its pod worker, in the order the
// binds reached the kubelets, so IPs, probe workers and their random draws are what the one-by-one
// start gives. What the bulk start saves is the API traffic of the start: a pod whose start no
// other component waits on is started "quietly": its status (Running, the IP, ContainersReady,
// Ready) is written to the object without a store write and a watch notification per step, and
// the EndpointSlice controller takes the pods started at one instant in one pass, each slice
// written once. Everything after that start (probe results, exits, restarts) goes through the API
// as usual, and so does every start after the warm-up.

import { setPodCondition } from "../cluster/api.ts";
import type { Cluster } from "../cluster/context.ts";
import { controllerOf } from "../cluster/store.ts";
import type { Engine } from "../engine/engine.ts";
import { quantize } from "../engine/time.ts";
import type { Pod } from "../kubernetes/objects.ts";
import { claimsOf } from "../kubernetes/volumes.ts";
import type { PodStatusApi } from "./status-manager.ts";

/** A pod waiting for its start: its pod worker (pod-worker.ts). */
export interface PendingStart {
  readonly pod: Pod;
  /** its containers ran before: a restart, never quiet */
  readonly rebooted: boolean;
  /** the worker was stopped before the start was due: it does nothing */
  readonly stopped: boolean;
  /** the kubelet's start of the pod */
  start(): void;
}

export class BulkStart {
  /** the warm-up is on: starts are batched, and those no one waits on are quiet */
  open = true;
  /** a quiet start runs: the kubelet's status writes change the object only */
  private quiet = false;
  /** the starts due at one instant, in the order asked: the workers themselves, no entry per pod */
  private batch: { at: number; starts: PendingStart[] } | undefined;

  constructor(
    private readonly engine: Engine,
    /** the pods started quietly at one instant, in start order: their endpoints (the EndpointSlice controller) */
    private readonly started: (pods: readonly Pod[]) => void,
  ) {}

  /**
   * Start the pod at `at` with the others due then, in the order asked (one engine event for them
   * all, where each had its own timer: simultaneous events run in scheduling order either way). A
   * worker stopped before then (the pod went first) is skipped, as its cancelled timer was.
   */
  add(at: number, start: PendingStart): void {
    const t = quantize(at);
    let batch = this.batch;
    if (batch?.at !== t) {
      const starts: PendingStart[] = [];
      batch = { at: t, starts };
      this.batch = batch;
      this.engine.at(t, () => this.run(starts));
    }
    batch.starts.push(start);
  }

  private run(starts: PendingStart[]): void {
    const done: Pod[] = [];
    for (const s of starts) {
      if (s.stopped) continue;
      // quietly reads the pod's owner and claims, fixed at its creation (pod-template.ts freezes the
      // owner references): the same answer here as when the start was asked for.
      this.quiet = this.open && !s.rebooted && quietly(s.pod);
      s.start();
      if (this.quiet) done.push(s.pod);
    }
    this.quiet = false;
    if (done.length > 0) this.started(done);
  }

  /**
   * The kubelet's writes of a pod's status: during a quiet start the object changes in place (the
   * same fields, the same conditions) and no write reaches the watchers.
   */
  api(ctx: Pick<Cluster, "engine" | "store">, api: PodStatusApi): PodStatusApi {
    return {
      exists: api.exists,
      setCondition: api.setCondition,
      update: (pod) => {
        if (!this.quiet) api.update(pod);
      },
      setReady: (pod, ready, reason, fields) => {
        if (!this.quiet) api.setReady(pod, ready, reason, fields);
        else if (ctx.store.exists(pod)) setPodCondition(ctx, pod, "Ready", ready ? "True" : "False", reason);
      },
    };
  }
}

/**
 * Whether no component but the kubelet and the EndpointSlice controller reacts to the pod's start:
 * a bare pod or a ReplicaSet's (whose controller counts active pods, which a start does not change;
 * the scheduler, the taint eviction controller and the scheduler's cache look at the binding, the
 * tolerations and the phase's terminal values only). A StatefulSet waits for each ordinal to be
 * Running and Ready, the DaemonSet controller syncs on each of its pods' changes, the attach/detach
 * controller on pods with claims: those start through the API step by step.
 */
function quietly(pod: Pod): boolean {
  const owner = controllerOf(pod);
  return (owner === undefined || owner.startsWith("ReplicaSet/")) && claimsOf(pod).length === 0;
}
