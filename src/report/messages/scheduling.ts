// The prose for the events of trace/scheduling-events.ts.

import type { SchedulingEventFields } from "../../trace/scheduling-events.ts";
import type { Printers } from "./prose.ts";

export const SCHEDULING_PRINTERS: Printers<keyof SchedulingEventFields> = {};
