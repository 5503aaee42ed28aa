// What the components of the simulated cluster are given. A controller gets a `Cluster` (the clock,
// the store, the trace as its event recorder, the API server's name generator and admission
// settings) and its own settings slice, as Kubernetes' controllers get informers, a client and a
// recorder. The kubelet, the data plane and the callers still share the whole `Context`: the
// machines behind the API, the scenario's behaviours, every setting. None reads a global.

import type { Engine } from "../engine/engine.ts";
import type { Rng } from "../engine/rng.ts";
import type { AdmissionSettings } from "../kubernetes/admission.ts";
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

/**
 * A count of the changes to what a connection meets (Machines.dataPlane and appState: a machine's
 * power or partition, a pod worker added or removed, a container started, stopped, hung or
 * recovered), and until when a started container may still be booting (`behaviour.bootSeconds`:
 * it refuses until then, with no event at the instant it starts to serve). The traffic model reads
 * the machines again only when the count moved or a boot may be ending (traffic/endpoints.ts).
 */
export interface PlaneChanges {
  count: number;
  bootingUntil: number;
}

export interface Machines {
  /** Counted by the kubelets; absent: whoever reads the machines reads them at every look. */
  readonly changes?: PlaneChanges;
  /** The node's data plane, whatever the API says about it. */
  dataPlane(node: string): DataPlane;
  /** The application behind a pod IP on a node, as a connection would find it. */
  appState(node: string, podIP: string): AppState;
  /** Is a copy of this pod's containers running on some machine, whatever the API says? */
  runningCopies(
    match: (podName: string, namespace: string, owner: string | undefined) => boolean,
  ): RunningCopy[];
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

/** What a control-plane component reads and writes the cluster through. */
export interface Cluster {
  engine: Engine;
  /** get / list / watch: the informers, and the writes a client would send */
  store: Store;
  /** the event recorder */
  trace: Trace;
  /** the API server's generator for `metadata.generateName` suffixes */
  names: Rng;
  /** the API server's admission settings (DefaultTolerationSeconds) */
  admission: AdmissionSettings;
  /**
   * The StorageClasses are the platform's and the scenario's, and nothing else: no default class is
   * assumed for a claim without one (a platform profile installs its own, platforms/storage-class.ts).
   */
  platformStorage?: boolean;
}

export interface Context extends Cluster {
  scenario: Scenario;
  version: KubernetesVersion;
  /** `v1.32.0`, as kubectl prints it */
  versionString: string;
  controlPlane: ControlPlaneSettings;
  kubelet: KubeletSettings;
  machines: Machines;
  /**
   * The traffic model (src/traffic/model.ts), when the scenario has callers. The kubelet's prober
   * asks it how long an HTTP health check sent to a pod now waits for its answer:
   * `behaviour.serviceTimeMs` (default 5ms), plus, with `healthSharesRequestQueue: true`, the
   * seconds of requests queued ahead of it in that pod (past `capacityRps` the queue grows). A
   * probe fails when this exceeds its timeoutSeconds. Absent: no traffic, health checks answer at once.
   */
  traffic?: TrafficHooks;
  /**
   * The workloads (by the name their behaviour is keyed by, run/scenario-reads.ts behaviourKey) one
   * of whose pods has a probe: before t=0 only a probe reads an app's boot (kubelet/app.ts), so a
   * run may change the bootSeconds of the others after a shared warm-up (run/warm-serves.ts).
   * Absent: not recorded.
   */
  checkedApps?: Set<string>;
  /** `init`: the container is one of spec.initContainers (only its own `<workload>/<container>` entry applies) */
  behaviour(
    namespace: string,
    owner: string | undefined,
    podName: string,
    container?: string,
    init?: boolean,
  ): Behaviour;
}
