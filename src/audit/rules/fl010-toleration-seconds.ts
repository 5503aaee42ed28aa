// FL010: tolerationSeconds for the node.kubernetes.io/unreachable or not-ready taint that keep pods on
// a dead node longer than the default, or evict them before a short blip ends. The DefaultToleration
// Seconds admission plugin gives every pod 300s for both (--default-unreachable-toleration-seconds,
// --default-not-ready-toleration-seconds); a pod's own toleration replaces it, and the taint eviction
// controller deletes the pod that long after the taint (pkg/controller/tainteviction). Longer: its
// replacement waits that much longer after a loss. Shorter than a minute: a network blip that the
// default rides out (the wait exists "so that a brief network partition does not trigger a
// cluster-wide reschedule", the article "What happens if a Kubernetes node suddenly disappears?") evicts it; the experiment cuts its node off for 90s.

import type { Toleration } from "../../kubernetes/objects.ts";
import type { Workload } from "../state.ts";
import {
  brokenWithoutFault,
  consequenceOf,
  type Draft,
  effectOf,
  faultRuns,
  type Rule,
  type RuleInput,
  type RunSpec,
  refault,
  shortEffect,
  when,
  worstRun,
} from "./rule.ts";

const KEYS = ["node.kubernetes.io/unreachable", "node.kubernetes.io/not-ready"];
const BLIP_SECONDS = 90;
const SHORT = 60;
/** What the fix sets a too-short toleration to: evict a minute after the taint, past a short blip (gardener #7689). */
const FIXED_SHORT = 60;

function custom(w: Workload): Toleration[] {
  return (w.spec.tolerations ?? []).filter(
    (t) =>
      KEYS.includes(t.key ?? "") &&
      (t.effect === "NoExecute" || !t.effect) &&
      t.tolerationSeconds !== undefined,
  );
}

function defaultSeconds(input: RuleInput): number {
  return input.scenario.controlPlane.defaultUnreachableTolerationSeconds ?? 300;
}

function blipNode(input: RuleInput, w: Workload): string | undefined {
  return input.start.pods.find((p) => p.owner === w.id && p.node)?.node ?? undefined;
}

export const FL010: Rule = {
  id: "FL010",
  name: "toleration-seconds",
  title: "tolerationSeconds longer than the default, or shorter than a blip",
  severity: "warning",
  // At most two fixes per workload with tolerationSeconds of its own: a long one and a short one.
  fixes: (input) => 2 * input.objects.workloads.filter((w) => custom(w).length > 0).length,
  experiments(input) {
    const out: RunSpec[] = [];
    for (const w of input.objects.workloads) {
      const node = blipNode(input, w);
      if (node && custom(w).some((t) => t.tolerationSeconds! < SHORT))
        out.push({
          id: `x/blip/${w.id}`,
          fault: { class: "blip", target: node, nodes: [node], at: input.faultAt, seconds: BLIP_SECONDS },
          patches: [],
        });
    }
    return out;
  },
  check(input, runs) {
    const out: Draft[] = [];
    const losses = faultRuns(runs).filter((r) => r.fault.class === "power-off" || r.fault.class === "zone");
    for (const w of input.objects.workloads) {
      const tolerations = custom(w);
      if (tolerations.length === 0 || brokenWithoutFault(runs, "workload", w.id)) continue;
      const i = (w.spec.tolerations ?? []).indexOf(tolerations[0]!);
      const field = `${w.specPath}.tolerations[${i}].tolerationSeconds`;
      const long = tolerations.filter((t) => t.tolerationSeconds! > defaultSeconds(input));
      const short = tolerations.filter((t) => t.tolerationSeconds! < SHORT);
      const rest = (keep: (t: Toleration) => boolean) => (w.spec.tolerations ?? []).filter(keep);
      if (long.length > 0) {
        const worst = worstRun(losses, (r) => r.workloads[w.id]);
        const f = worst?.workloads[w.id];
        if (worst && f && f.degraded > 0) {
          const kept = rest((t) => !long.includes(t));
          out.push({
            object: w.id,
            field,
            severity: "warning",
            message: `${w.kind} ${w.namespace}/${w.name} tolerates ${long.map((t) => `${t.key} for ${t.tolerationSeconds}s`).join(" and ")}, longer than the default ${defaultSeconds(input)}s: its pods wait that long on a dead node`,
            consequence: consequenceOf(worst, "workload", w.id, `${w.kind} ${w.namespace}/${w.name}`),
            fix: refault(
              "FL010",
              w.id,
              worst,
              input.faultAt,
              `leave the ${long.map((t) => t.key).join(" and ")} toleration out (the default ${defaultSeconds(input)}s applies)`,
              [
                {
                  object: w.id,
                  path: `${w.specPath}.tolerations`,
                  value: kept.length > 0 ? kept : undefined,
                },
              ],
              { kind: "workload", id: w.id },
            ),
          });
        }
      }
      const blip = runs.get(`x/blip/${w.id}`);
      const fb = blip?.workloads[w.id];
      if (short.length > 0 && blip && fb?.evicted) {
        const fixed = (w.spec.tolerations ?? []).map((t) =>
          short.includes(t) ? { ...t, tolerationSeconds: FIXED_SHORT } : t,
        );
        out.push({
          object: w.id,
          field,
          severity: "warning",
          message: `${w.kind} ${w.namespace}/${w.name} tolerates ${short.map((t) => `${t.key} for only ${t.tolerationSeconds}s`).join(" and ")}: a short network blip evicts its pods`,
          consequence: {
            run: blip.id,
            text: `${when(blip.fault)}, ${fb.evicted} pod${fb.evicted === 1 ? " is" : "s are"} evicted and replaced though the node comes back: ${effectOf("workload", `${w.kind} ${w.namespace}/${w.name}`, fb)}`,
            figures: fb,
          },
          fix: {
            text: `tolerationSeconds: ${FIXED_SHORT}`,
            spec: {
              id: `fix/FL010/${w.id}/blip`,
              fault: blip.fault,
              patches: [{ object: w.id, path: `${w.specPath}.tolerations`, value: fixed }],
            },
            subject: { kind: "workload", id: w.id },
            effect: (g) =>
              `the same blip: ${g.evicted ? `${g.evicted} evicted` : "nothing evicted"}, ${shortEffect("workload", g)}`,
          },
        });
      }
    }
    return out;
  },
};
