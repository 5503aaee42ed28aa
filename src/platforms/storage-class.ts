// The StorageClass a managed platform installs in a new cluster (src/platforms/<name>.ts
// `storageClass`, each with its page), as the API has it: annotated default
// (storageclass.kubernetes.io/is-default-class) unless the platform stopped annotating it for
// clusters of that version (EKS from 1.30). The DefaultStorageClass admission plugin then writes it
// on a claim with no storageClassName (persistentvolume-controller.ts claimClass).

import type { StorageClass } from "../kubernetes/objects.ts";
import { PLATFORMS } from "./index.ts";
import type { Platform } from "./types.ts";

const ANN_DEFAULT_CLASS = "storageclass.kubernetes.io/is-default-class";

export function platformStorageClass(platform: Platform, minor: number): StorageClass {
  const c = platform.storageClass;
  const isDefault = c.notDefaultFromMinor === undefined || minor < c.notDefaultFromMinor;
  return {
    kind: "StorageClass",
    metadata: { name: c.name, ...(isDefault ? { annotations: { [ANN_DEFAULT_CLASS]: "true" } } : {}) },
    provisioner: c.provisioner,
    reclaimPolicy: "Delete",
    volumeBindingMode: c.volumeBindingMode,
  };
}

/**
 * The provisioners whose volumes are not bound to a zone (a DigitalOcean volume belongs to its
 * region, which is one datacenter): the volumes they provision carry no zone affinity.
 */
export const REGIONAL_PROVISIONERS: ReadonlySet<string> = new Set(
  Object.values(PLATFORMS)
    .filter((p) => !p.storageClass.zonal)
    .map((p) => p.storageClass.provisioner),
);
