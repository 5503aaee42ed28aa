// The kubelet's Node object: the node it registers (pkg/kubelet/kubelet_node_status.go initialNode,
// with the well-known labels, and the zone and region labels a cloud provider's node controller
// adds), the status it posts (nodestatus/setters.go: the pressure and Ready conditions,
// VolumesInUse), and when it posts it: at once on a change, else every nodeStatusReportFrequency
// (tryUpdateNodeStatus).

import type { Store } from "../cluster/store.ts";
import type { Engine, Timer } from "../engine/engine.ts";
import type { Rng } from "../engine/rng.ts";
import { LEASE_RENEW_JITTER } from "../kubernetes/defaults.ts";
import { nodeRow } from "../kubernetes/kubectl.ts";
import type { Node, NodeCondition } from "../kubernetes/objects.ts";
import type { NodeSpec } from "../scenario/types.ts";
import type { Trace } from "../trace/events.ts";
import type { KubeletStart, NodeReadyCause } from "../trace/node-events.ts";

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

/** The conditions a healthy kubelet posts (pkg/kubelet/nodestatus/setters.go reasons and messages). */
export function healthyConditions(now: number, previous?: NodeCondition[]): NodeCondition[] {
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

export class NodeStatus {
  private timer: Timer | undefined;
  /** status.volumesInUse as last posted: what the API knows, frozen while the kubelet cannot post */
  private volumesInUse: string[] = [];

  constructor(private readonly host: NodeStatusHost) {}

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
        conditions: healthyConditions(this.host.engine.now),
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
    const every = this.host.settings.nodeStatusUpdateFrequency;
    const tick = this.host.rng.uniform(0, every * (1 + LEASE_RENEW_JITTER));
    this.host.engine.cancel(this.timer);
    this.timer = this.host.engine.after(tick, () =>
      this.post({ cause: "network-healed", nodeStatusUpdateFrequency: every }),
    );
  }

  stop(): void {
    this.host.engine.cancel(this.timer);
    this.timer = undefined;
  }

  private scheduleReport(delay: number): void {
    this.host.engine.cancel(this.timer);
    const every = this.host.settings.nodeStatusReportFrequency;
    this.timer = this.host.engine.after(delay, () =>
      this.post({ cause: "status-report", nodeStatusReportFrequency: every }),
    );
  }

  /** Post Ready=True with a fresh lastHeartbeatTime (tryUpdateNodeStatus). */
  private post(cause: NodeReadyCause): void {
    const host = this.host;
    this.timer = undefined;
    if (!host.connected()) return;
    const node = host.store.get("Node", this.name);
    if (!node) return;
    const now = host.engine.now;
    const wasReady = node.status.conditions.find((c) => c.type === "Ready")?.status === "True";
    node.status.conditions = healthyConditions(now, wasReady ? node.status.conditions : undefined);
    node.status.volumesInUse = [...this.volumesInUse];
    host.store.update(node);
    if (!wasReady) {
      host.trace.emit({
        type: "NodeReady",
        lane: "kubelet",
        object: `Node/${this.name}`,
        node: this.name,
        ...cause,
        nodeRow: nodeRow(node, now, host.versionString),
      });
    }
    // A real change (here: Ready again, or a kubelet start) is reported at once; from ≈1.33 the next
    // unchanged report then comes after nodeStatusReportFrequency plus a one-time random offset of
    // ±50% of it (delayAfterNodeStatusChange, PR #130919), so that nodes recovering together do not
    // report together; before, after exactly nodeStatusReportFrequency.
    const every = host.settings.nodeStatusReportFrequency;
    const jitter = !wasReady && host.settings.reportJitterAfterChange;
    this.scheduleReport(jitter ? every + host.rng.uniform(-0.5, 0.5) * every : every);
  }

  /**
   * The volumes mounted here changed (the volume manager's GetVolumesInUse, sorted): the VolumesInUse
   * setter puts them in status.volumesInUse, which the attach/detach controller reads to know a volume
   * is safe to detach. The real kubelet posts them with its next status update (within
   * nodeStatusUpdateFrequency); the model writes them at once while the kubelet can reach the API,
   * in place, without a Node watch event (the attach/detach controller reads them in its own
   * reconcile loop); while it cannot, the API keeps what it last posted.
   */
  setVolumesInUse(volumes: string[]): void {
    if (!this.host.connected()) return;
    const sorted = [...new Set(volumes)].sort();
    if (sorted.length === this.volumesInUse.length && sorted.every((v, i) => v === this.volumesInUse[i]))
      return;
    this.volumesInUse = sorted;
    const node = this.host.store.get("Node", this.name);
    if (node) node.status.volumesInUse = [...sorted];
  }
}
