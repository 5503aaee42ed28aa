// The kubelet of one node, and the machine it runs on: power, network, the kubelet process, and
// the containers actually running there (which can differ from what the API says).

import { removePod, workloadOf } from "../cluster/api.ts";
import type { AppState, Context, DataPlane, RunningCopy } from "../cluster/context.ts";
import { ref, type WatchEventType } from "../cluster/store.ts";
import type { Timer } from "../engine/engine.ts";
import type { Rng } from "../engine/rng.ts";
import {
  DEFAULT_TERMINATION_GRACE_PERIOD,
  LEASE_BACKOFF_INITIAL,
  LEASE_BACKOFF_MAX,
  LEASE_RENEW_JITTER,
  MINIMUM_GRACE_PERIOD,
  minor,
  NODE_LEASE_RENEW_INTERVAL_FRACTION,
  NODE_STATUS_REPORT_JITTER_SINCE_MINOR,
} from "../kubernetes/defaults.ts";
import { getNode, getPod } from "../kubernetes/kubectl.ts";
import type { Lease, Node, NodeCondition, Pod } from "../kubernetes/objects.ts";
import { attachmentName, claimsOf } from "../kubernetes/volumes.ts";
import type { NodeSpec } from "../scenario/types.ts";
import { fmt } from "../trace/format.ts";
import { PodWorker, type PodWorkerHost } from "./pod-worker.ts";

/**
 * From the kubelet seeing a pod bound to its node to its containers running: sandbox, network and
 * container start. No Kubernetes default sets this; 2s sits inside the scalability SLO for
 * stateless pod startup (5s at the 99th percentile, image pulls excluded:
 * kubernetes/community sig-scalability/slos/pod_startup_latency.md).
 */
export const POD_STARTUP_SECONDS = 2;

export class Kubelet {
  powered = true;
  kubeletRunning = true;
  partitioned = false;
  private procs = new Map<string, PodWorker>();
  /** When the kubelet process started: the prober's initial jitter applies while it is younger than a period. */
  kubeletStartedAt = Number.NEGATIVE_INFINITY;
  private proberRng: Rng | undefined;
  private readonly podHost: PodWorkerHost;
  private leaseTimer: Timer | undefined;
  private statusTimer: Timer | undefined;
  private leaseBackoff = 0;
  private ipCounter = 1;
  private readonly rng: Rng;
  /** Pods waiting for their volumes to be attached here. */
  private waitingForVolumes = new Set<Pod>();

  constructor(
    private readonly ctx: Context,
    readonly spec: NodeSpec,
    private readonly index: number,
  ) {
    this.rng = ctx.engine.rng.fork(`kubelet/${spec.name}`);
    const self = this;
    this.podHost = {
      ctx,
      node: spec.name,
      connected: () => this.connected(),
      get kubeletStartedAt() {
        return self.kubeletStartedAt;
      },
      // Forked on first use, after every component has forked its own: adds no draw to any other stream.
      rng: () => {
        this.proberRng ??= ctx.engine.rng.fork(`prober/${spec.name}`);
        return this.proberRng;
      },
      nextIp: () => this.nextIp(),
    };
    ctx.store.watch("VolumeAttachment", (type, va) => {
      if (type === "DELETED" || va.spec.nodeName !== this.name || !this.connected()) return;
      for (const pod of [...this.waitingForVolumes]) {
        this.waitingForVolumes.delete(pod);
        if (ctx.store.exists(pod) && !this.procs.has(pod.metadata.uid!)) this.syncPod(pod, false);
      }
    });
  }

  /** A pod bound here changed (routed by the simulation's one Pod watch, not a watch per kubelet). */
  podEvent(type: WatchEventType, pod: Pod): void {
    if (pod.spec.nodeName !== this.name && !this.procs.has(pod.metadata.uid!)) return;
    if (this.connected()) this.syncPod(pod, type === "DELETED");
  }

