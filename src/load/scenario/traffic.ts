// The `traffic`, `network` and `profile` sections of a scenario (issue 4), validated with positions.

import { CLIENT_NAMES, CLIENT_PRESETS, DEFAULT_CLIENT } from "../../kubernetes/client-defaults.ts";
import { ENVOY_OUTLIER_DEFAULTS, LINKERD_RETRY_BUDGET, PROFILES } from "../../scenario/profiles.ts";
import type {
  NetworkOverrides,
  OutlierDetectionSpec,
  ProfileName,
  RetryBudgetSpec,
  TrafficEntry,
  TrafficSpec,
} from "../../scenario/types.ts";
import { bool, closest, duration, fail, int, knownFields, list, num, obj, oneOf, str } from "../check.ts";
import type { Collected } from "../manifest/collect.ts";
import type { Path, SourceDoc } from "../source.ts";
import { formatDuration } from "../units.ts";
import { DATA_PLANE_DELAY, DATA_PLANE_PERIOD } from "./limits.ts";

export const TRAFFIC_FIELDS = [
  "service",
  "rate",
  "clients",
  "keepAlive",
  "client",
  "poolSize",
  "timeout",
  "retries",
  "retryBudget",
  "entry",
  "outlierDetection",
  "start",
  "slo",
  "dnsRefresh",
  "keepaliveTime",
  "keepaliveTimeout",
] as const;
const OUTLIER_FIELDS = [
  "consecutive5xx",
  "interval",
  "baseEjectionTime",
  "maxEjectionTime",
  "maxEjectionPercent",
] as const;
const BUDGET_FIELDS = ["ratio", "minRetriesPerSecond"] as const;
const NETWORK_FIELDS = [
  "endpointPropagationSeconds",
  "kubeProxy",
  "loadBalancer",
  "nodeLossEndpointDelay",
  "dnsTtl",
] as const;
const KUBE_PROXY_FIELDS = ["minSyncPeriod", "syncPeriod"] as const;
const LB_FIELDS = [
  "healthCheckInterval",
  "healthCheckTimeout",
  "unhealthyThreshold",
  "healthyThreshold",
] as const;
const ENTRIES: readonly TrafficEntry[] = ["load-balancer", "node-port", "cluster-ip", "dns"];

/**
 * gRPC's least time between two DNS resolutions of a target (MinResolutionInterval, 30s, in
 * grpc-go internal/resolver/dns/dns_resolver.go): re-resolution on a failed connection waits for it.
 */
export const GRPC_MIN_RESOLUTION_INTERVAL = 30;
/**
 * gRPC keepalive: grpc-go raises a client's keepalive Time under 10s to 10s
 * (internal.KeepaliveMinPingTime, dialoptions.go WithKeepaliveParams), and its Timeout defaults to
 * 20s (defaultClientKeepaliveTimeout, internal/transport/defaults.go).
 */
const KEEPALIVE_TIME = {
  min: 10,
  minText: "10s (gRPC raises a shorter one to 10s)",
  max: 24 * 3600,
  maxText: "24h",
};
const GRPC_KEEPALIVE_TIMEOUT = 20;
/** CoreDNS's kubernetes plugin refuses a `ttl` outside 0..3600 (plugin/kubernetes/setup.go). */
const DNS_TTL = { min: 0, max: 3600, maxText: "1h" };

/** More callers or requests than this is a mistake, not a scenario (a day at 10k/s is 864M requests). */
export const MAX_RATE = 100_000;
export const MAX_CLIENTS = 10_000;
export const MAX_POOL = 1_000;
export const MAX_RETRIES = 10;
/** A caller's timeout when neither the entry nor its client sets one (most libraries set none). */
export const DEFAULT_TIMEOUT = 30;

/** The fields of a Service the traffic entry depends on. */
type ServiceKind = { spec?: { type?: string; clusterIP?: string } };

/**
 * Where a caller of a Service comes in when its entry says nothing: the way the Service's type
 * (core/v1 ServiceSpec.type, default ClusterIP) exposes it. A LoadBalancer Service through its
 * cloud load balancer; a NodePort Service through a node's port (the caller's node index picks
 * the node); a ClusterIP Service from inside the cluster, through the kube-proxy of the caller's
 * own node: no load balancer exists for it. A headless one (clusterIP: None) has no virtual IP for
 * kube-proxy to program: its callers resolve the pods' addresses through DNS.
 */
export function defaultEntry(svc: ServiceKind): TrafficEntry {
  if (svc.spec?.clusterIP === "None") return "dns";
  const type = svc.spec?.type ?? "ClusterIP";
  return type === "LoadBalancer" ? "load-balancer" : type === "NodePort" ? "node-port" : "cluster-ip";
}

