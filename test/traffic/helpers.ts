// Scenarios for the traffic tests: the published experiment's cluster (three nodes, one web replica on each)
// with callers, on a profile, with one fault.

import { stringify } from "yaml";
import type { SimulationResult } from "../../src/run/simulate.ts";
import type { TrafficResult } from "../../src/traffic/index.ts";
import { type Doc, run, scenario } from "../helpers/sim.ts";

export const KILL = 30;

export interface Setup {
  profile?: "stock" | "doks-measured";
  policy?: "Local" | "Cluster";
  fault?: string;
  duration?: string;
  traffic?: Doc;
  behaviour?: Doc;
  kubernetesVersion?: string;
  network?: Doc;
  timeline?: Doc[];
  seed?: number;
}

/** The experiment's cluster: three nodes, one per zone. */
export const THREE_NODES = [
  { name: "worker-1", zone: "a" },
  { name: "worker-2", zone: "b" },
  { name: "worker-3", zone: "c" },
];

/** Three replicas of `app`, kept one per node by a hostname spread constraint. */
export function onePerNode(
  kind: "Deployment" | "StatefulSet",
  app: string,
  containers: Doc[],
  spec: Doc = {},
) {
  return {
    apiVersion: "apps/v1",
    kind,
    metadata: { name: app },
    spec: {
      ...spec,
      replicas: 3,
      selector: { matchLabels: { app } },
      template: {
        metadata: { labels: { app } },
        spec: {
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: "kubernetes.io/hostname",
              whenUnsatisfiable: "DoNotSchedule",
              labelSelector: { matchLabels: { app } },
            },
          ],
          containers,
        },
      },
    },
  };
}

export function trafficScenario(o: Setup = {}) {
  const web = onePerNode("Deployment", "web", [
    { name: "web", image: "nginx", resources: { requests: { cpu: "100m" } } },
  ]);
  const svc = {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "web" },
    spec: {
      type: "LoadBalancer",
      externalTrafficPolicy: o.policy ?? "Cluster",
      selector: { app: "web" },
      ports: [{ port: 80 }],
    },
  };
  const doc: Doc = {
    name: "traffic",
    kubernetesVersion: o.kubernetesVersion ?? "1.32",
    seed: o.seed ?? 1,
    profile: o.profile ?? "stock",
    duration: o.duration ?? "3m",
    nodes: THREE_NODES,
    manifests: [web, svc],
    behaviour: { web: { shutdownSeconds: 3, serviceTimeMs: 20, ...(o.behaviour ?? {}) } },
    traffic: [
      {
        service: "default/web",
        rate: 175,
        clients: 20,
        keepAlive: true,
        // the experiment's clients kept sending through the loss window: none waits behind a hung
        // connection (Go's http.Transport opens another: MaxConnsPerHost 0, no limit)
        poolSize: 100,
        timeout: "10s",
        entry: "load-balancer",
        ...(o.traffic ?? {}),
      },
    ],
    timeline: o.timeline ?? [{ at: `${KILL}s`, do: o.fault ?? "power-off", node: "worker-2" }],
  };
  if (o.network) doc.network = o.network;
  return scenario(stringify(doc));
}

export function runTraffic(o: Setup = {}): { r: SimulationResult; t: TrafficResult } {
  const r = run(trafficScenario(o));
  return { r, t: r.traffic! };
}

export const lost = (t: TrafficResult) => t.totals.timeout + t.totals.refused + t.totals.error;

export const causeCount = (t: TrafficResult, cause: string) =>
  t.causes.find((c) => c.cause === cause)?.count ?? 0;

/** Seconds (by send time) with at least one failure. */
export const failingSeconds = (t: TrafficResult) =>
  t.perSecond.filter((r) => r.timeout + r.refused + r.error > 0).map((r) => r.t);