  /**
   * node.status.volumesInUse: the claims of the pods running here, written whenever they change
   * while the kubelet can reach the API (at once, not at the next status update), and left as last
   * written while it cannot.
   */
  private syncVolumesInUse(): void {
    if (!this.connected()) return;
    const node = this.ctx.store.get("Node", this.name);
    if (!node) return;
    node.status.volumesInUse = [...new Set([...this.procs.values()].flatMap((p) => claimsOf(p.pod)))].sort();
  }

  get name(): string {
    return this.spec.name;
  }

  /** The kubelet can reach the API server: the machine is on, the kubelet runs, no partition. */
  connected(): boolean {
    return this.powered && this.kubeletRunning && !this.partitioned;
  }

  /** The renew interval: nodeLeaseDurationSeconds × 0.25 (pkg/kubelet/kubelet.go). */
  get renewInterval(): number {
    return this.ctx.kubelet.nodeLeaseDurationSeconds * NODE_LEASE_RENEW_INTERVAL_FRACTION;
  }

  // ---- start-up -------------------------------------------------------------------------------

  /** The node as it is when a `start: running` scenario begins: registered, Ready, leases flowing. */
  registerAtStart(createdAt: number): void {
    this.kubeletStartedAt = createdAt;
    this.ctx.store.create(this.nodeObject(createdAt));
    this.ctx.store.create(this.leaseObject(createdAt));
    // The lease loop has been running for a while: its next renewal falls anywhere in one interval.
    this.scheduleLease(this.rng.uniform(0, this.renewInterval * (1 + LEASE_RENEW_JITTER)));
    this.scheduleStatusReport(this.rng.uniform(0, this.ctx.kubelet.nodeStatusReportFrequency));
  }

  /** A pod that was already running when the scenario began. */
  adoptRunning(pod: Pod, startedAt: number): void {
    pod.status.phase = "Running";
    pod.status.podIP = this.nextIp();
    pod.status.containerStatuses = pod.spec.containers.map((c) => ({
      name: c.name,
      ready: true,
      started: true,
      restartCount: 0,
      state: "running",
      startedAt,
    }));
    pod.status.conditions = [
      { type: "PodScheduled", status: "True", lastTransitionTime: startedAt },
      { type: "Initialized", status: "True", lastTransitionTime: startedAt },
      { type: "ContainersReady", status: "True", lastTransitionTime: startedAt },
      { type: "Ready", status: "True", lastTransitionTime: startedAt },
    ];
    for (const gate of pod.spec.readinessGates ?? []) {
      // Whatever sets the gate's condition had set it before the scenario began.
      pod.status.conditions.push({ type: gate.conditionType, status: "True", lastTransitionTime: startedAt });
    }
    const worker = this.newWorker(pod);
    worker.adopt(startedAt);
    this.procs.set(pod.metadata.uid!, worker);
    this.syncVolumesInUse();
  }

  // ---- faults ---------------------------------------------------------------------------------

  powerOff(): void {
    this.powered = false;
    this.kubeletRunning = false;
    this.stopLoops();
    for (const proc of this.procs.values()) proc.stop();
    this.procs.clear();
  }

  powerOn(): void {
    if (this.powered) return;
    this.powered = true;
    this.kubeletRunning = true;
    this.partitioned = false;
    this.kubeletStarted("the machine booted and its kubelet started");
  }

  kubeletStop(): void {
    this.kubeletRunning = false;
    this.stopLoops();
    for (const proc of this.procs.values()) proc.kubeletStopped();
  }

  kubeletStart(): void {
    if (!this.powered || this.kubeletRunning) return;
    this.kubeletRunning = true;
    this.kubeletStarted("the kubelet started again");
  }

  partition(): void {
    this.partitioned = true;
  }

  heal(): void {
    if (!this.partitioned) return;
    this.partitioned = false;
    if (!this.kubeletRunning) return;
    this.syncVolumesInUse();
    // The lease loop is in backoffEnsureLease (≤ 7s between tries) and renews at its next try; the
    // status loop (nodeStatusUpdateFrequency, 10s) finds the API's Ready condition differs from its
    // own at its next tick and patches it.
    const tick = this.rng.uniform(0, this.ctx.kubelet.nodeStatusUpdateFrequency * (1 + LEASE_RENEW_JITTER));
    this.ctx.engine.cancel(this.statusTimer);
    this.statusTimer = this.ctx.engine.after(tick, () =>
      this.postStatus("its status loop (nodeStatusUpdateFrequency=10s) runs again after the network healed"),
    );
    this.resync();
  }

