// The scheduler's volume plugins: VolumeBinding (pkg/scheduler/framework/plugins/volumebinding:
// volume_binding.go PreFilter / Filter / PreBind, binder.go FindPodVolumes) and VolumeZone
// (plugins/volumezone/volume_zone.go).
//
// - PreFilter: a claim that does not exist stops the cycle (`persistentvolumeclaim "x" not found`),
//   and so does an unbound claim whose class binds immediately ("pod has unbound immediate
//   PersistentVolumeClaims"): the PV controller must bind it first.
// - Filter, per node: a bound claim's volume must be reachable from the node (its node affinity:
//   "node(s) had volume node affinity conflict"; its zone labels for VolumeZone: "node(s) had no
//   available volume zone"); a WaitForFirstConsumer claim needs a matching volume reachable from the
//   node or a class that can provision there ("node(s) didn't find available persistent volumes to
//   bind").
// - PreBind, on the chosen node: the claims are bound, provisioning in the node's zone where needed
//   (the persistentvolume controller and provisioner), before the pod is bound.

import type { Cluster } from "../../cluster/context.ts";
import {
  ANN_SELECTED_NODE,
  bindStatic,
  type ClaimClass,
  claimBound,
  claimClass,
  delaysBinding,
  findMatchingVolume,
  matchesTopology,
  provisions,
  provisionVolume,
} from "../../controllers/persistentvolume-controller.ts";
import { LABEL_REGION, LABEL_ZONE } from "../../kubernetes/labels.ts";
import type { Node, PersistentVolume, PersistentVolumeClaim } from "../../kubernetes/objects.ts";
import type { FilterReason, PreFilterFailure } from "../../trace/scheduling-events.ts";
import type { PodInfo } from "../framework/pod-info.ts";
import { type CompiledTerm, compileNodeSelector, termMatches } from "./node-affinity.ts";

const BETA_ZONE = "failure-domain.beta.kubernetes.io/zone";
const BETA_REGION = "failure-domain.beta.kubernetes.io/region";
/** VolumeZone's topology labels, beta first as the plugin lists them, and their GA names. */
const TOPOLOGY_LABELS: readonly (readonly [string, string])[] = [
  [BETA_ZONE, LABEL_ZONE],
  [BETA_REGION, LABEL_REGION],
  [LABEL_ZONE, LABEL_ZONE],
  [LABEL_REGION, LABEL_REGION],
];

interface BoundClaim {
  claim: PersistentVolumeClaim;
  pv: PersistentVolume | undefined;
  /** the volume's required node affinity, labels only (CheckNodeAffinity matches a node by its labels) */
  affinity: CompiledTerm[] | undefined;
  /** VolumeZone: the volume's zone and region labels, values split on "__" */
  zones: { key: string; ga: string; values: Set<string> }[];
}

interface DelayedClaim {
  claim: PersistentVolumeClaim;
  cls: ClaimClass;
}

export interface VolumeState {
  bound: BoundClaim[];
  delayed: DelayedClaim[];
}

const NO_CLAIMS: { state?: VolumeState; failure?: PreFilterFailure } = Object.freeze({});

/** VolumeBinding.PreFilter: the pod's claims sorted out, or why the cycle stops. */
export function volumePreFilter(
  ctx: Pick<Cluster, "store" | "platformStorage">,
  info: PodInfo,
): { state?: VolumeState; failure?: PreFilterFailure } {
  if (info.claims.length === 0) return NO_CLAIMS;
  const bound: BoundClaim[] = [];
  const delayed: DelayedClaim[] = [];
  let immediate = false;
  for (const name of info.claims) {
    const claim = ctx.store.get("PersistentVolumeClaim", `${info.namespace}/${name}`);
    if (!claim) return { failure: { reason: "ClaimNotFound", claim: name } };
    if (claimBound(claim)) {
      const pv = ctx.store.get("PersistentVolume", claim.spec.volumeName!);
      bound.push({
        claim,
        pv,
        affinity: pv ? volumeAffinity(pv) : undefined,
        zones: pv ? volumeZones(pv) : [],
      });
      continue;
    }
    const cls = claimClass(ctx, claim);
    // GetPodVolumes: a pre-bound claim (volumeName set) counts as immediate.
    if (delaysBinding(cls) && claim.spec.volumeName === undefined) delayed.push({ claim, cls });
    else immediate = true;
  }
  if (immediate) return { failure: { reason: "UnboundImmediateClaims" } };
  return { state: { bound, delayed } };
}

function volumeAffinity(pv: PersistentVolume): CompiledTerm[] | undefined {
  const required = pv.spec.nodeAffinity?.required;
  if (!required) return undefined;
  // The node CheckNodeAffinity builds has labels and no name, so matchFields are not checked.
  return compileNodeSelector(required).map((t) => ({ ...t, fields: [] }));
}

