// Events of the scenario's timeline: what the operator (or the scenario) does to the cluster, and
// the notes that say what it means for each lane. Fields only; report/messages/timeline.ts writes
// the prose.

import type { FaultAction } from "../scenario/types.ts";

/** A timeline step as the scenario wrote it: `{at, do, node}` or `{at, do, pod}`. */
export interface TimelineStepRef {
  at: number;
  do: FaultAction;
  node?: string;
  /** the pod as written: `<ns>/<name>`, `<Kind>/<name>` or `<Kind>/<name>[i]` */
  pod?: string;
}

/** What a pod action did to the pod it found (or did not find). */
export type PodActionOutcome =
  /** no pod matches the step at this moment: nothing happens */
  | "no-pod"
  /** the pod's containers are not running: nothing changes */
  | "not-running"
  /** the action reached the process */
  | "applied";

export interface TimelineEventFields {
  FaultInjected: {
    do: FaultAction;
    step: TimelineStepRef;
    /** The pod the step acted on, `<ns>/<name>` (pod actions and force-delete-pod). */
    pod?: string;
    outcome?: PodActionOutcome;
  };
  /** What a node action means for a lane (the kubelet, your app, the network), before anything is detected. */
  Note: { do: FaultAction };
}
