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

/** What a Service's trafficDistribution did to this sync (pkg/proxy/topology.go topologyModeFromHints). */
function topologyWhy(
  node: string,
  t: { mode: "" | "PreferSameZone" | "PreferSameNode"; zone: string; ignored?: string } | undefined,
): string {
  if (!t) return "";
  if (t.mode === "PreferSameNode")
    return `; trafficDistribution: it routes only to the ready endpoints hinted for ${node} (hints.forNodes)`;
  if (t.mode === "PreferSameZone")
    return `; trafficDistribution: it routes only to the ready endpoints hinted for zone ${t.zone} (hints.forZones)`;
  if (t.ignored === undefined)
    return "; no endpoint is ready: hints are not read, serving-terminating ones are used";
  return `; "${t.ignored}": it routes to every ready endpoint`;
}

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
      }${topologyWhy(e.node ?? "", e.topology)}`,
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

  CallerPoolShort: (e) => {
    const pool = `${e.clients} client${e.clients === 1 ? "" : "s"} × ${e.connections} ${
      e.multiplexed ? "streams on one connection" : `connection${e.connections === 1 ? "" : "s"}`
    }${e.client === "on-demand" ? "" : ` (client: ${e.client})`}`;
    const each = `${seconds(Math.round(e.serviceTimeSeconds * 10_000) / 10)} a request`;
    return e.short === "service-time"
      ? {
          message: `callers of ${e.service} cannot carry ${e.rate}/s with their pool: ${pool} at ${each} carry at most ${e.carriesAtServiceTime}/s${
            e.closedLoop ? ", so they send that much" : "; the rest queue in the callers"
          }`,
          why: "Little's law: a pool carries at most its connections ÷ the seconds each request holds one",
        }
      : {
          message: `callers of ${e.service} carry ${e.rate}/s only while the pods answer: ${pool} held ${e.timeoutSeconds}s each by requests that get no answer carry ${e.carriesAtTimeout}/s${
            e.closedLoop ? ", so they send that much" : "; the rest queue in the callers"
          }`,
          why: `Little's law: a pool carries at most its connections ÷ the seconds each request holds one (${each} while pods answer, the timeout when none does)`,
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

  RequestsRecovered: (e) => {
    const counts = [
      count(e.timeouts, "timeout", "timeouts"),
      count(e.refused, "refused", "refused"),
      count(e.errors, "error", "errors"),
    ].filter((c) => c !== "");
    const [from, to] = [at(e.firstSentAt), at(e.lastFailureAt)];
    const when = from === to ? `sent at t+${from}` : `from t+${from} to t+${to}`;
    return {
      message: `callers of ${e.service}: ${counts.join(", ")} ${when} (${e.cause})`,
      why: e.ongoing
        ? "still failing this way when the run ends"
        : `no request sent in the ${e.quietSeconds}s after the last of them failed this way (an episode ends after the caller's timeout, at least 3s, without one)`,
    };
  },
};

/** 4329 → "4,329 timeouts", 1 → "1 timeout", 0 → "". */
function count(n: number, one: string, many: string): string {
  return n === 0 ? "" : `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

/** Seconds as m:ss.s, rounded to a tenth first (so 59.96 is 1:00, never 0:60). */
function at(t: number): string {
  const tenths = Math.round(t * 10);
  const m = Math.floor(tenths / 600);
  const rest = (tenths - m * 600) / 10;
  const ss = Number.isInteger(rest) ? String(rest).padStart(2, "0") : rest.toFixed(1).padStart(4, "0");
  return `${m}:${ss}`;
}
