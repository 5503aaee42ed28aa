// The cloud controller manager's node lifecycle controller (k8s.io/cloud-provider
// controllers/nodelifecycle/node_lifecycle_controller.go, read at kubernetes/cloud-provider
// 46666112, June 2026). wait.UntilWithContext runs MonitorNodes every --node-monitor-period
// (KubeCloudShared.NodeMonitorPeriod, default 5s: config/v1alpha1/defaults.go). For each Node:
// - Ready True: RemoveTaintOffNode(ShutdownTaint), the shutdown taint goes when the node is Ready again;
// - otherwise (Unknown when there is no Ready condition): InstanceExists (ensureNodeExistsByProviderID);
//   a Node whose instance is gone is deleted (event DeletingNode "Deleting node %s because it does
//   not exist in the cloud provider"), its taints no longer matter;
// - an instance that exists but is shut down (InstanceShutdown) gets
//   node.cloudprovider.kubernetes.io/shutdown:NoSchedule (cloud-provider api/well_known_taints.go).
// Only a platform profile runs it: upstream Kubernetes without a cloud provider has no such controller.
// The Node's Lease goes with it: the kubelet sets the Node as the Lease's owner (pkg/kubelet/nodelease
// setNodeOwnerFunc), so the garbage collector deletes it.

import type { Cluster } from "../cluster/context.ts";
import type { ConditionStatus, Node } from "../kubernetes/objects.ts";
import { TAINT_NODE_SHUTDOWN, taintString } from "../kubernetes/taints.ts";

/** What the cloud provider says of a node's instance (cloudprovider.InstancesV2 InstanceExists / InstanceShutdown). */
export type InstanceState = "running" | "shutdown" | "not-found";

export interface CloudNodeLifecycleOptions {
  /** --node-monitor-period of cloud-controller-manager, seconds (default 5) */
  nodeMonitorPeriod: number;
  /** the cloud's answer for a node's instance */
  instance(node: string): InstanceState;
}

/** cloud-controller-manager's --node-monitor-period default (k8s.io/cloud-provider config/v1alpha1/defaults.go). */
export const CLOUD_NODE_MONITOR_PERIOD = 5;

export class CloudNodeLifecycleController {
  constructor(
    private readonly cluster: Cluster,
    private readonly options: CloudNodeLifecycleOptions,
  ) {
    // The loop started with the manager, some time before the run: its phase is anywhere in a period.
    const phase = cluster.engine.rng.fork("cloud-node-lifecycle").uniform(0, options.nodeMonitorPeriod);
    cluster.engine.at(cluster.engine.now + phase, () => this.pass());
  }

  private pass(): void {
    this.monitorNodes();
    this.cluster.engine.after(this.options.nodeMonitorPeriod, () => this.pass());
  }

  /** MonitorNodes: one pass over the Node lister. */
  monitorNodes(): void {
    for (const node of this.cluster.store.list("Node")) {
      const ready: ConditionStatus =
        node.status.conditions.find((c) => c.type === "Ready")?.status ?? "Unknown";
      if (ready === "True") {
        this.removeShutdownTaint(node);
        continue;
      }
      const instance = this.options.instance(node.metadata.name);
      if (instance === "not-found") this.deleteNode(node, ready);
      else if (instance === "shutdown") this.addShutdownTaint(node, ready);
    }
  }

  private deleteNode(node: Node, ready: ConditionStatus): void {
    const name = node.metadata.name;
    this.cluster.store.delete(node);
    this.cluster.trace.emit({
      type: "NodeDeleted",
      lane: "control-plane",
      object: `Node/${name}`,
      node: name,
      by: "cloud-node-lifecycle-controller",
      ready,
      instance: "not-found",
      nodeMonitorPeriod: this.options.nodeMonitorPeriod,
    });
    const lease = this.cluster.store.get("Lease", `kube-node-lease/${name}`);
    if (lease) this.cluster.store.delete(lease);
  }

  /** cloudnodeutil.AddOrUpdateTaintOnNode: once; a second pass finds it there and writes nothing. */
  private addShutdownTaint(node: Node, ready: ConditionStatus): void {
    const taints = node.spec.taints ?? [];
    if (taints.some((t) => t.key === TAINT_NODE_SHUTDOWN && t.effect === "NoSchedule")) return;
    node.spec.taints = [
      ...taints,
      { key: TAINT_NODE_SHUTDOWN, effect: "NoSchedule", timeAdded: this.cluster.engine.now },
    ];
    this.cluster.store.update(node);
    this.cluster.trace.emit({
      type: "NodeTainted",
      lane: "control-plane",
      object: `Node/${node.metadata.name}`,
      node: node.metadata.name,
      taint: `${TAINT_NODE_SHUTDOWN}:NoSchedule`,
      taints: node.spec.taints.map(taintString),
      by: "cloud-node-lifecycle-controller",
      cause: "instance-shutdown",
      ready,
      instance: "shutdown",
      nodeMonitorPeriod: this.options.nodeMonitorPeriod,
    });
  }

  /** cloudnodeutil.RemoveTaintOffNode: nothing is written when the node has no shutdown taint. */
  private removeShutdownTaint(node: Node): void {
    const taints = node.spec.taints;
    if (!taints?.some((t) => t.key === TAINT_NODE_SHUTDOWN)) return;
    node.spec.taints = taints.filter((t) => t.key !== TAINT_NODE_SHUTDOWN);
    this.cluster.store.update(node);
    this.cluster.trace.emit({
      type: "NodeTaintRemoved",
      lane: "control-plane",
      object: `Node/${node.metadata.name}`,
      node: node.metadata.name,
      taint: `${TAINT_NODE_SHUTDOWN}:NoSchedule`,
      by: "cloud-node-lifecycle-controller",
      cause: "ready-again",
    });
  }
}
