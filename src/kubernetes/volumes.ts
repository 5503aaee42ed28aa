// The volumes the attach/detach model follows: a pod's PersistentVolumeClaims.

import type { Pod } from "./objects.ts";

const NO_CLAIMS: readonly string[] = Object.freeze([]);

/**
 * The claims a pod mounts, as `<namespace>/<claim>`. Asked several times of every pod (the kubelet,
 * the attach/detach controller, the warm-up's bulk start); a pod without volumes gets one shared
 * empty list, not two new arrays per call.
 */
export function claimsOf(pod: Pod): readonly string[] {
  const volumes = pod.spec.volumes;
  if (!volumes || volumes.length === 0) return NO_CLAIMS;
  const out: string[] = [];
  for (const v of volumes)
    if (v.persistentVolumeClaim) out.push(`${pod.metadata.namespace}/${v.persistentVolumeClaim.claimName}`);
  return out;
}

/** The VolumeAttachment that records where a claim's volume is attached. */
export function attachmentName(claim: string): string {
  return `pvc/${claim}`;
}

/**
 * Two lists of status.volumesInUse (sorted, as the kubelet's volume manager gives them) name the same
 * volumes: what the kubelet's nodeStatusHasChanged and the attach/detach controller's Node watch compare.
 */
export function sameVolumesInUse(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((v, i) => v === b[i]));
}
