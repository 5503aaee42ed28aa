// Callers' connection pools as the client libraries ship them (kubernetes/client-defaults.ts): the
// presets' values, the pool a hang fills or not, a closed loop, an idle timeout, and the t=0 note
// of a pool that cannot carry its rate (Little's law).

import { describe, expect, it } from "vitest";
import { slotsPerClient } from "../../src/traffic/callers.ts";
import { eventsOf } from "../helpers/sim.ts";
import { expectLoadError, load } from "../load/helpers.ts";
import { causeCount, KILL, runTraffic } from "./helpers.ts";

const WEB = "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {selector: {app: web}}\n";
const caller = (fields: string) =>
  load(
    `duration: 5m\nnodes: [{name: worker-1}]\nmanifests: [web.yaml]\ntraffic:\n  - {service: web, rate: 100${fields}}\n`,
    {
      "web.yaml": WEB,
    },
  ).traffic![0]!;

const INF = Number.POSITIVE_INFINITY;
const POOL = "queued in the caller's pool";
const KEPT = "kept-alive connection to the lost node";

describe("client presets: each library's defaults", () => {
  it.each([
    // Go net/http DefaultTransport: MaxConnsPerHost 0, DefaultMaxIdleConnsPerHost 2, IdleConnTimeout 90s
    ["go", { poolSize: INF, maxIdle: 2, idleTimeout: 90, timeout: 30 }],
    // Node.js http.globalAgent: maxSockets Infinity, maxFreeSockets 256, timeout 5000 ms
    ["node", { poolSize: INF, maxIdle: 256, idleTimeout: 5, timeout: 30 }],
    // Envoy circuit breakers: max_connections 1024; route timeout 15s
    ["envoy", { poolSize: 1024, timeout: 15 }],
    // gRPC: one HTTP/2 connection, ~100 concurrent streams
    ["grpc", { poolSize: 100, multiplexed: true }],
    // JDK HttpClient: connectionPoolSize 0 (unbounded), keepalive.timeout 30s
    ["jdk", { poolSize: INF, idleTimeout: 30 }],
    // Apache HttpClient 5: DEFAULT_MAX_CONNECTIONS_PER_ROUTE 5; RequestConfig DEFAULT_CONN_KEEP_ALIVE 3 min
    ["apache", { poolSize: 5, maxIdle: 5, idleTimeout: 180, timeout: 30 }],
    // OkHttp: maxRequestsPerHost 5, ConnectionPool 5 idle for 5 min, readTimeout 10s
    ["okhttp", { poolSize: 5, maxIdle: 5, idleTimeout: 300, timeout: 10 }],
    ["closed-loop", { poolSize: 1, closedLoop: true }],
    // no client: another connection on demand, each kept alive
    ["", { client: "on-demand", poolSize: INF, maxIdle: INF, idleTimeout: INF, closedLoop: false }],
  ] as const)("client: %s", (name, expected) => {
    expect(caller(name === "" ? "" : `, client: ${name}`)).toMatchObject(expected);
  });

  it("an explicit poolSize and timeout win over the preset's", () => {
    expect(caller(", client: go, poolSize: 1, timeout: 2s")).toMatchObject({
      poolSize: 1,
      maxIdle: 1,
      timeout: 2,
    });
  });

  it("an unknown client is one located error naming the presets", () => {
    expectLoadError({
      name: "curl",
      scenario:
        "duration: 5m\nnodes: [{name: worker-1}]\nmanifests: [web.yaml]\ntraffic:\n  - {service: web, rate: 1, client: »curl}\n",
      files: { "web.yaml": WEB },
      code: "invalid-value",
      path: "traffic[0].client",
      message: "on-demand",
    });
  });
});

describe("an unlimited pool's slots: Little's law, with room for Poisson bursts", () => {
  it("rate × the longest a request takes, plus six standard deviations", () => {
    // 10/s × 30s = 300 open at most on average; 300 + 6 × √300 = 403.9 → 404, + 2
    expect(slotsPerClient(INF, 10, 30, 1)).toBe(406);
    expect(slotsPerClient(5, 10, 30, 1)).toBe(5);
  });
});

describe("a deadlocked pod holds a bounded pool's connections, not an unlimited one's", () => {
  // A new connection per request (keepAlive: false), each routed by kube-proxy: a third land on
  // the hung pod and hold their connection the whole 10s timeout.
  const hang = (client: string) =>
    runTraffic({
      traffic: { client, poolSize: null, clients: 1, keepAlive: false, entry: "cluster-ip" },
      timeline: [{ at: `${KILL}s`, do: "deadlock", pod: "Deployment/web[0]" }],
    });

  it("Apache's 5 connections fill with requests to the hung pod: the rest wait in the caller", () => {
    const { r, t } = hang("apache");
    expect(causeCount(t, POOL)).toBeGreaterThan(100);
    // said at t=0: 5 connections held 10s each carry 0.5/s of 175/s
    const [note] = eventsOf(r, "CallerPoolShort");
    expect(note).toMatchObject({ t: 0, short: "timeout", connections: 5, carriesAtTimeout: 0.5 });
  });

  it("Go opens another connection: nothing waits in the caller, and no note at t=0", () => {
    const { r, t } = hang("go");
    expect(causeCount(t, POOL)).toBe(0);
    expect(eventsOf(r, "CallerPoolShort")).toEqual([]);
  });
});

describe("a closed loop sends its next request after the previous answer", () => {
  it("two clients at 20ms a request send at most 100/s, not the 1,000/s asked", () => {
    const { r, t } = runTraffic({
      traffic: { client: "closed-loop", poolSize: null, clients: 2, rate: 1000, entry: "cluster-ip" },
      timeline: [],
    });
    expect(t.totals.sent).toBeLessThanOrEqual(2 * 50 * 180);
    expect(t.totals.sent).toBeGreaterThan(0.95 * 2 * 50 * 180);
    expect(t.totals.ok).toBe(t.totals.sent);
    expect(eventsOf(r, "CallerPoolShort")[0]).toMatchObject({
      short: "service-time",
      carriesAtServiceTime: 100,
    });
  });
});

describe("an idle connection past the client's idle timeout is closed", () => {
  // 30 clients at 0.1/s each: every connection idles ~10s between requests
  const sparse = (client: string) =>
    runTraffic({ traffic: { client, poolSize: null, clients: 30, rate: 3, entry: "cluster-ip" } }).t;

  it("kept alive (no idle timeout), connections to the lost node hang their next request", () => {
    expect(causeCount(sparse("on-demand"), KEPT)).toBeGreaterThan(0);
  });

  it("Node's agent closes a socket idle 5s: the next request is routed anew", () => {
    expect(causeCount(sparse("node"), KEPT)).toBe(0);
  });
});
