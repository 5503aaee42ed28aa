// The volumes the attach/detach model follows: a pod's PersistentVolumeClaims.

import type { Pod } from "./objects.ts";

/** The claims a pod mounts, as `<namespace>/<claim>`. */
export function claimsOf(pod: Pod): string[] {
  const out: string[] = [];
  for (const v of pod.spec.volumes ?? [])
    if (v.persistentVolumeClaim) out.push(`${pod.metadata.namespace}/${v.persistentVolumeClaim.claimName}`);
  return out;
}

/** The VolumeAttachment that records where a claim's volume is attached. */
export function attachmentName(claim: string): string {
  return `pvc/${claim}`;
}
