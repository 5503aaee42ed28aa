// A pod's resource request as the scheduler computes it: the pod resource helpers
// (staging/src/k8s.io/component-helpers/resource/helpers.go PodRequests), which NodeResourcesFit's
// computePodResourceRequest (pkg/scheduler/framework/plugins/noderesources/fit.go) calls, added into
// a framework.Resource (pkg/scheduler/framework/types.go Resource.Add).

import type { Container, Pod } from "./objects.ts";

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

/** One container's (or a sum's) request, resource by resource. */
interface Req {
  cpuMilli: number;
  memory: number;
  scalar: Map<string, number> | undefined;
}

function requestOf(c: Container): Req {
  const r = c.resources?.requests;
  let scalar: Map<string, number> | undefined;
  for (const [name, q] of Object.entries(r?.scalar ?? {})) {
    scalar ??= new Map();
    scalar.set(name, scalarValue(q));
  }
  return { cpuMilli: milli(r?.cpu), memory: r?.memory ?? 0, scalar };
}

/** a + b (max: the larger of each), resource by resource. */
function combine(a: Req, b: Req, max: boolean): Req {
  let scalar = a.scalar;
  if (b.scalar) {
    scalar = new Map(a.scalar);
    for (const [name, v] of b.scalar) {
      const before = scalar.get(name) ?? 0;
      scalar.set(name, max ? Math.max(before, v) : before + v);
    }
  }
  const f = max ? Math.max : (x: number, y: number) => x + y;
  return { cpuMilli: f(a.cpuMilli, b.cpuMilli), memory: f(a.memory, b.memory), scalar };
}

const ZERO: Req = { cpuMilli: 0, memory: 0, scalar: undefined };

/**
 * PodRequests: the app containers' requests summed; the init containers run one at a time, each
 * beside the sidecars started before it, and the sidecars (restartPolicy: Always, KEP-753) keep
 * running beside the app containers: the pod asks for the larger of (app containers + sidecars)
 * and the largest (init container + the sidecars before it), resource by resource. A limit
 * without a request has already set the request (load/manifest/container.ts, core/v1
 * SetDefaults_Pod).
 */
export function podRequests(pod: Pod): PodRequest {
  let apps = ZERO;
  for (const c of pod.spec.containers) apps = combine(apps, requestOf(c), false);
  let sidecars = ZERO;
  let inits = ZERO;
  for (const c of pod.spec.initContainers ?? ([] as Container[])) {
    const own = requestOf(c);
    if (c.restartPolicy === "Always") {
      sidecars = combine(sidecars, own, false);
      inits = combine(inits, sidecars, true);
    } else inits = combine(inits, combine(own, sidecars, false), true);
  }
  const total = combine(combine(apps, sidecars, false), inits, true);
  const { cpuMilli, memory, scalar } = total;
  if (!scalar) return { cpuMilli, memory, scalar: NO_SCALARS };
  // fitsRequest skips a request of 0 ("Skip in case request quantity is zero"); names sorted, so
  // that the reasons come in one order (the FitError sorts them anyway)
  const list = [...scalar].filter(([, v]) => v > 0).sort(([a], [b]) => byFitOrder(a, b));
  return { cpuMilli, memory, scalar: list.length > 0 ? list : NO_SCALARS };
}
