// The HTML report's what-if panel: the settings it shows (those the run on screen used, profile and
// version defaults included) and the variant its fields ask for, made like every variant: patches
// loaded through load/, so a value the file could not hold is refused with the file's own message.
// Browser-safe (no node: imports): the page runs it.

import type { KubernetesVersion, Patch, Scenario } from "../scenario/types.ts";
import { type ProbeKind, resolvedSettings } from "./settings.ts";
import { everyCaller, policyServices, servicePolicy, variantOf } from "./variant.ts";

export interface ProbeOverride {
  /** `Kind/<name>` or `Kind/<namespace>/<name>` of the Pod or workload */
  workload: string;
  container: string;
  probe: ProbeKind;
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

/** The values the panel starts from: those the run used (version defaults, profile, overrides). */
export function currentSettings(s: Scenario) {
  const r = resolvedSettings(s);
  const policies = new Map(r.services.map((x) => [x.service, x.externalTrafficPolicy]));
  const shown = policyServices(s);
  return {
    kubernetesVersion: s.kubernetesVersion,
    nodeMonitorGracePeriod: r.controlPlane.nodeMonitorGracePeriod,
    defaultUnreachableTolerationSeconds: r.controlPlane.defaultUnreachableTolerationSeconds,
    externalTrafficPolicy: (shown.length > 0 ? policies.get(shown[0]!) : undefined) ?? "Cluster",
    hasServices: r.services.length > 0,
    callerTimeout: r.traffic[0]?.timeout,
    hasTraffic: r.traffic.length > 0,
  };
}

/** The patches a what-if stands for; unset fields leave the scenario as it is. */
export function whatIfPatches(s: Scenario, w: WhatIf): Patch[] {
  const out: Patch[] = [];
  const set = (path: string, value: unknown, name: string) =>
    out.push({ path, value, label: `what-if ${name}=${String(value)}` });
  if (w.kubernetesVersion !== undefined) set("kubernetesVersion", w.kubernetesVersion, "kubernetesVersion");
  if (w.nodeMonitorGracePeriod !== undefined)
    set("controlPlane.nodeMonitorGracePeriod", w.nodeMonitorGracePeriod, "node-monitor-grace-period");
  if (w.defaultUnreachableTolerationSeconds !== undefined)
    set(
      "controlPlane.defaultUnreachableTolerationSeconds",
      w.defaultUnreachableTolerationSeconds,
      "default-unreachable-toleration-seconds",
    );
  if (w.externalTrafficPolicy !== undefined)
    out.push(
      ...servicePolicy(
        s,
        w.externalTrafficPolicy,
        `what-if externalTrafficPolicy=${w.externalTrafficPolicy}`,
      ),
    );
  if (w.callerTimeout !== undefined)
    out.push(...everyCaller(s, "timeout", w.callerTimeout, `what-if caller timeout=${w.callerTimeout}`));
  const probes = resolvedSettings(s).probes;
  for (const o of w.probes ?? []) {
    const [kind, ...rest] = o.workload.split("/");
    const p = probes.find(
      (x) =>
        x.container === o.container &&
        x.probe === o.probe &&
        (rest.length === 2
          ? x.object === o.workload
          : x.object.startsWith(`${kind}/`) && x.object.endsWith(`/${rest[0]}`)),
    );
    if (!p) continue;
    for (const field of ["periodSeconds", "failureThreshold", "timeoutSeconds"] as const) {
      const v = o[field];
      if (v === undefined) continue;
      out.push({
        object: p.object,
        path: `${p.path}.${field}`,
        value: v,
        label: `what-if ${o.workload} ${o.container} ${o.probe} ${field}=${v}`,
      });
    }
  }
  return out;
}

/** The scenario with the what-if applied: a LoadError naming the field if a value is refused. */
export function applyWhatIf(scenario: Scenario, w: WhatIf): Scenario {
  return variantOf(scenario, whatIfPatches(scenario, w));
}
