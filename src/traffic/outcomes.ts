// Request outcomes and the causes every failure is attributed to.

export const OUTCOMES = ["ok", "timeout", "refused", "error"] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const OK = 0;
export const TIMEOUT = 1;
export const REFUSED = 2;
export const ERROR = 3;

/** Causes, by index; the JSON prints the text. */
export const CAUSES = [
  "kept-alive connection to the lost node",
  "load balancer still sending to the lost node",
  "routed by a surviving node to an endpoint not yet removed",
  "sent by the caller to an endpoint on the lost node not yet ejected",
  "queued in the caller's pool",
  "in flight when the node was lost",
  "in flight when the container stopped",
  "process hung (deadlock)",
  "container not running on a live node (crash or probe restart)",
  "probe restart",
  "pod overloaded: queued past the caller's timeout",
  "externalTrafficPolicy: Local node with no local endpoint",
  "no endpoint in kube-proxy's rules",
  "load balancer has no node in rotation",
  "no healthy upstream: every endpoint ejected",
  "caller on a lost node",
  "resolved address on the lost node: the caller has not re-resolved it away",
  "DNS answered no address",
  "keepalive found every resolved address's connection dead",
  "slow: queued in the caller's pool",
  "slow: answered on a retry after a failed attempt",
  "slow: queued in the pod",
  "slow: the pod's service time",
  "sent to the lost node's own IP on its node port: a NodePort caller keeps sending to that node",
] as const;
export type Cause = (typeof CAUSES)[number];
export const C_KEEPALIVE_LOST = 0;
export const C_LB_LOST = 1;
export const C_ROUTED_STALE = 2;
export const C_CALLER_STALE = 3;
export const C_POOL = 4;
export const C_INFLIGHT_NODE = 5;
export const C_INFLIGHT_CONTAINER = 6;
export const C_HUNG = 7;
export const C_NOT_RUNNING = 8;
export const C_PROBE_RESTART = 9;
export const C_OVERLOADED = 10;
export const C_LOCAL_NONE = 11;
export const C_NO_ENDPOINT = 12;
export const C_LB_EMPTY = 13;
export const C_ALL_EJECTED = 14;
export const C_DNS_STALE = 16;
export const C_DNS_EMPTY = 17;
export const C_DNS_ALL_DEAD = 18;
/** A request answered ok but slower than its caller's SLO, by what took most of its time. */
export const C_SLOW_POOL = 19;
export const C_SLOW_RETRY = 20;
export const C_SLOW_QUEUE = 21;
export const C_SLOW_SERVICE = 22;
/**
 * A NodePort caller picks a node's address itself (core/v1 ServiceSpec type NodePort: "exposes the
 * Service on each Node's IP at a static port"); no load balancer health-checks that node or takes it
 * out of rotation, so the caller keeps sending to the lost node's IP until it stops choosing it.
 */
export const C_NODE_PORT_LOST = 23;

/** The causes of requests that were sent to the lost node (the report's "traffic stopped" moment). */
export const LOST_NODE_CAUSES: ReadonlySet<string> = new Set([
  CAUSES[C_KEEPALIVE_LOST],
  CAUSES[C_LB_LOST],
  CAUSES[C_NODE_PORT_LOST],
  CAUSES[C_ROUTED_STALE],
  CAUSES[C_CALLER_STALE],
  CAUSES[C_INFLIGHT_NODE],
  CAUSES[C_DNS_STALE],
]);

/** What made a slow answer slow: the largest part of its wait (pool, failed tries, the pod's queue, its service). */
export function slowCause(pool: number, retries: number, podQueue: number, attempt: number): number {
  const service = attempt - podQueue;
  const most = Math.max(pool, retries, podQueue, service);
  if (most === pool) return C_SLOW_POOL;
  if (most === retries) return C_SLOW_RETRY;
  return most === podQueue ? C_SLOW_QUEUE : C_SLOW_SERVICE;
}
