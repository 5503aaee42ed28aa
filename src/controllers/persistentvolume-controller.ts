// The PersistentVolume controller (pkg/controller/volume/persistentvolume/pv_controller.go) and the
// external provisioner it hands dynamic provisioning to (kubernetes-csi/external-provisioner): a
// claim is bound to a matching PersistentVolume, or one is created for it.
//
// When that happens depends on the claim's StorageClass (volumeBindingMode):
// - Immediate (the API's default): when the claim is created (syncUnboundClaim, after the other
//   writes of that instant, so a pod created with its claim may first be turned away). A
//   provisioned volume lands in one of the cluster's zones, the way the external provisioner picks
//   it without a selected node: the zones of the nodes sorted, shifted by a hash of the claim's name
//   so that a StatefulSet's claims go round the zones (GenerateAccessibilityRequirements,
//   getPVCNameHashAndIndexOffset in pkg/controller/topology.go: FNV-1 32 of the StatefulSet-name
//   part, plus the ordinal; the CSI driver creates the volume in the first preferred zone).
// - WaitForFirstConsumer: when the scheduler has chosen a node for the first pod that mounts the
//   claim (VolumeBinding PreBind sets volume.kubernetes.io/selected-node); the volume is created in
//   that node's zone.
// Either way a provisioned volume carries its zone as node affinity (topology.kubernetes.io/zone In
// [zone]), and the scheduler's VolumeBinding filter keeps every later pod of the claim in it.
//
// Under a platform profile the cluster has the platform's StorageClass from the start
// (platforms/storage-class.ts: GKE standard-rwo, EKS gp2, AKS managed-csi, DOKS do-block-storage,
// each default as its platform installs it); a DigitalOcean volume belongs to its region, so it
// carries no zone. A stock scenario that declares no default StorageClass (annotation
// storageclass.kubernetes.io/is-default-class: "true") gets the one the managed clouds install:
// WaitForFirstConsumer, zonal disks. Provisioning is instantaneous here (a cloud disk takes
// seconds; that time is not modelled).

import type { Cluster } from "../cluster/context.ts";
import { keyOf, ref } from "../cluster/store.ts";
import { LABEL_ZONE } from "../kubernetes/labels.ts";
import type {
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
  TopologySelectorTerm,
} from "../kubernetes/objects.ts";
import { REGIONAL_PROVISIONERS } from "../platforms/storage-class.ts";
import { WorkQueue } from "./work-queue.ts";

/** What the functions below read (the store) and write (the store, and events to the trace). */
type Reads = Pick<Cluster, "store" | "platformStorage">;
type Writes = Pick<Cluster, "store" | "trace">;

/** The class a scenario without a default StorageClass is given (see the top of this file). */
export const ASSUMED_DEFAULT_CLASS: StorageClass = {
  kind: "StorageClass",
  metadata: { name: "standard", annotations: { "storageclass.kubernetes.io/is-default-class": "true" } },
  provisioner: "zonal-disk.csi.faultline.dev",
  volumeBindingMode: "WaitForFirstConsumer",
  reclaimPolicy: "Delete",
};

const ANN_DEFAULT_CLASS = "storageclass.kubernetes.io/is-default-class";
/** v1.BetaStorageClassAnnotation: a claim's class, read before spec.storageClassName. */
const ANN_BETA_CLASS = "volume.beta.kubernetes.io/storage-class";
/** volume.kubernetes.io/selected-node (component-helpers/storage/volume AnnSelectedNode) */
export const ANN_SELECTED_NODE = "volume.kubernetes.io/selected-node";
/** pv.kubernetes.io/bind-completed (AnnBindCompleted): the PV controller finished binding the claim. */
const ANN_BIND_COMPLETED = "pv.kubernetes.io/bind-completed";
/** The provisioner that never provisions: statically created local volumes (NotSupportedProvisioner). */
const NOT_SUPPORTED_PROVISIONER = "kubernetes.io/no-provisioner";

/** A claim's class: its name ("" for none) and the StorageClass, when there is one. */
export interface ClaimClass {
  name: string;
  cls: StorageClass | undefined;
  /** the class is the managed clouds' default, assumed because the scenario declares none */
  assumed: boolean;
}