  private kubeletStarted(why: string): void {
    this.kubeletStartedAt = this.ctx.engine.now;
    for (const proc of this.procs.values()) if (!proc.terminating) proc.kubeletStarted();
    const node = this.ctx.store.get("Node", this.name);
    if (!node) {
      this.ctx.store.create(this.nodeObject(this.ctx.engine.now));
      this.ctx.trace.emit({
        type: "NodeRegistered",
        lane: "kubelet",
        object: `Node/${this.name}`,
        node: this.name,
        message: `kubelet registers node ${this.name} with the API server`,
        why: `${why}; the Node object no longer existed, so the kubelet registers it (registerNode, default true)`,
      });
    } else {
      this.postStatus(`${why}; fastStatusUpdateOnce posts the node status at start-up`);
    }
    this.syncVolumesInUse();
    this.leaseBackoff = 0;
    this.scheduleLease(0);
    this.resync();
  }

  private stopLoops(): void {
    this.ctx.engine.cancel(this.leaseTimer);
    this.ctx.engine.cancel(this.statusTimer);
    this.leaseTimer = undefined;
    this.statusTimer = undefined;
  }

  // ---- lease and node status ------------------------------------------------------------------

  private scheduleLease(delay: number): void {
    this.ctx.engine.cancel(this.leaseTimer);
    this.leaseTimer = this.ctx.engine.after(delay, () => this.leaseSync());
  }

  /**
   * One pass of the lease controller (staging/src/k8s.io/component-helpers/apimachinery/lease/
   * controller.go): renew, then wait renewInterval × U[1, 1.04) from the end of this pass
   * (JitterUntil, sliding). Unreachable API: backoffEnsureLease retries forever, 200ms doubling to 7s.
   */
  private leaseSync(): void {
    this.leaseTimer = undefined;
    if (!this.powered || !this.kubeletRunning) return;
    if (this.partitioned) {
      this.leaseBackoff = Math.min(
        this.leaseBackoff === 0 ? LEASE_BACKOFF_INITIAL : this.leaseBackoff * 2,
        LEASE_BACKOFF_MAX,
      );
      this.scheduleLease(this.leaseBackoff);
      return;
    }
    this.leaseBackoff = 0;
    let lease = this.ctx.store.get("Lease", `kube-node-lease/${this.name}`);
    if (!lease) lease = this.ctx.store.create(this.leaseObject(this.ctx.engine.now));
    lease.spec.renewTime = this.ctx.engine.now;
    this.ctx.store.update(lease);
    this.ctx.trace.emit({
      type: "LeaseRenewed",
      lane: "kubelet",
      object: `Lease/kube-node-lease/${this.name}`,
      node: this.name,
      message: `kubelet on ${this.name} renews its Lease`,
      why: `every nodeLeaseDurationSeconds × 0.25 = ${fmt(this.renewInterval)}s, plus up to 4% jitter`,
    });
    this.scheduleLease(this.renewInterval * this.rng.uniform(1, 1 + LEASE_RENEW_JITTER));
  }

  private scheduleStatusReport(delay: number): void {
    this.ctx.engine.cancel(this.statusTimer);
    this.statusTimer = this.ctx.engine.after(delay, () =>
      this.postStatus(
        `nodeStatusReportFrequency=${this.ctx.kubelet.nodeStatusReportFrequency}s: the kubelet re-posts an unchanged status this often`,
      ),
    );
  }

