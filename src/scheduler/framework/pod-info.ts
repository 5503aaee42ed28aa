// A pod as the scheduler's plugins read it (framework.PodInfo and each plugin's PreFilter state):
// its requests, tolerations, node affinity, pod (anti-)affinity terms, spread constraints and
// claims, worked out once per pod and kept, since a pod's spec does not change while it waits; what
// is worked out from the values a template's pods share is worked out once per template.

import { controllerOf } from "../../cluster/store.ts";
import { matchesSelector } from "../../kubernetes/labels.ts";
import type {
  Container,
  LabelSelector,
  Pod,
  PodAffinityTerm,
  Toleration,
  TopologySpreadConstraint,
  WeightedPodAffinityTerm,
} from "../../kubernetes/objects.ts";
import { type PodRequest, podRequests } from "../../kubernetes/pod-resources.ts";
import { TAINT_UNSCHEDULABLE, tolerates } from "../../kubernetes/taints.ts";
import {
  compilePreferred,
  type PreferredTerm,
  type RequiredNodeAffinity,
  requiredNodeAffinity,
} from "../plugins/node-affinity.ts";
import { type HostPort, hostPortsOf } from "../plugins/node-ports.ts";

/**
 * A processed PodAffinityTerm (framework.AffinityTerm): the namespaces it names (its pod's own when
 * it names none and has no namespaceSelector, getNamespacesFromPodAffinityTerm) and its selectors.
 */
export interface AffinityTerm {
  topologyKey: string;
  namespaces: ReadonlySet<string>;
  /** undefined selects no namespace (LabelSelectorAsSelector(nil) is Nothing); `{}` every one */
  namespaceSelector: LabelSelector | undefined;
  /** undefined selects no pod; `{}` every pod */
  selector: LabelSelector | undefined;
}

export interface WeightedAffinityTerm extends AffinityTerm {
  weight: number;
}

/** A topology spread constraint with matchLabelKeys merged into its selector. */
export interface SpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  selector: LabelSelector | undefined;
  /** 0 when unset */
  minDomains: number;
  /** nodeAffinityPolicy Honor (the default) */
  honorNodeAffinity: boolean;
  /** nodeTaintsPolicy Honor (Ignore is the default) */
  honorTaints: boolean;
  /** the constraint's selector matches the pod itself (selfMatchNum) */
  selfMatch: boolean;
}

/**
 * What the scheduler works out once from a pod's spec. The pods of one template with the same
 * owner, tolerations and claims share one (no per-pod field: the pod's key is keyOf(pod)).
 */
export interface PodInfo {
  namespace: string;
  /** the pod's controller, `<Kind>/<ns>/<name>`: the default spreading counts its pods */
  owner: string | undefined;
  /** NodeResourcesFit's request: millicores (MilliValue) and bytes */
  cpuMilli: number;
  memory: number;
  /** NodeResourcesFit's other resources: ephemeral-storage and the scalar resources, by name */
  scalar: PodRequest["scalar"];
  /** NodePorts: the host ports its containers want */
  hostPorts: readonly HostPort[];
  tolerations: readonly Toleration[];
  /** NodeUnschedulable: does the pod tolerate node.kubernetes.io/unschedulable:NoSchedule? */
  toleratesUnschedulable: boolean;
  /** nodeSelector and required node affinity; undefined when the pod has neither */
  nodeAffinity: RequiredNodeAffinity | undefined;
  preferredNodeAffinity: readonly PreferredTerm[];
  requiredAffinity: readonly AffinityTerm[];
  requiredAntiAffinity: readonly AffinityTerm[];
  preferredAffinity: readonly WeightedAffinityTerm[];
  preferredAntiAffinity: readonly WeightedAffinityTerm[];
  /** whether the pod sets topologySpreadConstraints at all (then the system defaults do not apply) */
  hasSpreadConstraints: boolean;
  spreadFilter: readonly SpreadConstraint[];
  spreadScore: readonly SpreadConstraint[];
  /** the claims the pod mounts, by name in its namespace, in spec order */
  claims: readonly string[];
}

const infos = new WeakMap<Pod, PodInfo>();

export function podInfo(pod: Pod): PodInfo {
  let info = infos.get(pod);
  if (!info) {
    info = sharedPodInfo(pod);
    infos.set(pod, info);
  }
  return info;
}

/** What a PodInfo holds that is worked out from the pod's spec values, its namespace and labels. */
type Derived = Omit<PodInfo, "owner" | "tolerations" | "claims">;

/**
 * The inputs of `Derived` as read from one pod of a template (compared by identity, the template's
 * values being frozen, pod-template.ts; the tolerations element by element), what was derived from
 * them, and the claims of its volumes (a StatefulSet's pod has volumes of its own).
 */
