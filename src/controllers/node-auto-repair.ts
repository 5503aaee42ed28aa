// A managed platform's node auto-repair (src/platforms/<name>.ts, each rule from the platform's
// page): a node whose Ready condition is not True on every check for the platform's threshold is
// repaired: GKE drains and re-creates the VM under the node's name; AKS reboots it (reimage and
// redeploy follow only if it stays unhealthy, which no fault here outlasts a reboot); EKS replaces
// it (off by default outside Auto Mode; the scenario's `autoRepair: true` turns it on): the
// instance is terminated, the cloud controller deletes its Node, and the node group's new instance
// joins under a new name. Besides Ready, a platform may watch further conditions, each with its own
// wait (EKS: the node monitoring agent's KernelReady, NetworkingReady, ...). A node the platform
// skips (AKS: a shut-down node's node.cloudprovider.kubernetes.io/shutdown taint), whose instance no
// longer exists, or in a node group the platform leaves alone (EKS: more than five nodes, more than
// 20% unhealthy) is not repaired.
//
// Not modelled: the drain before GKE's re-creation. The page: "GKE waits one hour for the drain to
// complete. If the drain doesn't complete, the node is shut down and a new node is created." On a
// NotReady node no pod can finish terminating (its kubelet is gone; with the default 300s
// tolerations they are already Terminating when the ~10 minutes are up); whether GKE counts such a
// drain as complete is not documented, so the VM is re-created when the repair starts, the earliest
// the page allows (the latest is an hour later). Nor GKE's limits on parallel repairs, nor EKS
// nodeRepairConfig's maxUnhealthyNodeThreshold* and maxParallelNodesRepaired* (optional, no
// default documented: API_NodeRepairConfig).

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
  /** the instance is terminated; another, named `replacement`, registers `bootSeconds` later */
  replace(node: string, replacement: string, bootSeconds: number): void;
}

export class NodeAutoRepair {
  /** When each node was first seen unhealthy by each watched condition, keyed `node/condition`. */
  private unhealthySince = new Map<string, number>();
  /** Nodes being repaired: not looked at again until they are healthy. */
  private repairing = new Set<string>();
  /** Replacements made so far: the next one's name is `<node>-r<n>` (EKS names a node after its new instance). */
  private replaced = 0;
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
    const nodes = this.cluster.store.list("Node");
    const judged = nodes.map((node) => ({ node, due: this.due(node, now) }));
    const paused = this.pausedGroups(judged);
    for (const { node, due } of judged) {
      const name = node.metadata.name;
      if (due === "healthy") {
        this.repairing.delete(name);
        continue;
      }
      if (!due || this.repairing.has(name)) continue;
      if ((node.spec.taints ?? []).some((t) => this.rule.skipTaints.includes(t.key))) continue;
      if (this.machines.instance(name) === "not-found") continue;
      if (paused.has(this.groupOf(node))) continue;
      this.repair(name, due.condition, due.unhealthyFor);
    }
    this.cluster.engine.after(AUTO_REPAIR_CHECK_PERIOD, () => this.check());
  }

  private groupOf(node: Node): string {
    const label = this.rule.pause?.groupLabel;
    return (label && node.metadata.labels?.[label]) ?? "";
  }

  /**
   * The node groups in which the platform starts no repair now (EKS: a managed node group of more
   * than five nodes with more than 20% of them unhealthy; repairs already under way go on).
   */
  private pausedGroups(judged: readonly { node: Node; due: unknown }[]): Set<string> {
    const pause = this.rule.pause;
    const out = new Set<string>();
    if (!pause) return out;
    const size = new Map<string, number>();
    const unhealthy = new Map<string, number>();
    for (const { node, due } of judged) {
      const g = this.groupOf(node);
      size.set(g, (size.get(g) ?? 0) + 1);
      if (due !== "healthy") unhealthy.set(g, (unhealthy.get(g) ?? 0) + 1);
    }
    for (const [g, n] of size)
      if (n > pause.moreThanNodes && (unhealthy.get(g) ?? 0) > pause.unhealthyFraction * n) out.add(g);
    return out;
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
    this.repairing.add(node);
    const replacement = c.action === "replace" ? `${node}-r${++this.replaced}` : undefined;
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
      ...(replacement ? { replacement } : {}),
      ...(r.event ? { event: r.event } : {}),
      source: r.source,
    });
    if (replacement) this.machines.replace(node, replacement, r.bootSeconds);
    else if (c.action === "recreate") this.machines.recreate(node, r.bootSeconds);
    else this.machines.reboot(node, r.bootSeconds);
  }
}
