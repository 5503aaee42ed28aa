// FL002: replicas that all run on one node, or all in one zone. Replica count without spread is a
// number, not redundancy (the article "What happens if a Kubernetes node suddenly disappears?", "All replicas were on the failed node"): the one failure takes
// every endpoint. The scheduler spreads a workload by default (the system default topology spread
// constraints, pkg/scheduler/framework/plugins/podtopologyspread), so this comes from a nodeSelector,
// an affinity, a full cluster or too few nodes; the placement is the one the run found at t=0.

import { spreadPatches } from "./fl001-single-replica.ts";
import {
  brokenWithoutFault,
  consequenceOf,
  type Draft,
  type FaultClass,
  faultRuns,
  type Rule,
  refault,
  servicesOf,
} from "./rule.ts";

export const FL002: Rule = {
  id: "FL002",
  name: "replicas-concentrated",
  title: "Replicas concentrated on one node or one zone",
  severity: "error",
  // At most one fix per workload of two or more replicas (not a DaemonSet or a Pod): check's loop.
  fixes: (input) =>
    input.objects.workloads.filter((w) => w.kind !== "DaemonSet" && w.kind !== "Pod" && w.replicas >= 2)
      .length,
  check(input, runs) {
    const out: Draft[] = [];
    const sweep = faultRuns(runs);
    const zoneOf = new Map(input.scenario.nodes.map((n) => [n.name, n.zone]));
    for (const w of input.objects.workloads) {
      if (w.kind === "DaemonSet" || w.kind === "Pod" || w.replicas < 2) continue;
      const nodes = new Set(input.start.pods.filter((p) => p.owner === w.id && p.node).map((p) => p.node!));
      if (nodes.size === 0) continue;
      const zones = new Set([...nodes].map((n) => zoneOf.get(n)));
      const onOneNode = nodes.size === 1;
      const onOneZone = !onOneNode && zones.size === 1 && [...zones][0] !== undefined;
      if (!onOneNode && !onOneZone) continue;
      const where = onOneNode ? `node ${[...nodes][0]}` : `zone ${[...zones][0]}`;
      // A nodeSelector that only so few nodes match is the cause a spread cannot undo: say so.
      const selector = Object.entries(w.spec.nodeSelector ?? {});
      const eligible = input.scenario.nodes.filter((n) => selector.every(([k, v]) => n.labels[k] === v));
      const pinned =
        selector.length > 0 && eligible.length <= nodes.size
          ? ` (its nodeSelector ${selector.map(([k, v]) => `${k}=${v}`).join(",")} matches only ${eligible.map((n) => n.name).join(", ") || "no node"})`
          : "";
      const classes: FaultClass[] = onOneNode
        ? ["power-off", "drain", "partition", "kubelet-stop"]
        : ["zone"];
      for (const svc of servicesOf(input.objects, w.id)) {
        if (brokenWithoutFault(runs, "service", svc.id)) continue;
        const hits = sweep.filter(
          (r) =>
            classes.includes(r.fault.class as FaultClass) &&
            (onOneNode
              ? r.fault.nodes.includes([...nodes][0]!) || r.sharedBy?.includes([...nodes][0]!)
              : r.fault.target === [...zones][0]) &&
            (r.services[svc.id]?.outage ?? 0) > 0,
        );
        const worst = hits.sort((a, b) => b.services[svc.id]!.outage - a.services[svc.id]!.outage)[0];
        if (!worst) continue;
        const _f = worst.services[svc.id]!;
        const fix = spreadPatches(input, w);
        out.push({
          object: w.id,
          field: w.spec.nodeSelector ? `${w.specPath}.nodeSelector` : "spec.replicas",
          severity: onOneNode ? "error" : "warning",
          message: `all ${w.replicas} replicas of ${w.kind} ${w.namespace}/${w.name} run on ${where}${pinned}, behind Service ${svc.id}`,
          consequence: consequenceOf(worst, "service", svc.id),
          fix: refault("FL002", w.id, worst, input.faultAt, fix.text, fix.patches, {
            kind: "service",
            id: svc.id,
          }),
        });
        break;
      }
    }
    return out;
  },
};