/**
 * The claim's class: the beta annotation volume.beta.kubernetes.io/storage-class, then
 * storageClassName as written ("" means none) (GetPersistentVolumeClaimClass,
 * k8s.io/component-helpers/storage/volume/helpers.go: "Use beta annotation first"); else the default
 * class, as the DefaultStorageClass admission plugin (plugin/pkg/admission/storage/storageclass/
 * setdefault, which leaves a claim with either alone) sets it: the newest of those annotated
 * default, or the assumed cloud default. The alpha annotation is read by nothing.
 */
export function claimClass(ctx: Reads, claim: PersistentVolumeClaim): ClaimClass {
  const name = claim.metadata.annotations?.[ANN_BETA_CLASS] ?? claim.spec.storageClassName;
  if (name !== undefined)
    return { name, cls: name === "" ? undefined : ctx.store.get("StorageClass", name), assumed: false };
  let chosen: StorageClass | undefined;
  for (const c of ctx.store.list("StorageClass")) {
    if (c.metadata.annotations?.[ANN_DEFAULT_CLASS] !== "true") continue;
    if (!chosen || (c.metadata.creationTimestamp ?? 0) >= (chosen.metadata.creationTimestamp ?? 0))
      chosen = c;
  }
  if (chosen) return { name: chosen.metadata.name, cls: chosen, assumed: false };
  // No default class in the cluster: the plugin leaves the claim alone, "" (no class).
  if (ctx.platformStorage) return { name: "", cls: undefined, assumed: false };
  return { name: ASSUMED_DEFAULT_CLASS.metadata.name, cls: ASSUMED_DEFAULT_CLASS, assumed: true };
}

/** IsDelayBindingMode: the class exists and says WaitForFirstConsumer. */
export function delaysBinding(c: ClaimClass): boolean {
  return c.cls?.volumeBindingMode === "WaitForFirstConsumer";
}

/** Is the claim bound to a volume (spec.volumeName and the bind completed)? */
export function claimBound(claim: PersistentVolumeClaim): boolean {
  return claim.spec.volumeName !== undefined && claim.metadata.annotations?.[ANN_BIND_COMPLETED] === "yes";
}

/** Does the class's provisioner create volumes (neither empty nor kubernetes.io/no-provisioner)? */
export function provisions(cls: StorageClass | undefined): boolean {
  return cls !== undefined && cls.provisioner !== "" && cls.provisioner !== NOT_SUPPORTED_PROVISIONER;
}

/** v1helper.MatchTopologySelectorTerms: no terms match every node; terms are ORed, expressions ANDed. */
export function matchesTopology(terms: readonly TopologySelectorTerm[] | undefined, node: Node): boolean {
  if (!terms || terms.length === 0) return true;
  const labels = node.metadata.labels ?? {};
  return terms.some((t) =>
    (t.matchLabelExpressions ?? []).every(
      (e) => Object.hasOwn(labels, e.key) && e.values.includes(labels[e.key]!),
    ),
  );
}

export class PersistentVolumeController {
  private readonly queue: WorkQueue;
  /** claims left Pending, synced again when a volume or a class appears */
  private pending = new Set<string>();
  private reported = new Set<string>();

  constructor(private readonly ctx: Cluster) {
    // Claims are synced after the writes of the current instant, as the controller's informer would
    // see them: the volumes and classes of one set of manifests are all there.
    this.queue = new WorkQueue(ctx.engine, (key) => this.sync(key));
    ctx.store.watch("PersistentVolumeClaim", (type, claim) => {
      if (type !== "DELETED") this.queue.add(keyOf(claim));
    });
    const resync = () => {
      for (const key of this.pending) this.queue.add(key);
    };
    ctx.store.watch("PersistentVolume", (type) => type === "ADDED" && resync());
    ctx.store.watch("StorageClass", (type) => type === "ADDED" && resync());
  }

  private sync(key: string): void {
    this.pending.delete(key);
    const claim = this.ctx.store.get("PersistentVolumeClaim", key);
    if (claim) this.syncClaim(key, claim);
  }

