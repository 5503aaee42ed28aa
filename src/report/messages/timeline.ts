// The prose for the events of trace/timeline-events.ts.

import type { TimelineEventFields } from "../../trace/timeline-events.ts";
import type { Printers } from "./prose.ts";

export const TIMELINE_PRINTERS: Printers<keyof TimelineEventFields> = {};
