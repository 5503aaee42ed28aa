// The two pictures of the cluster a run's result carries: the state at t=0 (`initial`) and at the end
// (`summary`). Types only: run/result.ts builds them from the store (and defines the result, which
// also carries what the callers felt); report/ prints them (text.ts, json.ts, html/).

/**
 * The state at t=0. With `start: running` the warm-up has registered the nodes and created,
 * scheduled and started the workloads; whatever did not come up (a pod the scheduler cannot place,
 * a container in CrashLoopBackOff, a missing claim) is listed here with its reason.
 */
export interface InitialState {
  nodes: InitialNode[];
  pods: InitialPod[];
  /** Each Service's EndpointSlice: its endpoints and how many are ready. */
  endpoints: InitialEndpoints[];
}

export interface InitialNode {
  name: string;
  zone: string | null;
  /** kubectl's STATUS column: `Ready`, `NotReady`, `Ready,SchedulingDisabled`… */
  status: string;
  /** `key[=value]:Effect` */
  taints: string[];
}

export interface InitialPod {
  /** `<namespace>/<name>` */
  pod: string;
  node: string | null;
  phase: string;
  ready: boolean;
  /**
   * The workload the pod belongs to: `Deployment/<ns>/<name>` (through its ReplicaSet),
   * `StatefulSet/…`, `DaemonSet/…`, `ReplicaSet/…`; a bare Pod is its own workload, `Pod/<ns>/<name>`.
   */
  owner: string;
  /** Why the pod is not Running and Ready, in Kubernetes' words (absent when it is). */
  reason?: string;
  /** The message that goes with the reason: the scheduler's, for an unschedulable pod. */
  message?: string;
}

export interface InitialEndpoints {
  /** `<namespace>/<name>` */
  service: string;
  ready: number;
  total: number;
  /** Each endpoint: its pod `<namespace>/<name>` and its `ready` condition. */
  pods: { pod: string; ready: boolean }[];
}

export interface Summary {
  duration: number;
  /** engine events run, including the warm-up: the benchmark's unit */
  engineEvents: number;
  settings: Record<string, number | boolean | string>;
  nodes: { name: string; status: string; taints: string[] }[];
  pods: { pod: string; node: string | null; status: string; ready: boolean }[];
  /** ReadWriteOnce volumes attached at the end, and where */
  volumes: { claim: string; node: string }[];
  /** Each `drain` step of the timeline, as it stands at the end. */
  drains: DrainSummary[];
  eventCounts: Record<string, number>;
}

/** A `kubectl drain` at the end of the run (faults/drain.ts). */
export interface DrainSummary {
  node: string;
  /** when the step ran */
  at: number;
  /**
   * drained: every pod it evicted is gone (kubectl prints "node/<name> drained"); evicting: some
   * are still terminating; blocked: a PodDisruptionBudget still refuses a pod, kubectl retrying
   * every 5s (kubectl's evictPods on a 429, staging/src/k8s.io/kubectl/pkg/drain/drain.go);
   * failed: kubectl stopped with `error`.
   */
  status: "drained" | "evicting" | "blocked" | "failed";
  /** pods the Eviction API accepted */
  evicted: number;
  /** of those, still terminating */
  terminating?: number;
  error?: string;
  /** the pods still refused: by which budget, since when, how many refusals */
  blocked?: { pod: string; pdb: string; since: number; refusals: number }[];
}
