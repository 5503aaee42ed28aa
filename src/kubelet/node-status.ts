// The kubelet's Node object: the node it registers (pkg/kubelet/kubelet_node_status.go initialNode,
// with the well-known labels, and the zone and region labels a cloud provider's node controller
// adds), the status it posts (nodestatus/setters.go: the pressure and Ready conditions,
// VolumesInUse), and when it posts it (tryUpdateNodeStatus): its status loop runs every
// nodeStatusUpdateFrequency and patches at once when the status it computes differs from the
// API's, else every nodeStatusReportFrequency.

import type { Store } from "../cluster/store.ts";
import type { Engine, Timer } from "../engine/engine.ts";
import type { Rng } from "../engine/rng.ts";
import { NODE_STATUS_UPDATE_JITTER } from "../kubernetes/defaults.ts";
import { nodeRow } from "../kubernetes/kubectl.ts";
import type { Node } from "../kubernetes/objects.ts";
import { sameVolumesInUse } from "../kubernetes/volumes.ts";
import type { NodeSpec } from "../scenario/types.ts";
import type { Trace } from "../trace/events.ts";
import type {
  KubeletStart,
  NodeReadyCause,
  NodeStatusLoopCause,
  RuntimeErrors,
} from "../trace/node-events.ts";
import { conditionsDiffer, heartbeatOnly, nodeConditions, wording } from "./node-conditions.ts";

export { heartbeatsInPlace, nodeConditions } from "./node-conditions.ts";

/** The kubelet's node status settings (KubeletConfiguration). */
export interface NodeStatusSettings {
  /** nodeStatusUpdateFrequency, 10s: how often the status loop computes the status */
  nodeStatusUpdateFrequency: number;
  /** nodeStatusReportFrequency, 5m: how often an unchanged status is posted anyway */
  nodeStatusReportFrequency: number;
  /** ≈1.33+ (PR #130919): the first unchanged report after a change is offset by ±50% */
  reportJitterAfterChange: boolean;
}

/** What the node status needs from its kubelet. */
export interface NodeStatusHost {
  readonly engine: Engine;
  readonly store: Store;
  readonly trace: Trace;
  /** the kubelet's random source */
  readonly rng: Rng;
  readonly spec: NodeSpec;
  /** `v1.32.0`, as kubectl prints the kubelet's version */
  readonly versionString: string;
  readonly settings: NodeStatusSettings;
  /** the kubelet can reach the API server */
  connected(): boolean;
  /**
   * The warm-up is starting the pods a `start: running` scenario has running at t=0 (bulk-start.ts
   * open): they stand for pods that have run for long, their volumes mounted since before it.
   */
  warmingUp(): boolean;
  /** runtimeState.runtimeErrors (runtime-state.ts): the Ready condition's message when not empty */
  runtimeErrors(): RuntimeErrors | undefined;
}

/**
 * The labels every kubelet sets on the Node it registers (initialNode: kubernetes.io/hostname, the
 * stable and the deprecated beta os and arch labels, from Go's GOOS and GOARCH: faultline's nodes are
 * linux/amd64), then its --node-labels (the scenario's `labels`, which may override them), then the
 * cloud provider's node controller's zone and region, in their GA and deprecated beta forms
 * (staging/src/k8s.io/cloud-provider/controllers/node/node_controller.go
 * getNodeModifiersFromCloudProvider).
 */
export function nodeLabels(spec: NodeSpec): Record<string, string> {
  // A Node of a cluster dump already has every label its kubelet and cloud provider set.
  if (spec.labelsAsRegistered) return { ...spec.labels };
  return {
    "kubernetes.io/hostname": spec.name,
    "kubernetes.io/os": "linux",
    "kubernetes.io/arch": "amd64",
    "beta.kubernetes.io/os": "linux",
    "beta.kubernetes.io/arch": "amd64",
    ...spec.labels,
    ...(spec.zone !== undefined
      ? { "failure-domain.beta.kubernetes.io/zone": spec.zone, "topology.kubernetes.io/zone": spec.zone }
      : {}),
    ...(spec.region !== undefined
      ? {
          "failure-domain.beta.kubernetes.io/region": spec.region,
          "topology.kubernetes.io/region": spec.region,
        }
      : {}),
  };
}