function volumeZones(pv: PersistentVolume): BoundClaim["zones"] {
  const out: BoundClaim["zones"] = [];
  const labels = pv.metadata.labels ?? {};
  for (const [key, ga] of TOPOLOGY_LABELS) {
    const v = labels[key];
    // LabelZonesToSet: "a__b" is either zone
    if (v !== undefined) out.push({ key, ga, values: new Set(v.split("__")) });
  }
  return out;
}

function reachable(affinity: CompiledTerm[] | undefined, node: Node): boolean {
  if (affinity === undefined) return true;
  for (const t of affinity) if (termMatches(t, node)) return true;
  return false;
}

/** Is a volume reachable from the node (volume.CheckNodeAffinity)? */
export function volumeReachable(pv: PersistentVolume, node: Node): boolean {
  return reachable(volumeAffinity(pv), node);
}

/**
 * VolumeBinding.Filter (FindPodVolumes): the reasons the node cannot take the pod's volumes, in the
 * order the binder reports them (node conflict, bind conflict, missing volume); pushes into `out`.
 */
export function volumeFilter(
  ctx: Pick<Cluster, "store">,
  state: VolumeState,
  node: Node,
  out: FilterReason[],
): void {
  let boundOk = true;
  let pvsFound = true;
  for (const b of state.bound) {
    if (!b.pv) {
      pvsFound = false;
      break;
    }
    if (!reachable(b.affinity, node)) {
      boundOk = false;
      break;
    }
  }
  const unboundOk = delayedClaimsFit(ctx, state.delayed, node) !== undefined;
  if (!boundOk) out.push("VolumeNodeAffinityConflict");
  if (!unboundOk) out.push("VolumeBindConflict");
  if (!pvsFound) out.push("VolumePVNotExist");
}

/**
 * How the delayed claims would be satisfied on this node: a matching volume per claim (null: to be
 * provisioned), or undefined when some claim cannot be (findMatchingVolumes, checkVolumeProvisions).
 */
function delayedClaimsFit(
  ctx: Pick<Cluster, "store">,
  delayed: readonly DelayedClaim[],
  node: Node,
): (PersistentVolume | null)[] | undefined {
  const chosen = new Set<string>();
  const out: (PersistentVolume | null)[] = [];
  for (const d of delayed) {
    const selected = d.claim.metadata.annotations?.[ANN_SELECTED_NODE];
    if (selected !== undefined && selected !== node.metadata.name) return undefined;
    const pv = findMatchingVolume(ctx, d.claim, d.cls.name, node, chosen, volumeReachable);
    if (pv) {
      chosen.add(pv.metadata.name);
      out.push(pv);
      continue;
    }
    if (!provisions(d.cls.cls) || !matchesTopology(d.cls.cls!.allowedTopologies, node)) return undefined;
    out.push(null);
  }
  return out;
}

/**
 * VolumeZone.Filter: a node with no zone or region label takes any volume (a single-zone cluster);
 * otherwise each labelled volume's zone and region must include the node's.
 */
export function volumeZoneFits(state: VolumeState, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  if (!TOPOLOGY_LABELS.some(([key]) => Object.hasOwn(labels, key))) return true;
  for (const b of state.bound)
    for (const z of b.zones) {
      const v = labels[z.key] ?? labels[z.ga];
      if (v === undefined || !z.values.has(v)) return false;
    }
  return true;
}

/** The pod's bound claims and the zone their volume's node affinity names, for the event. */
export function boundVolumeZones(state: VolumeState): { claim: string; zone?: string }[] {
  return state.bound.map((b) => {
    let zone: string | undefined;
    for (const t of b.pv?.spec.nodeAffinity?.required?.nodeSelectorTerms ?? [])
      for (const e of t.matchExpressions ?? [])
        if (e.key === LABEL_ZONE && e.operator === "In") zone = (e.values ?? []).join(", ");
    return {
      claim: `${b.claim.metadata.namespace}/${b.claim.metadata.name}`,
      ...(zone !== undefined ? { zone } : {}),
    };
  });
}

/** VolumeBinding.PreBind on the chosen node: bind or provision every delayed claim; their names. */
export function bindVolumes(ctx: Pick<Cluster, "store" | "trace">, state: VolumeState, node: Node): string[] {
  const plan = delayedClaimsFit(ctx, state.delayed, node);
  if (!plan) return [];
  const names: string[] = [];
  state.delayed.forEach((d, i) => {
    const pv = plan[i];
    if (pv) bindStatic(ctx, d.claim, pv);
    else provisionVolume(ctx, d.claim, d.cls, node);
    names.push(`${d.claim.metadata.namespace}/${d.claim.metadata.name}`);
  });
  return names;
}
