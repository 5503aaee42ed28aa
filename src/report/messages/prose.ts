// What a person reads about one event: the step's headline, why it happened at that moment, and
// what they would see (a kubectl command and the lines it prints).

import type { EventOf, EventType } from "../../trace/events.ts";

export interface Prose {
  message: string;
  why?: string;
  see?: string;
}

/** A printer per event type of one area; report/messages/index.ts merges the areas. */
export type Printers<K extends EventType> = { [T in K]?: (e: EventOf<T>) => Prose };
