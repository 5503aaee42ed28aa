// The kubelet of one node, and the machine it runs on: power, network, the kubelet process, the
// container runtime, and the containers actually running there (which can differ from what the API
// says). It keeps the node's Lease (node-lease.ts) and Node status (node-status.ts), watches its
// runtime (runtime-state.ts), and a pod worker per pod bound here (pod-worker.ts;
// pkg/kubelet/pod_workers.go podWorkers): it starts them, terminates them when they are deleted
// (pod-end.ts), cleans up after it reconnects (pkg/kubelet/kubelet_pods.go HandlePodCleanups), and
// its status manager writes its pods' readiness back when someone else changed it.
// Over 400 lines: the class holds the machine's state (power, partition, the pod workers) that every
// fault and every read of the data plane touches, and its constructor wires its seven parts (Lease,
// status, runtime, sync loop, pod host, status sync, shutdown), each of which lives in its own file.

import { workloadOf } from "../cluster/api.ts";
import type { AppState, Context, DataPlane, PlaneChanges, RunningCopy } from "../cluster/context.ts";
import type { WatchEventType } from "../cluster/store.ts";
import { minor, NODE_STATUS_REPORT_JITTER_SINCE_MINOR } from "../kubernetes/defaults.ts";
import type { Pod } from "../kubernetes/objects.ts";
import { attachmentName, claimsOf } from "../kubernetes/volumes.ts";
import { behaviourKey } from "../scenario/behaviour.ts";
import type { NodeSpec } from "../scenario/types.ts";
import type { KubeletStart } from "../trace/node-events.ts";
import type { BulkStart } from "./bulk-start.ts";
import { KubeletShutdown } from "./kubelet-shutdown.ts";
import { NodeLease } from "./node-lease.ts";
import type { ShutdownConfig } from "./node-shutdown.ts";
import { NodeStatus } from "./node-status.ts";
import { killOrphan, type PodEndHost, terminatePod } from "./pod-end.ts";
import { type PodHostEnv, type PodWorkerHost, podWorkerHost } from "./pod-host.ts";
import { PodWorker } from "./pod-worker.ts";
import { checkRunsTwice, copiesOn } from "./runs-twice.ts";
import type { ContainerRun } from "./runtime.ts";
import { RuntimeState } from "./runtime-state.ts";
import { StatusSyncTicker } from "./status-sync.ts";
import { SyncLoopGate } from "./sync-loop.ts";

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
  | "engine"
  | "store"
  | "trace"
  | "kubelet"
  | "version"
  | "versionString"
  | "behaviour"
  | "traffic"
  | "checkedApps"
> & {
  machines: Pick<Context["machines"], "runningCopies" | "reachable" | "changes">;
  scenario: PodHostEnv["scenario"];
};

function hasProbes(runs: readonly ContainerRun[]): boolean {
  for (const c of runs) if (c.probes.length > 0) return true;
  return false;
}

export class Kubelet {
  powered = true;
  kubeletRunning = true;
  partitioned = false;
  /** what a connection meets here changes with the power, the partition and the pod workers */
  private readonly changes: PlaneChanges;
  /** the pod workers, by pod UID (pod_workers.go podWorkers) */
  private readonly podWorkers = new Map<string, PodWorker>();
  /** When the kubelet process started: the prober's initial jitter applies while it is younger than a period. */
  kubeletStartedAt = Number.NEGATIVE_INFINITY;
  private readonly podHost: PodWorkerHost;
  private readonly lease: NodeLease;
  private readonly status: NodeStatus;
  private readonly runtime: RuntimeState;
  /** Pods waiting for their volumes to be attached here. */
  private waitingForVolumes = new Set<Pod>();
  private readonly syncLoop: SyncLoopGate;
  private readonly statusSync: StatusSyncTicker;
  /** what ending a pod's worker needs (pod-end.ts) */
  private readonly podEnd: PodEndHost;
  private readonly shutdown: KubeletShutdown;

