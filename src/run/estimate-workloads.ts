// The workloads a scenario's estimate counts (their pods, whether they start in bulk, how many fit)
// and the probe checks each container's probes cost over the run: the part of budget.ts's estimate
// that reads the manifests.

import { PROBE_DEFAULTS } from "../kubernetes/defaults.ts";
import type { Container, PodSpec, Probe } from "../kubernetes/objects.ts";
import type { Scenario } from "../scenario/types.ts";
import { workloadsOf } from "../trace/workloads.ts";
import { count, num } from "./estimate-words.ts";

interface Workload {
  name: string;
  pods: number;
  spec: PodSpec;
  /** its pods start in bulk in the warm-up (kubelet/bulk-start.ts): a ReplicaSet's or bare, no claims */
  bulk: boolean;
}

/** The manifests' workloads (trace/workloads.ts, the one reading of them), as the estimate counts their pods. */
export function estimatedWorkloads(scenario: Scenario, nodes: number): Workload[] {
  return workloadsOf(scenario.manifests).map((w) => ({
    name: w.name,
    // A DaemonSet runs a pod on each node.
    pods: w.replicas ?? nodes,
    spec: w.spec,
    bulk: (w.kind === "Deployment" || w.kind === "ReplicaSet" || w.kind === "Pod") && noClaims(w.spec),
  }));
}

export function probed(c: Container): boolean {
  return PROBE_KINDS.some((k) => c[k] !== undefined);
}

/** No persistentVolumeClaim volume: what kubelet/bulk-start.ts asks of a quiet start (claimsOf). */
function noClaims(spec: PodSpec): boolean {
  return !(spec.volumes ?? []).some((v) => v.persistentVolumeClaim);
}

/** Pods the nodes can hold, by pod count, CPU and memory requests (the scheduler's fit filters). */
export function fitting(scenario: Scenario, workloads: Workload[]): number {
  const cap = { cpu: 0, memory: 0, pods: 0 };
  for (const n of scenario.nodes) {
    cap.cpu += n.capacity.cpu ?? 0;
    cap.memory += n.capacity.memory ?? 0;
    cap.pods += n.capacity.pods ?? 0;
  }
  const want = { cpu: 0, memory: 0, pods: 0 };
  for (const w of workloads) {
    want.pods += w.pods;
    for (const c of w.spec.containers) {
      want.cpu += w.pods * (c.resources?.requests?.cpu ?? 0);
      want.memory += w.pods * (c.resources?.requests?.memory ?? 0);
    }
  }
  const share = (have: number, need: number) => (need > have ? have / need : 1);
  return (
    want.pods * Math.min(share(cap.pods, want.pods), share(cap.cpu, want.cpu), share(cap.memory, want.memory))
  );
}

const PROBE_KINDS = ["startupProbe", "livenessProbe", "readinessProbe"] as const;

/**
 * Probe checks: a probe costs nothing while it passes and nothing changes (kubelet/prober.ts); it
 * runs every periodSeconds while its container boots, while a fault step makes it fail, and all the
 * time when its app never becomes healthy or its checks share the request queue with callers.
 */
export function probeChecks(
  scenario: Scenario,
  workloads: Workload[],
  T: number,
): { checks: number; restarts: number; factors: string[] } {
  let checks = 0;
  let restarts = 0;
  let containers = 0;
  let shortest = Number.POSITIVE_INFINITY;
  // Pods created at t=0 do not run through the warm-up.
  const span = scenario.start === "created" ? scenario.duration : T;
  for (const w of workloads) {
    const steps = scenario.timeline.filter((s) => s.target?.workload === w.name);
    for (const c of w.spec.containers) {
      const probes = PROBE_KINDS.map((k) => c[k]).filter((p): p is Probe => p !== undefined);
      if (probes.length === 0) continue;
      containers += w.pods;
      const b = { ...scenario.behaviour[w.name], ...scenario.behaviour[`${w.name}/${c.name}`] };
      const boot = b.bootSeconds ?? 0;
      const ready = Math.max(boot, b.readyAfterSeconds ?? boot);
      const busy = b.healthSharesRequestQueue === true && (scenario.traffic?.length ?? 0) > 0;
      const budget = bootBudget(c);
      for (const p of probes) {
        const period = p.periodSeconds ?? PROBE_DEFAULTS.periodSeconds;
        shortest = Math.min(shortest, period);
        // Booting: until the app answers (readiness: until it is ready), once per container start.
        let perPod = (p === c.readinessProbe ? ready : boot) / period + 2;
        if (boot > budget || busy) perPod = span / period;
        let faultWindows = 0;
        for (const s of steps) {
          const pods = s.target?.index !== undefined || s.target?.podName !== undefined ? 1 : w.pods;
          const until = endOf(scenario, s.at, s.do, w.name);
          const window = Math.max(0, until - s.at);
          if (s.do === "dependency-down" && p === c.readinessProbe) faultWindows += (pods * window) / period;
          if (s.do === "deadlock")
            faultWindows += (pods * 2 * Math.min(window, budgetOf(c.livenessProbe))) / period;
          if (s.do === "deadlock" || s.do === "crash") {
            restarts += pods;
            faultWindows += pods * ((p === c.readinessProbe ? ready : boot) / period + 2);
          }
        }
        checks += w.pods * perPod + faultWindows;
      }
    }
  }
  return {
    checks,
    restarts,
    factors: [
      `${count(containers)} container${containers === 1 ? "" : "s"} with probes`,
      `checks every ${num(shortest)}s or more while they boot, fail or share the callers' queue`,
    ],
  };
}

/** When a fault step's effect ends: the matching recovery step for the same workload, or the end. */
function endOf(scenario: Scenario, at: number, action: string, workload: string): number {
  const ends = action === "dependency-down" ? "dependency-up" : action === "deadlock" ? "recover" : undefined;
  if (!ends) return at;
  const end = scenario.timeline.find((s) => s.do === ends && s.at >= at && s.target?.workload === workload);
  return end ? end.at : scenario.duration;
}

/** Seconds a container may take to answer before a probe kills it: startup's, else liveness's. */
function bootBudget(c: Container): number {
  return budgetOf(c.startupProbe ?? c.livenessProbe);
}

function budgetOf(p: Probe | undefined): number {
  if (!p) return Number.POSITIVE_INFINITY;
  return (
    (p.initialDelaySeconds ?? PROBE_DEFAULTS.initialDelaySeconds) +
    (p.periodSeconds ?? PROBE_DEFAULTS.periodSeconds) *
      (p.failureThreshold ?? PROBE_DEFAULTS.failureThreshold)
  );
}
