// "Which lever shortens it by how much": the same scenario and seed with one setting changed, for
// the levers the article "What happens if a Kubernetes node suddenly disappears?" lists under "What you actually control" (caller-side health checks, client
// timeouts and retries) and the ones people reach for (traffic policy, the node controller's timer).
// Each lever is a set of patches (variant.ts), so a pulled lever is validated and defaulted as a file.

import { simulate } from "../run/simulate.ts";
import { LINKERD_RETRY_BUDGET } from "../scenario/profiles.ts";
import type { Patch, Scenario } from "../scenario/types.ts";
import { type Lever, lostOrSlow, type TrafficResult } from "../traffic/index.ts";
import { resolvedSettings } from "./settings.ts";
import { policyServices, servicePolicy, variantOf } from "./variant.ts";

interface Candidate {
  lever: string;
  applies(s: Scenario): boolean;
  /** the changes, as patches without a label (pullLevers names them after the lever) */
  patches(s: Scenario): Patch[];
}

type Caller = NonNullable<Scenario["traffic"]>[number];

const callers = (s: Scenario): Caller[] => s.traffic ?? [];

/** For each traffic entry that passes `which`, a patch per field of `set`. */
function perCaller(s: Scenario, which: (t: Caller) => boolean, set: Record<string, unknown>): Patch[] {
  return callers(s).flatMap((t, i) =>
    which(t) ? Object.entries(set).map(([field, value]) => ({ path: `traffic[${i}].${field}`, value })) : [],
  );
}

const noOutlierDetection = (t: Caller) => t.entry === "cluster-ip" && !t.outlierDetection;

export const LEVERS: Candidate[] = [
  {
    lever:
      "Envoy-style outlier detection in the callers (consecutive5xx 5, interval 10s, baseEjectionTime 30s)",
    applies: (s) => callers(s).some(noOutlierDetection),
    // `outlierDetection: {}`: Envoy's defaults, filled in by load/.
    patches: (s) => perCaller(s, noOutlierDetection, { outlierDetection: {} }),
  },
  {
    lever: "a 2s caller timeout",
    applies: (s) => callers(s).some((t) => t.timeout > 2),
    patches: (s) => perCaller(s, (t) => t.timeout > 2, { timeout: 2 }),
  },
  {
    lever: "2 retries with a retry budget (Linkerd's: 20%, at least 10/s)",
    applies: (s) => callers(s).some((t) => t.retries === 0),
    patches: (s) =>
      perCaller(s, (t) => t.retries === 0, { retries: 2, retryBudget: { ...LINKERD_RETRY_BUDGET } }),
  },
  ...(["Local", "Cluster"] as const).map(
    (policy): Candidate => ({
      lever: `externalTrafficPolicy: ${policy}`,
      applies: (s) => {
        const now = new Map(resolvedSettings(s).services.map((x) => [x.service, x.externalTrafficPolicy]));
        // Only traffic from outside is subject to externalTrafficPolicy: "how nodes distribute service
        // traffic they receive on one of the Service's "externally-facing" addresses (NodePorts,
        // ExternalIPs, and LoadBalancer IPs)" (staging/src/k8s.io/api/core/v1/types.go,
        // ServiceSpec.ExternalTrafficPolicy): not a cluster-ip caller, not a headless Service's DNS.
        return (
          callers(s).some((t) => t.entry === "load-balancer" || t.entry === "node-port") &&
          policyServices(s).some((id) => now.get(id) !== policy)
        );
      },
      patches: (s) => servicePolicy(s, policy),
    }),
  ),
  {
    lever: "node-monitor-grace-period halved",
    applies: () => true,
    // Half the grace period in force: the version's default, the profile's, or the scenario's.
    patches: (s) => [
      {
        path: "controlPlane.nodeMonitorGracePeriod",
        value: resolvedSettings(s).controlPlane.nodeMonitorGracePeriod / 2,
      },
    ],
  },
];

/** The scenario with a lever pulled: its patches, named after it in any message. */
export function pullLever(scenario: Scenario, lever: Candidate): Scenario {
  const label = `lever "${lever.lever}"`;
  return variantOf(
    scenario,
    lever.patches(scenario).map((p) => ({ ...p, label })),
  );
}

/**
 * Every lever that applies, pulled one at a time on the same scenario and seed, sorted by requests
 * saved (lost, or with an SLO lost or slow): the shape `simulate`'s `levers` option takes. Each
 * lever's run has the same engine budget as
 * the run it varies (a lever past it stops with EventBudgetExceeded, as the run would).
 */
export function pullLevers(
  scenario: Scenario,
  seed: number,
  baseline: TrafficResult,
  maxEvents?: number,
  onProgress?: (now: number, processed: number) => void,
): Lever[] {
  const lost = (r: TrafficResult) => lostOrSlow(r.totals);
  const base = lost(baseline);
  if (base === 0) return [];
  const out: Lever[] = [];
  for (const c of LEVERS) {
    if (!c.applies(scenario)) continue;
    const r = simulate(pullLever(scenario, c), {
      seed,
      engine: {
        ...(maxEvents !== undefined ? { maxEvents } : {}),
        ...(onProgress ? { onProgress } : {}),
      },
    }).traffic;
    if (!r) continue;
    out.push({
      lever: c.lever,
      lost: lost(r),
      lossWindow: r.lossWindow,
      shortensBy: Math.round((baseline.lossWindow - r.lossWindow) * 1000) / 1000,
      saves: base - lost(r),
      p99Ms: r.totals.latencyMs?.p99 ?? null,
    });
  }
  return out.sort((a, b) => b.saves - a.saves || b.shortensBy - a.shortensBy);
}