  /**
   * syncUnboundClaim: a claim pre-bound to a volume (spec.volumeName) is bound to it; a delayed
   * claim waits for the scheduler; otherwise the best matching volume is bound, or one is
   * provisioned, or the claim stays Pending.
   */
  private syncClaim(key: string, claim: PersistentVolumeClaim): void {
    if (claimBound(claim)) return;
    if (claim.spec.volumeName !== undefined) {
      const pv = this.ctx.store.get("PersistentVolume", claim.spec.volumeName);
      if (pv) bindClaim(this.ctx, claim, pv);
      else this.pending.add(key);
      return;
    }
    const c = claimClass(this.ctx, claim);
    if (delaysBinding(c)) return;
    const pv = findMatchingVolume(this.ctx, claim, c.name, undefined, new Set());
    if (pv) {
      bindClaim(this.ctx, claim, pv);
      return;
    }
    if (provisions(c.cls)) {
      provisionVolume(this.ctx, claim, c, undefined);
      return;
    }
    this.pending.add(key);
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.ctx.trace.emit({
      type: "ClaimPending",
      lane: "control-plane",
      object: ref(claim),
      ...(c.name === ""
        ? { cause: "NoStorageClass" as const }
        : c.cls === undefined
          ? { cause: "StorageClassNotFound" as const, storageClass: c.name }
          : { cause: "ExternalProvisioner" as const, provisioner: c.cls.provisioner }),
    });
  }
}

/**
 * FindMatchingVolume (component-helpers/storage/volume/pv_helpers.go): a volume pre-bound to the
 * claim wins (unless its node affinity excludes the node); otherwise the smallest Available volume of
 * the claim's class, big enough, with the claim's access modes and, on the scheduler's path (a
 * node), reachable from that node. The PV controller (no node) leaves delayed claims to the
 * scheduler, so it is only called for Immediate ones.
 */
export function findMatchingVolume(
  ctx: Reads,
  claim: PersistentVolumeClaim,
  className: string,
  node: Node | undefined,
  excluded: ReadonlySet<string>,
  reachable: (pv: PersistentVolume, node: Node) => boolean = () => true,
): PersistentVolume | undefined {
  const requested = claim.spec.storage ?? 0;
  let best: PersistentVolume | undefined;
  for (const pv of ctx.store.list("PersistentVolume")) {
    if (excluded.has(pv.metadata.name)) continue;
    const ref = pv.spec.claimRef;
    const boundToClaim =
      ref !== undefined &&
      ref.namespace === claim.metadata.namespace &&
      ref.name === claim.metadata.name &&
      (ref.uid === undefined || ref.uid === claim.metadata.uid);
    if (ref !== undefined && !boundToClaim) continue;
    const size = pv.spec.capacity;
    if (size < requested) continue;
    if (pv.metadata.deletionTimestamp !== undefined) continue;
    const valid = node === undefined || reachable(pv, node);
    if (boundToClaim) return valid ? pv : undefined;
    if ((pv.status?.phase ?? "Available") !== "Available") continue;
    if ((pv.spec.storageClassName ?? "") !== className) continue;
    if (!valid) continue;
    if (node !== undefined && !claim.spec.accessModes.every((m) => pv.spec.accessModes.includes(m))) continue;
    if (!best || best.spec.capacity > size) best = pv;
  }
  return best;
}

/** The PV controller's bind: the volume's claimRef and phase, the claim's volumeName and phase. */
export function bindClaim(ctx: Reads, claim: PersistentVolumeClaim, pv: PersistentVolume): void {
  pv.spec.claimRef = {
    namespace: claim.metadata.namespace,
    name: claim.metadata.name,
    ...(claim.metadata.uid ? { uid: claim.metadata.uid } : {}),
  };
  pv.status = { phase: "Bound" };
  ctx.store.update(pv);
  claim.spec.volumeName = pv.metadata.name;
  claim.metadata.annotations = {
    ...claim.metadata.annotations,
    [ANN_BIND_COMPLETED]: "yes",
    "pv.kubernetes.io/bound-by-controller": "yes",
  };
  claim.status = { phase: "Bound" };
  ctx.store.update(claim);
}

/** A claim bound in a scheduling cycle (PreBind) to a matching existing volume. */
export function bindStatic(ctx: Writes, claim: PersistentVolumeClaim, pv: PersistentVolume): void {
  bindClaim(ctx, claim, pv);
  ctx.trace.emit({ type: "ClaimBound", lane: "control-plane", object: ref(claim), volume: pv.metadata.name });
}

