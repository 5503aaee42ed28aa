// What every served object's conversion shares: the context it reads, UIDs in the API's form,
// ObjectMeta with owner references that carry their owner's UID, and the API's omitempty for counts.

import type { Context } from "../cluster/context.ts";
import type { KubeObject, ObjectMeta } from "../kubernetes/objects.ts";
import type { ObjectMetaJ, OwnerReferenceJ } from "./api-types.ts";
import type { ContainerHistory } from "./convert-pod.ts";
import type { DeploymentConditionMemory } from "./deployment-conditions.ts";
import { timeString } from "./time.ts";

/** What conversion reads besides the object: the model's store and settings, and the trace's container history. */
export interface ConvertContext {
  ctx: Context;
  history: ContainerHistory;
  /** Deployments' conditions as last written (deployment-conditions.ts); a fresh one when absent */
  deployments?: DeploymentConditionMemory;
}

/**
 * A UID in the API's UUID form, derived from the model's (`uid-17`) or from a name: the same input
 * gives the same UID on every run (FNV-1a, version-4 and variant bits set so clients parse it).
 */
export function uuidOf(key: string): string {
  let hex = "";
  for (let round = 0; hex.length < 32; round++) {
    let h = (0x811c9dc5 ^ Math.imul(round + 1, 0x9e3779b1)) >>> 0;
    for (let i = 0; i < key.length; i++) {
      h ^= key.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    hex += h.toString(16).padStart(8, "0");
  }
  const variant = ((Number.parseInt(hex[16]!, 16) & 3) | 8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const OWNER_API_VERSION: Record<string, string> = {
  ReplicaSet: "apps/v1",
  Deployment: "apps/v1",
  StatefulSet: "apps/v1",
  DaemonSet: "apps/v1",
  Node: "v1",
  Service: "v1",
};

export function ownerUid(
  cc: ConvertContext,
  kind: string,
  namespace: string | undefined,
  name: string,
): string {
  const key = namespace ? `${namespace}/${name}` : name;
  const owner = cc.ctx.store.get(kind as KubeObject["kind"], key);
  return uuidOf(owner?.metadata.uid ?? `${kind}/${key}`);
}

export function metaJ(cc: ConvertContext, m: ObjectMeta, fallbackKey: string): ObjectMetaJ {
  const out: ObjectMetaJ = {
    name: m.name,
    ...(m.generateName ? { generateName: m.generateName } : {}),
    ...(m.namespace ? { namespace: m.namespace } : {}),
    uid: uuidOf(m.uid ?? fallbackKey),
    creationTimestamp: timeString(m.creationTimestamp ?? 0),
  };
  if (m.deletionTimestamp !== undefined) out.deletionTimestamp = timeString(m.deletionTimestamp);
  if (m.deletionGracePeriodSeconds !== undefined)
    out.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds;
  if (m.labels && Object.keys(m.labels).length > 0) out.labels = { ...m.labels };
  if (m.annotations && Object.keys(m.annotations).length > 0) out.annotations = { ...m.annotations };
  if (m.ownerReferences?.length) {
    out.ownerReferences = m.ownerReferences.map(
      (o): OwnerReferenceJ => ({
        apiVersion: OWNER_API_VERSION[o.kind] ?? "v1",
        kind: o.kind,
        name: o.name,
        uid: ownerUid(cc, o.kind, m.namespace, o.name),
        ...(o.controller !== false ? { controller: true, blockOwnerDeletion: true } : {}),
      }),
    );
  }
  return out;
}

/** Only non-zero counts are written, as the API omits zero (omitempty). */
export function counts(c: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(c).filter(([, v]) => v !== 0));
}
