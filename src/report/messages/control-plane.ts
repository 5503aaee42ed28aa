// The prose for the events of trace/control-plane-events.ts.

import type { ControlPlaneEventFields } from "../../trace/control-plane-events.ts";
import type { Printers } from "./prose.ts";

export const CONTROL_PLANE_PRINTERS: Printers<keyof ControlPlaneEventFields> = {};
