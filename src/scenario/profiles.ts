// Profiles: named sets of data-plane and control-plane settings. `stock` is upstream Kubernetes
// with defaults documented by each project; the others are calibrated from published measurements
// and say so. A scenario's own `controlPlane`, `kubelet` and `network` settings win over its profile.

import { PLATFORMS, type Platform, type PlatformName } from "../platforms/index.ts";
import type {
  ControlPlaneOverrides,
  KubeletOverrides,
  NetworkOverrides,
  NetworkSettings,
  ProfileName,
  Scenario,
} from "./types.ts";

export interface Profile {
  /** a ProfileName, or a profile file's own name */
  name: string;
  /** where the numbers come from */
  source: string;
  controlPlane: ControlPlaneOverrides;
  kubelet: KubeletOverrides;
  network: NetworkSettings;
  /**
   * The cloud controller manager a managed platform runs (k8s.io/cloud-provider): absent on upstream
   * Kubernetes without a cloud provider (stock), where nothing deletes the Node of a deleted VM.
   */
  cloud?: CloudSettings;
  /** The managed platform's documented behaviour (src/platforms/): auto-repair, spot notice, autoscaler… */
  platform?: Platform;
}

export interface CloudSettings {
  /** cloud-controller-manager --node-monitor-period (k8s.io/cloud-provider config/v1alpha1/defaults.go: 5s) */
  nodeMonitorPeriod: number;
}

/**
 * Upstream defaults:
 * - endpointPropagationSeconds 0.5: informer latency from the EndpointSlice write to each
 *   kube-proxy's watch (faultline's estimate: no Kubernetes setting governs it);
 * - kube-proxy `iptables.minSyncPeriod` 1s and `iptables.syncPeriod` 30s
 *   (pkg/proxy/apis/config/v1alpha1/defaults.go);
 * - load balancer: DigitalOcean's documented health-check defaults (check-interval-seconds 3,
 *   response-timeout-seconds 5, unhealthy-threshold 3, healthy-threshold 5;
 *   digitalocean-cloud-controller-manager docs/controllers/services/annotations.md), the one
 *   cloud load balancer whose defaults the reference records;
 * - dnsTtl 5s: the TTL of the records CoreDNS's kubernetes plugin serves (`ttl`, defaultTTL = 5 in
 *   coredns/coredns plugin/kubernetes/kubernetes.go); the stock Corefile's `cache 30` caps a
 *   record's TTL at 30s, so it does not lengthen it.
 */
export const STOCK: Profile = {
  name: "stock",
  source:
    "upstream defaults (Kubernetes flags; DigitalOcean's documented load-balancer health-check defaults)",
  controlPlane: {},
  kubelet: {},
  network: {
    endpointPropagationSeconds: 0.5,
    kubeProxy: { minSyncPeriod: 1, syncPeriod: 30 },
    loadBalancer: {
      healthCheckInterval: 3,
      healthCheckTimeout: 5,
      unhealthyThreshold: 3,
      healthyThreshold: 5,
    },
    nodeLossEndpointDelay: 0,
    dnsTtl: 5,
  },
};

/**
 * DigitalOcean Kubernetes as a published experiment (a hard-killed node) measured it (ten runs on three
 * 2-vCPU nodes; a watcher sampled node readiness and the endpoint list twice a second):
 * - NotReady about 2.9s after a hard kill. The platform's detection settings are not published;
 *   a Lease renewed every 0.25s (nodeLeaseDurationSeconds 1), a 0.5s monitor period and a 2.5s
 *   grace period reproduce the figure (NotReady 2.5–3.3s after the kill). Calibrated, not read
 *   from the platform.
 * - The endpoint list updated about 10s after NotReady on an unplanned loss, but 0.5s after a
 *   drain: the delay belongs to the node-loss path only (`nodeLossEndpointDelay`, 10s).
 * - The load balancer's health check: DigitalOcean's documented defaults (as in the stock profile).
 */
