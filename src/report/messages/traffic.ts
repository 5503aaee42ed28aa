// The prose for the events of trace/traffic-events.ts: the load balancer's rotation, kube-proxy's
// rule syncs, CoreDNS's records, and what the callers of a Service feel.

import type { TrafficEventFields } from "../../trace/traffic-events.ts";
import type { Printers } from "./prose.ts";

/** 20.1 → "20.1ms", 10027 → "10.03s". */
const seconds = (ms: number) => (ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(2)}s`);

const CHECKED = {
  healthCheckNodePort: "healthCheckNodePort (externalTrafficPolicy: Local)",
  "kube-proxy-healthz": "kube-proxy /healthz",
} as const;

export const TRAFFIC_PRINTERS: Printers<keyof TrafficEventFields> = {
  LoadBalancerBackendDown: (e) => ({
    message: `the load balancer of ${e.service} takes ${e.node} out of rotation: new connections stop going there`,
    why: `${e.unhealthyThreshold} consecutive health checks of its ${CHECKED[e.healthCheck]} failed (${
      e.failure === "no-answer"
        ? `no answer within ${e.waitSeconds}s`
        : "healthCheckNodePort answers 503: no local ready endpoint"
    }; unhealthy-threshold=${e.unhealthyThreshold}, check-interval=${e.healthCheckInterval}s, response-timeout=${e.healthCheckTimeout}s)`,
  }),

  LoadBalancerBackendUp: (e) => ({
    message: `the load balancer of ${e.service} puts ${e.node} back in rotation`,
    why: `${e.healthyThreshold} consecutive health checks of its ${CHECKED[e.healthCheck]} passed (healthy-threshold=${e.healthyThreshold}, every ${e.healthCheckInterval}s)`,
  }),

  KubeProxySynced: (e) => {
    const parts = [
      ...(e.stopped.length > 0 ? [`stops routing to ${e.stopped.join(", ")}`] : []),
      ...(e.started.length > 0 ? [`starts routing to ${e.started.join(", ")}`] : []),
    ];
    return {
      message: `kube-proxy on ${e.node} ${parts.join(" and ")} for ${e.service}`,
      why: `its informer saw the EndpointSlice change (endpointPropagationSeconds=${e.endpointPropagationSeconds}) and its rules sync at most once per minSyncPeriod=${e.minSyncPeriod}s${
        e.nodeLossEndpointDelay > 0
          ? `; nodeLossEndpointDelay=${e.nodeLossEndpointDelay}s (calibrated profile) holds endpoints of a lost node`
          : ""
      }`,
    };
  },

  DnsRecordsChanged: (e) => {
    const parts = [
      ...(e.removed.length > 0 ? [`stops answering with ${e.removed.join(", ")}`] : []),
      ...(e.added.length > 0 ? [`starts answering with ${e.added.join(", ")}`] : []),
    ];
    return {
      message: `CoreDNS ${parts.join(" and ")} for the headless Service ${e.service}`,
      why: `its informer saw the EndpointSlice change (endpointPropagationSeconds=${e.endpointPropagationSeconds}); answers already given live ${e.ttlSeconds}s more (the kubernetes plugin's ttl), and a caller only sees the change when it resolves again`,
    };
  },

  RequestsFailing: (e) => ({
    message: `callers of ${e.service} start failing: a request sent at ${e.sentAt.toFixed(2)}s ${
      e.outcome === "timeout"
        ? `gets no answer and times out after ${e.timeoutSeconds}s`
        : e.outcome === "refused"
          ? "is refused at once"
          : "gets an error"
    } (${e.cause})`,
    why:
      e.outcome === "timeout"
        ? "nothing answers: a lost node or a stuck process neither answers nor refuses, so each caller waits out its own timeout (timeouts, not refusals)"
        : e.outcome === "refused"
          ? "the node is up but nothing listens on the pod's port: the connection is refused at once"
          : "something in the path answered with an error (5xx)",
  }),

  LatencyRose: (e) => ({
    message: `callers of ${e.service} wait longer: the slowest 1% of requests sent in second ${e.sentFrom} took ${seconds(e.p99Ms)}`,
    why:
      e.sloMs !== undefined
        ? `over the caller's SLO of ${seconds(e.sloMs)} (p99 of the requests sent in that second, from their creation to their answer or timeout)`
        : `${e.factor} times the p99 of its calmest second so far (${seconds(e.calmP99Ms!)}): requests wait behind others, in the pod or in the caller's pool, or wait out a timeout`,
  }),

  LatencyRecovered: (e) => ({
    message: `callers of ${e.service} wait as before from requests sent in second ${e.backAt} (p99 ${seconds(e.p99Ms)})`,
    why: `p99 rose from requests sent in second ${e.sentFrom}, peaking at ${seconds(e.peakP99Ms)} for those sent in second ${e.peakAt}`,
  }),

  RequestsRecovered: (e) => ({
    message: `callers of ${e.service} succeed again: ${e.lost} requests failed since the first failure`,
    why: `no request sent after ${e.lastFailureAt.toFixed(2)}s failed`,
  }),
};
