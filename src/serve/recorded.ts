// One recording of an event by a component (events.ts makes them; event-objects.ts merges them
// into Event objects), moved out of events.ts.

import type { ObjectReferenceJ } from "./api-types.ts";

/** One recording of an event by a component, before merging. */
export interface Recorded {
  t: number;
  involved: ObjectReferenceJ;
  type: "Normal" | "Warning";
  reason: string;
  message: string;
  /** core/v1 recorder (client-go tools/record): source component and host */
  source?: { component: string; host?: string };
  /** events.k8s.io/v1 recorder (client-go tools/events), used by kube-scheduler */
  reporting?: { controller: string; action: string };
}

export type Source = Recorded["source"];

/** One Event, or none when the object it is about is not served. */
export function one(
  t: number,
  involved: ObjectReferenceJ | undefined,
  type: Recorded["type"],
  reason: string,
  message: string,
  source: Source,
): Recorded[] {
  return involved ? [{ t, involved, type, reason, message, ...(source ? { source } : {}) }] : [];
}
