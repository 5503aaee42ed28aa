// What a person reads about one event: the step's headline, why it happened at that moment, and
// what they would see (a kubectl command and the lines it prints).

import type { EventOf, EventType, TraceEvent } from "../../trace/events.ts";

export interface Prose {
  message: string;
  why?: string;
  see?: string;
}

/** A printer per event type of one area; report/messages/index.ts merges the areas. */
export type Printers<K extends EventType> = { [T in K]?: (e: EventOf<T>) => Prose };

/** The prose a model still writes itself (deprecated `message`/`why`/`see`), for events not yet data. */
export function legacyProse(e: TraceEvent): Prose {
  return {
    message: e.message ?? e.type,
    ...(e.why !== undefined ? { why: e.why } : {}),
    ...(e.see !== undefined ? { see: e.see } : {}),
  };
}
