// Events of the control plane's controllers and of the API server: node health, taints, zones,
// evictions, pod lifecycle, endpoints, volumes. Fields only; report/messages/control-plane.ts
// writes the prose.

export interface ControlPlaneEventFields {
  NodeNotReady: { status: "Unknown" | "False"; reason: string };
  NodeDeleted: Record<never, never>;
  NodeTainted: { taint: string };
  NodeTaintRemoved: { taint: string };
  ZoneStateChanged: { zone: string; state: string; from: string };
  PodCreated: { owner: string };
  PodReady: Record<never, never>;
  PodNotReady: Record<never, never>;
  PodEvicted: { reason: string };
  EvictionBlocked: { pdb: string };
  EvictionCancelled: Record<never, never>;
  PodDeleted: { force: boolean };
  EndpointReady: { service: string };
  EndpointNotReady: { service: string };
  EndpointRemoved: { service: string };
  VolumeAttached: Record<never, never>;
  VolumeDetached: { forced: boolean };
  FailedAttachVolume: Record<never, never>;
}
