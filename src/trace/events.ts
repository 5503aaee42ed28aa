// The trace: a typed stream of what happened, the one thing every report reads.
//
// Events are data. Each says what changed (type, object, lane) and carries the typed fields that
// explain it: the cause, the flag and its value that set the moment, the counts, the objects
// involved. The prose a person reads ("message", "why now", "you would see") is written from those
// fields by report/messages/, never by a model. The field maps live beside their models:
// node-events.ts, control-plane-events.ts, scheduling-events.ts, traffic-events.ts,
// timeline-events.ts.

import { quantize } from "../engine/time.ts";
import type { ControlPlaneEventFields } from "./control-plane-events.ts";
import type { JobEventFields } from "./job-events.ts";
import type { LeaseLog, LeaseSchedule } from "./lease-renewals.ts";
import type { NodeEventFields } from "./node-events.ts";
import type { SchedulingEventFields } from "./scheduling-events.ts";
import type { TimelineEventFields } from "./timeline-events.ts";
import type { TrafficEventFields } from "./traffic-events.ts";

export type Lane = "kubelet" | "app" | "network" | "control-plane" | "operator";

interface Base {
  /** seconds from the start of the simulation */
  t: number;
  lane: Lane;
  /** `Node/<name>`, `Pod/<ns>/<name>`, `Lease/kube-node-lease/<node>`, `PersistentVolumeClaim/<ns>/<name>`… */
  object: string;
  node?: string;
}

/** The extra fields of each event type. */
export interface EventFields
  extends NodeEventFields,
    ControlPlaneEventFields,
    JobEventFields,
    SchedulingEventFields,
    TrafficEventFields,
    TimelineEventFields {}

export type EventType = keyof EventFields;

export type TraceEvent = { [K in EventType]: Base & { type: K } & EventFields[K] }[EventType];

export type EventOf<K extends EventType> = Extract<TraceEvent, { type: K }>;

/** What a model emits: an event without its time, which the trace stamps. */
export type Emitted = TraceEvent extends infer E ? (E extends TraceEvent ? Omit<E, "t"> : never) : never;

export class Trace {
  readonly events: TraceEvent[] = [];
  /**
   * The Lease renewals, kept as each node's schedule rather than as events (lease-renewals.ts):
   * they are most of a long run's events and all alike.
   */
  readonly leases: LeaseSchedule = { logs: [], recordedAfter: Number.NEGATIVE_INFINITY };
  private mutedNow = false;
  constructor(private readonly clock: { now: number }) {}

  /** While muted (the warm-up before t=0) nothing is recorded. */
  get muted(): boolean {
    return this.mutedNow;
  }

  set muted(muted: boolean) {
    this.mutedNow = muted;
    if (muted) this.leases.recordedAfter = Number.POSITIVE_INFINITY;
    else if (this.leases.recordedAfter === Number.POSITIVE_INFINITY)
      this.leases.recordedAfter = this.clock.now;
  }

  emit(event: Emitted): void {
    if (this.mutedNow) return;
    // On the engine's microsecond grid, so that float noise never reaches the output.
    const t = quantize(this.clock.now);
    this.events.push({ t, ...event } as TraceEvent);
  }

  /** A node's Lease renewals: its log, which its lease controller fills (kubelet/node-lease.ts). */
  leaseLog(log: LeaseLog): LeaseLog {
    this.leases.logs.push(log);
    return log;
  }
}
