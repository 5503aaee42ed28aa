// The kinds of object the manifests' reference fields name (load/manifest/references.ts lists a
// reference to an object not in the input under its field), so that printers can say "refers to
// objects not in the input" apart from the fields no model reads, which may change the answer.

/** Each reference field and the kind of object it names. */
export const REFERENCE_KINDS: Readonly<Record<string, string>> = {
  "ObjectMeta.namespace": "Namespace",
  "PodSpec.serviceAccountName": "ServiceAccount",
  "Volume.configMap": "ConfigMap",
  "Volume.secret": "Secret",
  "VolumeProjection.configMap": "ConfigMap",
  "VolumeProjection.secret": "Secret",
  "EnvVarSource.configMapKeyRef": "ConfigMap",
  "EnvVarSource.secretKeyRef": "Secret",
  "EnvFromSource.configMapRef": "ConfigMap",
  "EnvFromSource.secretRef": "Secret",
};

/**
 * The not-modelled list in two: the objects referred to but not in the input (by kind, where first),
 * which the models assume exist, and the other fields, which may change the answer.
 */
export function splitReferences<T extends { field: string; where: string }>(
  list: readonly T[],
): { missing: { kind: string; where: string }[]; fields: T[] } {
  const missing = new Map<string, string>();
  const fields: T[] = [];
  for (const n of list) {
    const kind = REFERENCE_KINDS[n.field];
    if (kind === undefined) fields.push(n);
    else if (!missing.has(kind)) missing.set(kind, n.where);
  }
  return { missing: [...missing].map(([kind, where]) => ({ kind, where })), fields };
}
