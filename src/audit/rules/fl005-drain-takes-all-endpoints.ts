// FL005: no PodDisruptionBudget where a drain takes every endpoint. `kubectl drain` evicts every pod
// of the node at once through the Eviction API; without a budget nothing makes it wait for the
// replacements (staging/src/k8s.io/kubectl/pkg/drain). A budget of maxUnavailable 1 makes the second
// eviction wait until the first pod's replacement is Ready elsewhere. (One replica is FL001's: a
// budget cannot help it.)

import { LABEL_HOSTNAME } from "../../kubernetes/labels.ts";
import {
  brokenWithoutFault,
  consequenceOf,
  type Draft,
  faultRuns,
  type Rule,
  refault,
  servicesOf,
} from "./rule.ts";

export const FL005: Rule = {
  id: "FL005",
  name: "no-pdb-drain-takes-all-endpoints",
  title: "No PodDisruptionBudget where a drain takes every endpoint",
  severity: "warning",
  // At most one fix per workload of two or more replicas that no budget covers: check's loop.
  fixes: (input) =>
    input.objects.workloads.filter(
      (w) =>
        w.kind !== "DaemonSet" &&
        w.kind !== "Pod" &&
        w.replicas >= 2 &&
        !input.objects.budgets.some((b) => b.covers.includes(w.id)),
    ).length,
  check(input, runs) {
    const out: Draft[] = [];
    const drains = faultRuns(runs).filter((r) => r.fault.class === "drain");
    for (const w of input.objects.workloads) {
      if (w.kind === "DaemonSet" || w.kind === "Pod" || w.replicas < 2) continue;
      if (input.objects.budgets.some((b) => b.covers.includes(w.id))) continue;
      // Pinned to one node: FL002's (a budget would only block the drain).
      if (w.spec.nodeSelector?.[LABEL_HOSTNAME] !== undefined) continue;
      for (const svc of servicesOf(input.objects, w.id)) {
        if (brokenWithoutFault(runs, "service", svc.id)) continue;
        const worst = drains
          .filter((r) => (r.services[svc.id]?.outage ?? 0) > 0)
          .sort((a, b) => b.services[svc.id]!.outage - a.services[svc.id]!.outage)[0];
        if (!worst) continue;
        const _f = worst.services[svc.id]!;
        const pdb = {
          apiVersion: "policy/v1",
          kind: "PodDisruptionBudget",
          metadata: { name: w.name, namespace: w.namespace },
          spec: { maxUnavailable: 1, selector: { matchLabels: w.selector?.matchLabels ?? w.labels } },
        };
        out.push({
          object: w.id,
          field: "",
          severity: "warning",
          message: `no PodDisruptionBudget covers ${w.kind} ${w.namespace}/${w.name}, and a drain takes every endpoint of Service ${svc.id}`,
          consequence: consequenceOf(worst, "service", svc.id),
          fix: refault(
            "FL005",
            w.id,
            worst,
            input.faultAt,
            `a PodDisruptionBudget ${w.namespace}/${w.name} with maxUnavailable: 1 over its pods`,
            [{ path: "manifests", value: [...input.manifestEntries, pdb] }],
            { kind: "service", id: svc.id },
          ),
        });
        break;
      }
    }
    return out;
  },
};