export class NodeStatus {
  private timer: Timer | undefined;
  /** the periodic report's timer, and whether it is queued (a cancelled one stays queued until its time) */
  private report: { timer: Timer } | undefined;
  private reportQueued = false;
  /** the timer is a run of the status loop that will patch a change (not the periodic report) */
  private tickPending = false;
  /**
   * The volumes mounted here as the kubelet's volume manager lists them (GetVolumesInUse, sorted):
   * what the VolumesInUse setter puts in the status at each run of the loop. A Node of a cluster
   * dump starts with the volumes its running pods mount (load/cluster/dump.ts), as its kubelet has them.
   */
  private volumesInUse: string[];
  /** the run of the status loop that will find the volumes in use changed, if no other run is due first */
  private volumesTimer: Timer | undefined;

  constructor(private readonly host: NodeStatusHost) {
    this.volumesInUse = [...(host.spec.volumesInUse ?? [])];
  }

  private get name(): string {
    return this.host.spec.name;
  }

  /** The Node the kubelet registers (registerWithAPIServer). */
  initialNode(createdAt: number): Node {
    const spec = this.host.spec;
    return {
      kind: "Node",
      metadata: { name: spec.name, labels: nodeLabels(spec), creationTimestamp: createdAt },
      spec: {
        ...(spec.unschedulable ? { unschedulable: true } : {}),
        taints: spec.taints.map((t) => ({ ...t })),
      },
      status: {
        capacity: { ...spec.capacity },
        allocatable: { ...(spec.allocatable ?? spec.capacity) },
        conditions: nodeConditions(this.host.engine.now),
        nodeInfo: { kubeletVersion: this.host.versionString },
        volumesInUse: [...this.volumesInUse],
      },
    };
  }

  /** The status loop as it stands when a `start: running` scenario begins: its next report anywhere in one period. */
  startRunning(): void {
    this.scheduleReport(this.host.rng.uniform(0, this.host.settings.nodeStatusReportFrequency));
  }

  /** A kubelet process starts: registerNode creates the Node if it is gone, else fastStatusUpdateOnce posts the status. */
  kubeletStarted(after: KubeletStart): void {
    const host = this.host;
    if (!host.store.get("Node", this.name)) {
      host.store.create(this.initialNode(host.engine.now));
      host.trace.emit({
        type: "NodeRegistered",
        lane: "kubelet",
        object: `Node/${this.name}`,
        node: this.name,
        after,
      });
      return;
    }
    this.post({ cause: after });
  }

  /**
   * The network healed: the status loop (every nodeStatusUpdateFrequency) finds the API's Ready
   * condition differs from its own at its next tick, and patches it.
   */
  networkHealed(): void {
    this.nextLoopRun({ cause: "network-healed" });
  }

  /**
   * The Node changed in the API. The kubelet's status loop reads it at each run (from its informer,
   * tryUpdateNodeStatus) and compares it with the status it computes (nodeStatusHasChanged): when
   * someone else changed the conditions (the node lifecycle controller's Unknown while this kubelet
   * was fine and renewing its Lease), its next run patches its own back, within
   * nodeStatusUpdateFrequency, without waiting for nodeStatusReportFrequency.
   */
  apiChanged(): void {
    if (this.tickPending || !this.host.connected()) return;
    const node = this.host.store.get("Node", this.name);
    if (!node) return;
    if (conditionsDiffer(node.status.conditions, this.host.runtimeErrors()))
      this.nextLoopRun({ cause: "status-differs" });
  }

