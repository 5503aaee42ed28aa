// Affinity (core/v1): node affinity and pod (anti-)affinity terms, and the NodeSelector a
// PersistentVolume's nodeAffinity shares with them, validated as pkg/apis/core/validation does
// (ValidateNodeSelector, ValidateNodeSelectorRequirement, ValidateNodeFieldSelectorRequirement,
// ValidatePreferredSchedulingTerms, validatePodAffinityTerm), typed for the scheduler.

import type {
  Affinity,
  NodeAffinity,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  PodAffinity,
  PodAffinityTerm,
  PreferredSchedulingTerm,
  WeightedPodAffinityTerm,
} from "../../kubernetes/objects.ts";
import { fail, int, knownFields, list, obj, oneOf, required, str } from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";
import * as F from "./fields.ts";
import { check } from "./meta.ts";
import { isDNS1123Label, isLabelKey } from "./names.ts";
import { labelSelector } from "./selector.ts";

const OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"] as const;

export function affinity(src: SourceDoc, path: Path, v: unknown): Affinity {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.AFFINITY_FIELDS, "Affinity");
  const out: Affinity = {};
  if (o.nodeAffinity != null) out.nodeAffinity = nodeAffinity(src, [...path, "nodeAffinity"], o.nodeAffinity);
  for (const key of ["podAffinity", "podAntiAffinity"] as const) {
    if (o[key] != null) out[key] = podAffinity(src, [...path, key], o[key], key);
  }
  return out;
}

function nodeAffinity(src: SourceDoc, path: Path, v: unknown): NodeAffinity {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.NODE_AFFINITY_FIELDS, "NodeAffinity");
  const out: NodeAffinity = {};
  const req = "requiredDuringSchedulingIgnoredDuringExecution";
  if (o[req] != null) out[req] = nodeSelector(src, [...path, req], o[req]);
  const pref = "preferredDuringSchedulingIgnoredDuringExecution";
  if (o[pref] != null) {
    out[pref] = list(src, [...path, pref], o[pref]).map((t, i): PreferredSchedulingTerm => {
      const p = [...path, pref, i];
      const to = obj(src, p, t);
      knownFields(src, p, to, F.PREFERRED_SCHEDULING_TERM_FIELDS, "PreferredSchedulingTerm");
      return {
        // ValidatePreferredSchedulingTerms: "must be in the range 1-100".
        weight: int(src, [...p, "weight"], required(src, p, to, "weight", "PreferredSchedulingTerm"), {
          min: 1,
          max: 100,
        }),
        preference: nodeSelectorTerm(
          src,
          [...p, "preference"],
          required(src, p, to, "preference", "PreferredSchedulingTerm"),
        ),
      };
    });
  }
  return out;
}

/** A NodeSelector: at least one term; terms ORed, requirements in a term ANDed. */
export function nodeSelector(src: SourceDoc, path: Path, v: unknown): NodeSelector {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.NODE_SELECTOR_FIELDS, "NodeSelector");
  const tp = [...path, "nodeSelectorTerms"];
  const terms = list(src, tp, required(src, path, o, "nodeSelectorTerms", "NodeSelector"));
  if (terms.length === 0) fail(src, tp, "missing-field", "must have at least one node selector term");
  return { nodeSelectorTerms: terms.map((t, i) => nodeSelectorTerm(src, [...tp, i], t)) };
}

function nodeSelectorTerm(src: SourceDoc, path: Path, v: unknown): NodeSelectorTerm {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.NODE_SELECTOR_TERM_FIELDS, "NodeSelectorTerm");
  const out: NodeSelectorTerm = {};
  if (o.matchExpressions != null) {
    const p = [...path, "matchExpressions"];
    out.matchExpressions = list(src, p, o.matchExpressions).map((r, i) =>
      requirement(src, [...p, i], r, "label"),
    );
  }
  if (o.matchFields != null) {
    const p = [...path, "matchFields"];
    out.matchFields = list(src, p, o.matchFields).map((r, i) => requirement(src, [...p, i], r, "field"));
  }
  return out;
}

