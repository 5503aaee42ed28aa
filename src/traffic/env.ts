// What the traffic model reads of the run: the engine, the trace, the timeline's instants and the
// endpoint table's view of the machines and pods.

import type { Engine } from "../engine/engine.ts";
import type { Trace } from "../trace/events.ts";
import type { EndpointsEnv } from "./endpoints.ts";

/** What the traffic model reads of the run. */
export interface TrafficEnv {
  readonly engine: Engine;
  readonly trace: Trace;
  /** the scenario's duration */
  readonly duration: number;
  /** when the timeline's steps happen: the requests sent before each resolve with the state before it */
  readonly stepTimes: readonly number[];
  /** the machines and the pods, as the endpoint table reads them */
  readonly endpoints: EndpointsEnv;
}
