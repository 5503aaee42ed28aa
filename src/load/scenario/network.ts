// The `network` section of a scenario, validated with positions: the data plane's
// delays (endpoint propagation, kube-proxy's sync periods, the cloud load balancer's health checks).

import { PROFILES } from "../../scenario/profiles.ts";
import type { NetworkOverrides, ProfileName } from "../../scenario/types.ts";
import { duration, fail, int, knownFields, obj } from "../check.ts";
import type { SourceDoc } from "../source.ts";
import { formatDuration } from "../units.ts";
import { DATA_PLANE_DELAY, DATA_PLANE_PERIOD } from "./limits.ts";

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
/** CoreDNS's kubernetes plugin refuses a `ttl` outside 0..3600 (plugin/kubernetes/setup.go). */
const DNS_TTL = { min: 0, max: 3600, maxText: "1h" };

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
