// Events of the data plane and of the callers: load balancer backends, kube-proxy syncs, requests
// failing and recovering. Fields only; report/messages/traffic.ts writes the prose.

export interface TrafficEventFields {
  LoadBalancerBackendDown: { service: string };
  LoadBalancerBackendUp: { service: string };
  /** A node's kube-proxy applied an endpoint change of a Service (traffic model only). */
  KubeProxySynced: { service: string };
  /** Callers of a Service start failing (traffic model): outcome and cause of the first failures. */
  RequestsFailing: { service: string; outcome: string; cause: string };
  /** Callers of a Service succeed again after a run of failures. */
  RequestsRecovered: { service: string; lost: number };
}