interface Group {
  namespace: string;
  labels: Record<string, string> | undefined;
  initContainers: Pod["spec"]["initContainers"];
  tolerations: readonly Toleration[];
  affinity: Pod["spec"]["affinity"];
  constraints: Pod["spec"]["topologySpreadConstraints"];
  nodeSelector: Pod["spec"]["nodeSelector"];
  volumes: Pod["spec"]["volumes"];
  claims: readonly string[];
  derived: Derived;
  /** the last PodInfo assembled from it: the next pod with its owner, tolerations and claims shares it */
  last: PodInfo | undefined;
}

/** By the containers array, which the pods of one template share (the last group seen for it). */
const groups = new WeakMap<readonly Container[], Group>();

/**
 * podInfo for a pod whose inputs are those of the last pod seen with the same (frozen) containers:
 * the same derived values, with its own key, owner, tolerations array and, when its volumes are its
 * own, claims. Anything else is computed afresh, as computePodInfo does, and becomes the group.
 */
function sharedPodInfo(pod: Pod): PodInfo {
  const containers = pod.spec.containers;
  let group = groups.get(containers);
  if (!group || !sameInputs(group, pod)) {
    // Only a template's values are frozen (a group's containers are: freezing is for good); a bare
    // or dumped pod's are its own, and shared with none.
    if (!Object.isFrozen(containers)) return computePodInfo(pod);
    group = groupOf(pod);
    groups.set(containers, group);
  }
  const claims = pod.spec.volumes === group.volumes ? group.claims : claimsOf(pod);
  const last = group.last;
  // Admission gives the pods of a template one tolerations list (kubernetes/admission.ts).
  if (
    last !== undefined &&
    last.claims === claims &&
    last.tolerations === (pod.spec.tolerations ?? NONE) &&
    last.owner === controllerOf(pod)
  )
    return last;
  group.last = assemble(pod, group.derived, claims);
  return group.last;
}

function groupOf(pod: Pod): Group {
  const s = pod.spec;
  return {
    namespace: pod.metadata.namespace,
    labels: pod.metadata.labels,
    initContainers: s.initContainers,
    tolerations: s.tolerations ?? NONE,
    affinity: s.affinity,
    constraints: s.topologySpreadConstraints,
    nodeSelector: s.nodeSelector,
    volumes: s.volumes,
    claims: claimsOf(pod),
    derived: derive(pod),
    last: undefined,
  };
}

/** Does `pod` give `derive` the same inputs as the group's pod? (containers: the group's key) */
function sameInputs(g: Group, pod: Pod): boolean {
  const s = pod.spec;
  return (
    g.namespace === pod.metadata.namespace &&
    g.initContainers === s.initContainers &&
    g.affinity === s.affinity &&
    g.constraints === s.topologySpreadConstraints &&
    g.nodeSelector === s.nodeSelector &&
    // the labels are read by the spread constraints only (matchLabelKeys, selfMatch)
    ((s.topologySpreadConstraints ?? NONE).length === 0 || g.labels === pod.metadata.labels) &&
    sameTolerations(g.tolerations, s.tolerations ?? NONE)
  );
}

/**
 * Each pod has its own tolerations array (admission writes one, the DaemonSet controller another),
 * holding the template's tolerations and the ones added: equal element by element, field by field.
 */
function sameTolerations(a: readonly Toleration[], b: readonly Toleration[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (
      x !== y &&
      (x.key !== y.key ||
        x.operator !== y.operator ||
        x.value !== y.value ||
        x.effect !== y.effect ||
        x.tolerationSeconds !== y.tolerationSeconds)
    )
      return false;
  }
  return true;
}

function affinityTerm(pod: Pod, t: PodAffinityTerm): AffinityTerm {
  const own = (t.namespaces ?? []).length === 0 && t.namespaceSelector === undefined;
  return {
    topologyKey: t.topologyKey,
    namespaces: new Set(own ? [pod.metadata.namespace] : (t.namespaces ?? [])),
    namespaceSelector: t.namespaceSelector ?? undefined,
    selector: t.labelSelector ?? undefined,
  };
}

function weighted(
  pod: Pod,
  terms: readonly WeightedPodAffinityTerm[] | undefined,
): readonly WeightedAffinityTerm[] {
  if (!terms || terms.length === 0) return NONE;
  return terms.map((w) => ({
    ...affinityTerm(pod, w.podAffinityTerm),
    weight: Number(w.weight) || 0,
  }));
}

