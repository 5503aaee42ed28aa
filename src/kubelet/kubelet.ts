// The kubelet of one node, and the machine it runs on: power, network, the kubelet process, and
// the containers actually running there (which can differ from what the API says). It keeps the
// node's Lease (node-lease.ts) and Node status (node-status.ts), and a pod worker per pod bound
// here (pod-worker.ts; pkg/kubelet/pod_workers.go podWorkers): it starts them, terminates them when
// they are deleted, and cleans up after it reconnects (pkg/kubelet/kubelet_pods.go HandlePodCleanups).

import { removePod, setPodCondition, setPodReady, workloadOf } from "../cluster/api.ts";
import type { AppState, Context, DataPlane, Machines, RunningCopy } from "../cluster/context.ts";
import { ref, type WatchEventType } from "../cluster/store.ts";
import type { Rng } from "../engine/rng.ts";
import {
  EXACT_CRASHLOOP_REQUEUE_SINCE_MINOR,
  MANUAL_PROBE_RESETS_TICKER_SINCE_MINOR,
  minor,
  NODE_STATUS_REPORT_JITTER_SINCE_MINOR,
} from "../kubernetes/defaults.ts";
import type { Pod } from "../kubernetes/objects.ts";
import { attachmentName, claimsOf } from "../kubernetes/volumes.ts";
import type { NodeSpec } from "../scenario/types.ts";
import type { KubeletStart } from "../trace/node-events.ts";
import { NodeLease } from "./node-lease.ts";
import { NodeStatus } from "./node-status.ts";
import { PodWorker, type PodWorkerHost } from "./pod-worker.ts";
import { checkRunsTwice } from "./runs-twice.ts";
import { deletionGracePeriod, exitAfterSigterm } from "./runtime.ts";

/**
 * From the kubelet seeing a pod bound to its node to its containers running: sandbox, network and
 * container start. No Kubernetes default sets this; 2s sits inside the scalability SLO for
 * stateless pod startup (5s at the 99th percentile, image pulls excluded:
 * kubernetes/community sig-scalability/slos/pod_startup_latency.md).
 */
export const POD_STARTUP_SECONDS = 2;

/**
 * What a kubelet reads of the cluster: the clock, the API (store and trace), its own settings
 * (KubeletConfiguration, `kubelet`), the version, the scenario's behaviours, whether the scenario
 * has callers and the traffic model's health-check latency, and of the other machines only what the
 * "runs twice" check asks.
 */
export type KubeletEnv = Pick<
  Context,
  "engine" | "store" | "trace" | "kubelet" | "version" | "versionString" | "behaviour" | "traffic"
> & {
  machines: Pick<Machines, "runningCopies" | "reachable">;
  scenario: { traffic?: readonly unknown[] };
};

export class Kubelet {
  powered = true;
  kubeletRunning = true;
  partitioned = false;
  /** the pod workers, by pod UID (pod_workers.go podWorkers) */
  private readonly podWorkers = new Map<string, PodWorker>();
  /** When the kubelet process started: the prober's initial jitter applies while it is younger than a period. */
  kubeletStartedAt = Number.NEGATIVE_INFINITY;
  private proberRng: Rng | undefined;
  private readonly podHost: PodWorkerHost;
  private readonly lease: NodeLease;
  private readonly status: NodeStatus;
  private ipCounter = 1;
  /** Pods waiting for their volumes to be attached here. */
  private waitingForVolumes = new Set<Pod>();

