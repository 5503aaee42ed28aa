// The prose for the events of trace/control-plane-events.ts.

import type { ControlPlaneEventFields } from "../../trace/control-plane-events.ts";
import type { EventOf } from "../../trace/events.ts";
import { kubeletPodDeletedProse, kubeletPodReadyProse } from "./node.ts";
import type { Printers, Prose } from "./prose.ts";

/** Until these events are converted (issue 11): the prose their model wrote. */
function modelProse(e: EventOf<"PodReady" | "PodNotReady" | "PodDeleted">): Prose {
  return {
    message: e.message ?? e.type,
    ...(e.why !== undefined ? { why: e.why } : {}),
    ...(e.see !== undefined ? { see: e.see } : {}),
  };
}

export const CONTROL_PLANE_PRINTERS: Printers<keyof ControlPlaneEventFields> = {
  // The kubelet's variants are printed beside its other events (report/messages/node.ts).
  PodReady: (e) => (e.by === "kubelet" ? kubeletPodReadyProse(e) : modelProse(e)),
  PodNotReady: (e) => (e.by === "kubelet" ? kubeletPodReadyProse(e) : modelProse(e)),
  PodDeleted: (e) => (e.by === "kubelet" ? kubeletPodDeletedProse(e) : modelProse(e)),
};