/**
 * What an entry written out needs of the Service, or undefined when it has it: a load balancer is
 * provisioned only for type LoadBalancer; node ports are allocated for NodePort and LoadBalancer
 * Services (ServiceSpec.ports[].nodePort); a headless Service has no cluster IP.
 */
function entryMismatch(entry: TrafficEntry, svc: ServiceKind, service: string): string | undefined {
  const type = svc.spec?.type ?? "ClusterIP";
  const headless = svc.spec?.clusterIP === "None";
  const instead = `its callers come in by entry: ${defaultEntry(svc)}`;
  if (entry === "load-balancer" && type !== "LoadBalancer")
    return `entry: load-balancer needs a Service of type LoadBalancer: "${service}" is ${headless ? "headless" : type}, with no load balancer (${instead})`;
  if (entry === "node-port" && type !== "NodePort" && type !== "LoadBalancer")
    return `entry: node-port needs a Service of type NodePort or LoadBalancer: "${service}" is ${headless ? "headless" : type}, with no node port (${instead})`;
  if (entry === "cluster-ip" && headless)
    return `entry: cluster-ip needs a cluster IP: "${service}" is headless (clusterIP: None), which kube-proxy programs no rules for (${instead})`;
  return undefined;
}

export function parseTraffic(src: SourceDoc, v: unknown, c: Collected, duration_: number): TrafficSpec[] {
  if (v == null) return [];
  const path = ["traffic"];
  const items = list(src, path, v, "a list of callers such as {service: default/web, rate: 175}");
  const serviceObjects = c.manifests.filter((m) => m.kind === "Service");
  const services = serviceObjects.map(
    (m) => `${m.object.metadata.namespace ?? "default"}/${m.object.metadata.name}`,
  );
  return items.map((item, i) => {
    const p = [...path, i];
    const o = obj(src, p, item, "a traffic entry (a mapping such as {service: default/web, rate: 175})");
    knownFields(src, p, o, TRAFFIC_FIELDS, "a traffic entry");
    if (o.service == null)
      fail(
        src,
        [...p, "service"],
        "missing-field",
        'missing required field "service" (e.g. service: default/web)',
      );
    let service = str(src, [...p, "service"], o.service);
    if (!service.includes("/")) service = `default/${service}`;
    if (!services.includes(service)) {
      const near = closest(service, services);
      fail(
        src,
        [...p, "service"],
        "invalid-value",
        `no Service "${service}" in the manifests${near ? ` (did you mean "${near}"?)` : services.length === 0 ? " (the manifests define no Service)" : ""}`,
      );
    }
    if (o.rate == null)
      fail(
        src,
        [...p, "rate"],
        "missing-field",
        'missing required field "rate" (requests per second, e.g. rate: 175)',
      );
    const rate = num(src, [...p, "rate"], o.rate, { min: 0, max: MAX_RATE });
    if (rate === 0) fail(src, [...p, "rate"], "invalid-value", "must be more than 0 requests per second");
    const clients =
      o.clients == null ? 1 : int(src, [...p, "clients"], o.clients, { min: 1, max: MAX_CLIENTS });
    const client = o.client == null ? DEFAULT_CLIENT : oneOf(src, [...p, "client"], o.client, CLIENT_NAMES);
    const preset = CLIENT_PRESETS[client];
    // An explicit poolSize bounds the preset's connections (and the idle ones it keeps).
    const poolSize =
      o.poolSize == null
        ? preset.maxConnections
        : int(src, [...p, "poolSize"], o.poolSize, { min: 1, max: MAX_POOL });
    const keepAlive = o.keepAlive == null ? true : bool(src, [...p, "keepAlive"], o.keepAlive);
    const timeout =
      o.timeout == null
        ? (preset.timeout ?? DEFAULT_TIMEOUT)
        : duration(src, [...p, "timeout"], o.timeout, DATA_PLANE_PERIOD);
    const retries =
      o.retries == null ? 0 : int(src, [...p, "retries"], o.retries, { min: 0, max: MAX_RETRIES });
    const svcObject = serviceObjects[services.indexOf(service)]!.object as ServiceKind;
    const entry = o.entry == null ? defaultEntry(svcObject) : oneOf(src, [...p, "entry"], o.entry, ENTRIES);
    const mismatch = o.entry == null ? undefined : entryMismatch(entry, svcObject, service);
    if (mismatch) fail(src, [...p, "entry"], "invalid-value", mismatch);
    const start = o.start == null ? 0 : duration(src, [...p, "start"], o.start, { min: 0, max: duration_ });
    if (entry === "dns") {
      if (svcObject.spec?.clusterIP !== "None")
        fail(
          src,
          [...p, "entry"],
          "invalid-value",
          `entry: dns resolves a headless Service's pod addresses itself: "${service}" needs clusterIP: None (a Service with a cluster IP resolves to that one address)`,
        );
      // The dns entry is a gRPC channel: its subchannels are long-lived HTTP/2 connections, one per
      // resolved address (traffic/dns-callers.ts); a connection per request is not what it models.
      if (o.keepAlive === false)
        fail(
          src,
          [...p, "keepAlive"],
          "invalid-value",
          "entry: dns models a gRPC channel, whose connections to the resolved addresses stay open: keepAlive: false is not modelled with it",
          "key",
        );
    } else
      for (const key of ["dnsRefresh", "keepaliveTime", "keepaliveTimeout"] as const)
        if (o[key] != null)
          fail(
            src,
            [...p, key],
            "invalid-value",
            `${key} is for entry: dns (a gRPC caller that resolves the Service itself)`,
            "key",
          );
    const { line, col } = src.locate(p);
    const spec: TrafficSpec = {
      service,
      rate,
      clients,
      keepAlive,
      client,
      poolSize,
      maxIdle: Math.min(preset.maxIdle, poolSize),
      idleTimeout: preset.idleTimeout,
      multiplexed: preset.multiplexed,
      closedLoop: preset.closedLoop,
      timeout,
      retries,
      entry,
      start,
      pos: { file: src.file, line, col },
    };
    if (o.slo != null) spec.slo = duration(src, [...p, "slo"], o.slo, DATA_PLANE_PERIOD);
    if (entry === "dns") {
      spec.dnsRefresh =
        o.dnsRefresh == null
          ? GRPC_MIN_RESOLUTION_INTERVAL
          : duration(src, [...p, "dnsRefresh"], o.dnsRefresh, DATA_PLANE_DELAY);
      if (o.keepaliveTime != null) {
        spec.keepaliveTime = duration(src, [...p, "keepaliveTime"], o.keepaliveTime, KEEPALIVE_TIME);
        spec.keepaliveTimeout =
          o.keepaliveTimeout == null
            ? GRPC_KEEPALIVE_TIMEOUT
            : duration(src, [...p, "keepaliveTimeout"], o.keepaliveTimeout, DATA_PLANE_PERIOD);
      } else if (o.keepaliveTimeout != null)
        fail(
          src,
          [...p, "keepaliveTimeout"],
          "invalid-value",
          "keepaliveTimeout needs keepaliveTime (gRPC keepalive is off without it)",
          "key",
        );
    }
    if (o.retryBudget != null) spec.retryBudget = parseBudget(src, [...p, "retryBudget"], o.retryBudget);
    if (o.outlierDetection != null) {
      if (entry !== "cluster-ip")
        fail(
          src,
          [...p, "outlierDetection"],
          "invalid-value",
          "outlier detection runs in the caller's proxy, which picks endpoints itself: use it with entry: cluster-ip",
          "key",
        );
      spec.outlierDetection = parseOutlier(src, [...p, "outlierDetection"], o.outlierDetection);
    }
    return spec;
  });
}

