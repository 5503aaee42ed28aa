// The arithmetic of a container's probes, for `faultline probes`: what each probe does when it
// fails, how many seconds until it acts, and the boot budget. The formula is exact for the toy
// kubelet (probeSchedule: period-end) and an upper bound for the real one, whose ticker starts with
// the probe worker, not with the container (pkg/kubelet/prober/worker.go run), and can act up to a
// period sooner.

import type { Container, PodSpec } from "../kubernetes/objects.ts";
import { PROBE_TYPES, type ResolvedProbe, resolveProbe } from "./prober.ts";

export interface ProbeTiming extends ResolvedProbe {
  consequence: string;
  /** Every check fails from when the probe starts checking: initialDelaySeconds + periodSeconds × failureThreshold. */
  worstSeconds: number;
  /** The same when a tick of the real kubelet lands right at the start: one period less. */
  bestSeconds: number;
  formula: string;
  /** A container that breaks mid-life (it was passing): within periodSeconds × failureThreshold, plus timeoutSeconds if it hangs. */
  midLifeWorstSeconds: number;
  midLifeBestSeconds: number;
}

export interface ContainerTiming {
  container: string;
  probes: ProbeTiming[];
  /** How long the app may take to boot before a probe kills it; undefined: nothing kills a slow boot. */
  bootBudgetSeconds: number | undefined;
  bootBudget: string;
}

export function containerTiming(container: Container, pod: PodSpec): ContainerTiming {
  const policy = pod.restartPolicy ?? "Always";
  const restarted =
    policy === "Never" ? "not restarted (restartPolicy Never)" : `restarted (restartPolicy ${policy})`;
  const probes = PROBE_TYPES.flatMap((type): ProbeTiming[] => {
    const p = container[`${type}Probe`];
    if (!p) return [];
    const r = resolveProbe(type, p);
    const worst = r.initialDelaySeconds + r.periodSeconds * r.failureThreshold;
    const best = r.initialDelaySeconds + r.periodSeconds * (r.failureThreshold - 1);
    const consequence =
      type === "readiness"
        ? "removed from Service endpoints, keeps running"
        : type === "liveness"
          ? `container killed and ${restarted}`
          : `container killed and ${restarted}; liveness and readiness never started`;
    return [
      {
        ...r,
        consequence,
        worstSeconds: worst,
        bestSeconds: best,
        formula: `initialDelaySeconds ${r.initialDelaySeconds} + periodSeconds ${r.periodSeconds} × failureThreshold ${r.failureThreshold} = ${worst}`,
        midLifeWorstSeconds: r.periodSeconds * r.failureThreshold + r.timeoutSeconds,
        midLifeBestSeconds: r.periodSeconds * (r.failureThreshold - 1) + r.timeoutSeconds,
      },
    ];
  });
  const startup = probes.find((p) => p.type === "startup");
  const liveness = probes.find((p) => p.type === "liveness");
  let bootBudgetSeconds: number | undefined;
  let bootBudget: string;
  if (startup) {
    bootBudgetSeconds = startup.worstSeconds;
    bootBudget = `${bootBudgetSeconds}s: the startup probe's failureThreshold ${startup.failureThreshold} × periodSeconds ${startup.periodSeconds}${
      startup.initialDelaySeconds ? ` after initialDelaySeconds ${startup.initialDelaySeconds}` : ""
    }; liveness and readiness wait for it`;
  } else if (liveness) {
    bootBudgetSeconds = liveness.worstSeconds;
    bootBudget = `${bootBudgetSeconds}s: no startup probe, so liveness runs from the start and kills a boot longer than ${liveness.formula}s (add a startup probe if the app can take longer)`;
  } else {
    bootBudget = "no limit: no startup or liveness probe kills a slow boot";
  }
  return { container: container.name, probes, bootBudgetSeconds, bootBudget };
}
