// Helpers shared by the workload controllers' tests.

import type { Pod, ReplicaSet } from "../../src/kubernetes/objects.ts";
import type { Harness } from "./harness.ts";

export const template = {
  metadata: { labels: { app: "web" } },
  spec: { containers: [{ name: "web", image: "nginx" }] },
};

export function replicaSet(replicas: number): ReplicaSet {
  return {
    kind: "ReplicaSet",
    metadata: { name: "web-abc", namespace: "default" },
    spec: { replicas, selector: { matchLabels: { app: "web" } }, template },
  };
}

export const pods = (h: Harness, prefix: string): Pod[] =>
  h.store.list("Pod").filter((p) => p.metadata.name.startsWith(prefix));

/** The kubelet's part, by hand: the pod runs and is Ready. */
export function runReady(h: Harness, p: Pod): void {
  p.status.phase = "Running";
  p.status.podIP = "10.0.0.1";
  p.status.conditions = [{ type: "Ready", status: "True" }];
  h.store.update(p, p.spec.nodeName);
}
