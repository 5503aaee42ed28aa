// Events of the control plane's controllers and of the API server: node health, taints, zones,
// evictions, pod lifecycle, endpoints, volumes. Fields only; report/messages/control-plane.ts
// writes the prose.

import type { KubeletPodDeletedFields, KubeletPodReadyFields } from "./node-events.ts";

/** Who set a pod's Ready condition: the node lifecycle controller (MarkPodsNotReady) or the kubelet. */
export type PodReadyFields = { by?: undefined } | { by: "node-lifecycle-controller" } | KubeletPodReadyFields;

/** Who removed a pod object: a controller or the operator, or the kubelet's final delete. */
export type PodDeletedFields = { force: boolean } & ({ by?: undefined } | KubeletPodDeletedFields);

export interface ControlPlaneEventFields {
  NodeNotReady: { status: "Unknown" | "False"; reason: string };
  NodeDeleted: Record<never, never>;
  NodeTainted: { taint: string };
  NodeTaintRemoved: { taint: string };
  ZoneStateChanged: { zone: string; state: string; from: string };
  PodCreated: { owner: string };
  PodReady: PodReadyFields;
  PodNotReady: PodReadyFields;
  PodEvicted: { reason: string };
  EvictionBlocked: { pdb: string };
  EvictionCancelled: Record<never, never>;
  PodDeleted: PodDeletedFields;
  EndpointReady: { service: string };
  EndpointNotReady: { service: string };
  EndpointRemoved: { service: string };
  VolumeAttached: Record<never, never>;
  VolumeDetached: { forced: boolean };
  FailedAttachVolume: Record<never, never>;
}
