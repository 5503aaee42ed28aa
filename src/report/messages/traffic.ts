// The prose for the events of trace/traffic-events.ts.

import type { TrafficEventFields } from "../../trace/traffic-events.ts";
import type { Printers } from "./prose.ts";

export const TRAFFIC_PRINTERS: Printers<keyof TrafficEventFields> = {};