  /** Post Ready=True with a fresh lastHeartbeatTime (kubelet_node_status.go). */
  private postStatus(why: string): void {
    this.statusTimer = undefined;
    if (!this.connected()) return;
    const node = this.ctx.store.get("Node", this.name);
    if (!node) return;
    const now = this.ctx.engine.now;
    const wasReady = node.status.conditions.find((c) => c.type === "Ready")?.status === "True";
    node.status.conditions = healthyConditions(now, wasReady ? node.status.conditions : undefined);
    this.ctx.store.update(node);
    if (!wasReady) {
      this.ctx.trace.emit({
        type: "NodeReady",
        lane: "kubelet",
        object: `Node/${this.name}`,
        node: this.name,
        message: `kubelet on ${this.name} posts Ready=True (KubeletReady: kubelet is posting ready status)`,
        why,
        see: getNode(node, now, this.ctx.versionString),
      });
    }
    // A real change (here: Ready again, or a kubelet start) is reported at once; from ≈1.33 the next
    // unchanged report then comes after nodeStatusReportFrequency plus a one-time random offset of
    // ±50% of it (delayAfterNodeStatusChange, PR #130919), so that nodes recovering together do not
    // report together; before, after exactly nodeStatusReportFrequency.
    const every = this.ctx.kubelet.nodeStatusReportFrequency;
    const jitter = !wasReady && minor(this.ctx.version) >= NODE_STATUS_REPORT_JITTER_SINCE_MINOR;
    this.scheduleStatusReport(jitter ? every + this.rng.uniform(-0.5, 0.5) * every : every);
  }

  // ---- pods -----------------------------------------------------------------------------------

  /** After the kubelet reconnects: confirm deletions, stop orphans, restart what died, re-report. */
  private resync(): void {
    for (const pod of this.ctx.store.podsOnNode(this.name)) this.syncPod(pod, false);
    for (const proc of [...this.procs.values()]) {
      if (!this.ctx.store.exists(proc.pod)) this.syncPod(proc.pod, true);
      else if (proc.running && !proc.terminating) proc.report();
    }
  }

  private syncPod(pod: Pod, deleted: boolean): void {
    const uid = pod.metadata.uid!;
    const proc = this.procs.get(uid);
    if (deleted || !this.ctx.store.exists(pod)) {
      if (proc) this.killOrphan(proc);
      return;
    }
    if (pod.spec.nodeName !== this.name) return;
    if (pod.metadata.deletionTimestamp !== undefined) {
      this.terminate(pod, proc);
      return;
    }
    if (!proc) this.startPod(pod);
  }

  private newWorker(pod: Pod): PodWorker {
    const owner = workloadOf(this.ctx, pod);
    return new PodWorker(this.podHost, pod, (container) =>
      this.ctx.behaviour(pod.metadata.namespace, owner, pod.metadata.name, container),
    );
  }

  /** The running pod's worker, for the timeline's pod actions. */
  podWorker(uid: string): PodWorker | undefined {
    return this.procs.get(uid);
  }

  private startPod(pod: Pod): void {
    const unattached = claimsOf(pod).filter(
      (c) => this.ctx.store.get("VolumeAttachment", attachmentName(c))?.spec.nodeName !== this.name,
    );
    if (unattached.length > 0) {
      // The kubelet waits for the attach/detach controller before mounting (volume manager).
      this.waitingForVolumes.add(pod);
      return;
    }
    const proc = this.newWorker(pod);
    this.procs.set(pod.metadata.uid!, proc);
    this.syncVolumesInUse();
    // prober_manager.go AddPod runs when the kubelet admits the pod, before its containers exist.
    proc.added();
    const restart = pod.status.containerStatuses.length > 0;
    proc.addTimer(
      this.ctx.engine.after(POD_STARTUP_SECONDS, () => {
        if (!this.powered) return;
        proc.startAll(
          restart
            ? `the pod is still bound to ${this.name} and its containers are not running (restartPolicy ${pod.spec.restartPolicy ?? "Always"})`
            : undefined,
        );
        this.checkRunsTwice(pod);
      }),
    );
  }

