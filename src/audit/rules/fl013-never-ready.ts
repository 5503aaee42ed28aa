// FL013: a workload whose pods never become Ready, with no fault at all. A pod kube-scheduler cannot
// place stays Pending with PodScheduled=False, reason Unschedulable, and the FailedScheduling message
// "0/N nodes are available: <each filter's reason>." (pkg/scheduler/schedule_one.go, FitError.Error in
// framework/types.go): an unbound immediate claim or a StorageClass that does not exist (VolumeBinding:
// "pod has unbound immediate PersistentVolumeClaims"), no room (NodeResourcesFit: "Insufficient cpu"),
// a nodeSelector or affinity no node matches (NodeAffinity), a taint it does not tolerate. Nothing in
// Kubernetes retries it into running: the scheduler requeues it, but the answer stays the same until
// a person changes the cluster or the manifest, so every fault's figures start from short.
// The fix is advice, not a run: what the scheduler's reason asks for (a node, a class, a label).

import type { Workload } from "../state.ts";
import { consequenceOf, type Draft, type Rule, type RuleInput, short } from "./rule.ts";

/** What would let the scheduler place the pod, from the reasons in its FailedScheduling message. */
export function adviceFor(message: string): string {
  const out: string[] = [];
  if (message.includes("unbound immediate PersistentVolumeClaims"))
    out.push(
      "make its claims bindable: create the StorageClass they name (or a PersistentVolume that matches them), or name a StorageClass the cluster has",
    );
  const insufficient = [...message.matchAll(/Insufficient ([\w./-]+)/g)].map((m) => m[1]!);
  if (insufficient.length > 0)
    out.push(
      `make room: nodes with more allocatable ${[...new Set(insufficient)].join(", ")}, or lower the pod's requests`,
    );
  if (message.includes("didn't match Pod's node affinity/selector"))
    out.push("label a node to match the pod's nodeSelector or node affinity, or relax them");
  if (message.includes("untolerated taint"))
    out.push("give the pod a toleration for the taint, or remove the taint from a node");
  if (message.includes("were unschedulable"))
    out.push("uncordon a node (kubectl uncordon) if it may take pods");
  if (/didn't match pod (anti-)?affinity rules|topology spread/.test(message))
    out.push("relax the pod (anti-)affinity or topology spread, or add nodes in the domains it asks for");
  if (message.includes("volume node affinity conflict") || message.includes("VolumeBindConflict"))
    out.push("run the pod where its volume is (the volume's zone), or move the volume");
  return out.length > 0 ? out.join("; ") : "change what the scheduler's reason names";
}

/** The field the reason points at: the nodeSelector, the claim templates, or the object. */
function fieldOf(w: Workload, reason: string): string {
  if (reason.includes("node affinity/selector") && w.spec.nodeSelector) return `${w.specPath}.nodeSelector`;
  if (reason.includes("node affinity/selector") && w.spec.affinity?.nodeAffinity)
    return `${w.specPath}.affinity.nodeAffinity`;
  if (reason.includes("PersistentVolumeClaims") && w.claimTemplates.length > 0)
    return "spec.volumeClaimTemplates";
  return "";
}

function check(input: RuleInput, runs: Parameters<Rule["check"]>[1]): Draft[] {
  const none = runs.get("none");
  if (!none) return [];
  const out: Draft[] = [];
  for (const w of input.objects.workloads) {
    const stuck = input.start.pods.filter((p) => p.owner === w.id && p.status === "Unschedulable");
    const figures = none.workloads[w.id];
    if (stuck.length === 0 || !figures) continue;
    const first = stuck[0]!;
    const reason = first.message ?? "Unschedulable";
    const which = stuck.length === 1 ? `pod ${first.pod} is` : `${stuck.length} of its pods are`;
    out.push({
      object: w.id,
      field: fieldOf(w, reason),
      severity: "error",
      message: `${w.kind} ${short(w.id)} never becomes Ready: ${which} Pending at t=0, kube-scheduler: ${reason}`,
      consequence: consequenceOf(none, "workload", w.id, `${w.kind} ${short(w.id)}`),
      fix: {
        text: adviceFor(reason),
        advice: "the cluster or the manifest must change as the scheduler's reason says",
      },
    });
  }
  return out;
}

export const FL013: Rule = {
  id: "FL013",
  name: "never-ready",
  title: "A workload kube-scheduler cannot place, with no fault at all",
  severity: "error",
  check,
};
