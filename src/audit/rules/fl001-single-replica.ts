// FL001: one replica behind a Service. Whatever takes its pod away (a lost node, a drain) takes the
// Service's every endpoint, until a replacement is scheduled, started and Ready: after a power loss
// that is the node controller's detection (node-monitor-grace-period) plus the 300s default
// tolerationSeconds (DefaultTolerationSeconds admission) plus the start.

import { LABEL_HOSTNAME, LABEL_ZONE } from "../../kubernetes/labels.ts";
import type { Workload } from "../state.ts";
import { emptyDirState } from "./fl012-emptydir-state.ts";
import {
  brokenWithoutFault,
  consequenceOf,
  type Draft,
  faultRuns,
  type Patch,
  type Rule,
  type RuleInput,
  refault,
  servicesOf,
  worstRun,
} from "./rule.ts";

/** replicas 2 and a spread over zones (or nodes, without zones): the fix FL001 and FL002 simulate. */
export function spreadPatches(
  input: RuleInput,
  w: Workload,
  replicas?: number,
): { text: string; patches: Patch[] } {
  const zoned = input.scenario.nodes.some((n) => n.zone !== undefined);
  const key = zoned ? LABEL_ZONE : LABEL_HOSTNAME;
  const patches: Patch[] = [];
  const said: string[] = [];
  if (replicas !== undefined) {
    patches.push({ object: w.id, path: "spec.replicas", value: replicas });
    said.push(`replicas: ${replicas}`);
  }
  const selector = w.selector?.matchLabels ?? w.labels;
  patches.push({
    object: w.id,
    path: `${w.specPath}.topologySpreadConstraints`,
    value: [
      {
        maxSkew: 1,
        topologyKey: key,
        whenUnsatisfiable: "ScheduleAnyway",
        labelSelector: { matchLabels: selector },
      },
    ],
  });
  said.push(
    `a topology spread over ${zoned ? "zones" : "nodes"} (maxSkew 1, topologyKey ${key}, ScheduleAnyway)`,
  );
  const pinned = w.spec.nodeSelector?.[LABEL_HOSTNAME];
  if (pinned !== undefined) {
    const rest = Object.fromEntries(
      Object.entries(w.spec.nodeSelector ?? {}).filter(([k]) => k !== LABEL_HOSTNAME),
    );
    patches.push({
      object: w.id,
      path: `${w.specPath}.nodeSelector`,
      value: Object.keys(rest).length ? rest : undefined,
    });
    said.push(`no nodeSelector ${LABEL_HOSTNAME}: ${pinned}`);
  }
  return { text: said.join(", "), patches };
}

export const FL001: Rule = {
  id: "FL001",
  name: "single-replica-service",
  title: "A single replica behind a Service",
  severity: "error",
  // At most one fix per one-replica Deployment or ReplicaSet (not FL012's datastores): check's loop.
  fixes: (input) =>
    input.objects.workloads.filter(
      (w) =>
        (w.kind === "Deployment" || w.kind === "ReplicaSet") && w.replicas === 1 && !emptyDirState(input, w),
    ).length,
  check(input, runs) {
    const out: Draft[] = [];
    const sweep = faultRuns(runs);
    for (const w of input.objects.workloads) {
      if ((w.kind !== "Deployment" && w.kind !== "ReplicaSet") || w.replicas !== 1) continue;
      // A datastore in an emptyDir is FL012's: a second replica would be a second, empty store.
      if (emptyDirState(input, w)) continue;
      for (const svc of servicesOf(input.objects, w.id)) {
        if (brokenWithoutFault(runs, "service", svc.id)) continue;
        const worst = worstRun(sweep, (r) => r.services[svc.id]);
        const f = worst?.services[svc.id];
        if (!worst || !f || f.outage === 0) continue;
        const fix = spreadPatches(input, w, 2);
        out.push({
          object: w.id,
          field: "spec.replicas",
          severity: "error",
          message: `${w.kind} ${w.namespace}/${w.name} runs one replica behind Service ${svc.id}`,
          consequence: consequenceOf(worst, "service", svc.id),
          fix: refault("FL001", w.id, worst, input.faultAt, fix.text, fix.patches, {
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
