// Scenarios for whatif/ tests: loaded from in-memory files, so they carry their source.

import { formatLoadError, LoadError } from "../../src/load/index.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import { load } from "../load/helpers.ts";

export const WEB = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx
          livenessProbe: {httpGet: {port: 80, path: /}, periodSeconds: 5}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, type: LoadBalancer}
---
apiVersion: v1
kind: Service
metadata: {name: other}
spec: {selector: {app: web}}
`;

/** Two callers of default/web, a power-off at 30s; `extra` is appended to the scenario. */
export function withTraffic(extra = "", version = "1.32"): Scenario {
  return load(
    `kubernetesVersion: "${version}"
duration: 2m
nodes: {count: 2, zones: [a, b]}
manifests: [web.yaml]
traffic:
  - {service: default/web, rate: 10, timeout: 10s}
  - {service: default/web, rate: 5, entry: cluster-ip}
timeline:
  - {at: 30s, do: power-off, node: worker-1}
${extra}`,
    { "web.yaml": WEB },
  );
}

/** The one line the CLI would print for the LoadError `run` throws. */
export function errorLine(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    if (e instanceof LoadError) return formatLoadError(e);
    throw e;
  }
  throw new Error("expected a LoadError");
}
