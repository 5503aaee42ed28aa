// What the data plane (kube-proxy, the load balancers, the EndpointSlice feed) is given of the run,
// instead of the whole context.

import type { Machines } from "../cluster/context.ts";
import type { Store } from "../cluster/store.ts";
import type { Engine } from "../engine/engine.ts";
import type { Trace } from "../trace/events.ts";

/**
 * What the data plane reads: the clock, the API (the EndpointSlices, Services, Nodes and Leases it
 * watches), the trace, the cluster's node names, and whether packets reach a machine.
 */
export interface DataPlaneEnv {
  readonly engine: Engine;
  readonly store: Store;
  readonly trace: Trace;
  readonly nodes: readonly string[];
  readonly machines: Pick<Machines, "dataPlane">;
}
