// What a managed platform adds to the run (a profile with a cloud: scenario/profiles.ts): the cloud
// controller manager's node lifecycle controller, asking the cloud about each node's instance, and
// the platform's node auto-repair, which stops and boots machines as the platform documents. Upstream
// Kubernetes without a cloud provider (the stock profile) has neither.

import type { Context } from "../cluster/context.ts";
import {
  CloudNodeLifecycleController,
  type InstanceState,
} from "../controllers/cloud-node-lifecycle-controller.ts";
import { NodeAutoRepair } from "../controllers/node-auto-repair.ts";
import { NodeAutoscaler, nodeLike } from "../controllers/node-autoscaler.ts";
import type { BulkStart } from "../kubelet/bulk-start.ts";
import { Kubelet } from "../kubelet/kubelet.ts";
import { autoRepairOn } from "../platforms/index.ts";
import type { Profile } from "../scenario/profiles.ts";
import type { Scenario } from "../scenario/types.ts";

/**
 * `instances` is the cloud's view of each machine (absent: running), which the timeline also writes;
 * `moved` is told after each machine changes (the run keeps its list of cut-off kubelets).
 */
export function startPlatform(
  ctx: Context,
  profile: Profile,
  scenario: Pick<Scenario, "autoRepair">,
  kubelets: Map<string, Kubelet>,
  instances: Map<string, InstanceState>,
  moved: () => void,
  bulk: BulkStart,
): void {
  const instance = (node: string) => instances.get(node) ?? "running";
  if (profile.cloud)
    new CloudNodeLifecycleController(ctx, { nodeMonitorPeriod: profile.cloud.nodeMonitorPeriod, instance });
  const platform = profile.platform;
  const repair = platform?.autoRepair;
  if (!platform || !autoRepairOn(repair, scenario.autoRepair) || !repair) return;
  /** The machine stops now and boots `bootSeconds` later; `gone`: the cloud finds no instance meanwhile. */
  const cycle = (node: string, bootSeconds: number, gone: boolean) => {
    const k = kubelets.get(node);
    if (!k) return;
    k.powerOff();
    if (gone) instances.set(node, "not-found");
    moved();
    ctx.engine.after(bootSeconds, () => {
      instances.set(node, "running");
      k.powerOn();
      moved();
    });
  };
  new NodeAutoRepair(ctx, platform.name, repair, {
    instance,
    // GKE's re-creation: the VM is deleted (the cloud no longer finds it) and created again, same name.
    recreate: (node, bootSeconds) => cycle(node, bootSeconds, true),
    // AKS's reboot: the instance stays; the machine stops and boots again.
    reboot: (node, bootSeconds) => cycle(node, bootSeconds, false),
    // EKS's Replace: the instance is terminated (the cloud controller then deletes its Node) and the
    // node group launches another in its place, which registers under its own name when booted.
    replace: (node, replacement, bootSeconds) => {
      const k = kubelets.get(node);
      if (!k) return;
      k.powerOff();
      instances.set(node, "not-found");
      moved();
      ctx.engine.after(bootSeconds, () => {
        const r = new Kubelet(ctx, nodeLike(k.spec, replacement), kubelets.size + 1, bulk);
        kubelets.set(replacement, r);
        r.registerAtStart(ctx.engine.now);
        moved();
        ctx.trace.emit({
          type: "RepairedNodeReady",
          lane: "control-plane",
          object: `Node/${replacement}`,
          node: replacement,
          by: "node-auto-repair",
          platform: platform.name,
          replaces: node,
          after: bootSeconds,
        });
      });
    },
  });
}

/**
 * The scenario's `autoscaler:` (Cluster Autoscaler or Karpenter), from t=0: each node it adds gets a
 * kubelet of its own that registers the node Ready when its boot is over.
 */
export function startAutoscaler(
  ctx: Context,
  scenario: Scenario,
  kubelets: Map<string, Kubelet>,
  bulk: BulkStart,
  moved: () => void,
): void {
  if (!scenario.autoscaler) return;
  new NodeAutoscaler(ctx, scenario.autoscaler, (spec) => {
    const k = new Kubelet(ctx, spec, kubelets.size + 1, bulk);
    kubelets.set(spec.name, k);
    k.registerAtStart(ctx.engine.now);
    moved();
  });
}
