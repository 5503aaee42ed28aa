// The connection pools of the HTTP and gRPC clients callers use, as their libraries ship them: a
// `traffic:` entry's `client:` preset. Each value names its field, its default and its source file.
// What every preset leaves to faultline: the caller's timeout (when the library sets none, the
// entry's `timeout`, 30s unless given) and retries (none of these libraries retries a request that
// timed out or was refused on a Service's one address by default; the entry's `retries`, 0).

export const CLIENT_NAMES = [
  "on-demand",
  "go",
  "node",
  "envoy",
  "grpc",
  "jdk",
  "apache",
  "okhttp",
  "closed-loop",
] as const;
export type ClientName = (typeof CLIENT_NAMES)[number];

export interface ClientPreset {
  /** connections to the Service per client at most (+∞: another opens when all are busy) */
  maxConnections: number;
  /** idle connections a client keeps alive (the others close when their request ends) */
  maxIdle: number;
  /** seconds a kept-alive connection may stay idle before the client closes it (+∞: never) */
  idleTimeout: number;
  /** one connection carries `maxConnections` concurrent requests (HTTP/2 streams) */
  multiplexed: boolean;
  /** the next request waits for the previous answer (a load generator's worker), not open loop */
  closedLoop: boolean;
  /** the library's own overall timeout in seconds, when it has one */
  timeout?: number;
  /** what the preset follows, for the README and the t=0 note */
  source: string;
}

const INF = Number.POSITIVE_INFINITY;