function spreadConstraint(pod: Pod, c: TopologySpreadConstraint): SpreadConstraint {
  let selector = c.labelSelector;
  // matchLabelKeys: the pod's own values for those keys are ANDed into the selector
  // (podtopologyspread/common.go, mergeLabelSetWithSelector); a nil selector stays Nothing.
  const labels = pod.metadata.labels ?? {};
  const extra = (c.matchLabelKeys ?? []).filter((k) => Object.hasOwn(labels, k));
  if (selector && extra.length > 0)
    selector = {
      ...(selector.matchLabels ? { matchLabels: selector.matchLabels } : {}),
      matchExpressions: [
        ...(selector.matchExpressions ?? []),
        ...extra.map((k) => ({ key: k, operator: "In" as const, values: [labels[k]!] })),
      ],
    };
  return {
    maxSkew: c.maxSkew,
    topologyKey: c.topologyKey,
    selector,
    minDomains: c.minDomains ?? 0,
    honorNodeAffinity: (c.nodeAffinityPolicy ?? "Honor") === "Honor",
    honorTaints: c.nodeTaintsPolicy === "Honor",
    selfMatch: matchesSelector(selector, pod.metadata.labels),
  };
}

const NONE: readonly never[] = [];

/** A PodInfo worked out from the pod alone. */
export function computePodInfo(pod: Pod): PodInfo {
  return assemble(pod, derive(pod), claimsOf(pod));
}

/** One literal for every PodInfo, so that the scheduler's readers see one shape. */
function assemble(pod: Pod, d: Derived, claims: readonly string[]): PodInfo {
  return {
    namespace: d.namespace,
    owner: controllerOf(pod),
    cpuMilli: d.cpuMilli,
    memory: d.memory,
    scalar: d.scalar,
    hostPorts: d.hostPorts,
    tolerations: pod.spec.tolerations ?? NONE,
    toleratesUnschedulable: d.toleratesUnschedulable,
    nodeAffinity: d.nodeAffinity,
    preferredNodeAffinity: d.preferredNodeAffinity,
    requiredAffinity: d.requiredAffinity,
    requiredAntiAffinity: d.requiredAntiAffinity,
    preferredAffinity: d.preferredAffinity,
    preferredAntiAffinity: d.preferredAntiAffinity,
    hasSpreadConstraints: d.hasSpreadConstraints,
    spreadFilter: d.spreadFilter,
    spreadScore: d.spreadScore,
    claims,
  };
}

function claimsOf(pod: Pod): readonly string[] {
  const claims: string[] = [];
  for (const v of pod.spec.volumes ?? NONE)
    if (v.persistentVolumeClaim) claims.push(v.persistentVolumeClaim.claimName);
  return claims.length > 0 ? claims : NONE;
}

function derive(pod: Pod): Derived {
  const { cpuMilli, memory, scalar } = podRequests(pod);
  const tolerations = pod.spec.tolerations ?? NONE;
  const affinity = pod.spec.affinity;
  const constraints = pod.spec.topologySpreadConstraints ?? NONE;
  const spread = (when: TopologySpreadConstraint["whenUnsatisfiable"]) =>
    constraints.length === 0
      ? NONE
      : constraints.filter((c) => c.whenUnsatisfiable === when).map((c) => spreadConstraint(pod, c));
  const required = (terms: readonly PodAffinityTerm[] | undefined) =>
    terms && terms.length > 0 ? terms.map((t) => affinityTerm(pod, t)) : NONE;
  return {
    namespace: pod.metadata.namespace,
    cpuMilli,
    memory,
    scalar,
    hostPorts: hostPortsOf(pod),
    toleratesUnschedulable: tolerations.some((t) =>
      tolerates(t, { key: TAINT_UNSCHEDULABLE, effect: "NoSchedule" }),
    ),
    nodeAffinity: requiredNodeAffinity(
      pod.spec.nodeSelector,
      affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
    ),
    preferredNodeAffinity: affinity?.nodeAffinity
      ? compilePreferred(affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution)
      : NONE,
    requiredAffinity: required(affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution),
    requiredAntiAffinity: required(affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution),
    preferredAffinity: weighted(pod, affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution),
    preferredAntiAffinity: weighted(
      pod,
      affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
    ),
    hasSpreadConstraints: constraints.length > 0,
    spreadFilter: spread("DoNotSchedule"),
    spreadScore: spread("ScheduleAnyway"),
  };
}

/**
 * The labels the model's namespaces carry: only kubernetes.io/metadata.name, which the API server
 * sets on every namespace (NamespaceDefaultLabelName, 1.21+). Namespaces are not objects in the
 * model, so a namespaceSelector on any other label selects none.
 */
const namespaceLabels = new Map<string, Record<string, string>>();
function labelsOfNamespace(ns: string): Record<string, string> {
  let l = namespaceLabels.get(ns);
  if (!l) {
    l = { "kubernetes.io/metadata.name": ns };
    namespaceLabels.set(ns, l);
  }
  return l;
}

/** AffinityTerm.Matches (framework/types.go): the namespace, then the label selector. */
export function termMatchesPod(t: AffinityTerm, pod: Pod): boolean {
  const ns = pod.metadata.namespace;
  if (
    !t.namespaces.has(ns) &&
    !(t.namespaceSelector && matchesSelector(t.namespaceSelector, labelsOfNamespace(ns)))
  )
    return false;
  return matchesSelector(t.selector, pod.metadata.labels);
}