  /**
   * The pod has a deletionTimestamp: SIGTERM, wait for the process to exit (at most the grace
   * period), then the kubelet's final delete removes the object (pod_workers.go, status_manager.go).
   */
  private terminate(pod: Pod, proc: PodWorker | undefined): void {
    if (!proc?.running) {
      if (proc) {
        proc.stop();
        this.procs.delete(pod.metadata.uid!);
        this.syncVolumesInUse();
      }
      removePod(this.ctx, pod, {
        force: false,
        lane: "kubelet",
        message: `kubelet on ${this.name} confirms ${pod.metadata.name} is gone; the API removes the pod`,
        why: "the pod was marked for deletion and none of its containers run here any more",
      });
      return;
    }
    if (proc.terminating) return;
    proc.beginTermination();
    const grace = Math.max(
      MINIMUM_GRACE_PERIOD,
      pod.metadata.deletionGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD,
    );
    const behaviour = this.ctx.behaviour(
      pod.metadata.namespace,
      workloadOf(this.ctx, pod),
      pod.metadata.name,
    );
    // A hung process never completes its shutdown: SIGKILL at the end of the grace period.
    const hung = proc.containers.some((c) => c.running && c.hung);
    const exitIn = hung ? grace : Math.min(behaviour.shutdownSeconds ?? 0, grace);
    proc.addTimer(
      this.ctx.engine.after(exitIn, () => {
        proc.stop();
        this.procs.delete(pod.metadata.uid!);
        if (!this.connected()) return;
        this.syncVolumesInUse();
        for (const c of pod.status.containerStatuses) {
          c.state = "terminated";
          c.ready = false;
        }
        this.ctx.trace.emit({
          type: "PodTerminated",
          lane: "kubelet",
          object: ref(pod),
          node: this.name,
          message: `${pod.metadata.name}'s containers exit after SIGTERM`,
          why:
            exitIn < grace
              ? `the process exits ${fmt(exitIn)}s after SIGTERM (behaviour shutdownSeconds), within terminationGracePeriodSeconds=${grace}`
              : `terminationGracePeriodSeconds=${grace} ran out: SIGKILL`,
        });
        removePod(this.ctx, pod, {
          force: false,
          lane: "kubelet",
          message: `kubelet on ${this.name} confirms ${pod.metadata.name} stopped; the API removes the pod`,
          why: "its containers have exited, so the kubelet completes the graceful deletion",
        });
      }),
    );
  }

  /** A process whose pod object is gone (force-deleted or garbage-collected while we were cut off). */
  private killOrphan(proc: PodWorker): void {
    const running = proc.running;
    proc.stop();
    this.procs.delete(proc.pod.metadata.uid!);
    this.syncVolumesInUse();
    if (!running) return;
    this.ctx.trace.emit({
      type: "ContainerKilled",
      lane: "kubelet",
      object: ref(proc.pod),
      node: this.name,
      container: proc.pod.spec.containers[0]?.name ?? "",
      message: `kubelet on ${this.name} stops the containers of ${proc.pod.metadata.name}, whose pod object no longer exists`,
      why: "the kubelet reached the API again and cleans up pods it should no longer run (HandlePodCleanups)",
    });
  }

  /** Whether packets reach this machine (kubelet-stop does not matter: the containers keep serving). */
  dataPlane(): DataPlane {
    if (!this.powered) return "off";
    return this.partitioned ? "partitioned" : "up";
  }

  /** The process behind a pod IP here, as a connection would find it. */
  appState(podIP: string): AppState {
    for (const proc of this.procs.values()) {
      if (proc.pod.status.podIP !== podIP) continue;
      return proc.appState();
    }
    return "absent";
  }

  /** Copies of pods whose containers run here, for the "runs twice" check. */
  runningCopies(): RunningCopy[] {
    const out: RunningCopy[] = [];
    for (const proc of this.procs.values()) {
      if (!proc.running) continue;
      out.push({
        node: this.name,
        podName: proc.pod.metadata.name,
        namespace: proc.pod.metadata.namespace,
        uid: proc.pod.metadata.uid!,
        unreachable: !this.connected(),
        replaced: !this.ctx.store.exists(proc.pod) || proc.pod.metadata.deletionTimestamp !== undefined,
      });
    }
    return out;
  }

