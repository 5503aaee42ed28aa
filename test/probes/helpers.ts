// Scenarios for the probe tests: one node, one Deployment with the probes given, built inline.

import { stringify } from "yaml";
import { main } from "../../src/cli/main.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import { scenario } from "../helpers/sim.ts";

// biome-ignore lint/suspicious/noExplicitAny: probe objects as YAML would give them
export type ProbeSpec = Record<string, any>;

export interface AppOptions {
  probes?: { startupProbe?: ProbeSpec; livenessProbe?: ProbeSpec; readinessProbe?: ProbeSpec };
  behaviour?: Record<string, number>;
  kubelet?: Record<string, unknown>;
  timeline?: { at: number | string; do: string; pod?: string; node?: string }[];
  duration?: string;
  version?: string;
  restartPolicy?: string;
  pod?: boolean;
  extraSpec?: Record<string, unknown>;
  replicas?: number;
  nodes?: number;
}

/** The seed's probes (the article "Liveness vs Readiness vs Startup Probe"). */
export const SEED_PROBES = {
  startupProbe: { httpGet: { path: "/healthz", port: 8000 }, failureThreshold: 30, periodSeconds: 2 },
  readinessProbe: { httpGet: { path: "/ready", port: 8000 }, periodSeconds: 5, failureThreshold: 3 },
  livenessProbe: { httpGet: { path: "/healthz", port: 8000 }, periodSeconds: 10, failureThreshold: 3 },
};

export function app(o: AppOptions = {}): Scenario {
  const container = {
    name: "app",
    image: "example/app:1",
    ports: [{ containerPort: 8000 }],
    ...(o.probes ?? SEED_PROBES),
  };
  const spec = {
    containers: [container],
    ...(o.restartPolicy ? { restartPolicy: o.restartPolicy } : {}),
    ...(o.extraSpec ?? {}),
  };
  const workload = o.pod
    ? { apiVersion: "v1", kind: "Pod", metadata: { name: "app", labels: { app: "app" } }, spec }
    : {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: "app" },
        spec: {
          replicas: o.replicas ?? 1,
          selector: { matchLabels: { app: "app" } },
          template: { metadata: { labels: { app: "app" } }, spec },
        },
      };
  const service = {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "app" },
    spec: { selector: { app: "app" }, ports: [{ port: 80, targetPort: 8000 }] },
  };
  const doc = {
    ...(o.version ? { kubernetesVersion: o.version } : {}),
    duration: o.duration ?? "300s",
    start: "created",
    nodes: o.nodes ? { count: o.nodes } : [{ name: "worker-1" }],
    manifests: [workload, service],
    ...(o.kubelet ? { kubelet: o.kubelet } : {}),
    behaviour: { app: o.behaviour ?? {} },
    ...(o.timeline ? { timeline: o.timeline } : {}),
  };
  return scenario(stringify(doc));
}

export const TOY = { probeSchedule: "period-end", crashLoopBackOff: false };

/** Run the CLI with buffers. */
export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}
