// FL008: no startup budget for a slow boot. Without a startupProbe, liveness runs from the
// container's start (after initialDelaySeconds) and kills a boot longer than initialDelaySeconds +
// periodSeconds × failureThreshold; the restart boots again and is killed again: CrashLoopBackOff
// (kubelet: startup gates liveness and readiness only when it exists, pkg/kubelet/prober/worker.go).
// A startupProbe gives the boot its own budget (failureThreshold × periodSeconds). The boot time is
// the scenario's `behaviour.bootSeconds`; manifests alone do not say it, so this rule needs --scenario.

import { containerPath, type Draft, effectOf, type Rule, shortEffect } from "./rule.ts";

export const FL008: Rule = {
  id: "FL008",
  name: "no-startup-budget",
  title: "No startup budget for a slow boot",
  severity: "error",
  // At most one fix per workload with a liveness probe and no startup probe: check's loop.
  fixes: (input) =>
    input.objects.workloads.filter((w) => w.spec.containers.some((c) => c.livenessProbe && !c.startupProbe))
      .length,
  check(input, runs) {
    const out: Draft[] = [];
    const none = runs.get("none");
    if (!none) return out;
    for (const w of input.objects.workloads) {
      for (const c of w.spec.containers) {
        const l = c.livenessProbe;
        if (!l || c.startupProbe) continue;
        const b = { ...input.scenario.behaviour[w.name], ...input.scenario.behaviour[`${w.name}/${c.name}`] };
        const boot = b.bootSeconds;
        const budget = (l.initialDelaySeconds ?? 0) + (l.periodSeconds ?? 10) * (l.failureThreshold ?? 3);
        if (boot === undefined || boot <= budget) continue;
        const f = none.workloads[w.id];
        if (!f || !(f.restarts || f.outage > 0)) continue;
        const period = 10;
        const threshold = Math.ceil((boot * 1.5) / period) + 1;
        const { initialDelaySeconds: _i, failureThreshold: _f, periodSeconds: _p, ...handler } = l;
        const path = containerPath(w, c);
        out.push({
          object: w.id,
          field: `${path}.livenessProbe`,
          severity: "error",
          message: `container ${c.name} of ${w.kind} ${w.namespace}/${w.name} boots in ${boot}s, but with no startupProbe liveness kills it after ${budget}s`,
          consequence: {
            run: none.id,
            text: `even without a fault, ${effectOf("workload", `${w.kind} ${w.namespace}/${w.name}`, f)}`,
            figures: f,
          },
          fix: {
            text: `a startupProbe with liveness's check, periodSeconds ${period}, failureThreshold ${threshold} (${period * threshold}s for the boot)`,
            spec: {
              id: `fix/FL008/${w.id}`,
              fault: none.fault,
              patches: [
                {
                  object: w.id,
                  path: `${path}.startupProbe`,
                  value: { ...handler, periodSeconds: period, failureThreshold: threshold },
                },
              ],
            },
            subject: { kind: "workload", id: w.id },
            effect: (g) => `without a fault: ${shortEffect("workload", g)}`,
          },
        });
        break;
      }
    }
    return out;
  },
};
