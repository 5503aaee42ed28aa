// The what-if panel's settings: read from a scenario, and written back into a copy of it, so the page can
// run the new scenario in the browser. The same function builds the command line's scenario in tests.

import { resolveControlPlane } from "../../kubernetes/defaults.ts";
import type { KubeObject } from "../../kubernetes/objects.ts";
import type { KubernetesVersion, Scenario } from "../../scenario/types.ts";
import { type PROBES, podSpecOf } from "./model.ts";

export interface ProbeOverride {
  /** `Kind/<name>` of the workload */
  workload: string;
  container: string;
  probe: (typeof PROBES)[number];
  periodSeconds?: number;
  failureThreshold?: number;
  timeoutSeconds?: number;
}

export interface WhatIf {
  kubernetesVersion?: KubernetesVersion;
  nodeMonitorGracePeriod?: number;
  defaultUnreachableTolerationSeconds?: number;
  externalTrafficPolicy?: "Cluster" | "Local";
  /** The callers' timeout in seconds (every `traffic:` entry's `timeout`). */
  callerTimeout?: number;
  probes?: ProbeOverride[];
}

/** The callers (`traffic:` entries, each with its own `timeout` in seconds); typed once loaded, raw before. */
function callers(s: Scenario): Record<string, unknown>[] {
  const t = (s as unknown as { traffic?: unknown }).traffic ?? s.extra.traffic;
  const list = Array.isArray(t) ? t : t !== null && typeof t === "object" ? [t] : [];
  return list.filter((x): x is Record<string, unknown> => x !== null && typeof x === "object");
}

/** The current values, as the run resolves them (version defaults filled in). */
export function currentSettings(s: Scenario) {
  const cp = resolveControlPlane(s.kubernetesVersion, s.controlPlane);
  const services = s.manifests.filter((m) => m.kind === "Service");
  const etp = services
    .map(
      (m) =>
        (m.object as KubeObject & { spec: { externalTrafficPolicy?: string } }).spec.externalTrafficPolicy,
    )
    .find((v) => v !== undefined);
  const traffic = callers(s);
  const timeout = traffic[0]?.timeout;
  return {
    kubernetesVersion: s.kubernetesVersion,
    nodeMonitorGracePeriod: cp.nodeMonitorGracePeriod,
    defaultUnreachableTolerationSeconds: cp.defaultUnreachableTolerationSeconds,
    externalTrafficPolicy: (etp ?? "Cluster") as "Cluster" | "Local",
    hasServices: services.length > 0,
    callerTimeout:
      typeof timeout === "number" ? timeout : typeof timeout === "string" ? parseSeconds(timeout) : undefined,
    hasTraffic: traffic.length > 0,
  };
}

function parseSeconds(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m) return undefined;
  const v = Number(m[1]);
  return m[2] === "ms" ? v / 1000 : m[2] === "m" ? v * 60 : v;
}

/** A copy of the scenario with the what-if applied. Unset fields leave the scenario as it is. */
export function applyWhatIf(scenario: Scenario, w: WhatIf): Scenario {
  const s = structuredClone(scenario);
  if (w.kubernetesVersion !== undefined) s.kubernetesVersion = w.kubernetesVersion;
  if (w.nodeMonitorGracePeriod !== undefined)
    s.controlPlane.nodeMonitorGracePeriod = w.nodeMonitorGracePeriod;
  if (w.defaultUnreachableTolerationSeconds !== undefined)
    s.controlPlane.defaultUnreachableTolerationSeconds = w.defaultUnreachableTolerationSeconds;
  if (w.externalTrafficPolicy !== undefined)
    for (const m of s.manifests)
      if (m.kind === "Service")
        (m.object as KubeObject & { spec: { externalTrafficPolicy?: string } }).spec.externalTrafficPolicy =
          w.externalTrafficPolicy;
  if (w.callerTimeout !== undefined) for (const c of callers(s)) c.timeout = w.callerTimeout;
  for (const p of w.probes ?? []) {
    for (const m of s.manifests) {
      if (`${m.kind}/${m.object.metadata.name}` !== p.workload) continue;
      const c = podSpecOf(m.object)?.containers.find((x) => x.name === p.container);
      const probe = c?.[`${p.probe}Probe`];
      if (!probe) continue;
      if (p.periodSeconds !== undefined) probe.periodSeconds = p.periodSeconds;
      if (p.failureThreshold !== undefined) probe.failureThreshold = p.failureThreshold;
      if (p.timeoutSeconds !== undefined) probe.timeoutSeconds = p.timeoutSeconds;
    }
  }
  return s;
}
