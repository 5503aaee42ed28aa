// The `traffic`, `network` and `profile` sections of a scenario (issue 4), validated with positions.

import { ENVOY_OUTLIER_DEFAULTS, LINKERD_RETRY_BUDGET } from "../../scenario/profiles.ts";
import {
  type NetworkOverrides,
  type OutlierDetectionSpec,
  PROFILE_NAMES,
  type ProfileName,
  type RetryBudgetSpec,
  type TrafficEntry,
  type TrafficSpec,
} from "../../scenario/types.ts";
import { bool, closest, duration, fail, int, knownFields, list, num, obj, oneOf, str } from "../check.ts";
import type { Collected } from "../manifest/collect.ts";
import type { Path, SourceDoc } from "../source.ts";

export const TRAFFIC_FIELDS = [
  "service",
  "rate",
  "clients",
  "keepAlive",
  "poolSize",
  "timeout",
  "retries",
  "retryBudget",
  "entry",
  "outlierDetection",
  "start",
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
] as const;
const KUBE_PROXY_FIELDS = ["minSyncPeriod", "syncPeriod"] as const;
const LB_FIELDS = [
  "healthCheckInterval",
  "healthCheckTimeout",
  "unhealthyThreshold",
  "healthyThreshold",
] as const;
const ENTRIES: readonly TrafficEntry[] = ["load-balancer", "node-port", "cluster-ip"];

/** More callers or requests than this is a mistake, not a scenario (a day at 10k/s is 864M requests). */
export const MAX_RATE = 100_000;
export const MAX_CLIENTS = 10_000;
export const MAX_POOL = 1_000;
export const MAX_RETRIES = 10;

const DAY = { min: 0, max: 24 * 3600, maxText: "24h" };

export function parseProfile(src: SourceDoc, v: unknown): ProfileName | undefined {
  if (v == null) return undefined;
  return oneOf(src, ["profile"], v, PROFILE_NAMES);
}

export function parseTraffic(src: SourceDoc, v: unknown, c: Collected, duration_: number): TrafficSpec[] {
  if (v == null) return [];
  const path = ["traffic"];
  const items = list(src, path, v, "a list of callers such as {service: default/web, rate: 175}");
  const services = c.manifests
    .filter((m) => m.kind === "Service")
    .map((m) => `${m.object.metadata.namespace ?? "default"}/${m.object.metadata.name}`);
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
    const poolSize =
      o.poolSize == null ? 1 : int(src, [...p, "poolSize"], o.poolSize, { min: 1, max: MAX_POOL });
    const keepAlive = o.keepAlive == null ? true : bool(src, [...p, "keepAlive"], o.keepAlive);
    const timeout = o.timeout == null ? 30 : duration(src, [...p, "timeout"], o.timeout, DAY);
    if (timeout === 0) fail(src, [...p, "timeout"], "invalid-duration", "must be more than 0s");
    const retries =
      o.retries == null ? 0 : int(src, [...p, "retries"], o.retries, { min: 0, max: MAX_RETRIES });
    const entry = o.entry == null ? "load-balancer" : oneOf(src, [...p, "entry"], o.entry, ENTRIES);
    const start = o.start == null ? 0 : duration(src, [...p, "start"], o.start, { min: 0, max: duration_ });
    const { line, col } = src.locate(p);
    const spec: TrafficSpec = {
      service,
      rate,
      clients,
      keepAlive,
      poolSize,
      timeout,
      retries,
      entry,
      start,
      pos: { file: src.file, line, col },
    };
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
      : duration(src, [...path, "baseEjectionTime"], o.baseEjectionTime, DAY);
  const interval =
    o.interval == null
      ? ENVOY_OUTLIER_DEFAULTS.interval
      : duration(src, [...path, "interval"], o.interval, DAY);
  // Istio: interval "MUST BE >=1ms".
  if (interval < 0.001) fail(src, [...path, "interval"], "invalid-duration", "must be at least 1ms");
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
        : duration(src, [...path, "maxEjectionTime"], o.maxEjectionTime, DAY),
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

export function parseNetwork(src: SourceDoc, v: unknown): NetworkOverrides | undefined {
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
      DAY,
    );
  if (o.nodeLossEndpointDelay != null)
    out.nodeLossEndpointDelay = duration(
      src,
      [...path, "nodeLossEndpointDelay"],
      o.nodeLossEndpointDelay,
      DAY,
    );
  if (o.kubeProxy != null) {
    const p = [...path, "kubeProxy"];
    const k = obj(src, p, o.kubeProxy);
    knownFields(src, p, k, KUBE_PROXY_FIELDS, "kubeProxy");
    out.kubeProxy = {};
    for (const f of KUBE_PROXY_FIELDS) if (k[f] != null) out.kubeProxy[f] = positive(src, [...p, f], k[f]);
  }
  if (o.loadBalancer != null) {
    const p = [...path, "loadBalancer"];
    const l = obj(src, p, o.loadBalancer);
    knownFields(src, p, l, LB_FIELDS, "loadBalancer");
    const lb: NonNullable<NetworkOverrides["loadBalancer"]> = {};
    if (l.healthCheckInterval != null)
      lb.healthCheckInterval = positive(src, [...p, "healthCheckInterval"], l.healthCheckInterval);
    if (l.healthCheckTimeout != null)
      lb.healthCheckTimeout = positive(src, [...p, "healthCheckTimeout"], l.healthCheckTimeout);
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

function positive(src: SourceDoc, path: Path, v: unknown): number {
  const s = duration(src, path, v, DAY);
  if (s === 0) fail(src, path, "invalid-duration", "must be more than 0s");
  return s;
}
