// A kubelet's side of graceful node shutdown (node-shutdown.ts has the manager's rules): the manager
// over this kubelet's pod workers, the Ready condition's error while it shuts down, and Admit's
// rejection of the pods bound here meanwhile (kubelet.go rejectPod).

import type { ApiWriter } from "../cluster/api.ts";
import { controllerOf, ref } from "../cluster/store.ts";
import { DEFAULT_TERMINATION_GRACE_PERIOD } from "../kubernetes/defaults.ts";
import type { Pod } from "../kubernetes/objects.ts";
import type { RuntimeErrors } from "../trace/node-events.ts";
import {
  NODE_SHUTDOWN_NOT_ADMITTED_MESSAGE,
  NODE_SHUTDOWN_NOT_ADMITTED_REASON,
  NodeShutdownManager,
  type ShutdownConfig,
} from "./node-shutdown.ts";
import { type PodEndHost, shutDownPod } from "./pod-end.ts";
import type { PodWorker } from "./pod-worker.ts";

export interface KubeletShutdownHost {
  readonly podEnd: PodEndHost;
  /** the pod workers of the pods admitted here */
  workers(): Iterable<PodWorker>;
  /** post the node status now (the manager's `go m.syncNodeStatus()`) */
  syncNodeStatus(): void;
}

export class KubeletShutdown {
  private readonly manager: NodeShutdownManager<PodWorker>;
  private readonly ctx: ApiWriter;

  constructor(private readonly host: KubeletShutdownHost) {
    const ctx = host.podEnd.ctx;
    this.ctx = ctx;
    this.manager = new NodeShutdownManager<PodWorker>({
      after: (s, fn) => ctx.engine.after(s, fn),
      cancel: (t) => ctx.engine.cancel(t as Parameters<typeof ctx.engine.cancel>[0]),
      activePods: () => [...host.workers()].filter((w) => !w.terminating),
      priorityOf: (w) => w.pod.spec.priority ?? 0,
      terminationGracePeriodOf: (w) =>
        w.pod.spec.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD,
      kill: (w, grace, group, ended) => shutDownPod(host.podEnd, w, grace, group, ended),
      timedOut: (g) => this.timedOut.push(g.priority),
    });
  }

  private timedOut: number[] = [];
  /** the controllers one of whose pods Admit rejected during this shutdown */
  private readonly rejectedOwners = new Set<string>();

  /**
   * The shutdown event reaches the kubelet. False when its manager is a stub (no grace configured):
   * the machine shuts down at once. Else `done` when the manager released its inhibit lock.
   */
  begin(config: ShutdownConfig, done: () => void): boolean {
    const node = this.host.podEnd.name;
    this.timedOut = [];
    const groups = this.manager.shutdown(config, () => {
      this.ctx.trace.emit({
        type: "NodeShutdownDone",
        lane: "kubelet",
        object: `Node/${node}`,
        node,
        timedOut: this.timedOut,
      });
      done();
    });
    if (!groups) return false;
    this.ctx.trace.emit({
      type: "NodeShutdownStarted",
      lane: "kubelet",
      object: `Node/${node}`,
      node,
      groups: groups.map((g) => ({
        priority: g.priority,
        shutdownGracePeriodSeconds: g.shutdownGracePeriodSeconds,
        pods: g.pods.length,
      })),
    });
    this.host.syncNodeStatus();
    return true;
  }

  /** runtimeErrors with ShutdownStatus after them, aggregated as ReadyCondition does. */
  errors(runtime: RuntimeErrors | undefined): RuntimeErrors | undefined {
    const shutdown = this.manager.status();
    if (!shutdown) return runtime;
    if (!runtime) return { message: shutdown, shuttingDown: true };
    const inner = runtime.message.startsWith("[") ? runtime.message.slice(1, -1) : runtime.message;
    return { ...runtime, message: `[${inner}, ${shutdown}]`, shuttingDown: true };
  }

  /**
   * Admit: while shutting down, a pod bound here is rejected (kubelet.go rejectPod: phase Failed, the
   * reason, "Pod was rejected: " and the message). True when it was.
   */
  rejects(pod: Pod): boolean {
    if (this.manager.admits()) return false;
    if (pod.status.phase === "Failed") return true;
    // A controller replaces a rejected pod at once, and a pod that tolerates the node's not-ready
    // taint lands here again: in a real cluster the pile-up of NodeShutdown pods is paced by API
    // latency, which faultline does not model (it would loop at one instant). From the owner's
    // second pod on, the pod is left bound and not started, and the first rejection says so.
    const owner = controllerOf(pod);
    if (owner !== undefined && this.rejectedOwners.has(owner)) return true;
    if (owner !== undefined) this.rejectedOwners.add(owner);
    pod.status.phase = "Failed";
    pod.status.reason = NODE_SHUTDOWN_NOT_ADMITTED_REASON;
    pod.status.message = `Pod was rejected: ${NODE_SHUTDOWN_NOT_ADMITTED_MESSAGE}`;
    this.ctx.store.update(pod, pod.spec.nodeName);
    this.ctx.trace.emit({
      type: "PodRejected",
      lane: "kubelet",
      object: ref(pod),
      node: this.host.podEnd.name,
      reason: NODE_SHUTDOWN_NOT_ADMITTED_REASON,
      message: pod.status.message,
      ...(owner !== undefined ? { controller: owner } : {}),
    });
    return true;
  }

  /** The machine stopped: its next boot has no shutdown in progress. */
  reset(): void {
    this.manager.reset();
    this.rejectedOwners.clear();
  }
}