/**
 * The zones a volume can be created in with no selected node (aggregateTopologies): the zones of
 * the nodes (or the class's allowedTopologies), sorted and without repeats.
 */
function clusterZones(ctx: Reads, cls: StorageClass): string[] {
  const zones = new Set<string>();
  const allowed = cls.allowedTopologies ?? [];
  if (allowed.length > 0) {
    for (const t of allowed)
      for (const e of t.matchLabelExpressions ?? [])
        if (e.key === LABEL_ZONE) for (const v of e.values) zones.add(v);
  } else {
    for (const n of ctx.store.list("Node")) {
      const z = n.metadata.labels?.[LABEL_ZONE];
      if (z !== undefined) zones.add(z);
    }
  }
  return [...zones].sort();
}

/** hash/fnv New32 (FNV-1, not FNV-1a) of a string's UTF-8 bytes. */
function fnv1(s: string): number {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(s)) {
    h = Math.imul(h, 0x01000193) >>> 0;
    h = (h ^ b) >>> 0;
  }
  return h;
}

/**
 * getPVCNameHashAndIndexOffset: a name `<claim>-<set>-<ordinal>` hashes its `<set>` part and offsets
 * by the ordinal, so a StatefulSet's volumes go round the zones and one member's claims share one.
 */
export function claimZoneIndex(claimName: string, zones: number): number {
  let hashString = claimName;
  let index = 0;
  const lastDash = claimName.lastIndexOf("-");
  if (lastDash !== -1) {
    const id = claimName.slice(lastDash + 1);
    if (/^\d+$/.test(id) && Number(id) <= 0xffffffff) {
      index = Number(id);
      hashString = claimName.slice(0, lastDash);
      const dash = hashString.lastIndexOf("-");
      if (dash !== -1) hashString = hashString.slice(dash + 1);
    }
  }
  // (hash + index) % len in uint32 arithmetic
  return (((fnv1(hashString) + index) >>> 0) % zones) >>> 0;
}

/**
 * The external provisioner creates a volume named pvc-<claim uid> for the claim, in the selected
 * node's zone (WaitForFirstConsumer) or in the zone the claim's name hashes to (Immediate), with that
 * zone as its node affinity; the PV controller binds the two.
 */
export function provisionVolume(
  ctx: Writes,
  claim: PersistentVolumeClaim,
  c: ClaimClass,
  selectedNode: Node | undefined,
): PersistentVolume {
  const cls = c.cls!;
  let zone: string | undefined;
  if (REGIONAL_PROVISIONERS.has(cls.provisioner)) zone = undefined;
  else if (selectedNode) zone = selectedNode.metadata.labels?.[LABEL_ZONE];
  else {
    const zones = clusterZones(ctx, cls);
    if (zones.length > 0) zone = zones[claimZoneIndex(claim.metadata.name, zones.length)];
  }
  if (selectedNode)
    claim.metadata.annotations = {
      ...claim.metadata.annotations,
      [ANN_SELECTED_NODE]: selectedNode.metadata.name,
    };
  const pv: PersistentVolume = {
    kind: "PersistentVolume",
    metadata: {
      name: `pvc-${claim.metadata.uid ?? claim.metadata.name}`,
      annotations: { "pv.kubernetes.io/provisioned-by": cls.provisioner },
    },
    spec: {
      capacity: claim.spec.storage ?? 0,
      accessModes: [...claim.spec.accessModes],
      storageClassName: c.name,
      persistentVolumeReclaimPolicy: cls.reclaimPolicy,
      volumeMode: "Filesystem",
      ...(zone !== undefined
        ? {
            nodeAffinity: {
              required: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: LABEL_ZONE, operator: "In" as const, values: [zone] }] },
                ],
              },
            },
          }
        : {}),
    },
    status: { phase: "Pending" },
  };
  ctx.store.create(pv);
  bindClaim(ctx, claim, pv);
  ctx.trace.emit({
    type: "ProvisioningSucceeded",
    lane: "control-plane",
    object: ref(claim),
    volume: pv.metadata.name,
    storageClass: c.name,
    assumedClass: c.assumed,
    ...(zone !== undefined ? { zone } : {}),
    ...(selectedNode ? { selectedNode: selectedNode.metadata.name, node: selectedNode.metadata.name } : {}),
  });
  return pv;
}