function parseOutlier(src: SourceDoc, path: Path, v: unknown): OutlierDetectionSpec {
  const o = obj(src, path, v, "a mapping of Envoy outlier-detection settings ({} for Envoy's defaults)");
  knownFields(src, path, o, OUTLIER_FIELDS, "outlierDetection");
  const base =
    o.baseEjectionTime == null
      ? ENVOY_OUTLIER_DEFAULTS.baseEjectionTime
      : duration(src, [...path, "baseEjectionTime"], o.baseEjectionTime, DATA_PLANE_PERIOD);
  const interval =
    o.interval == null
      ? ENVOY_OUTLIER_DEFAULTS.interval
      : duration(src, [...path, "interval"], o.interval, DATA_PLANE_PERIOD);
  const d = ENVOY_OUTLIER_DEFAULTS;
  return {
    consecutive5xx:
      o.consecutive5xx == null
        ? d.consecutive5xx
        : int(src, [...path, "consecutive5xx"], o.consecutive5xx, { min: 1, max: 1000 }),
    interval,
    baseEjectionTime: base,
    // max_ejection_time: 300s, or base_ejection_time when that is larger.
    maxEjectionTime:
      o.maxEjectionTime == null
        ? Math.max(d.maxEjectionTime, base)
        : duration(src, [...path, "maxEjectionTime"], o.maxEjectionTime, DATA_PLANE_PERIOD),
    maxEjectionPercent:
      o.maxEjectionPercent == null
        ? d.maxEjectionPercent
        : num(src, [...path, "maxEjectionPercent"], o.maxEjectionPercent, { min: 0, max: 100 }),
  };
}