  /** `ctx`: what the kubelet reads (the run's Context has it all); it hands each part only what it uses. */
  constructor(
    private readonly ctx: KubeletEnv,
    readonly spec: NodeSpec,
    private readonly index: number,
  ) {
    const settings = ctx.kubelet;
    const rng = ctx.engine.rng.fork(`kubelet/${spec.name}`);
    const m = minor(ctx.version);
    this.lease = new NodeLease({
      engine: ctx.engine,
      store: ctx.store,
      trace: ctx.trace,
      rng,
      node: spec.name,
      nodeLeaseDurationSeconds: settings.nodeLeaseDurationSeconds,
      running: () => this.powered && this.kubeletRunning,
      partitioned: () => this.partitioned,
    });
    this.status = new NodeStatus({
      engine: ctx.engine,
      store: ctx.store,
      trace: ctx.trace,
      rng,
      spec,
      versionString: ctx.versionString,
      settings: {
        nodeStatusUpdateFrequency: settings.nodeStatusUpdateFrequency,
        nodeStatusReportFrequency: settings.nodeStatusReportFrequency,
        reportJitterAfterChange: m >= NODE_STATUS_REPORT_JITTER_SINCE_MINOR,
      },
      connected: () => this.connected(),
    });
    const self = this;
    this.podHost = {
      engine: ctx.engine,
      trace: ctx.trace,
      node: spec.name,
      settings,
      manualProbeResetsTicker: m >= MANUAL_PROBE_RESETS_TICKER_SINCE_MINOR,
      exactCrashLoopRequeue: m >= EXACT_CRASHLOOP_REQUEUE_SINCE_MINOR,
      api: {
        exists: (pod) => ctx.store.exists(pod),
        update: (pod) => ctx.store.update(pod, pod.spec.nodeName),
        setCondition: (pod, type, status) => {
          setPodCondition(ctx, pod, type, status);
        },
        setReady: (pod, ready, reason, fields) =>
          setPodReady(ctx, pod, ready, { lane: "kubelet", ...(reason ? { reason } : {}), ...fields }),
      },
      healthChecks: {
        callers: (ctx.scenario.traffic?.length ?? 0) > 0,
        latency: (podIP) => ctx.traffic?.healthCheckLatency(podIP, ctx.engine.now),
      },
      connected: () => this.connected(),
      get kubeletStartedAt() {
        return self.kubeletStartedAt;
      },
      // Forked on first use, after every component has forked its own: adds no draw to any other stream.
      rng: () => {
        this.proberRng ??= ctx.engine.rng.fork(`prober/${spec.name}`);
        return this.proberRng;
      },
      nextIp: () => `10.244.${this.index}.${this.ipCounter++}`,
    };
    ctx.store.watch("VolumeAttachment", (type, va) => {
      if (type === "DELETED" || va.spec.nodeName !== this.name || !this.connected()) return;
      for (const pod of [...this.waitingForVolumes]) {
        this.waitingForVolumes.delete(pod);
        if (ctx.store.exists(pod) && !this.podWorkers.has(pod.metadata.uid!)) this.syncPod(pod, false);
      }
    });
  }

  get name(): string {
    return this.spec.name;
  }

  /** The kubelet can reach the API server: the machine is on, the kubelet runs, no partition. */
  connected(): boolean {
    return this.powered && this.kubeletRunning && !this.partitioned;
  }

  /** A pod bound here changed (routed by the simulation's one Pod watch, not a watch per kubelet). */
  podEvent(type: WatchEventType, pod: Pod): void {
    if (pod.spec.nodeName !== this.name && !this.podWorkers.has(pod.metadata.uid!)) return;
    if (this.connected()) this.syncPod(pod, type === "DELETED");
  }

  /** The pods' volumes changed: status.volumesInUse follows (when the kubelet can post it). */
  private volumesChanged(): void {
    this.status.setVolumesInUse([...this.podWorkers.values()].flatMap((w) => claimsOf(w.pod)));
  }

  // ---- start-up -------------------------------------------------------------------------------

  /** The node as it is when a `start: running` scenario begins: registered, Ready, leases flowing. */
  registerAtStart(createdAt: number): void {
    this.kubeletStartedAt = createdAt;
    this.ctx.store.create(this.status.initialNode(createdAt));
    this.ctx.store.create(this.lease.object(createdAt));
    // The lease loop has been running for a while: its next renewal falls anywhere in one interval.
    this.lease.startRunning();
    this.status.startRunning();
  }

