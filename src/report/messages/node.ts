// The prose for the events of trace/node-events.ts.

import type { NodeEventFields } from "../../trace/node-events.ts";
import type { Printers } from "./prose.ts";

export const NODE_PRINTERS: Printers<keyof NodeEventFields> = {};