  /** `ctx`: what the kubelet reads (the run's Context has it all); it hands each part only what it uses. */
  constructor(
    private readonly ctx: KubeletEnv,
    readonly spec: NodeSpec,
    index: number,
    /** the warm-up's bulk start of its pods (bulk-start.ts) */
    private readonly bulk?: BulkStart,
  ) {
    // A machine that joins (the autoscaler's) is up from now: a change.
    this.changes = ctx.machines.changes ?? { count: 0, bootingUntil: Number.NEGATIVE_INFINITY };
    this.changes.count++;
    const settings = ctx.kubelet;
    const stream = ctx.engine.rng.fork(`kubelet/${spec.name}`);
    this.lease = new NodeLease({
      engine: ctx.engine,
      store: ctx.store,
      trace: ctx.trace,
      rng: stream,
      node: spec.name,
      nodeLeaseDurationSeconds: settings.nodeLeaseDurationSeconds,
      machine: this,
    });
    // One stream for the kubelet's parts, as before the Lease's schedule was computed: the others'
    // draws come after the renewals due before them.
    const rng = this.lease.orderedRng();
    this.runtime = new RuntimeState({ engine: ctx.engine, rng, changed: () => this.runtimeChanged() });
    this.syncLoop = new SyncLoopGate({
      engine: ctx.engine,
      rng,
      runtime: this.runtime,
      resync: (pods) => {
        if (this.connected()) for (const pod of pods) this.syncPod(pod, false);
      },
    });
    const m = minor(ctx.version);
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
      warmingUp: () => this.bulk?.open === true,
      runtimeErrors: () => this.shutdown.errors(this.runtime.errors()),
    });
    const self = this;
    this.podHost = podWorkerHost(
      ctx,
      {
        name: spec.name,
        index,
        ...(spec.podCIDR ? { podCIDR: spec.podCIDR } : {}),
        minor: m,
        get kubeletStartedAt() {
          return self.kubeletStartedAt;
        },
        connected: () => this.connected(),
        whenRuntime: (action) => this.syncLoop.whenRuntime(action),
        started: (pod) => checkRunsTwice(ctx, pod, spec.name),
        planeChanges: this.changes,
      },
      bulk,
    );
    this.statusSync = new StatusSyncTicker({
      engine: ctx.engine,
      rng,
      get kubeletStartedAt() {
        return self.kubeletStartedAt;
      },
      connected: () => this.connected(),
      current: (w) => this.podWorkers.get(w.pod.metadata.uid!) === w,
    });
    this.podEnd = {
      ctx,
      name: spec.name,
      connected: () => this.connected(),
      removeWorker: (w) => this.removeWorker(w),
    };
    this.shutdown = new KubeletShutdown({
      podEnd: this.podEnd,
      workers: () => this.podWorkers.values(),
      syncNodeStatus: () => this.status.shutdownSync(),
    });
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
    if (!this.connected()) return;
    this.syncPod(pod, type === "DELETED");
    const worker = this.podWorkers.get(pod.metadata.uid!);
    if (type === "MODIFIED" && worker?.needsReconcile()) this.statusSync.reconcile(worker);
  }

  /** This node's Node changed (routed by the simulation's one Node watch): the status loop compares. */
  nodeEvent(type: WatchEventType): void {
    if (type === "MODIFIED") this.status.apiChanged();
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
    // The machine's next boot starts the runtime daemon again.
    this.runtime.reset();
    this.shutdown.reset();
    this.stopLoops();
    for (const w of this.podWorkers.values()) w.stop();
    this.podWorkers.clear();
    this.changes.count++;
  }

  powerOn(): void {
    if (this.powered) return;
    this.powered = true;
    this.changes.count++;
    this.kubeletRunning = true;
    this.partitioned = false;
    this.kubeletStarted("boot");
  }

  /** The OS's shutdown reaches the kubelet (node-shutdown.ts); false: it has no grace (immediate). */
  gracefulShutdown(config: ShutdownConfig, done: () => void): boolean {
    return this.kubeletRunning && this.shutdown.begin(config, done);
  }

  kubeletStop(): void {
    this.kubeletRunning = false;
    this.runtime.kubeletStopped();
    this.stopLoops();
    for (const w of this.podWorkers.values()) w.kubeletStopped();
  }

  kubeletStart(): void {
    if (!this.powered || this.kubeletRunning) return;
    this.kubeletRunning = true;
    this.kubeletStarted("kubelet-restart");
  }

  /**
   * The container runtime daemon stops (containerd or CRI-O; `systemctl stop containerd`, a crash):
   * the containers keep running, the kubelet can start, stop or kill none of them, and its runtime
   * errors follow (runtime-state.ts).
   */
  runtimeDown(): void {
    if (!this.powered) return;
    this.runtime.stop();
  }

  /** The container runtime daemon answers again. */
  runtimeUp(): void {
    if (!this.powered) return;
    this.runtime.start();
    this.runtimeChanged();
  }

  /** The runtime's errors began, grew or cleared: the status loop posts it; the syncLoop may resume. */
  private runtimeChanged(): void {
    if (!this.kubeletRunning) return;
    this.status.runtimeChanged();
    this.syncLoop.runtimeChanged();
  }

  partition(): void {
    this.partitioned = true;
    this.changes.count++;
    // The lease loop's next pass finds the API unreachable (backoffEnsureLease).
    this.lease.disturbed();
  }

  heal(): void {
    if (!this.partitioned) return;
    this.partitioned = false;
    this.changes.count++;
    if (!this.kubeletRunning) return;
    // The lease loop is in backoffEnsureLease (≤ 7s between tries) and renews at its next try.
    this.status.networkHealed();
    this.volumesChanged();
    this.resync();
  }

  private kubeletStarted(after: KubeletStart): void {
    this.kubeletStartedAt = this.ctx.engine.now;
    this.runtime.kubeletStarted();
    for (const w of this.podWorkers.values()) if (!w.terminating) w.kubeletStarted();
    this.volumesChanged();
    this.status.kubeletStarted(after);
    this.lease.start();
    this.resync();
  }

  private stopLoops(): void {
    this.lease.stop();
    this.status.stop();
    this.statusSync.stop();
    this.syncLoop.stop();
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
    if (this.syncLoop.blocked()) {
      // Creating a sandbox or stopping a container goes through the runtime (CRI): it waits.
      this.syncLoop.deferPod(pod);
      return;
    }
    const worker = this.podWorkers.get(uid);
    if (deleted || !this.ctx.store.exists(pod)) {
      if (worker) killOrphan(this.podEnd, worker);
      return;
    }
    if (pod.spec.nodeName !== this.name) return;
    if (pod.metadata.deletionTimestamp !== undefined) {
      terminatePod(this.podEnd, pod, worker);
      return;
    }
    // A pod ended here stays in the API, Failed, with no worker: nothing starts it again.
    if (worker || pod.status.phase === "Failed" || pod.status.phase === "Succeeded") return;
    if (!this.shutdown.rejects(pod)) this.startPod(pod);
  }

  private newWorker(pod: Pod): PodWorker {
    const owner = workloadOf(this.ctx, pod);
    const worker = new PodWorker(this.podHost, pod, owner, (container, init) =>
      this.ctx.behaviour(pod.metadata.namespace, owner, pod.metadata.name, container, init),
    );
    const checked = this.ctx.checkedApps;
    if (checked && (hasProbes(worker.containers) || hasProbes(worker.inits)))
      checked.add(behaviourKey(owner, pod.metadata.name));
    return worker;
  }

  /** The pod workers here, for a run played from a shared warm-up (run/warm-serves.ts). */
  workers(): Iterable<PodWorker> {
    return this.podWorkers.values();
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
    this.changes.count++;
    // Without claims the list is unchanged (rebuilding it per pod made a node's start quadratic).
    if (claims.length > 0) this.volumesChanged();
    // prober_manager.go AddPod runs when the kubelet admits the pod, before its containers exist.
    worker.added();
    // The start is cancelled with the worker (powerOff and the pod's removal stop it).
    const engine = this.ctx.engine;
    if (this.bulk?.open) this.bulk.add(engine.now + POD_STARTUP_SECONDS, worker);
    else worker.addTimer(engine.after(POD_STARTUP_SECONDS, () => worker.start()));
  }

  private removeWorker(worker: PodWorker): void {
    worker.stop();
    this.podWorkers.delete(worker.pod.metadata.uid!);
    this.changes.count++;
    if (claimsOf(worker.pod).length > 0) this.volumesChanged();
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
    return copiesOn(this.name, this.podWorkers.values(), this.connected(), this.ctx.store);
  }

  procOwner(uid: string): string | undefined {
    return this.podWorkers.get(uid)?.owner;
  }
}