  // ---- faults ---------------------------------------------------------------------------------

  powerOff(): void {
    this.powered = false;
    this.kubeletRunning = false;
    this.stopLoops();
    for (const w of this.podWorkers.values()) w.stop();
    this.podWorkers.clear();
  }

  powerOn(): void {
    if (this.powered) return;
    this.powered = true;
    this.kubeletRunning = true;
    this.partitioned = false;
    this.kubeletStarted("boot");
  }

  kubeletStop(): void {
    this.kubeletRunning = false;
    this.stopLoops();
    for (const w of this.podWorkers.values()) w.kubeletStopped();
  }

  kubeletStart(): void {
    if (!this.powered || this.kubeletRunning) return;
    this.kubeletRunning = true;
    this.kubeletStarted("kubelet-restart");
  }

  partition(): void {
    this.partitioned = true;
  }

  heal(): void {
    if (!this.partitioned) return;
    this.partitioned = false;
    if (!this.kubeletRunning) return;
    // The lease loop is in backoffEnsureLease (≤ 7s between tries) and renews at its next try.
    this.status.networkHealed();
    this.volumesChanged();
    this.resync();
  }

  private kubeletStarted(after: KubeletStart): void {
    this.kubeletStartedAt = this.ctx.engine.now;
    for (const w of this.podWorkers.values()) if (!w.terminating) w.kubeletStarted();
    this.volumesChanged();
    this.status.kubeletStarted(after);
    this.lease.start();
    this.resync();
  }

  private stopLoops(): void {
    this.lease.stop();
    this.status.stop();
  }

  // ---- pods -----------------------------------------------------------------------------------

  /** After the kubelet reconnects: confirm deletions, stop orphans, restart what died, re-report (HandlePodCleanups). */
  private resync(): void {
    for (const pod of this.ctx.store.podsOnNode(this.name)) this.syncPod(pod, false);
    for (const w of [...this.podWorkers.values()]) {
      if (!this.ctx.store.exists(w.pod)) this.syncPod(w.pod, true);
      else if (w.running && !w.terminating) w.report();
    }
  }

  private syncPod(pod: Pod, deleted: boolean): void {
    const uid = pod.metadata.uid!;
    const worker = this.podWorkers.get(uid);
    if (deleted || !this.ctx.store.exists(pod)) {
      if (worker) this.killOrphan(worker);
      return;
    }
    if (pod.spec.nodeName !== this.name) return;
    if (pod.metadata.deletionTimestamp !== undefined) {
      this.terminate(pod, worker);
      return;
    }
    if (!worker) this.startPod(pod);
  }

  private newWorker(pod: Pod): PodWorker {
    const owner = workloadOf(this.ctx, pod);
    return new PodWorker(this.podHost, pod, owner, (container) =>
      this.ctx.behaviour(pod.metadata.namespace, owner, pod.metadata.name, container),
    );
  }

  /** The running pod's worker, for the timeline's pod actions. */
  podWorker(uid: string): PodWorker | undefined {
    return this.podWorkers.get(uid);
  }

  private startPod(pod: Pod): void {
    const claims = claimsOf(pod);
    const unattached = claims.filter(
      (c) => this.ctx.store.get("VolumeAttachment", attachmentName(c))?.spec.nodeName !== this.name,
    );
    if (unattached.length > 0) {
      // The kubelet waits for the attach/detach controller before mounting (volume manager).
      this.waitingForVolumes.add(pod);
      return;
    }
    const worker = this.newWorker(pod);
    this.podWorkers.set(pod.metadata.uid!, worker);
    // Without claims the list is unchanged (rebuilding it per pod made a node's start quadratic).
    if (claims.length > 0) this.volumesChanged();
    // prober_manager.go AddPod runs when the kubelet admits the pod, before its containers exist.
    worker.added();
    const restart = pod.status.containerStatuses.length > 0;
    worker.addTimer(
      this.ctx.engine.after(POD_STARTUP_SECONDS, () => {
        if (!this.powered) return;
        worker.startAll(
          restart
            ? { start: "rebooted", restartPolicy: pod.spec.restartPolicy ?? "Always" }
            : { start: "scheduled" },
        );
        checkRunsTwice(this.ctx, pod, this.name);
      }),
    );
  }