function requirement(src: SourceDoc, path: Path, v: unknown, of: "label" | "field"): NodeSelectorRequirement {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.NODE_SELECTOR_REQUIREMENT_FIELDS, "NodeSelectorRequirement");
  const key = str(src, [...path, "key"], required(src, path, o, "key", "NodeSelectorRequirement"));
  const operator = oneOf(src, [...path, "operator"], required(src, path, o, "operator"), OPERATORS);
  const values =
    o.values == null
      ? []
      : list(src, [...path, "values"], o.values).map((x, j) => str(src, [...path, "values", j], x));
  const vp = [...path, "values"];
  if (of === "field") {
    // ValidateNodeFieldSelectorRequirement: only metadata.name, with In or NotIn and one value.
    if (key !== "metadata.name")
      fail(
        src,
        [...path, "key"],
        "invalid-value",
        `${JSON.stringify(key)} is not a valid field selector key: only "metadata.name" is supported`,
      );
    if (operator !== "In" && operator !== "NotIn")
      fail(
        src,
        [...path, "operator"],
        "invalid-value",
        `"${operator}" is not a valid field selector operator: use In or NotIn`,
      );
    if (values.length !== 1)
      fail(
        src,
        vp,
        "invalid-value",
        "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
      );
    return { key, operator, values };
  }
  check(src, [...path, "key"], key, isLabelKey, "label key");
  if ((operator === "In" || operator === "NotIn") && values.length === 0)
    fail(
      src,
      o.values == null ? path : vp,
      "missing-field",
      "must be specified when `operator` is 'In' or 'NotIn'",
    );
  if ((operator === "Exists" || operator === "DoesNotExist") && values.length > 0)
    fail(src, vp, "invalid-value", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
  if (operator === "Gt" || operator === "Lt") {
    if (values.length !== 1)
      fail(
        src,
        o.values == null ? path : vp,
        "invalid-value",
        "must be specified single value when `operator` is 'Lt' or 'Gt'",
      );
    // The scheduler parses it as an integer (nodeaffinity, labels.Requirement): anything else never matches.
    if (!/^-?\d+$/.test(values[0]!))
      fail(
        src,
        [...vp, 0],
        "invalid-value",
        `${JSON.stringify(values[0])} is not an integer, as \`operator\` ${operator} needs`,
      );
  }
  return values.length > 0 ? { key, operator, values } : { key, operator };
}

function podAffinity(
  src: SourceDoc,
  path: Path,
  v: unknown,
  kind: "podAffinity" | "podAntiAffinity",
): PodAffinity {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.POD_AFFINITY_FIELDS, kind);
  const out: PodAffinity = {};
  const req = "requiredDuringSchedulingIgnoredDuringExecution";
  if (o[req] != null) {
    out[req] = list(src, [...path, req], o[req]).map((t, i) => podAffinityTerm(src, [...path, req, i], t));
  }
  const pref = "preferredDuringSchedulingIgnoredDuringExecution";
  if (o[pref] != null) {
    out[pref] = list(src, [...path, pref], o[pref]).map((t, i): WeightedPodAffinityTerm => {
      const p = [...path, pref, i];
      const to = obj(src, p, t);
      knownFields(src, p, to, F.WEIGHTED_POD_AFFINITY_TERM_FIELDS, "WeightedPodAffinityTerm");
      return {
        weight: int(src, [...p, "weight"], required(src, p, to, "weight", "WeightedPodAffinityTerm"), {
          min: 1,
          max: 100,
        }),
        podAffinityTerm: podAffinityTerm(
          src,
          [...p, "podAffinityTerm"],
          required(src, p, to, "podAffinityTerm", "WeightedPodAffinityTerm"),
        ),
      };
    });
  }
  return out;
}

/** validatePodAffinityTerm: a non-empty topologyKey that is a qualified name. */
function podAffinityTerm(src: SourceDoc, path: Path, v: unknown): PodAffinityTerm {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.POD_AFFINITY_TERM_FIELDS, "PodAffinityTerm");
  const topologyKey = str(
    src,
    [...path, "topologyKey"],
    required(src, path, o, "topologyKey", "PodAffinityTerm"),
  );
  if (topologyKey === "") fail(src, [...path, "topologyKey"], "invalid-value", "can not be empty");
  check(src, [...path, "topologyKey"], topologyKey, isLabelKey, "topology key");
  const term: PodAffinityTerm = { topologyKey };
  if (o.labelSelector != null)
    term.labelSelector = labelSelector(src, [...path, "labelSelector"], o.labelSelector);
  if (o.namespaces != null) {
    term.namespaces = list(src, [...path, "namespaces"], o.namespaces).map((n, j) => {
      const ns = str(src, [...path, "namespaces", j], n);
      check(src, [...path, "namespaces", j], ns, isDNS1123Label, "namespace");
      return ns;
    });
  }
  if (o.namespaceSelector != null)
    term.namespaceSelector = labelSelector(src, [...path, "namespaceSelector"], o.namespaceSelector);
  return term;
}
