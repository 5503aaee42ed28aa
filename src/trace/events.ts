// The trace: a typed stream of what happened, the one thing every report reads.
// Each event says what changed (type, object, message), why at that moment (`why`: the flag or
// field and its value that set the moment) and what a user would see (`see`: a kubectl command and
// the line it would print).

export type Lane = "kubelet" | "app" | "network" | "control-plane" | "operator";

interface Base {
  /** seconds from the start of the simulation */
  t: number;
  lane: Lane;
  /** `Node/<name>`, `Pod/<ns>/<name>`, `Lease/kube-node-lease/<node>`, `PersistentVolumeClaim/<ns>/<name>`… */
  object: string;
  message: string;
  node?: string;
  why?: string;
  see?: string;
}

/** The extra fields of each event type. */
export interface EventFields {
  FaultInjected: { do: string };
  LeaseRenewed: Record<never, never>;
  NodeNotReady: { status: "Unknown" | "False"; reason: string };
  NodeReady: Record<never, never>;
  NodeRegistered: Record<never, never>;
  NodeDeleted: Record<never, never>;
  NodeTainted: { taint: string };
  NodeTaintRemoved: { taint: string };
  ZoneStateChanged: { zone: string; state: string; from: string };
  PodCreated: { owner: string };
  PodScheduled: Record<never, never>;
  FailedScheduling: Record<never, never>;
  PodReady: Record<never, never>;
  PodNotReady: Record<never, never>;
  PodEvicted: { reason: string };
  EvictionBlocked: { pdb: string };
  EvictionCancelled: Record<never, never>;
  PodTerminated: Record<never, never>;
  PodDeleted: { force: boolean };
  PodRunsTwice: { copies: number };
  EndpointReady: { service: string };
  EndpointNotReady: { service: string };
  EndpointRemoved: { service: string };
  VolumeAttached: Record<never, never>;
  VolumeDetached: { forced: boolean };
  FailedAttachVolume: Record<never, never>;
  ContainerStarted: { container: string; restartCount: number };
  ContainerExited: { container: string; exitCode: number };
  ContainerKilled: { container: string; probe?: string };
  ProbeFailed: { container: string; probe: string; consecutive: number };
  ProbeSucceeded: { container: string; probe: string };
  BackOff: { container: string; delaySeconds: number };
  LoadBalancerBackendDown: { service: string };
  LoadBalancerBackendUp: { service: string };
  /** A node's kube-proxy applied an endpoint change of a Service (traffic model only). */
  KubeProxySynced: { service: string };
  /** Callers of a Service start failing (traffic model): outcome and cause of the first failures. */
  RequestsFailing: { service: string; outcome: string; cause: string };
  /** Callers of a Service succeed again after a run of failures. */
  RequestsRecovered: { service: string; lost: number };
  Note: Record<never, never>;
}

export type EventType = keyof EventFields;

export type TraceEvent = { [K in EventType]: Base & { type: K } & EventFields[K] }[EventType];

export type EventOf<K extends EventType> = Extract<TraceEvent, { type: K }>;

/** What a model emits: an event without its time, which the trace stamps. */
export type Emitted = TraceEvent extends infer E ? (E extends TraceEvent ? Omit<E, "t"> : never) : never;

export class Trace {
  readonly events: TraceEvent[] = [];
  /** While muted (the warm-up before t=0) nothing is recorded. */
  muted = false;
  constructor(private readonly clock: { now: number }) {}

  emit(event: Emitted): void {
    if (this.muted) return;
    // Times are kept to the microsecond so that float noise never reaches the output.
    const t = Math.round(this.clock.now * 1e6) / 1e6;
    this.events.push({ t, ...event } as TraceEvent);
  }
}
