// A pod's resource request as the scheduler and the kubelet's admission compute it: the pod
// resource helpers (staging/src/k8s.io/component-helpers/resource/helpers.go PodRequests), which
// NodeResourcesFit's computePodResourceRequest (pkg/scheduler/framework/plugins/noderesources/fit.go) calls.

import type { Container, Pod } from "./objects.ts";

/** millicores, as resource.Quantity.MilliValue rounds them */
function milli(cores: number | undefined): number {
  return cores === undefined ? 0 : Math.round(cores * 1000);
}

/**
 * PodRequests: the containers' requests
 * summed, or the largest init container's where that is more (init containers run one at a time).
 */
export function podRequests(pod: Pod): { cpuMilli: number; memory: number } {
  let cpuMilli = 0;
  let memory = 0;
  for (const c of pod.spec.containers) {
    cpuMilli += milli(c.resources?.requests?.cpu);
    memory += c.resources?.requests?.memory ?? 0;
  }
  for (const c of pod.spec.initContainers ?? ([] as Container[])) {
    cpuMilli = Math.max(cpuMilli, milli(c.resources?.requests?.cpu));
    memory = Math.max(memory, c.resources?.requests?.memory ?? 0);
  }
  return { cpuMilli, memory };
}
