// core/v1 Service and discovery/v1 EndpointSlice, with the fields the models use (re-exported by
// objects.ts).

import type { ObjectMeta } from "./objects-meta.ts";

export interface ServicePort {
  name?: string;
  port: number;
  targetPort?: number | string;
  nodePort?: number;
  protocol?: string;
}

export interface Service {
  kind: "Service";
  metadata: ObjectMeta & { namespace: string };
  spec: {
    selector?: Record<string, string>;
    type?: "ClusterIP" | "NodePort" | "LoadBalancer" | "ExternalName";
    externalTrafficPolicy?: "Cluster" | "Local";
    internalTrafficPolicy?: "Cluster" | "Local";
    publishNotReadyAddresses?: boolean;
    ports?: ServicePort[];
    clusterIP?: string;
    /**
     * KEP-4444 (PreferClose, beta 1.31, GA 1.33) and KEP-3015 (PreferSameZone, PreferSameNode:
     * PreferSameTrafficDistribution beta 1.34, GA 1.35); the loader drops it where the version's
     * API server does (load/scenario/traffic-distribution.ts).
     */
    trafficDistribution?: "PreferClose" | "PreferSameZone" | "PreferSameNode";
  };
}

export interface Endpoint {
  addresses: string[];
  conditions: { ready: boolean; serving: boolean; terminating: boolean };
  nodeName?: string;
  zone?: string;
  /** discovery/v1 EndpointHints: the zone and node a ready endpoint is hinted for (trafficdist.go) */
  hints?: { forZones?: { name: string }[]; forNodes?: { name: string }[] };
  targetRef: { kind: "Pod"; namespace: string; name: string };
}

export interface EndpointSlice {
  kind: "EndpointSlice";
  metadata: ObjectMeta & { namespace: string };
  service: string;
  endpoints: Endpoint[];
}
