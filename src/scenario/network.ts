// The data plane's settings a scenario gives (`network:`), as resolved (the profile's under the
// scenario's), and a profile read from a file (`profile: ./FILE.yaml`).

import type { ControlPlaneOverrides, KubeletOverrides } from "../kubernetes/configuration.ts";

/** The `network:` section: every field optional, filled from the profile. */
export interface NetworkOverrides {
  endpointPropagationSeconds?: number;
  kubeProxy?: { minSyncPeriod?: number; syncPeriod?: number };
  loadBalancer?: {
    healthCheckInterval?: number;
    healthCheckTimeout?: number;
    unhealthyThreshold?: number;
    healthyThreshold?: number;
  };
  /**
   * Calibrated, not a Kubernetes flag: extra seconds before the data plane sees an endpoint leave
   * because its node was lost (the published experiment on DigitalOcean Kubernetes measured ~10s between NotReady and the endpoint update on
   * an unplanned loss, 0.5s on a drain). 0 in the stock profile.
   */
  nodeLossEndpointDelay?: number;
  /** the TTL of the records CoreDNS serves for a headless Service (its kubernetes plugin's `ttl`) */
  dnsTtl?: number;
}

export interface NetworkSettings {
  endpointPropagationSeconds: number;
  kubeProxy: { minSyncPeriod: number; syncPeriod: number };
  loadBalancer: {
    healthCheckInterval: number;
    healthCheckTimeout: number;
    unhealthyThreshold: number;
    healthyThreshold: number;
  };
  nodeLossEndpointDelay: number;
  dnsTtl: number;
}

/** A profile read from a file: its settings over the stock profile's (src/scenario/profiles.ts). */
export interface ProfileFile {
  /** the path as the scenario names it */
  file: string;
  name: string;
  source: string;
  controlPlane: ControlPlaneOverrides;
  kubelet: KubeletOverrides;
  network: NetworkOverrides;
}
