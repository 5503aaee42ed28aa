// A managed platform's node auto-repair (src/platforms/<name>.ts, each rule from the platform's
// page): a node whose Ready condition is not True on every check for the platform's threshold is
// repaired: GKE drains and re-creates the VM under the node's name; AKS reboots it (reimage and
// redeploy follow only if it stays unhealthy, which no fault here outlasts a reboot); EKS replaces
// it (off by default outside Auto Mode). A node the platform skips (AKS: a shut-down node's
// node.cloudprovider.kubernetes.io/shutdown taint) or whose instance no longer exists is left alone.
// Not modelled: the drain before GKE's re-creation (a NotReady node's pods cannot be evicted by its
// kubelet; with the default 300s tolerations they are already Terminating when the ~10 minutes
// are up) and the per-cluster limits on parallel repairs.

import type { Cluster } from "../cluster/context.ts";
import type { AutoRepair } from "../platforms/types.ts";
import type { InstanceState } from "./cloud-node-lifecycle-controller.ts";

/**
 * How often the repair looks at the nodes: no platform documents its period ("periodic checks",
 * GKE); faultline checks every 10s, so a repair starts within 10s of its threshold.
 */
export const AUTO_REPAIR_CHECK_PERIOD = 10;

export interface AutoRepairMachines {
  instance(node: string): InstanceState;
  /** the VM is deleted and created again under the same name, booting for `bootSeconds` */
  recreate(node: string, bootSeconds: number): void;
  /** the VM restarts, booting for `bootSeconds` */
  reboot(node: string, bootSeconds: number): void;
}

export class NodeAutoRepair {
  /** When each node was first seen not Ready on a check (consecutive unhealthy checks). */
  private notReadySince = new Map<string, number>();
  /** Nodes being repaired: not looked at again until they are Ready. */
  private repairing = new Set<string>();

  constructor(
    private readonly cluster: Cluster,
    private readonly platform: string,
    private readonly rule: AutoRepair,
    private readonly machines: AutoRepairMachines,
  ) {
    const phase = cluster.engine.rng.fork("node-auto-repair").uniform(0, AUTO_REPAIR_CHECK_PERIOD);
    cluster.engine.at(cluster.engine.now + phase, () => this.check());
  }

  private check(): void {
    const now = this.cluster.engine.now;
    for (const node of this.cluster.store.list("Node")) {
      const name = node.metadata.name;
      const ready = node.status.conditions.find((c) => c.type === "Ready")?.status === "True";
      if (ready) {
        this.notReadySince.delete(name);
        this.repairing.delete(name);
        continue;
      }
      if (this.repairing.has(name)) continue;
      const since = this.notReadySince.get(name) ?? now;
      this.notReadySince.set(name, since);
      if (now - since < this.rule.afterSeconds) continue;
      if ((node.spec.taints ?? []).some((t) => this.rule.skipTaints.includes(t.key))) continue;
      if (this.machines.instance(name) === "not-found") continue;
      this.repair(name, now - since);
    }
    this.cluster.engine.after(AUTO_REPAIR_CHECK_PERIOD, () => this.check());
  }

  private repair(node: string, notReadyFor: number): void {
    const r = this.rule;
    // EKS's Replace brings a node with another name: not modelled yet, and off by default.
    if (r.action === "replace") return;
    this.repairing.add(node);
    this.cluster.trace.emit({
      type: "NodeAutoRepair",
      lane: "control-plane",
      object: `Node/${node}`,
      node,
      by: "node-auto-repair",
      platform: this.platform,
      action: r.action,
      notReadyFor,
      afterSeconds: r.afterSeconds,
      sameName: r.sameName,
      bootSeconds: r.bootSeconds,
      ...(r.event ? { event: r.event } : {}),
      source: r.source,
    });
    if (r.action === "recreate") this.machines.recreate(node, r.bootSeconds);
    else this.machines.reboot(node, r.bootSeconds);
  }
}
