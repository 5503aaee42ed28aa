// Where a pod may and would rather run (core/v1 Affinity, NodeSelector, TopologySpreadConstraint), as
// the scheduler's filters and scores read them; objects.ts re-exports them. Field names and shapes
// follow the Kubernetes API.

import type { LabelSelector } from "./objects-meta.ts";

export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  topologyKey: string;
  /** Namespaces the term selects pods in; with neither this nor namespaceSelector, the pod's own. */
  namespaces?: string[];
  /** Namespaces by their labels; `{}` selects every namespace. */
  namespaceSelector?: LabelSelector;
}

export interface PodAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
}

/** A node selector requirement (core/v1 NodeSelectorRequirement): Gt and Lt compare integers. */
export interface NodeSelectorRequirement {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt";
  values?: string[];
}

/** One term of a node selector: its requirements are ANDed. */
export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  /** Only `metadata.name` is a node field (nodeaffinity.extractNodeFields). */
  matchFields?: NodeSelectorRequirement[];
}

/** A node selector (core/v1 NodeSelector): its terms are ORed. */
export interface NodeSelector {
  nodeSelectorTerms: NodeSelectorTerm[];
}

export interface PreferredSchedulingTerm {
  /** 1–100 */
  weight: number;
  preference: NodeSelectorTerm;
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
  preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[];
}

export interface Affinity {
  nodeAffinity?: NodeAffinity;
  podAffinity?: PodAffinity;
  podAntiAffinity?: PodAffinity;
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: "DoNotSchedule" | "ScheduleAnyway";
  labelSelector?: LabelSelector;
  /** Pod label keys whose values (the pod's own) are ANDed into the selector (1.27+ beta). */
  matchLabelKeys?: string[];
  /** With fewer eligible domains than this, the global minimum counts as 0. */
  minDomains?: number;
  /** Honor (default): only nodes matching the pod's node selector and required affinity count. */
  nodeAffinityPolicy?: "Honor" | "Ignore";
  /** Ignore (default): tainted nodes count too. */
  nodeTaintsPolicy?: "Honor" | "Ignore";
}
