// The prose of every event, written from its fields: `proseOf(e)` is the one way the text
// timeline, the JSON's `message`/`why`/`see` and the HTML page get their words.

import type { EventType, TraceEvent } from "../../trace/events.ts";
import { CONTROL_PLANE_PRINTERS } from "./control-plane.ts";
import { JOB_PRINTERS } from "./jobs.ts";
import { NODE_PRINTERS } from "./node.ts";
import type { Printers, Prose } from "./prose.ts";
import { SCHEDULING_PRINTERS } from "./scheduling.ts";
import { TIMELINE_PRINTERS } from "./timeline.ts";
import { TRAFFIC_PRINTERS } from "./traffic.ts";

export type { Prose } from "./prose.ts";

const PRINTERS: Printers<EventType> = {
  ...NODE_PRINTERS,
  ...CONTROL_PLANE_PRINTERS,
  ...JOB_PRINTERS,
  ...SCHEDULING_PRINTERS,
  ...TRAFFIC_PRINTERS,
  ...TIMELINE_PRINTERS,
};

/** The words for one event. */
export function proseOf(e: TraceEvent): Prose {
  const printer = PRINTERS[e.type] as (e: TraceEvent) => Prose;
  return printer(e);
}
