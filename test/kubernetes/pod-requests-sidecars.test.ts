// PodRequests with init containers and sidecars (component-helpers resource/helpers.go, KEP-753):
// the app containers and the sidecars run together; each init container runs beside the sidecars
// started before it; the pod asks for the larger, resource by resource.

import { describe, expect, it } from "vitest";
import type { Container, Pod } from "../../src/kubernetes/objects.ts";
import { podRequests } from "../../src/kubernetes/pod-resources.ts";

const c = (name: string, cpu: number, memory: number, sidecar = false): Container => ({
  name,
  resources: { requests: { cpu, memory } },
  ...(sidecar ? { restartPolicy: "Always" as const } : {}),
});

function pod(initContainers: Container[], containers: Container[]): Pod {
  return {
    kind: "Pod",
    metadata: { name: "p", namespace: "default" },
    spec: { initContainers, containers },
    status: { phase: "Pending", conditions: [], containerStatuses: [] },
  };
}

describe("podRequests", () => {
  it.each([
    // init containers only: the larger of the app containers' sum and the largest init container
    {
      name: "a large init container",
      init: [c("migrate", 2, 100)],
      app: [c("a", 0.5, 200), c("b", 0.5, 200)],
      cpu: 2000,
      mem: 400,
    },
    // a sidecar adds to the app containers
    {
      name: "a sidecar",
      init: [c("proxy", 0.1, 128, true)],
      app: [c("app", 0.5, 1000)],
      cpu: 600,
      mem: 1128,
    },
    // an init container after a sidecar runs beside it: 1 + 0.1 cores > 0.5 + 0.1
    {
      name: "an init container after a sidecar",
      init: [c("proxy", 0.1, 128, true), c("migrate", 1, 64)],
      app: [c("app", 0.5, 1000)],
      cpu: 1100,
      mem: 1128,
    },
    // before the sidecar it runs alone: max(1, 0.5 + 0.1)
    {
      name: "an init container before a sidecar",
      init: [c("migrate", 1, 64), c("proxy", 0.1, 128, true)],
      app: [c("app", 0.5, 1000)],
      cpu: 1000,
      mem: 1128,
    },
  ])("$name: $cpu m, $mem bytes", ({ init, app, cpu, mem }) => {
    const r = podRequests(pod(init, app));
    expect(r.cpuMilli).toBe(cpu);
    expect(r.memory).toBe(mem);
  });
});
