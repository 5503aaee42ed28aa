// Events of the data plane and of the callers: load balancer backends, kube-proxy syncs, CoreDNS's
// records, requests failing and recovering. Fields only (the Service, the settings that timed the change, the
// addresses and counts); report/messages/traffic.ts writes the prose.

/** What the load balancer checks on a node: the Service's healthCheckNodePort (Local) or kube-proxy's /healthz. */
export type HealthCheckTarget = "healthCheckNodePort" | "kube-proxy-healthz";

export interface TrafficEventFields {
  /** The load balancer took a node out of rotation after unhealthyThreshold failed checks. */
  LoadBalancerBackendDown: {
    service: string;
    healthCheck: HealthCheckTarget;
    /** what the last failed check met: no answer within `waitSeconds`, or 503 (no local ready endpoint) */
    failure: "no-answer" | "no-local-endpoint";
    waitSeconds?: number;
    unhealthyThreshold: number;
    healthCheckInterval: number;
    healthCheckTimeout: number;
  };
  /** The load balancer put a node back in rotation after healthyThreshold passed checks. */
  LoadBalancerBackendUp: {
    service: string;
    healthCheck: HealthCheckTarget;
    healthyThreshold: number;
    healthCheckInterval: number;
  };
  /** A node's kube-proxy applied an endpoint change of a Service (traffic model only). */
  KubeProxySynced: {
    service: string;
    /** endpoint IPs it stops routing to, and starts routing to */
    stopped: string[];
    started: string[];
    endpointPropagationSeconds: number;
    minSyncPeriod: number;
    /** the calibrated profile's hold on a lost node's endpoints; 0 upstream */
    nodeLossEndpointDelay: number;
    /**
     * A Service with trafficDistribution (pkg/proxy/topology.go): the topology mode the node's
     * kube-proxy now routes by ("" every ready endpoint, and `ignored`, its log line why), its zone.
     */
    topology?: { mode: "" | "PreferSameZone" | "PreferSameNode"; zone: string; ignored?: string };
  };
  /** CoreDNS serves other A records for a headless Service (its informer saw the EndpointSlice change). */
  DnsRecordsChanged: {
    service: string;
    /** pod IPs it stops and starts answering with */
    removed: string[];
    added: string[];
    /** the records' TTL: an answer given before lives this long in caches */
    ttlSeconds: number;
    endpointPropagationSeconds: number;
  };
  /**
   * At t=0: a caller's pool cannot carry its rate (Little's law: connections ÷ seconds each request
   * holds one), at its pods' service time, or only while they answer (at its timeout).
   */
  CallerPoolShort: {
    service: string;
    client: string;
    clients: number;
    /** connections per client (streams on its one connection, multiplexed) */
    connections: number;
    multiplexed: boolean;
    closedLoop: boolean;
    rate: number;
    short: "service-time" | "timeout";
    serviceTimeSeconds: number;
    carriesAtServiceTime: number;
    /** the longest a request holds a connection: its timeout, once per attempt */
    timeoutSeconds: number;
    carriesAtTimeout: number;
  };
  /** Callers of a Service start failing for a cause (traffic model): the first failure of its episode. */
  RequestsFailing: {
    service: string;
    outcome: string;
    cause: string;
    /** send time of the first failed request */
    sentAt: number;
    /** the caller's timeout */
    timeoutSeconds: number;
  };
  /** The p99 latency of a Service's callers rose over its SLO or an order of magnitude over its calm (by send second). */
  LatencyRose: {
    service: string;
    /** the send second whose p99 first crossed the line */
    sentFrom: number;
    p99Ms: number;
    /** the caller's SLO, when it has one (the line), else its calmest second's p99 and the factor */
    sloMs?: number;
    calmP99Ms?: number;
    factor?: number;
  };
  /** The p99 latency of a Service's callers is back under the line. */
  LatencyRecovered: {
    service: string;
    sentFrom: number;
    /** the highest p99 of a second while it was up, and that second */
    peakP99Ms: number;
    peakAt: number;
    /** the first send second of the calm run that ended it, and its p99 */
    backAt: number;
    p99Ms: number;
  };
  /**
   * An episode of a caller's failures of one cause ends: no request failed that way for
   * `quietSeconds` (or the run ended, `ongoing`). Counts by outcome; send times of the first and last.
   */
  RequestsRecovered: {
    service: string;
    cause: string;
    lost: number;
    timeouts: number;
    refused: number;
    errors: number;
    /** send times of the episode's first and last failed request */
    firstSentAt: number;
    lastFailureAt: number;
    /** seconds without a failure of the cause that end its episode */
    quietSeconds: number;
    /** the run ended inside the episode */
    ongoing?: boolean;
  };
}
