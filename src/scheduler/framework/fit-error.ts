// kube-scheduler's words for why a pod does not fit: each filter plugin's reason and the FitError
// message built from them (framework/types.go FitError.Error). They are API data, not the model's
// prose: the scheduler writes the FitError into the pod's PodScheduled=False condition
// (handleSchedulingFailure) and its FailedScheduling event, and kubectl shows them as they are.

import type {
  FilterCount,
  FilterReason,
  PreemptionVerdict,
  PreFilterFailure,
  SchedulingEventFields,
} from "../../trace/scheduling-events.ts";

/** Each reason as the plugin writes it (the constant's name and file under pkg/scheduler/framework/plugins). */
const REASON_TEXT: Record<Exclude<FilterReason, "UntoleratedTaint" | "InsufficientResource">, string> = {
  // nodeunschedulable/node_unschedulable.go ErrReasonUnschedulable
  Unschedulable: "node(s) were unschedulable",
  // nodeaffinity/node_affinity.go ErrReasonPod
  NodeAffinity: "node(s) didn't match Pod's node affinity/selector",
  // nodeports/node_ports.go ErrReason
  NodePorts: "node(s) didn't have free ports for the requested pod ports",
  // noderesources/fit.go fitsRequest
  TooManyPods: "Too many pods",
  InsufficientCPU: "Insufficient cpu",
  InsufficientMemory: "Insufficient memory",
  // volumebinding/binder.go ErrReasonNodeConflict, ErrReasonBindConflict, ErrReasonPVNotExist
  VolumeNodeAffinityConflict: "node(s) had volume node affinity conflict",
  VolumeBindConflict: "node(s) didn't find available persistent volumes to bind",
  VolumePVNotExist: "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)",
  // volumezone/volume_zone.go ErrReasonConflict
  VolumeZoneConflict: "node(s) had no available volume zone",
  // podtopologyspread/filtering.go ErrReasonConstraintsNotMatch, ErrReasonNodeLabelNotMatch
  TopologySpread: "node(s) didn't match pod topology spread constraints",
  TopologySpreadMissingLabel: "node(s) didn't match pod topology spread constraints (missing required label)",
  // interpodaffinity/filtering.go ErrReasonAffinityRulesNotMatch, ErrReasonAntiAffinityRulesNotMatch,
  // ErrReasonExistingAntiAffinityRulesNotMatch
  PodAffinity: "node(s) didn't match pod affinity rules",
  PodAntiAffinity: "node(s) didn't match pod anti-affinity rules",
  ExistingPodsAntiAffinity: "node(s) didn't satisfy existing pods anti-affinity rules",
};

/** A filter reason in kube-scheduler's words (tainttoleration/taint_toleration.go for taints). */
export function reasonText(f: Pick<FilterCount, "reason" | "taint" | "resource">): string {
  if (f.reason === "UntoleratedTaint")
    return `node(s) had untolerated taint {${f.taint?.key}: ${f.taint?.value}}`;
  // noderesources/fit.go fitsRequest: fmt.Sprintf("Insufficient %v", rName) ("Insufficient ephemeral-storage")
  if (f.reason === "InsufficientResource") return `Insufficient ${f.resource}`;
  return REASON_TEXT[f.reason];
}

export function preFilterText(p: PreFilterFailure): string {
  switch (p.reason) {
    case "ClaimNotFound":
      // volume_binding.go podHasPVCs: the lister's NotFound error
      return `persistentvolumeclaim "${p.claim}" not found`;
    case "UnboundImmediateClaims":
      return "pod has unbound immediate PersistentVolumeClaims";
  }
}

/** sortReasonsHistogram: "<count> <reason>", sorted as strings. */
function histogram(entries: readonly (readonly [string, number])[]): string {
  return entries
    .filter(([, n]) => n > 0)
    .map(([r, n]) => `${n} ${r}`)
    .sort()
    .join(", ");
}

/**
 * FitError.Error (framework/types.go): "0/N nodes are available: <PreFilterMsg or the filters'
 * histogram>." then DefaultPreemption's PostFilter message ("preemption: …", preemption.go; added to
 * the event in 1.24, kubernetes#107775).
 */
export function fitErrorMessage(
  e: Pick<SchedulingEventFields["FailedScheduling"], "nodes" | "preFilter" | "filtered" | "preemption">,
): string {
  // schedulePod returns ErrNoNodesAvailable when the snapshot has no node.
  if (e.nodes === 0) return "no nodes available to schedule pods";
  const head = `0/${e.nodes} nodes are available:`;
  const reasons = e.preFilter
    ? preFilterText(e.preFilter)
    : histogram(e.filtered.map((f) => [reasonText(f), f.nodes] as const));
  return `${head} ${reasons}.${preemptionSentence(head, e.preemption)}`;
}

/**
 * DefaultPreemption's status message after the FitError (PostFilter prefixes "preemption: "): none
 * when it nominated a node (Success), PodEligibleToPreemptOthers's reason, or the FitError of its dry
 * run, where the nodes it did not try are "Preemption is not helpful for scheduling".
 */
function preemptionSentence(head: string, p: PreemptionVerdict): string {
  if (p.nominated) return "";
  if (p.notEligible) return ` preemption: ${p.notEligible}`;
  const counts = histogram([
    ["Preemption is not helpful for scheduling", p.notHelpful],
    ["No preemption victims found for incoming pod", p.noVictims],
    ...(p.unfit ?? []).map((f) => [reasonText(f), f.nodes] as const),
  ]);
  return ` preemption: ${head} ${counts}.`;
}