  /** The runtime's errors changed (runtime-state.ts): the status loop's next run patches the change. */
  runtimeChanged(): void {
    if (this.tickPending) return;
    this.nextLoopRun({ cause: "runtime" });
  }

  /** The node shutdown manager's syncNodeStatus on the shutdown event: the status is posted now. */
  shutdownSync(): void {
    this.post({ cause: "node-shutdown" });
  }

  /** The status loop's next run, anywhere in one period (a sliding period with 4% jitter). */
  private nextLoopRun(cause: NodeStatusLoopCause): void {
    const every = this.host.settings.nodeStatusUpdateFrequency;
    const tick = this.host.rng.uniform(0, every * (1 + NODE_STATUS_UPDATE_JITTER));
    this.host.engine.cancel(this.timer);
    this.tickPending = true;
    this.timer = this.host.engine.after(tick, () =>
      this.post({ ...cause, nodeStatusUpdateFrequency: every }),
    );
  }

  stop(): void {
    this.host.engine.cancel(this.timer);
    this.host.engine.cancel(this.volumesTimer);
    this.timer = undefined;
    this.volumesTimer = undefined;
    this.tickPending = false;
  }

  private scheduleReport(delay: number): void {
    const engine = this.host.engine;
    engine.cancel(this.timer);
    // The report's one timer, re-armed once it has run (engine.rearm: the same place among the
    // events of its instant as a new one): a report allocates no timer, closure or cause.
    const report = this.report;
    if (report && !this.reportQueued) {
      engine.rearm(report.timer, engine.now + delay);
      this.timer = report.timer;
    } else {
      const cause = {
        cause: "status-report",
        nodeStatusReportFrequency: this.host.settings.nodeStatusReportFrequency,
      } as const;
      const timer = engine.after(delay, () => {
        if (this.report?.timer === timer) this.reportQueued = false;
        this.post(cause);
      });
      this.report = { timer };
      this.timer = timer;
    }
    this.reportQueued = true;
  }

  /** Post the status with a fresh lastHeartbeatTime (tryUpdateNodeStatus). */
  private post(cause: NodeReadyCause): void {
    const host = this.host;
    this.timer = undefined;
    this.tickPending = false;
    if (!host.connected()) return;
    const node = host.store.get("Node", this.name);
    if (!node) return;
    const now = host.engine.now;
    const errors = host.runtimeErrors();
    // nodeStatusHasChanged compares the whole status: a change of the volumes in use is a change.
    const volumesChanged = this.postVolumesInUse(node);
    if (heartbeatOnly(node.status.conditions, errors)) {
      this.heartbeat(node, now, volumesChanged);
      return;
    }
    const was = node.status.conditions.find((c) => c.type === "Ready");
    node.status.conditions = nodeConditions(now, node.status.conditions, errors);
    host.store.update(node);
    const ready = node.status.conditions.find((c) => c.type === "Ready")!;
    // The PLEG's message carries its elapsed time, so the real kubelet patches it at every run of
    // the loop; the model posts when the status or the errors change, not when the elapsed time does.
    const changed = was?.status !== ready.status || wording(was.message) !== wording(ready.message);
    if (changed) {
      const row = nodeRow(node, now, host.versionString);
      const base = { lane: "kubelet", object: `Node/${this.name}`, node: this.name, nodeRow: row } as const;
      if (errors) host.trace.emit({ type: "KubeletNodeNotReady", ...base, ...cause, errors });
      else host.trace.emit({ type: "NodeReady", ...base, ...cause });
    }
    this.scheduleNextReport(changed || volumesChanged);
  }

  /**
   * Any patch sets lastStatusReportTime (patchNodeStatus), so the next unchanged report comes
   * nodeStatusReportFrequency after it. After a real change (nodeStatusHasChanged: conditions or
   * volumes in use), from ≈1.33 that once gets a random offset of ±50% of it
   * (delayAfterNodeStatusChange, PR #130919), so that nodes recovering together do not report
   * together; before, after exactly nodeStatusReportFrequency.
   */
  private scheduleNextReport(changed: boolean): void {
    const every = this.host.settings.nodeStatusReportFrequency;
    const jitter = changed && this.host.settings.reportJitterAfterChange;
    this.scheduleReport(jitter ? every + this.host.rng.uniform(-0.5, 0.5) * every : every);
  }

