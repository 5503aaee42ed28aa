// FL004: a PodDisruptionBudget that blocks every drain. The Eviction API refuses an eviction that
// would leave fewer healthy pods than the budget wants (pkg/registry/core/pod/storage/eviction.go,
// disruptionsAllowed = currentHealthy − desiredHealthy from pkg/controller/disruption); with
// minAvailable equal to the replicas, maxUnavailable 0, or neither field (0 pods expected), that is
// every eviction, and `kubectl drain` retries every 5s forever: node maintenance stops until
// someone edits the budget.

import { brokenWithoutFault, type Draft, faultRuns, fixRun, type Rule, short, when } from "./rule.ts";

/**
 * disruptionsAllowed with every pod healthy: replicas − desiredHealthy (percentages of the
 * controllers' replicas, rounded up, as the disruption controller does); a budget with neither
 * field expects no pods and allows nothing (cluster/eviction.ts pdbStatus).
 */
export function blocksEverything(
  min: number | string | undefined,
  max: number | string | undefined,
  replicas: number,
): boolean {
  const resolve = (v: number | string) =>
    typeof v === "number" ? v : Math.ceil((Number.parseFloat(v) / 100) * replicas);
  if (min !== undefined) return replicas - resolve(min) <= 0;
  if (max !== undefined) return resolve(max) <= 0;
  return true;
}

export const FL004: Rule = {
  id: "FL004",
  name: "pdb-blocks-drain",
  title: "A PodDisruptionBudget that blocks every drain",
  severity: "error",
  // At most one fix per PodDisruptionBudget: check's loop.
  fixes: (input) => input.objects.budgets.length,
  check(input, runs) {
    const out: Draft[] = [];
    const drains = faultRuns(runs).filter((r) => r.fault.class === "drain");
    for (const b of input.objects.budgets) {
      // Only a budget that allows no disruption even with every pod healthy blocks every drain.
      const replicas = b.covers.reduce((n, id) => n + (input.objects.workload.get(id)?.replicas ?? 0), 0);
      if (!blocksEverything(b.minAvailable, b.maxUnavailable, replicas)) continue;
      const blocked = drains.filter((r) => r.blockedBy.includes(b.id));
      const worst = blocked[0];
      if (!worst) continue;
      const w = b.covers.map((id) => input.objects.workload.get(id)).find((x) => x !== undefined);
      const f = w ? worst.workloads[w.id] : undefined;
      if (!w || !f || brokenWithoutFault(runs, "workload", w.id)) continue;
      const object = `PodDisruptionBudget/${b.id}`;
      const field =
        b.minAvailable !== undefined
          ? "spec.minAvailable"
          : b.maxUnavailable !== undefined
            ? "spec.maxUnavailable"
            : "spec";
      const setting =
        b.minAvailable !== undefined
          ? `minAvailable ${b.minAvailable}`
          : b.maxUnavailable !== undefined
            ? `maxUnavailable ${b.maxUnavailable}`
            : "neither minAvailable nor maxUnavailable";
      out.push({
        object,
        field,
        severity: "error",
        message: `PodDisruptionBudget ${b.id} (${setting}) allows no eviction of ${short(w.id)}'s ${w.replicas} replica${w.replicas === 1 ? "" : "s"}: every drain of a node that runs one stops there`,
        consequence: {
          run: worst.id,
          text: `${when(worst.fault)}, the Eviction API refuses every eviction of ${short(w.id)}'s pods there ("Cannot evict pod as it would violate the pod's disruption budget"), kubectl retries every 5s, and the drain has not finished when the run ends`,
          figures: f,
        },
        fix: {
          text: "maxUnavailable: 1 instead (one pod at a time may go; its replacement must be Ready before the next)",
          spec: fixRun("FL004", w.id, worst.fault, input.faultAt, [
            { object, path: "spec.minAvailable", value: undefined },
            { object, path: "spec.maxUnavailable", value: 1 },
          ]),
          subject: { kind: "workload", id: w.id },
          improved: (_g, run) => !run.blockedBy.includes(b.id),
          effect: (g, run) =>
            run.blockedBy.includes(b.id)
              ? `${when(run.fault)}: the drain is still blocked`
              : `${when(run.fault)}: the drain finishes; ${g.outage > 0 ? `${short(w.id)} has no Ready pod for ${Math.round(g.outage)}s` : `${short(w.id)} always keeps a Ready pod`}${g.recovered === null ? "" : `, whole again after ${Math.round(g.recovered)}s`}`,
        },
      });
    }
    return out;
  },
};
