// A pod's resource request as the scheduler computes it: the pod resource helpers
// (staging/src/k8s.io/component-helpers/resource/helpers.go PodRequests), which NodeResourcesFit's
// computePodResourceRequest (pkg/scheduler/framework/plugins/noderesources/fit.go) calls, added into
// a framework.Resource (pkg/scheduler/framework/types.go Resource.Add).

import type { Container, Pod, ResourceList } from "./objects.ts";

/** The resource that is counted as a scalar though it has a field of its own in framework.Resource. */
export const EPHEMERAL_STORAGE = "ephemeral-storage";

/**
 * The resources framework.Resource keeps by name besides cpu, memory and pods: ephemeral-storage
 * (its own field there) and the scalar resources of schedutil.IsScalarResourceName
 * (pkg/scheduler/util/utils.go): extended resources (a name with a "/" outside kubernetes.io,
 * v1helper.IsExtendedResourceName), prefixed native resources (kubernetes.io/…), hugepages-<size>
 * and attachable-volumes-*. Anything else (`storage` in a container, say) the scheduler ignores.
 */
export function isScalarResourceName(name: string): boolean {
  return (
    name === EPHEMERAL_STORAGE ||
    name.includes("/") ||
    name.startsWith("hugepages-") ||
    name.startsWith("attachable-volumes-")
  );
}

/** millicores, as resource.Quantity.MilliValue rounds them */
function milli(cores: number | undefined): number {
  return cores === undefined ? 0 : Math.round(cores * 1000);
}

/** A scalar quantity as Resource.Add reads it: Quantity.Value(), rounded up to a whole number. */
export function scalarValue(q: number): number {
  return Math.ceil(q);
}

/** A pod's request: millicores, bytes, and the scalar resources by name (sorted, none at 0). */
export interface PodRequest {
  cpuMilli: number;
  memory: number;
  scalar: readonly (readonly [string, number])[];
}

/** ephemeral-storage first, as fitsRequest checks it, then the scalar resources by name. */
function byFitOrder(a: string, b: string): number {
  if (a === b) return 0;
  if (a === EPHEMERAL_STORAGE) return -1;
  if (b === EPHEMERAL_STORAGE) return 1;
  return a < b ? -1 : 1;
}

const NO_SCALARS: readonly (readonly [string, number])[] = [];

/**
 * PodRequests: the containers' requests summed, or the largest init container's where that is more
 * (init containers run one at a time), resource by resource. A limit without a request has already
 * set the request (load/manifest/container.ts, core/v1 SetDefaults_Pod).
 */
export function podRequests(pod: Pod): PodRequest {
  let cpuMilli = 0;
  let memory = 0;
  let scalar: Map<string, number> | undefined;
  const add = (r: ResourceList["scalar"], max: boolean) => {
    if (!r) return;
    scalar ??= new Map();
    for (const [name, q] of Object.entries(r)) {
      const v = scalarValue(q);
      const before = scalar.get(name) ?? 0;
      scalar.set(name, max ? Math.max(before, v) : before + v);
    }
  };
  for (const c of pod.spec.containers) {
    cpuMilli += milli(c.resources?.requests?.cpu);
    memory += c.resources?.requests?.memory ?? 0;
    add(c.resources?.requests?.scalar, false);
  }
  for (const c of pod.spec.initContainers ?? ([] as Container[])) {
    cpuMilli = Math.max(cpuMilli, milli(c.resources?.requests?.cpu));
    memory = Math.max(memory, c.resources?.requests?.memory ?? 0);
    add(c.resources?.requests?.scalar, true);
  }
  if (!scalar) return { cpuMilli, memory, scalar: NO_SCALARS };
  // fitsRequest skips a request of 0 ("Skip in case request quantity is zero"); names sorted, so
  // that the reasons come in one order (the FitError sorts them anyway)
  const list = [...scalar].filter(([, v]) => v > 0).sort(([a], [b]) => byFitOrder(a, b));
  return { cpuMilli, memory, scalar: list.length > 0 ? list : NO_SCALARS };
}
