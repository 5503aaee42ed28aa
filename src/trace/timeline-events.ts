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
  /** drain: the kubectl drain flags the step sets (scenario/types.ts TimelineStep) */
  force?: boolean;
  deleteEmptyDirData?: boolean;
  ignoreDaemonSets?: boolean;
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
  /**
   * kubectl drain stops before evicting anything: its filters refused pods on the node (a pod no
   * controller manages without --force, one with an emptyDir without --delete-emptydir-data, a
   * DaemonSet's without --ignore-daemonsets). `error` is kubectl's, pods listed per message.
   */
  DrainFailed: { step: TimelineStepRef; error: string };
}
