// What a person reads about one event: the step's headline, why it happened at that moment, and
// what they would see (a kubectl command and the lines it prints).

import type { EventOf, EventType } from "../../trace/events.ts";

export interface Prose {
  message: string;
  why?: string;
  see?: string;
}

/**
 * A printer for every event type of one area (the compiler refuses an area that misses one);
 * report/messages/index.ts merges the areas, so every event has its words.
 */
export type Printers<K extends EventType> = { [T in K]: (e: EventOf<T>) => Prose };
