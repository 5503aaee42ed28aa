// Event objects as client-go's recorders write them: the name ("<object>.<unix nanoseconds hex>"),
// the core/v1 form (tools/record: source, first/last timestamp, count) or the events.k8s.io/v1 form
// (tools/events, used by kube-scheduler: eventTime, reportingController, action), merging of
// identical events (EventCorrelator), and the events.k8s.io/v1 view of a stored Event.

import type { EventJ } from "./api-types.ts";
import { uuidOf } from "./convert-meta.ts";
import type { Recorded } from "./events.ts";
import { microTimeString, timeString, unixNanoHex } from "./time.ts";

/** The key client-go's EventCorrelator merges identical events on (events_cache.go getEventKey). */
export function correlationKey(r: Recorded): string {
  const o = r.involved;
  return [
    r.source?.component ?? r.reporting?.controller,
    r.source?.host ?? "",
    o.kind,
    o.namespace ?? "",
    o.name,
    o.uid ?? "",
    o.apiVersion ?? "",
    o.fieldPath ?? "",
    r.type,
    r.reason,
    r.message,
  ].join("\u0000");
}

/** A new Event object for a first recording (core/v1 form; events.k8s.io recordings have no first/last timestamps). */
export function newEvent(r: Recorded, name: string): EventJ {
  const namespace = r.involved.namespace || "default";
  const meta = {
    name,
    namespace,
    uid: uuidOf(`Event/${namespace}/${name}`),
    creationTimestamp: timeString(r.t),
  };
  const common = {
    apiVersion: "v1",
    kind: "Event",
    metadata: meta,
    involvedObject: r.involved,
    reason: r.reason,
    message: r.message,
    type: r.type,
  };
  if (r.reporting) {
    return {
      ...common,
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: microTimeString(r.t),
      reportingComponent: r.reporting.controller,
      reportingInstance: "",
      action: r.reporting.action,
    };
  }
  return {
    ...common,
    source: r.source ?? {},
    firstTimestamp: timeString(r.t),
    lastTimestamp: timeString(r.t),
    count: 1,
    eventTime: null,
    reportingComponent: r.source?.component ?? "",
    reportingInstance: r.source?.host ?? "",
  };
}

/** A repeat of an identical event: the correlator patches count and lastTimestamp (events.k8s.io: the series). */
export function repeatEvent(ev: EventJ, r: Recorded): EventJ {
  if (ev.eventTime !== null && ev.firstTimestamp === null) {
    const count = (ev.series?.count ?? 1) + 1;
    return { ...ev, series: { count, lastObservedTime: microTimeString(r.t) } };
  }
  return { ...ev, count: (ev.count ?? 1) + 1, lastTimestamp: timeString(r.t) };
}

/** The name client-go gives an Event: "<involved object name>.<unix nanoseconds in hex>". */
export function eventName(r: Recorded, taken: (name: string) => boolean): string {
  let t = r.t;
  let name = `${r.involved.name}.${unixNanoHex(t)}`;
  // Two recordings for one object at one instant: a nanosecond apart, as two real recordings would be.
  while (taken(name)) {
    t += 1e-9;
    name = `${r.involved.name}.${unixNanoHex(t)}`;
  }
  return name;
}

/** events.k8s.io/v1 form of a stored core/v1 Event (pkg/apis/events/v1 conversion). */
export function toEventsV1(ev: EventJ): Record<string, unknown> {
  return {
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    metadata: ev.metadata,
    eventTime: ev.eventTime,
    ...(ev.series ? { series: ev.series } : {}),
    reportingController: ev.reportingComponent,
    reportingInstance: ev.reportingInstance,
    action: ev.action ?? "",
    reason: ev.reason,
    regarding: ev.involvedObject,
    note: ev.message,
    type: ev.type,
    ...(ev.source.component ? { deprecatedSource: ev.source } : {}),
    ...(ev.firstTimestamp ? { deprecatedFirstTimestamp: ev.firstTimestamp } : {}),
    ...(ev.lastTimestamp ? { deprecatedLastTimestamp: ev.lastTimestamp } : {}),
    ...(ev.count ? { deprecatedCount: ev.count } : {}),
  };
}