  /**
   * A post whose conditions differ from the API's only in their heartbeats (heartbeatOnly): the
   * same Node write as a full post, its Ready unchanged, so no NodeReady, and no jitter unless
   * the volumes in use changed.
   */
  private heartbeat(node: Node, now: number, volumesChanged: boolean): void {
    for (const c of node.status.conditions) c.lastHeartbeatTime = now;
    this.host.store.update(node);
    this.scheduleNextReport(volumesChanged);
  }

  /** status.volumesInUse as the kubelet posts it: a new array only when what it lists changed (then true). */
  private postVolumesInUse(node: Node): boolean {
    if (sameVolumesInUse(node.status.volumesInUse ?? [], this.volumesInUse)) return false;
    node.status.volumesInUse = [...this.volumesInUse];
    return true;
  }

  /**
   * The volumes mounted here changed (the volume manager's GetVolumesInUse, sorted). The
   * VolumesInUse setter (pkg/kubelet/nodestatus/setters.go VolumesInUse) fills status.volumesInUse
   * at each run of the status loop; the attach/detach controller reads it to know a volume is safe
   * to detach. The run that finds it differs from the API's (kubelet_node_status.go
   * tryUpdateNodeStatus, nodeStatusHasChanged) patches it: a Node write every watcher sees, within
   * nodeStatusUpdateFrequency. While the kubelet cannot reach the API, the API keeps what it last
   * posted; the reconnect recomputes the list.
   */
  setVolumesInUse(volumes: string[]): void {
    if (!this.host.connected()) return;
    const sorted = [...new Set(volumes)].sort();
    if (sameVolumesInUse(sorted, this.volumesInUse)) return;
    this.volumesInUse = sorted;
    if (this.host.warmingUp()) {
      // Mounted since before the warm-up's history: the Node has them as registered, no post (as a
      // cluster dump's Node is registered with its running pods' volumes, load/cluster/dump.ts).
      const node = this.host.store.get("Node", this.name);
      if (node) node.status.volumesInUse = [...sorted];
      return;
    }
    this.volumesLoopRun();
  }

  /**
   * The status loop's next run for the volumes in use. A run already coming posts them: one that
   * patches a change (tickPending), or the periodic report. The report is itself a run of the loop
   * (syncNodeStatus every nodeStatusUpdateFrequency), so the loop's runs fall every
   * nodeStatusUpdateFrequency before the report's time: the next of them, drawn from nothing (the
   * kubelet's random stream, which its Lease schedule shares, is left as it was). At its run, a list
   * back as the API has it (pods mounted and unmounted between two runs, or a dump's pods mounting
   * what its Node recorded) is no change (nodeStatusHasChanged): no patch.
   */
  private volumesLoopRun(): void {
    if (this.tickPending || this.volumesTimer) return;
    const host = this.host;
    const every = host.settings.nodeStatusUpdateFrequency;
    const now = host.engine.now;
    const report = this.timer && !this.timer.cancelled ? this.timer.at : undefined;
    const at = report === undefined ? now + every : report - Math.floor((report - now) / every) * every;
    if (report !== undefined && at >= report) return;
    this.volumesTimer = host.engine.at(at, () => {
      this.volumesTimer = undefined;
      if (this.tickPending || !host.connected()) return;
      const node = host.store.get("Node", this.name);
      if (!node || sameVolumesInUse(node.status.volumesInUse ?? [], this.volumesInUse)) return;
      host.engine.cancel(this.timer);
      this.post({ cause: "volumes-in-use", nodeStatusUpdateFrequency: every });
    });
  }
}
