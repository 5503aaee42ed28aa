// Per pod, each probe check, start, kill and back-off; and the probe settings as the manifests write them.

import type { Scenario } from "../../../scenario/types.ts";
import type { ReportResult } from "./payload.ts";
import { initialPods, isPod, podOwners, workloads } from "./pods.ts";

export const PROBES = ["startup", "readiness", "liveness"] as const;

export interface ProbeCheck {
  t: number;
  ok: boolean;
  consecutive?: number;
}

export interface PodProbes {
  pod: string;
  owner: string;
  node: string | null;
  /** per probe kind (startup, readiness, liveness), each check */
  checks: Record<(typeof PROBES)[number], ProbeCheck[]>;
  starts: { t: number; restartCount: number; container: string }[];
  kills: { t: number; container: string; probe?: string }[];
  backOffs: { t: number; delaySeconds: number; container: string }[];
  restarts: number;
}

export function probeKind(probe: string): (typeof PROBES)[number] | undefined {
  const p = probe.toLowerCase();
  return p.startsWith("startup")
    ? "startup"
    : p.startsWith("readiness")
      ? "readiness"
      : p.startsWith("liveness")
        ? "liveness"
        : undefined;
}

/** Probe rows per pod; `hasProbeEvents` false when the run carries no prober events at all. */
export function probeRows(
  result: ReportResult,
  _scenario?: Scenario,
): { pods: PodProbes[]; hasProbeEvents: boolean } {
  const owners = podOwners(result);
  const byPod = new Map<string, PodProbes>();
  const nodeOf = new Map<string, string | null>(result.summary.pods.map((p) => [`Pod/${p.pod}`, p.node]));
  const get = (pod: string): PodProbes => {
    let r = byPod.get(pod);
    if (!r) {
      r = {
        pod,
        owner: owners.get(pod) ?? "Pod",
        node: nodeOf.get(pod) ?? null,
        checks: { startup: [], readiness: [], liveness: [] },
        starts: [],
        kills: [],
        backOffs: [],
        restarts: 0,
      };
      byPod.set(pod, r);
    }
    return r;
  };
  let hasProbeEvents = false;
  for (const p of initialPods(result)) get(p);
  for (const e of result.events) {
    if (!isPod(e.object)) continue;
    const r = get(e.object);
    if (e.node && r.node === null) r.node = e.node;
    switch (e.type) {
      case "ProbeFailed":
      case "ProbeSucceeded": {
        hasProbeEvents = true;
        const k = probeKind(e.probe);
        if (k)
          r.checks[k].push({
            t: e.t,
            ok: e.type === "ProbeSucceeded",
            ...(e.type === "ProbeFailed" ? { consecutive: e.consecutive } : {}),
          });
        break;
      }
      case "ContainerStarted":
        r.starts.push({ t: e.t, restartCount: e.restartCount, container: e.container });
        r.restarts = Math.max(r.restarts, e.restartCount);
        break;
      case "ContainerKilled":
        hasProbeEvents ||= e.probe !== undefined;
        r.kills.push({
          t: e.t,
          container: e.container,
          ...(e.probe !== undefined ? { probe: e.probe } : {}),
        });
        break;
      case "BackOff":
        hasProbeEvents = true;
        r.backOffs.push({ t: e.t, delaySeconds: e.delaySeconds, container: e.container });
        break;
    }
  }
  return { pods: [...byPod.values()], hasProbeEvents };
}

/** Probe settings as written in the manifests, per workload container. */
export interface ProbeSetting {
  workload: string;
  container: string;
  probe: (typeof PROBES)[number];
  periodSeconds: number;
  failureThreshold: number;
  timeoutSeconds: number;
}

export function probeSettings(scenario: Scenario): ProbeSetting[] {
  const out: ProbeSetting[] = [];
  for (const w of workloads(scenario)) {
    for (const c of w.spec.containers) {
      for (const probe of PROBES) {
        const p = c[`${probe}Probe`];
        if (!p) continue;
        out.push({
          workload: `${w.kind}/${w.name}`,
          container: c.name,
          probe,
          // The API server's defaults (core/v1 SetDefaults_Probe).
          periodSeconds: p.periodSeconds ?? 10,
          failureThreshold: p.failureThreshold ?? 3,
          timeoutSeconds: p.timeoutSeconds ?? 1,
        });
      }
    }
  }
  return out;
}
