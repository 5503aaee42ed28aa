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
  /** While muted (the warm-up before t=0) nothing is recorded. */
  muted = false;
  constructor(private readonly clock: { now: number }) {}

  emit(event: Emitted): void {
    if (this.muted) return;
    // On the engine's microsecond grid, so that float noise never reaches the output.
    const t = quantize(this.clock.now);
    this.events.push({ t, ...event } as TraceEvent);
  }

  /**
   * A Lease renewal, as `emit` would record it (same fields, same order), built as one literal: its
   * fields but the time are the same at every renewal of a node (node-lease.ts builds them once),
   * and renewals are most of a large run's events.
   */
  emitRenewal(e: Omit<EventOf<"LeaseRenewed">, "t">): void {
    if (this.muted) return;
    this.events.push({
      t: quantize(this.clock.now),
      type: e.type,
      lane: e.lane,
      object: e.object,
      node: e.node,
      nodeLeaseDurationSeconds: e.nodeLeaseDurationSeconds,
      renewIntervalSeconds: e.renewIntervalSeconds,
    });
  }
}