export const DOKS_MEASURED: Profile = {
  name: "doks-measured",
  source:
    "seed 001 (a published experiment on DigitalOcean Kubernetes): NotReady ~2.9s after a hard kill, endpoints ~10s later; load-balancer health check from DigitalOcean's documented defaults",
  controlPlane: { nodeMonitorGracePeriod: 2.5, nodeMonitorPeriod: 0.5 },
  kubelet: { nodeLeaseDurationSeconds: 1 },
  network: { ...STOCK.network, nodeLossEndpointDelay: 10 },
};

/** cloud-controller-manager's --node-monitor-period default (k8s.io/cloud-provider config/v1alpha1/defaults.go). */
const CLOUD_NODE_MONITOR_PERIOD = 5;

/**
 * A managed platform as documented (src/platforms/<name>.ts): upstream control-plane and kubelet
 * defaults (no platform publishes its node-failure flags), the platform's load balancer health
 * check, and the cloud controller manager's node lifecycle controller at its default
 * --node-monitor-period (5s, k8s.io/cloud-provider config/v1alpha1/defaults.go).
 */
function platformProfile(name: PlatformName): Profile {
  const platform = PLATFORMS[name];
  const { healthCheckInterval, healthCheckTimeout, unhealthyThreshold, healthyThreshold } =
    platform.loadBalancer;
  return {
    name,
    source: `${platform.title} as documented (src/platforms/${name}.ts); ${platform.controlPlaneNote}`,
    controlPlane: {},
    kubelet: {},
    network: {
      ...STOCK.network,
      loadBalancer: { healthCheckInterval, healthCheckTimeout, unhealthyThreshold, healthyThreshold },
    },
    cloud: { nodeMonitorPeriod: CLOUD_NODE_MONITOR_PERIOD },
    platform,
  };
}

export const PROFILES: Record<ProfileName, Profile> = {
  stock: STOCK,
  "doks-measured": DOKS_MEASURED,
  eks: platformProfile("eks"),
  gke: platformProfile("gke"),
  aks: platformProfile("aks"),
  doks: platformProfile("doks"),
};

/** The scenario's profile: the file it names, or the named one (default stock). */
export function profileOf(scenario: Pick<Scenario, "profile" | "profileFile">): Profile {
  const f = scenario.profileFile;
  if (!f) return PROFILES[scenario.profile ?? "stock"];
  return {
    name: f.name,
    source: `${f.file}: ${f.source}`,
    controlPlane: f.controlPlane,
    kubelet: f.kubelet,
    network: resolveNetwork(STOCK, f.network),
  };
}

export function resolveNetwork(profile: Profile, overrides: NetworkOverrides = {}): NetworkSettings {
  const p = profile.network;
  return {
    endpointPropagationSeconds: overrides.endpointPropagationSeconds ?? p.endpointPropagationSeconds,
    kubeProxy: { ...p.kubeProxy, ...definedOnly(overrides.kubeProxy ?? {}) },
    loadBalancer: { ...p.loadBalancer, ...definedOnly(overrides.loadBalancer ?? {}) },
    nodeLossEndpointDelay: overrides.nodeLossEndpointDelay ?? p.nodeLossEndpointDelay,
    dnsTtl: overrides.dnsTtl ?? p.dnsTtl,
  };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Envoy's OutlierDetection defaults (envoyproxy/envoy api/envoy/config/cluster/v3/outlier_detection.proto). */
export const ENVOY_OUTLIER_DEFAULTS = {
  consecutive5xx: 5,
  interval: 10,
  baseEjectionTime: 30,
  maxEjectionTime: 300,
  maxEjectionPercent: 10,
} as const;

/** Linkerd's retry budget defaults (retryRatio 0.2, minRetriesPerSecond 10, ttl 10s). */
export const LINKERD_RETRY_BUDGET = { ratio: 0.2, minRetriesPerSecond: 10 } as const;