  private removeWorker(worker: PodWorker): void {
    worker.stop();
    this.podWorkers.delete(worker.pod.metadata.uid!);
    if (claimsOf(worker.pod).length > 0) this.volumesChanged();
  }

  /**
   * The pod has a deletionTimestamp: SIGTERM, wait for the process to exit (at most the grace
   * period), then the kubelet's final delete removes the object (pod_workers.go, status_manager.go).
   */
  private terminate(pod: Pod, worker: PodWorker | undefined): void {
    if (!worker?.running) {
      if (worker) this.removeWorker(worker);
      removePod(this.ctx, pod, {
        force: false,
        lane: "kubelet",
        by: "kubelet",
        cause: "not-running",
      });
      return;
    }
    if (worker.terminating) return;
    worker.beginTermination();
    const grace = deletionGracePeriod(pod);
    const hung = worker.containers.some((c) => c.running && c.hung);
    const exitIn = exitAfterSigterm(hung, worker.behaviour.shutdownSeconds, grace);
    worker.addTimer(
      this.ctx.engine.after(exitIn, () => {
        this.removeWorker(worker);
        if (!this.connected()) return;
        for (const c of pod.status.containerStatuses) {
          c.state = "terminated";
          c.ready = false;
        }
        this.ctx.trace.emit({
          type: "PodTerminated",
          lane: "kubelet",
          object: ref(pod),
          node: this.name,
          ...(worker.owner === undefined ? {} : { owner: worker.owner }),
          signal: exitIn < grace ? "SIGTERM" : "SIGKILL",
          exitAfterSeconds: exitIn,
          terminationGracePeriodSeconds: grace,
        });
        removePod(this.ctx, pod, {
          force: false,
          lane: "kubelet",
          by: "kubelet",
          cause: "containers-exited",
        });
      }),
    );
  }

  /** A process whose pod object is gone (force-deleted or garbage-collected while we were cut off). */
  private killOrphan(worker: PodWorker): void {
    const running = worker.running;
    this.removeWorker(worker);
    if (!running) return;
    this.ctx.trace.emit({
      type: "ContainerKilled",
      lane: "kubelet",
      object: ref(worker.pod),
      node: this.name,
      ...(worker.owner === undefined ? {} : { owner: worker.owner }),
      container: worker.pod.spec.containers[0]?.name ?? "",
      cause: "orphan",
    });
  }

  // ---- the machine, as the data plane and the other nodes see it ------------------------------

  /** Whether packets reach this machine (kubelet-stop does not matter: the containers keep serving). */
  dataPlane(): DataPlane {
    if (!this.powered) return "off";
    return this.partitioned ? "partitioned" : "up";
  }

  /** The process behind a pod IP here, as a connection would find it. */
  appState(podIP: string): AppState {
    for (const w of this.podWorkers.values()) {
      if (w.pod.status.podIP !== podIP) continue;
      return w.appState();
    }
    return "absent";
  }

  /** Copies of pods whose containers run here, for the "runs twice" check. */
  runningCopies(): RunningCopy[] {
    const out: RunningCopy[] = [];
    for (const w of this.podWorkers.values()) {
      if (!w.running) continue;
      out.push({
        node: this.name,
        podName: w.pod.metadata.name,
        namespace: w.pod.metadata.namespace,
        uid: w.pod.metadata.uid!,
        unreachable: !this.connected(),
        replaced: !this.ctx.store.exists(w.pod) || w.pod.metadata.deletionTimestamp !== undefined,
      });
    }
    return out;
  }

  procOwner(uid: string): string | undefined {
    return this.podWorkers.get(uid)?.owner;
  }
}
