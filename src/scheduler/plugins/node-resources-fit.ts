// NodeResourcesFit (pkg/scheduler/framework/plugins/noderesources/fit.go): the pod's request
// (computePodResourceRequest, kubernetes/pod-resources.ts) against what the node has left, allocatable − the requests of the pods
// bound to it (fitsRequest). Every insufficient resource is a reason of its own ("Too many pods",
// "Insufficient cpu", …); the node is refused as Unschedulable (preemption might make room), or from
// 1.34 as UnschedulableAndUnresolvable where the request exceeds the node's allocatable itself
// (InsufficientResource.Unresolvable). Resources other than cpu, memory and pods (ephemeral-storage,
// hugepages-<size>, extended resources such as nvidia.com/gpu) are compared the same way, by name
// ("Insufficient nvidia.com/gpu", fmt.Sprintf("Insufficient %v", rName)).

import { EPHEMERAL_STORAGE, type PodRequest, scalarValue } from "../../kubernetes/pod-resources.ts";
import type { SchedulerCache } from "../framework/cache.ts";
import { type FilterReasons, slot } from "../framework/filter-reasons.ts";
import { type FilterCode, PASS, UNRESOLVABLE, UNSCHEDULABLE } from "../framework/status.ts";

/** The pod's request as the filter reads it (the PodInfo fields). */
export type FitRequest = PodRequest;

/**
 * What a node's allocatable gives of a resource it may not list: none (a node lists an extended
 * resource only with its device plugin, hugepages only when pre-allocated), except
 * ephemeral-storage, which every kubelet reports (its root filesystem): a scenario node that does
 * not declare it has as much as the pods ask, as it has for cpu and memory.
 */
function allocatableOf(alloc: Readonly<Record<string, number>> | undefined, name: string): number {
  const v = alloc?.[name];
  if (v !== undefined) return scalarValue(v);
  return name === EPHEMERAL_STORAGE ? Number.POSITIVE_INFINITY : 0;
}

/**
 * fitsRequest on the node's row: one more pod within allocatable pods, then each requested
 * resource within what is left. `unresolvableFit`: the 1.34 rule above.
 */
export function nodeResourcesFitFilter(
  cache: SchedulerCache,
  row: number,
  request: FitRequest,
  reasons: FilterReasons,
  unresolvableFit: boolean,
): FilterCode {
  let fit: FilterCode = PASS;
  if (cache.podCount[row]! + 1 > cache.allocPods[row]!) {
    reasons.add(slot("TooManyPods"));
    fit = UNSCHEDULABLE;
  }
  if (request.cpuMilli > 0 && cache.cpuMilli[row]! + request.cpuMilli > cache.allocCpuMilli[row]!) {
    reasons.add(slot("InsufficientCPU"));
    if (fit === PASS) fit = UNSCHEDULABLE;
    if (unresolvableFit && request.cpuMilli > cache.allocCpuMilli[row]!) fit = UNRESOLVABLE;
  }
  if (request.memory > 0 && cache.memory[row]! + request.memory > cache.allocMemory[row]!) {
    reasons.add(slot("InsufficientMemory"));
    if (fit === PASS) fit = UNSCHEDULABLE;
    if (unresolvableFit && request.memory > cache.allocMemory[row]!) fit = UNRESOLVABLE;
  }
  for (const [name, q] of request.scalar) {
    const alloc = allocatableOf(cache.allocScalar[row], name);
    if (q <= alloc - (cache.requestedScalar[row]?.get(name) ?? 0)) continue;
    reasons.add(reasons.resourceSlot(name));
    if (fit === PASS) fit = UNSCHEDULABLE;
    if (unresolvableFit && q > alloc) fit = UNRESOLVABLE;
  }
  return fit;
}
