// The values a run actually uses, for whatif/'s levers and the page's what-if fields: the version's
// defaults, the profile, the scenario's overrides (scenario/settings.ts, which the run reads too),
// where each came from, and the per-object settings a variant can change (Service traffic policies,
// probes with the API's defaults filled in, callers).

import { type ControlPlaneSettings, type KubeletSettings, PROBE_DEFAULTS } from "../kubernetes/defaults.ts";
import { podSpecOf } from "../kubernetes/objects.ts";
import { type RunSettings, resolveSettings } from "../scenario/settings.ts";
import type { KubernetesVersion, NetworkSettings, Scenario, TrafficSpec } from "../scenario/types.ts";

/** Where a value comes from: the version's default, the scenario's profile, or the scenario itself. */
export type SettingOrigin = "default" | "profile" | "scenario";

export const PROBE_KINDS = ["startup", "liveness", "readiness"] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];

export interface ProbeSettings {
  /** `Kind/<namespace>/<name>` of the Pod or workload, as a Patch's `object` */
  object: string;
  container: string;
  probe: ProbeKind;
  /** the probe's path inside the object, for a Patch: `spec.template.spec.containers[name=web].livenessProbe` */
  path: string;
  initialDelaySeconds: number;
  periodSeconds: number;
  timeoutSeconds: number;
  successThreshold: number;
  failureThreshold: number;
}

export interface ServiceSettings {
  /** `<namespace>/<name>` */
  service: string;
  type: "ClusterIP" | "NodePort" | "LoadBalancer" | "ExternalName";
  externalTrafficPolicy: "Cluster" | "Local";
  internalTrafficPolicy: "Cluster" | "Local";
}

export interface ResolvedSettings {
  kubernetesVersion: KubernetesVersion;
  /** a ProfileName, or a profile file's own name */
  profile: string;
  controlPlane: ControlPlaneSettings;
  kubelet: KubeletSettings;
  network: NetworkSettings;
  /**
   * Where each control-plane, kubelet and network value comes from, keyed by its path in the
   * scenario file (`controlPlane.nodeMonitorGracePeriod`, `network.loadBalancer.healthCheckInterval`).
   */
  origins: Record<string, SettingOrigin>;
  services: ServiceSettings[];
  /** the `traffic:` entries, every default filled in by load/ */
  traffic: TrafficSpec[];
  probes: ProbeSettings[];
}

export function resolvedSettings(scenario: Scenario): ResolvedSettings {
  const run: RunSettings = resolveSettings(scenario);
  const origins: Record<string, SettingOrigin> = {};
  const note = (section: string, resolved: object, profile: object, own: object | undefined) => {
    for (const key of Object.keys(resolved)) {
      const p = profile as Record<string, unknown>;
      const o = (own ?? {}) as Record<string, unknown>;
      const r = (resolved as Record<string, unknown>)[key];
      if (r !== null && typeof r === "object") {
        note(`${section}.${key}`, r, (p[key] ?? {}) as object, (o[key] ?? {}) as object);
        continue;
      }
      origins[`${section}.${key}`] =
        o[key] !== undefined ? "scenario" : p[key] !== undefined ? "profile" : "default";
    }
  };
  note("controlPlane", run.controlPlane, run.profile.controlPlane, scenario.controlPlane);
  note("kubelet", run.kubelet, run.profile.kubelet, scenario.kubelet);
  // Every network value has a profile value; "default" is the stock profile's.
  note("network", run.network, run.profile.name === "stock" ? {} : run.profile.network, scenario.network);
  return {
    kubernetesVersion: scenario.kubernetesVersion,
    profile: run.profile.name,
    controlPlane: run.controlPlane,
    kubelet: run.kubelet,
    network: run.network,
    origins,
    services: services(scenario),
    traffic: scenario.traffic ?? [],
    probes: probes(scenario),
  };
}

function services(scenario: Scenario): ServiceSettings[] {
  const out: ServiceSettings[] = [];
  for (const { object } of scenario.manifests) {
    if (object.kind !== "Service") continue;
    // The API server's defaults (core/v1 SetDefaults_Service): type ClusterIP, both policies Cluster.
    out.push({
      service: `${object.metadata.namespace ?? "default"}/${object.metadata.name}`,
      type: object.spec.type ?? "ClusterIP",
      externalTrafficPolicy: object.spec.externalTrafficPolicy ?? "Cluster",
      internalTrafficPolicy: object.spec.internalTrafficPolicy ?? "Cluster",
    });
  }
  return out;
}

function probes(scenario: Scenario): ProbeSettings[] {
  const out: ProbeSettings[] = [];
  for (const { object } of scenario.manifests) {
    const spec = podSpecOf(object);
    if (!spec) continue;
    const id = `${object.kind}/${object.metadata.namespace ?? "default"}/${object.metadata.name}`;
    const base = object.kind === "Pod" ? "spec" : "spec.template.spec";
    for (const c of spec.containers) {
      for (const probe of PROBE_KINDS) {
        const p = c[`${probe}Probe`];
        if (!p) continue;
        out.push({
          object: id,
          container: c.name,
          probe,
          path: `${base}.containers[name=${c.name}].${probe}Probe`,
          // SetDefaults_Probe (pkg/apis/core/v1/defaults.go).
          initialDelaySeconds: p.initialDelaySeconds ?? PROBE_DEFAULTS.initialDelaySeconds,
          periodSeconds: p.periodSeconds ?? PROBE_DEFAULTS.periodSeconds,
          timeoutSeconds: p.timeoutSeconds ?? PROBE_DEFAULTS.timeoutSeconds,
          successThreshold: p.successThreshold ?? PROBE_DEFAULTS.successThreshold,
          failureThreshold: p.failureThreshold ?? PROBE_DEFAULTS.failureThreshold,
        });
      }
    }
  }
  return out;
}
