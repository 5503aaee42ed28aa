// "Which lever shortens it by how much": the same scenario and seed with one setting changed, for
// the levers seed 000 lists under "What you actually control" (caller-side health checks, client
// timeouts and retries) and the ones people reach for (traffic policy, the node controller's timer).

import type { Scenario } from "../scenario/types.ts";
import { simulate } from "../simulate.ts";
import { ENVOY_OUTLIER_DEFAULTS, LINKERD_RETRY_BUDGET } from "./profiles.ts";
import type { Lever, TrafficResult } from "./result.ts";
import { setServicePolicy } from "./vary.ts";

interface Candidate {
  lever: string;
  applies(s: Scenario): boolean;
  apply(s: Scenario): Scenario;
}

const traffic = (s: Scenario) => s.traffic ?? [];

export const LEVERS: Candidate[] = [
  {
    lever:
      "Envoy-style outlier detection in the callers (consecutive5xx 5, interval 10s, baseEjectionTime 30s)",
    applies: (s) => traffic(s).some((t) => t.entry === "cluster-ip" && !t.outlierDetection),
    apply: (s) => ({
      ...s,
      traffic: traffic(s).map((t) =>
        t.entry === "cluster-ip" ? { ...t, outlierDetection: { ...ENVOY_OUTLIER_DEFAULTS } } : t,
      ),
    }),
  },
  {
    lever: "a 2s caller timeout",
    applies: (s) => traffic(s).some((t) => t.timeout > 2),
    apply: (s) => ({ ...s, traffic: traffic(s).map((t) => ({ ...t, timeout: Math.min(t.timeout, 2) })) }),
  },
  {
    lever: "2 retries with a retry budget (Linkerd's: 20%, at least 10/s)",
    applies: (s) => traffic(s).some((t) => t.retries === 0),
    apply: (s) => ({
      ...s,
      traffic: traffic(s).map((t) =>
        t.retries === 0 ? { ...t, retries: 2, retryBudget: { ...LINKERD_RETRY_BUDGET } } : t,
      ),
    }),
  },
  ...(["Local", "Cluster"] as const).map(
    (policy): Candidate => ({
      lever: `externalTrafficPolicy: ${policy}`,
      applies: (s) =>
        traffic(s).some((t) => t.entry !== "cluster-ip") &&
        traffic(s).some((t) => servicePolicy(s, t.service) !== policy),
      apply: (s) => setServicePolicy(s, policy),
    }),
  ),
  {
    lever: "node-monitor-grace-period halved",
    applies: () => true,
    apply: (s) => ({
      ...s,
      controlPlane: { ...s.controlPlane, nodeMonitorGracePeriod: halfGrace(s) },
    }),
  },
];

function halfGrace(s: Scenario): number {
  const base =
    s.controlPlane.nodeMonitorGracePeriod ??
    (s.profile === "doks-measured" ? 2.5 : Number(s.kubernetesVersion.split(".")[1]) >= 32 ? 50 : 40);
  return base / 2;
}

function servicePolicy(s: Scenario, service: string): string {
  const m = s.manifests.find(
    (m) =>
      m.object.kind === "Service" &&
      `${m.object.metadata.namespace ?? "default"}/${m.object.metadata.name}` === service,
  );
  return m?.object.kind === "Service" ? (m.object.spec.externalTrafficPolicy ?? "Cluster") : "Cluster";
}

export function pullLevers(scenario: Scenario, seed: number, baseline: TrafficResult): Lever[] {
  const lost = (r: TrafficResult) => r.totals.timeout + r.totals.refused + r.totals.error;
  const base = lost(baseline);
  if (base === 0) return [];
  const out: Lever[] = [];
  for (const c of LEVERS) {
    if (!c.applies(scenario)) continue;
    const r = simulate(c.apply(scenario), { seed }).traffic;
    if (!r) continue;
    out.push({
      lever: c.lever,
      lost: lost(r),
      lossWindow: r.lossWindow,
      shortensBy: Math.round((baseline.lossWindow - r.lossWindow) * 1000) / 1000,
      saves: base - lost(r),
    });
  }
  return out.sort((a, b) => b.saves - a.saves || b.shortensBy - a.shortensBy);
}
