// What every component of the simulated cluster shares: the clock, the store, the trace and the
// resolved settings. Components receive it; none reads a global.

import type { Engine } from "../engine/engine.ts";
import type { Rng } from "../engine/rng.ts";
import type { ControlPlaneSettings, KubeletSettings } from "../kubernetes/defaults.ts";
import type { Behaviour, KubernetesVersion, Scenario } from "../scenario/types.ts";
import type { Trace } from "../trace/events.ts";
import type { Store } from "./store.ts";

/**
 * What a caller's connection to a pod IP meets, from the data plane's side (not the API's):
 * - `serving`: the process accepts and answers;
 * - `hung`: the process accepts (or the kernel does) but never answers: a deadlock; requests time out;
 * - `refusing`: the machine is up but nothing listens (container exited, restarting): connection refused;
 * - `absent`: no such pod process on that node (treated like refusing when the node is up).
 */
export type AppState = "serving" | "hung" | "refusing" | "absent";

/** Whether packets reach a node at all: powered off and partitioned nodes swallow them (timeouts). */
export type DataPlane = "up" | "off" | "partitioned";

export interface Machines {
  /** The node's data plane, whatever the API says about it. */
  dataPlane(node: string): DataPlane;
  /** The application behind a pod IP on a node, as a connection would find it. */
  appState(node: string, podIP: string): AppState;
  /** Is a copy of this pod's containers running on some machine, whatever the API says? */
  runningCopies(
    match: (podName: string, namespace: string, owner: string | undefined) => boolean,
  ): RunningCopy[];
  /** Does the node's kubelet (last) report this claim's volume as mounted (node.status.volumesInUse)? */
  volumeInUse(node: string, claim: string): boolean;
  /** Can the node's kubelet reach the API server? */
  reachable(node: string): boolean;
}

/** What the traffic model offers the rest of the cluster (see Context.traffic). */
export interface TrafficHooks {
  /** Seconds until a health check sent to the pod at `podIP` at time `now` is answered. */
  healthCheckLatency(podIP: string, now: number): number;
}

export interface RunningCopy {
  node: string;
  podName: string;
  namespace: string;
  uid: string;
  /** The kubelet there can neither see nor stop it (power on, but partitioned or stopped). */
  unreachable: boolean;
  /** The API no longer counts this pod: its object is gone or has a deletionTimestamp. */
  replaced: boolean;
}

export interface Context {
  engine: Engine;
  store: Store;
  trace: Trace;
  scenario: Scenario;
  version: KubernetesVersion;
  /** `v1.32.0`, as kubectl prints it */
  versionString: string;
  controlPlane: ControlPlaneSettings;
  kubelet: KubeletSettings;
  /** generator for the names controllers give pods (generateName suffixes) */
  names: Rng;
  machines: Machines;
  /**
   * The traffic model (src/traffic/model.ts), when the scenario has callers. The kubelet's prober
   * asks it how long an HTTP health check sent to a pod now waits for its answer:
   * `behaviour.serviceTimeMs` (default 5ms), plus, with `healthSharesRequestQueue: true`, the
   * seconds of requests queued ahead of it in that pod (past `capacityRps` the queue grows). A
   * probe fails when this exceeds its timeoutSeconds. Absent: no traffic, health checks answer at once.
   */
  traffic?: TrafficHooks;
  behaviour(namespace: string, owner: string | undefined, podName: string, container?: string): Behaviour;
}