  procOwner(uid: string): string | undefined {
    const proc = this.procs.get(uid);
    return proc ? workloadOf(this.ctx, proc.pod) : undefined;
  }

  /**
   * A replacement started while the old copy still runs on a node whose kubelet cannot stop it:
   * for a StatefulSet, two members with one identity; for a Deployment, more replicas than wanted.
   */
  private checkRunsTwice(pod: Pod): void {
    const owner = workloadOf(this.ctx, pod);
    if (!owner || owner.startsWith("DaemonSet/")) return;
    const sameIdentity = owner.startsWith("StatefulSet/");
    const copies = this.ctx.machines.runningCopies((name, ns, procOwner) =>
      sameIdentity ? name === pod.metadata.name && ns === pod.metadata.namespace : procOwner === owner,
    );
    // Only pods the API already gave up on (evicted or deleted) have been replaced.
    const stale = copies.filter((c) => c.unreachable && c.replaced && c.uid !== pod.metadata.uid);
    for (const old of stale) {
      this.ctx.trace.emit({
        type: "PodRunsTwice",
        lane: "app",
        object: `Pod/${old.namespace}/${old.podName}`,
        node: old.node,
        copies: sameIdentity ? 2 : copies.length + this.liveCopies(owner),
        message: sameIdentity
          ? `${pod.metadata.name} now runs twice: the replacement on ${this.name} and the old copy on ${old.node}, which nobody can stop`
          : `${old.podName} still runs on ${old.node} while its replacement ${pod.metadata.name} runs on ${this.name}: ${copies.length + this.liveCopies(owner)} copies of ${owner.split("/").pop()} run`,
        why: `${old.node}'s containers keep running while its kubelet cannot reach the API server; nothing stops them until it does`,
      });
    }
  }

  /** Running pods of a workload that the API still counts (on reachable nodes). */
  private liveCopies(owner: string): number {
    let n = 0;
    for (const pod of this.ctx.store.list("Pod")) {
      if (pod.status.phase !== "Running" || pod.metadata.deletionTimestamp !== undefined) continue;
      if (!pod.spec.nodeName || !this.ctx.machines.reachable(pod.spec.nodeName)) continue;
      if (workloadOf(this.ctx, pod) === owner) n++;
    }
    return n;
  }

  // ---- objects --------------------------------------------------------------------------------

  private nextIp(): string {
    return `10.244.${this.index}.${this.ipCounter++}`;
  }

  private nodeObject(createdAt: number): Node {
    return {
      kind: "Node",
      metadata: { name: this.name, labels: { ...this.spec.labels }, creationTimestamp: createdAt },
      spec: { taints: this.spec.taints.map((t) => ({ ...t })) },
      status: {
        capacity: { ...this.spec.capacity },
        allocatable: { ...this.spec.capacity },
        conditions: healthyConditions(this.ctx.engine.now),
        nodeInfo: { kubeletVersion: this.ctx.versionString },
        volumesInUse: [],
      },
    };
  }

  private leaseObject(createdAt: number): Lease {
    return {
      kind: "Lease",
      metadata: { name: this.name, namespace: "kube-node-lease", creationTimestamp: createdAt },
      spec: {
        holderIdentity: this.name,
        leaseDurationSeconds: this.ctx.kubelet.nodeLeaseDurationSeconds,
        renewTime: this.ctx.engine.now,
      },
    };
  }

  describePod(pod: Pod): string {
    return getPod(pod, this.ctx.engine.now);
  }
}

/** The conditions a healthy kubelet posts (pkg/kubelet/nodestatus/setters.go reasons). */
function healthyConditions(now: number, previous?: NodeCondition[]): NodeCondition[] {
  const prev = (type: string) => previous?.find((c) => c.type === type)?.lastTransitionTime ?? now;
  const c = (type: string, status: "True" | "False", reason: string, message: string): NodeCondition => ({
    type,
    status,
    reason,
    message,
    lastHeartbeatTime: now,
    lastTransitionTime: prev(type),
  });
  return [
    c("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
    c("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
    c("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
    c("Ready", "True", "KubeletReady", "kubelet is posting ready status"),
  ];
}