export const CLIENT_PRESETS: Record<ClientName, ClientPreset> = {
  // The default: what most clients do when their connections are busy, open another; and keep
  // every connection alive (HTTP/1.1 persistent connections, RFC 9112 §9.3).
  "on-demand": {
    maxConnections: INF,
    maxIdle: INF,
    idleTimeout: INF,
    multiplexed: false,
    closedLoop: false,
    source: "another connection when all are busy, every one kept alive",
  },
  // Go net/http (src/net/http/transport.go, DefaultTransport): MaxConnsPerHost 0 (no limit),
  // MaxIdleConnsPerHost 0 → DefaultMaxIdleConnsPerHost = 2 (a connection returned when two are
  // already idle is closed, tryPutIdleConn: errTooManyIdleHost), IdleConnTimeout 90s; http.Client's
  // Timeout 0 is no timeout (src/net/http/client.go).
  go: {
    maxConnections: INF,
    maxIdle: 2,
    idleTimeout: 90,
    multiplexed: false,
    closedLoop: false,
    source:
      "Go net/http DefaultTransport: MaxConnsPerHost 0 (unlimited), MaxIdleConnsPerHost 2, IdleConnTimeout 90s, no Client.Timeout",
  },
  // Node.js http.globalAgent (lib/_http_agent.js; keepAlive true and timeout 5000 since v19.0.0):
  // maxSockets Infinity, maxFreeSockets 256, a free socket closed after 5s idle.
  node: {
    maxConnections: INF,
    maxIdle: 256,
    idleTimeout: 5,
    multiplexed: false,
    closedLoop: false,
    source:
      "Node.js http.globalAgent (v19+): maxSockets Infinity, keepAlive true, maxFreeSockets 256, idle socket timeout 5s, no request timeout",
  },
  // Envoy's cluster circuit breakers (api/envoy/config/cluster/v3/circuit_breaker.proto):
  // max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; the HTTP/1.1
  // pool keeps its connections (common_http_protocol_options.idle_timeout: 1h by default,
  // protocol.proto); a route's timeout is 15s (RouteAction.timeout, route_components.proto); no
  // retry_policy, no retries. One client stands for one sidecar: its 1024 connections are shared.
  envoy: {
    maxConnections: 1024,
    maxIdle: 1024,
    idleTimeout: 3600,
    multiplexed: false,
    closedLoop: false,
    timeout: 15,
    source:
      "Envoy: circuit breakers max_connections 1024 (max_pending_requests 1024, max_requests 1024, max_retries 3), idle_timeout 1h, route timeout 15s, no retry_policy",
  },
  // gRPC: a channel holds one HTTP/2 connection per address (a ClusterIP Service is one address:
  // pick_first), kept open; the server's SETTINGS_MAX_CONCURRENT_STREAMS bounds the requests on it,
  // which RFC 9113 §6.5.2 recommends be no smaller than 100 (grpc-go's server sets none,
  // math.MaxUint32; nginx's http2_max_concurrent_streams is 128). No deadline unless the caller sets one.
  grpc: {
    maxConnections: 100,
    maxIdle: 100,
    idleTimeout: INF,
    multiplexed: true,
    closedLoop: false,
    source:
      "gRPC: one HTTP/2 connection per channel, ~100 concurrent streams (MAX_CONCURRENT_STREAMS), no default deadline",
  },
  // java.net.http.HttpClient (openjdk/jdk, src/java.net.http/share/classes/jdk/internal/net/http/):
  // ConnectionPool.java MAX_POOL_SIZE = getIntegerNetProperty("jdk.httpclient.connectionPoolSize", 0),
  // "unbounded" (a connection is opened whenever none is idle); HttpClientImpl.java
  // DEFAULT_KEEP_ALIVE_TIMEOUT = 30, KEEP_ALIVE_TIMEOUT = getTimeoutProp("jdk.httpclient.keepalive.timeout",
  // DEFAULT_KEEP_ALIVE_TIMEOUT) seconds (read in a JDK 21-line copy of the file, the one with
  // HttpClient.shutdown(); earlier JDKs had ConnectionPool.java KEEP_ALIVE = getIntegerNetProperty(
  // "jdk.httpclient.keepalive.timeout", 1200), as openjdk/jdk at d7cadc9 does). No request timeout
  // unless HttpRequest.Builder.timeout is set.
  jdk: {
    maxConnections: INF,
    maxIdle: INF,
    idleTimeout: 30,
    multiplexed: false,
    closedLoop: false,
    source:
      "JDK HttpClient: jdk.httpclient.connectionPoolSize 0 (unbounded), keepalive.timeout 30s, no request timeout",
  },
  // Apache HttpClient 5 (apache/httpcomponents-client at 86c313b, 2026-08-22, 5.7-alpha2-SNAPSHOT;
  // httpclient5/src/main/java/org/apache/hc/client5/http/): impl/io/PoolingHttpClientConnectionManager.java
  // DEFAULT_MAX_CONNECTIONS_PER_ROUTE = 5, DEFAULT_MAX_TOTAL_CONNECTIONS = 25; config/RequestConfig.java
  // DEFAULT_CONNECTION_REQUEST_TIMEOUT = Timeout.ofMinutes(3) (a request waits that long for a lease,
  // longer than faultline's timeout), no responseTimeout by default, DEFAULT_CONN_KEEP_ALIVE =
  // TimeValue.ofMinutes(3): impl/DefaultConnectionKeepAliveStrategy.java returns it when the response
  // carries no Keep-Alive header, so an idle connection is reused for 3 minutes at most.
  apache: {
    maxConnections: 5,
    maxIdle: 5,
    idleTimeout: 180,
    multiplexed: false,
    closedLoop: false,
    source:
      "Apache HttpClient 5: 5 connections per route (25 total), requests wait for a lease, kept alive 3 min, no response timeout",
  },
  // OkHttp (square/okhttp at 1682d9b, 2026-07-24; okhttp/src/commonJvmAndroid/kotlin/okhttp3/):
  // Dispatcher.kt maxRequestsPerHost = 5 and maxRequests = 64, which bound calls made with enqueue
  // (asynchronous; execute() is not queued); ConnectionPool.kt constructor() : this(5, 5, TimeUnit.MINUTES),
  // 5 idle connections kept 5 min; OkHttpClient.kt Builder readTimeout = 10_000 ms (connectTimeout and
  // writeTimeout 10_000, callTimeout 0), the wait for an answer that does not come.
  okhttp: {
    maxConnections: 5,
    maxIdle: 5,
    idleTimeout: 300,
    multiplexed: false,
    closedLoop: false,
    timeout: 10,
    source:
      "OkHttp: maxRequestsPerHost 5 (async Dispatcher), ConnectionPool 5 idle for 5 min, readTimeout 10s",
  },
  // A load generator's worker (hey -c, wrk, k6 VUs): one connection, the next request after the
  // previous answer, at most `rate` / `clients` a second.
  "closed-loop": {
    maxConnections: 1,
    maxIdle: 1,
    idleTimeout: INF,
    multiplexed: false,
    closedLoop: true,
    source: "a closed loop: one connection per client, the next request after the previous answer",
  },
};

/** The client a `traffic:` entry without `client:` (nor `poolSize:`) behaves as. */
export const DEFAULT_CLIENT: ClientName = "on-demand";
