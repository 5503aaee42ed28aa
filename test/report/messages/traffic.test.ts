// The prose of the data plane's and the callers' events, written from their fields
// (report/messages/traffic.ts): each case is an event as a model emits it and the words a person reads.

import { describe, expect, it } from "vitest";
import { proseOf } from "../../../src/report/messages/index.ts";
import type { Prose } from "../../../src/report/messages/prose.ts";
import type { TraceEvent } from "../../../src/trace/events.ts";

function ev(fields: Record<string, unknown>): TraceEvent {
  return {
    t: 1,
    lane: "network",
    object: "Node/worker-2",
    node: "worker-2",
    ...fields,
  } as unknown as TraceEvent;
}
const svc = (fields: Record<string, unknown>) =>
  ev({ lane: "app", object: "Service/default/web", node: undefined, service: "default/web", ...fields });

const lb = { service: "default/web", healthCheckInterval: 3, healthCheckTimeout: 5 };

const CASES: [string, TraceEvent, Prose][] = [
  [
    "a node out of rotation: no answer (Cluster)",
    ev({
      type: "LoadBalancerBackendDown",
      ...lb,
      healthCheck: "kube-proxy-healthz",
      failure: "no-answer",
      waitSeconds: 3,
      unhealthyThreshold: 3,
    }),
    {
      message:
        "the load balancer of default/web takes worker-2 out of rotation: new connections stop going there",
      why: "3 consecutive health checks of its kube-proxy /healthz failed (no answer within 3s; unhealthy-threshold=3, check-interval=3s, response-timeout=5s)",
    },
  ],
  [
    "a node out of rotation: no local endpoint (Local)",
    ev({
      type: "LoadBalancerBackendDown",
      ...lb,
      healthCheck: "healthCheckNodePort",
      failure: "no-local-endpoint",
      unhealthyThreshold: 2,
    }),
    {
      message:
        "the load balancer of default/web takes worker-2 out of rotation: new connections stop going there",
      why: "2 consecutive health checks of its healthCheckNodePort (externalTrafficPolicy: Local) failed (healthCheckNodePort answers 503: no local ready endpoint; unhealthy-threshold=2, check-interval=3s, response-timeout=5s)",
    },
  ],
  [
    "a node back in rotation",
    ev({ type: "LoadBalancerBackendUp", ...lb, healthCheck: "kube-proxy-healthz", healthyThreshold: 5 }),
    {
      message: "the load balancer of default/web puts worker-2 back in rotation",
      why: "5 consecutive health checks of its kube-proxy /healthz passed (healthy-threshold=5, every 3s)",
    },
  ],
  [
    "kube-proxy drops an endpoint, upstream timings",
    ev({
      type: "KubeProxySynced",
      service: "default/web",
      stopped: ["10.244.2.1"],
      started: [],
      endpointPropagationSeconds: 0.5,
      minSyncPeriod: 1,
      nodeLossEndpointDelay: 0,
    }),
    {
      message: "kube-proxy on worker-2 stops routing to 10.244.2.1 for default/web",
      why: "its informer saw the EndpointSlice change (endpointPropagationSeconds=0.5) and its rules sync at most once per minSyncPeriod=1s",
    },
  ],
  [
    "kube-proxy swaps endpoints, calibrated hold",
    ev({
      type: "KubeProxySynced",
      service: "default/web",
      stopped: ["10.244.2.1", "10.244.2.2"],
      started: ["10.244.3.4"],
      endpointPropagationSeconds: 0.5,
      minSyncPeriod: 1,
      nodeLossEndpointDelay: 10,
    }),
    {
      message:
        "kube-proxy on worker-2 stops routing to 10.244.2.1, 10.244.2.2 and starts routing to 10.244.3.4 for default/web",
      why: "its informer saw the EndpointSlice change (endpointPropagationSeconds=0.5) and its rules sync at most once per minSyncPeriod=1s; nodeLossEndpointDelay=10s (calibrated profile) holds endpoints of a lost node",
    },
  ],
  [
    "callers time out",
    svc({
      type: "RequestsFailing",
      outcome: "timeout",
      cause: "kept-alive connection to the lost node",
      sentAt: 30.0049,
      timeoutSeconds: 10,
    }),
    {
      message:
        "callers of default/web start failing: a request sent at 30.00s gets no answer and times out after 10s (kept-alive connection to the lost node)",
      why: "nothing answers: a lost node or a stuck process neither answers nor refuses, so each caller waits out its own timeout (timeouts, not refusals)",
    },
  ],
  [
    "callers are refused",
    svc({
      type: "RequestsFailing",
      outcome: "refused",
      cause: "no endpoint in kube-proxy's rules",
      sentAt: 41.216,
      timeoutSeconds: 10,
    }),
    {
      message:
        "callers of default/web start failing: a request sent at 41.22s is refused at once (no endpoint in kube-proxy's rules)",
      why: "the node is up but nothing listens on the pod's port: the connection is refused at once",
    },
  ],
  [
    "callers get errors",
    svc({
      type: "RequestsFailing",
      outcome: "error",
      cause: "load balancer has no node in rotation",
      sentAt: 50,
      timeoutSeconds: 10,
    }),
    {
      message:
        "callers of default/web start failing: a request sent at 50.00s gets an error (load balancer has no node in rotation)",
      why: "something in the path answered with an error (5xx)",
    },
  ],
  [
    "an episode of one cause ends",
    svc({
      type: "RequestsRecovered",
      cause: "pod overloaded: queued past the caller's timeout",
      lost: 4329,
      timeouts: 4329,
      refused: 0,
      errors: 0,
      firstSentAt: 12.6,
      lastFailureAt: 297.4,
      quietSeconds: 30,
    }),
    {
      message:
        "callers of default/web: 4,329 timeouts from t+0:12.6 to t+4:57.4 (pod overloaded: queued past the caller's timeout)",
      why: "no request sent in the 30s after the last of them failed this way (an episode ends after the caller's timeout, at least 3s, without one)",
    },
  ],
  [
    "an episode still going at the end, of two outcomes, its times rounded to a tenth (never t+0:60)",
    svc({
      type: "RequestsRecovered",
      cause: "in flight when the container stopped",
      lost: 3,
      timeouts: 1,
      refused: 2,
      errors: 0,
      firstSentAt: 59.96,
      lastFailureAt: 119.99,
      quietSeconds: 3,
      ongoing: true,
    }),
    {
      message:
        "callers of default/web: 1 timeout, 2 refused from t+1:00 to t+2:00 (in flight when the container stopped)",
      why: "still failing this way when the run ends",
    },
  ],
  [
    "one failure is one moment",
    svc({
      type: "RequestsRecovered",
      cause: "probe restart",
      lost: 1,
      timeouts: 0,
      refused: 1,
      errors: 0,
      firstSentAt: 41.01,
      lastFailureAt: 41.04,
      quietSeconds: 3,
    }),
    {
      message: "callers of default/web: 1 refused sent at t+0:41 (probe restart)",
      why: "no request sent in the 3s after the last of them failed this way (an episode ends after the caller's timeout, at least 3s, without one)",
    },
  ],
  [
    "a pool too small for the rate even while pods answer",
    svc({
      type: "CallerPoolShort",
      client: "apache",
      clients: 2,
      connections: 5,
      multiplexed: false,
      closedLoop: false,
      rate: 3000,
      short: "service-time",
      serviceTimeSeconds: 0.005,
      carriesAtServiceTime: 2000,
      timeoutSeconds: 30,
      carriesAtTimeout: 0.3,
    }),
    {
      message:
        "callers of default/web cannot carry 3000/s with their pool: 2 clients × 5 connections (client: apache) at 5ms a request carry at most 2000/s; the rest queue in the callers",
      why: "Little's law: a pool carries at most its connections ÷ the seconds each request holds one",
    },
  ],
  [
    "a pool that a hang fills",
    svc({
      type: "CallerPoolShort",
      client: "on-demand",
      clients: 20,
      connections: 1,
      multiplexed: false,
      closedLoop: false,
      rate: 175,
      short: "timeout",
      serviceTimeSeconds: 0.02,
      carriesAtServiceTime: 1000,
      timeoutSeconds: 10,
      carriesAtTimeout: 2,
    }),
    {
      message:
        "callers of default/web carry 175/s only while the pods answer: 20 clients × 1 connection held 10s each by requests that get no answer carry 2/s; the rest queue in the callers",
      why: "Little's law: a pool carries at most its connections ÷ the seconds each request holds one (20ms a request while pods answer, the timeout when none does)",
    },
  ],
];

describe("the data plane's and the callers' events in words (report/messages/traffic.ts)", () => {
  it.each(CASES)("%s", (_name, e, prose) => {
    expect(proseOf(e)).toEqual(prose);
  });
});
