// FL006: a liveness probe that can restart a healthy-but-slow pod. Readiness failing takes a pod out
// of the endpoints and lets it recover; liveness failing kills the container (pkg/kubelet/prober:
// worker.go, a liveness result Failure makes SyncPod kill and restart it). When liveness gives up as
// soon as readiness does (periodSeconds × failureThreshold no longer), a pod that is only slow for a
// while (a GC pause, a burst, a slow dependency) is restarted instead of rested: in-flight work lost,
// a cold start, and CrashLoopBackOff if it repeats (kube-score's pod-probes-identical; kubernetes
// #27114). The experiment: the first pod stalls (answers nothing, health checks time out) for as long
// as readiness needs to act, then recovers by itself.

import type { Container } from "../../kubernetes/objects.ts";
import type { Workload } from "../state.ts";
import {
  containerPath,
  type Draft,
  effectOf,
  failureWindow,
  firstContainerWith,
  type Rule,
  type RunSpec,
  shortEffect,
  when,
} from "./rule.ts";

function aggressive(c: Container): boolean {
  if (!c.livenessProbe || !c.readinessProbe) return false;
  // A tcpSocket liveness check still connects while the process is stuck: it cannot kill a slow pod.
  if (c.livenessProbe.tcpSocket) return false;
  return failureWindow(c.livenessProbe) <= failureWindow(c.readinessProbe);
}

/** The stall: readiness's window plus one period and its timeout, so readiness surely acts. */
function stallSeconds(c: Container): number {
  const r = c.readinessProbe!;
  return failureWindow(r) + (r.periodSeconds ?? 10) + (r.timeoutSeconds ?? 1);
}

function experiment(w: Workload, c: Container, at: number): RunSpec {
  return {
    id: `x/stall/${w.id}`,
    fault: { class: "stall", target: w.id, nodes: [], at, seconds: stallSeconds(c) },
    patches: [],
  };
}

export const FL006: Rule = {
  id: "FL006",
  name: "liveness-restarts-slow-pod",
  title: "A liveness probe that can restart a healthy-but-slow pod",
  severity: "warning",
  // At most one fix per workload with an aggressive liveness probe (those it stalls): check's loop.
  fixes: (input) => input.objects.workloads.filter((w) => firstContainerWith(w, aggressive)).length,
  experiments(input) {
    const out: RunSpec[] = [];
    for (const w of input.objects.workloads) {
      const c = firstContainerWith(w, aggressive);
      if (c) out.push(experiment(w, c, input.faultAt));
    }
    return out;
  },
  check(input, runs) {
    const out: Draft[] = [];
    for (const w of input.objects.workloads) {
      const c = firstContainerWith(w, aggressive);
      const run = runs.get(`x/stall/${w.id}`);
      const f = run?.workloads[w.id];
      if (!c || !run || !f?.restarts) continue;
      const l = c.livenessProbe!;
      const r = c.readinessProbe!;
      const lw = failureWindow(l);
      const rw = failureWindow(r);
      // Liveness's window at least twice readiness's: readiness acts first and the pod gets time to recover.
      const period = l.periodSeconds ?? 10;
      const threshold = Math.max(l.failureThreshold ?? 3, Math.ceil((2 * rw) / period));
      const path = `${containerPath(w, c)}.livenessProbe`;
      out.push({
        object: w.id,
        field: path,
        severity: "warning",
        message: `container ${c.name} of ${w.kind} ${w.namespace}/${w.name}: liveness gives up after ${lw}s of failures (periodSeconds ${period} × failureThreshold ${l.failureThreshold ?? 3}), no later than readiness (${rw}s)`,
        consequence: {
          run: run.id,
          text: `${when(run.fault)}, liveness restarts it: ${effectOf("workload", `${w.kind} ${w.namespace}/${w.name}`, f)}`,
          figures: f,
        },
        fix: {
          text: `livenessProbe.failureThreshold: ${threshold} (${threshold * period}s of failures, twice readiness's ${rw}s)`,
          spec: {
            ...experiment(w, c, input.faultAt),
            id: `fix/FL006/${w.id}`,
            patches: [{ object: w.id, path: `${path}.failureThreshold`, value: threshold }],
          },
          subject: { kind: "workload", id: w.id },
          effect: (g) => `the same stall: ${shortEffect("workload", g)}${g.restarts ? "" : ", no restart"}`,
        },
      });
    }
    return out;
  },
};
