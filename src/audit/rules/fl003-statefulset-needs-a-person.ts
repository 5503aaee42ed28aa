// FL003: a StatefulSet that needs a person after a node loss. Its replacement must reuse the old
// pod's name, and the old pod stays Terminating while no kubelet confirms it stopped
// (pkg/controller/statefulset: a pod identity is recreated only once the old object is gone); a
// ReadWriteOnce volume stays attached to the lost node until the pod object is gone and then six
// more minutes (attach/detach controller, maxWaitForUnmountDuration), never with
// disable-force-detach-on-timeout. What ends it: the node object deleted, the pod force-deleted, or
// the out-of-service taint (non-graceful node shutdown, GA in 1.28: PodGC force-deletes the pods and
// the volumes detach at once). The fix simulated is that taint, applied two minutes after the loss
// as an automation would once the machine is confirmed off. A zonal volume can only follow to a node
// of its zone (the scheduler's VolumeBinding filter): the fix's effect says so when that is what held
// the replacement Pending.
// On a platform whose node auto-repair brings the lost node back (GKE re-creates it under its name,
// AKS reboots it: src/platforms/), the StatefulSet does come back, but only after the repair: the
// finding is then a warning whose consequence is the outage measured until then.

import { autoRepairOn } from "../../platforms/index.ts";
import { PROFILES } from "../../scenario/profiles.ts";
import type { Scenario } from "../../scenario/types.ts";
import type { Workload } from "../state.ts";
import type { RunMeasure } from "../types.ts";
import { brokenWithoutFault, type Draft, effectOf, faultRuns, type Rule, shortEffect, when } from "./rule.ts";

/** When the simulated automation taints the lost node node.kubernetes.io/out-of-service. */
export const OUT_OF_SERVICE_AFTER = 120;

export const FL003: Rule = {
  id: "FL003",
  name: "statefulset-needs-a-person",
  title: "A StatefulSet that needs a person to recover from a node loss",
  severity: "error",
  // At most one fix per StatefulSet: check's loop.
  fixes: (input) => input.objects.workloads.filter((w) => w.kind === "StatefulSet").length,
  check(input, runs) {
    const out: Draft[] = [];
    const sweep = faultRuns(runs).filter(
      (r) => r.fault.class === "power-off" || r.fault.class === "zone" || r.fault.class === "vm-terminated",
    );
    for (const w of input.objects.workloads) {
      if (w.kind !== "StatefulSet" || brokenWithoutFault(runs, "workload", w.id)) continue;
      const stuck = sweep.filter((r) => {
        const f = r.workloads[w.id];
        return (
          f !== undefined && f.recovered === null && f.reasons.some((x) => x.includes("stuck Terminating"))
        );
      });
      // The node loss that takes fewest nodes: the plainest case of it.
      const worst = stuck.sort((a, b) => a.fault.nodes.length - b.fault.nodes.length)[0];
      const repaired = worst ? undefined : afterRepair(input.scenario, sweep, w);
      const chosen = worst ?? repaired?.run;
      if (!chosen) continue;
      out.push(draft(w, chosen, repaired?.message));
    }
    return out;
  },
};

/**
 * The platform's auto-repair brought the StatefulSet back: the run where it took longest, and the
 * words for it. It counts only when it was whole again no sooner than the repair's threshold.
 */
function afterRepair(
  scenario: Pick<Scenario, "profile" | "autoRepair">,
  sweep: RunMeasure[],
  w: Workload,
): { run: RunMeasure; message: string } | undefined {
  const platform = PROFILES[scenario.profile ?? "stock"].platform;
  const repair = platform?.autoRepair;
  if (!platform || !repair || !autoRepairOn(repair, scenario.autoRepair)) return undefined;
  const late = sweep.filter((r) => {
    const f = r.workloads[w.id];
    return f !== undefined && f.recovered !== null && f.recovered >= repair.afterSeconds && f.outage > 0;
  });
  const run = late.sort((a, b) => a.fault.nodes.length - b.fault.nodes.length)[0];
  if (!run) return undefined;
  const how =
    repair.action === "recreate"
      ? "re-creates the lost node under its name"
      : repair.action === "replace"
        ? "replaces the lost node with a new one in its node group"
        : "reboots the lost node";
  return {
    run,
    message: `StatefulSet ${w.namespace}/${w.name} comes back after a node loss only when ${platform.title}'s node auto-repair ${how}, ${repair.afterSeconds / 60} minutes after it went NotReady (${repair.source.split(" ")[0]})`,
  };
}

function draft(w: Workload, worst: RunMeasure, repaired: string | undefined): Draft {
  const f = worst.workloads[w.id]!;
  return {
    object: w.id,
    field: w.claimTemplates.length > 0 ? "spec.volumeClaimTemplates" : "",
    severity: repaired ? "warning" : "error",
    message:
      repaired ??
      `StatefulSet ${w.namespace}/${w.name} does not come back by itself after a node loss${w.claimTemplates.length > 0 ? ", and its ReadWriteOnce volumes stay attached to the lost node" : ""}`,
    consequence: {
      run: worst.id,
      text: `${when(worst.fault)}, ${effectOf("workload", `StatefulSet ${w.namespace}/${w.name}`, f)}`,
      figures: f,
    },
    fix: {
      text: `taint the lost node node.kubernetes.io/out-of-service=nodeshutdown:NoExecute once it is confirmed off (by a person or an automation; simulated ${OUT_OF_SERVICE_AFTER / 60}m after the loss), and remove the taint when it is back`,
      spec: {
        id: `fix/FL003/${w.id}/${worst.id}`,
        fault: worst.fault,
        patches: [],
        operator: { do: "taint-out-of-service", after: OUT_OF_SERVICE_AFTER },
      },
      subject: { kind: "workload", id: w.id },
      saysInstead: (g) => g.reasons.some((r) => r.includes("volume node affinity conflict")),
      // A volume provisioned WaitForFirstConsumer keeps the zone of its first node (its PV's node
      // affinity): with no other node in that zone, even the taint cannot bring the pod back.
      effect: (g, run) =>
        `${when(run.fault)}: ${shortEffect("workload", g)}${
          g.reasons.some((r) => r.includes("volume node affinity conflict"))
            ? "; its volume is zonal and no other node of that zone can take the pod: the fix also needs a second node in each zone that holds its volumes"
            : ""
        }`,
    },
  };
}