function parseBudget(src: SourceDoc, path: Path, v: unknown): RetryBudgetSpec {
  const o = obj(src, path, v, "a retry budget such as {ratio: 0.2, minRetriesPerSecond: 10}");
  knownFields(src, path, o, BUDGET_FIELDS, "retryBudget");
  return {
    ratio:
      o.ratio == null
        ? LINKERD_RETRY_BUDGET.ratio
        : num(src, [...path, "ratio"], o.ratio, { min: 0, max: 1000 }),
    minRetriesPerSecond:
      o.minRetriesPerSecond == null
        ? LINKERD_RETRY_BUDGET.minRetriesPerSecond
        : num(src, [...path, "minRetriesPerSecond"], o.minRetriesPerSecond, { min: 0 }),
  };
}

export function parseNetwork(
  src: SourceDoc,
  v: unknown,
  profile?: ProfileName,
): NetworkOverrides | undefined {
  if (v == null) return undefined;
  const path = ["network"];
  const o = obj(
    src,
    path,
    v,
    "a mapping of data-plane settings (endpointPropagationSeconds, kubeProxy, loadBalancer)",
  );
  knownFields(src, path, o, NETWORK_FIELDS, "network");
  const out: NetworkOverrides = {};
  if (o.endpointPropagationSeconds != null)
    out.endpointPropagationSeconds = duration(
      src,
      [...path, "endpointPropagationSeconds"],
      o.endpointPropagationSeconds,
      DATA_PLANE_DELAY,
    );
  if (o.nodeLossEndpointDelay != null)
    out.nodeLossEndpointDelay = duration(
      src,
      [...path, "nodeLossEndpointDelay"],
      o.nodeLossEndpointDelay,
      DATA_PLANE_DELAY,
    );
  if (o.dnsTtl != null) out.dnsTtl = duration(src, [...path, "dnsTtl"], o.dnsTtl, DNS_TTL);
  if (o.kubeProxy != null) {
    const p = [...path, "kubeProxy"];
    const k = obj(src, p, o.kubeProxy);
    knownFields(src, p, k, KUBE_PROXY_FIELDS, "kubeProxy");
    out.kubeProxy = {};
    // KubeProxyIPTablesConfiguration validation: syncPeriod "must be greater than 0", minSyncPeriod
    // "must be greater than or equal to 0" (pkg/proxy/apis/config/validation/validation.go).
    if (k.syncPeriod != null)
      out.kubeProxy.syncPeriod = duration(src, [...p, "syncPeriod"], k.syncPeriod, DATA_PLANE_PERIOD);
    if (k.minSyncPeriod != null)
      out.kubeProxy.minSyncPeriod = duration(src, [...p, "minSyncPeriod"], k.minSyncPeriod, DATA_PLANE_DELAY);
    // "must be greater than or equal to minSyncPeriod", against the profile's value of the other.
    const { minSyncPeriod, syncPeriod } = {
      ...PROFILES[profile ?? "stock"].network.kubeProxy,
      ...out.kubeProxy,
    };
    if (minSyncPeriod > syncPeriod) {
      const at = k.syncPeriod != null ? "syncPeriod" : "minSyncPeriod";
      fail(
        src,
        [...p, at],
        "invalid-value",
        `syncPeriod ${formatDuration(syncPeriod)} must be greater than or equal to minSyncPeriod ${formatDuration(minSyncPeriod)}`,
      );
    }
  }
  if (o.loadBalancer != null) {
    const p = [...path, "loadBalancer"];
    const l = obj(src, p, o.loadBalancer);
    knownFields(src, p, l, LB_FIELDS, "loadBalancer");
    const lb: NonNullable<NetworkOverrides["loadBalancer"]> = {};
    if (l.healthCheckInterval != null)
      lb.healthCheckInterval = duration(
        src,
        [...p, "healthCheckInterval"],
        l.healthCheckInterval,
        DATA_PLANE_PERIOD,
      );
    if (l.healthCheckTimeout != null)
      lb.healthCheckTimeout = duration(
        src,
        [...p, "healthCheckTimeout"],
        l.healthCheckTimeout,
        DATA_PLANE_PERIOD,
      );
    if (l.unhealthyThreshold != null)
      lb.unhealthyThreshold = int(src, [...p, "unhealthyThreshold"], l.unhealthyThreshold, {
        min: 1,
        max: 100,
      });
    if (l.healthyThreshold != null)
      lb.healthyThreshold = int(src, [...p, "healthyThreshold"], l.healthyThreshold, { min: 1, max: 100 });
    out.loadBalancer = lb;
  }

  return out;
}
