// A managed platform's node auto-repair (src/platforms/<name>.ts, each rule from the platform's
// page): a node whose Ready condition is not True on every check for the platform's threshold is
// repaired: GKE drains and re-creates the VM under the node's name; AKS reboots it (reimage and
// redeploy follow only if it stays unhealthy, which no fault here outlasts a reboot); EKS replaces
// it (off by default outside Auto Mode). Besides Ready, a platform may watch further conditions,
// each with its own wait (EKS: the node monitoring agent's KernelReady, NetworkingReady, ...). A node the platform skips (AKS: a shut-down node's
// node.cloudprovider.kubernetes.io/shutdown taint) or whose instance no longer exists is left alone.
// Not modelled: the drain before GKE's re-creation (a NotReady node's pods cannot be evicted by its
// kubelet; with the default 300s tolerations they are already Terminating when the ~10 minutes
// are up) and the per-cluster limits on parallel repairs.

import type { Cluster } from "../cluster/context.ts";
import type { Node } from "../kubernetes/objects.ts";
import type { AutoRepair, RepairCondition } from "../platforms/types.ts";
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
  /** When each node was first seen unhealthy by each watched condition, keyed `node/condition`. */
  private unhealthySince = new Map<string, number>();
  /** Nodes being repaired: not looked at again until they are healthy. */
  private repairing = new Set<string>();
  /** Ready with the rule's own wait and action, then the platform's further conditions. */
  private readonly watched: readonly RepairCondition[];

  constructor(
    private readonly cluster: Cluster,
    private readonly platform: string,
    private readonly rule: AutoRepair,
    private readonly machines: AutoRepairMachines,
  ) {
    this.watched = [
      { type: "Ready", afterSeconds: rule.afterSeconds, action: rule.action },
      ...(rule.conditions ?? []),
    ];
    const phase = cluster.engine.rng.fork("node-auto-repair").uniform(0, AUTO_REPAIR_CHECK_PERIOD);
    cluster.engine.at(cluster.engine.now + phase, () => this.check());
  }

  private check(): void {
    const now = this.cluster.engine.now;
    for (const node of this.cluster.store.list("Node")) {
      const name = node.metadata.name;
      const due = this.due(node, now);
      if (due === "healthy") {
        this.repairing.delete(name);
        continue;
      }
      if (!due || this.repairing.has(name)) continue;
      if ((node.spec.taints ?? []).some((t) => this.rule.skipTaints.includes(t.key))) continue;
      if (this.machines.instance(name) === "not-found") continue;
      this.repair(name, due.condition, due.unhealthyFor);
    }
    this.cluster.engine.after(AUTO_REPAIR_CHECK_PERIOD, () => this.check());
  }

  /**
   * Counts each watched condition's consecutive unhealthy checks: `healthy` when none is unhealthy,
   * else the first whose wait is over (undefined while none is). Ready is unhealthy when not True,
   * or when the node has no Ready condition at all; an agent's condition only when present and not True.
   */
  private due(
    node: Node,
    now: number,
  ): "healthy" | { condition: RepairCondition; unhealthyFor: number } | undefined {
    let healthy = true;
    let due: { condition: RepairCondition; unhealthyFor: number } | undefined;
    for (const c of this.watched) {
      const cond = node.status.conditions.find((x) => x.type === c.type);
      const key = `${node.metadata.name}/${c.type}`;
      const bad = c.type === "Ready" ? cond?.status !== "True" : cond !== undefined && cond.status !== "True";
      if (!bad) {
        this.unhealthySince.delete(key);
        continue;
      }
      healthy = false;
      const since = this.unhealthySince.get(key) ?? now;
      this.unhealthySince.set(key, since);
      if (!due && now - since >= c.afterSeconds) due = { condition: c, unhealthyFor: now - since };
    }
    return healthy ? "healthy" : due;
  }

  private repair(node: string, c: RepairCondition, notReadyFor: number): void {
    const r = this.rule;
    // EKS's Replace brings a node with another name: not modelled yet, and off by default.
    if (c.action === "replace") return;
    this.repairing.add(node);
    this.cluster.trace.emit({
      type: "NodeAutoRepair",
      lane: "control-plane",
      object: `Node/${node}`,
      node,
      by: "node-auto-repair",
      platform: this.platform,
      action: c.action,
      notReadyFor,
      afterSeconds: c.afterSeconds,
      sameName: r.sameName,
      bootSeconds: r.bootSeconds,
      ...(r.event ? { event: r.event } : {}),
      source: r.source,
    });
    if (c.action === "recreate") this.machines.recreate(node, r.bootSeconds);
    else this.machines.reboot(node, r.bootSeconds);
  }
}
