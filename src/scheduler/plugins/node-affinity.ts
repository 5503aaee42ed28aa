// Node selectors as kube-scheduler reads them: a pod's nodeSelector and nodeAffinity, a
// PersistentVolume's nodeAffinity. Compiled once per pod (or volume), matched per node.
//
// The rules are component-helpers' (staging/src/k8s.io/component-helpers/scheduling/corev1/
// nodeaffinity/nodeaffinity.go: NewLazyErrorNodeSelector, nodeSelectorTerm.match,
// GetRequiredNodeAffinity, PreferredSchedulingTerms.Score) and labels.Requirement.Matches
// (k8s.io/apimachinery/pkg/labels/selector.go):
// - nodeSelectorTerms are ORed, a term's matchExpressions and matchFields ANDed; a term with neither
//   selects nothing, and a selector whose terms are all empty matches no node;
// - In and NotIn need values; Exists and DoesNotExist none; Gt and Lt exactly one integer, and the
//   node's label must parse as an integer too; NotIn and DoesNotExist match a node without the label;
// - matchFields knows one node field, `metadata.name`, with In or NotIn and exactly one value;
// - a term that does not parse (an unknown operator, a Gt without an integer…) matches nothing
//   (the NodeAffinity filter ignores the parse error "for backwards compatibility");
// - the pod's nodeSelector is ANDed with its required affinity (RequiredNodeAffinity.Match).

import type {
  Node,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  PreferredSchedulingTerm,
} from "../../kubernetes/objects.ts";
import { type FilterReasons, slot } from "../framework/filter-reasons.ts";
import { type FilterCode, PASS, UNRESOLVABLE } from "../framework/status.ts";

const IN = 0;
const NOT_IN = 1;
const EXISTS = 2;
const DOES_NOT_EXIST = 3;
const GT = 4;
const LT = 5;

interface Requirement {
  key: string;
  op: number;
  values: readonly string[];
  /** Gt / Lt: the bound */
  bound: number;
}

/** A parsed NodeSelectorTerm; `invalid` terms match nothing. */
export interface CompiledTerm {
  labels: Requirement[];
  fields: Requirement[];
  invalid: boolean;
}

/** `-?[0-9]+` within int64, as strconv.ParseInt(v, 10, 64) accepts it (here within ±2^53). */
function parseInteger(v: string): number | undefined {
  if (!/^[+-]?\d+$/.test(v)) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : undefined;
}

function compileRequirement(r: NodeSelectorRequirement, field: boolean): Requirement | undefined {
  // Values come from YAML as written (load/ keeps affinity terms raw): compare them as strings.
  const values = (r.values ?? []).map((v) => String(v));
  const key = String(r.key ?? "");
  if (field) {
    // nodeSelectorRequirementsAsFieldSelector: In / NotIn with exactly one value.
    if ((r.operator === "In" || r.operator === "NotIn") && values.length === 1)
      return { key, op: r.operator === "In" ? IN : NOT_IN, values, bound: 0 };
    return undefined;
  }
  switch (r.operator) {
    case "In":
    case "NotIn":
      if (values.length === 0) return undefined;
      return { key, op: r.operator === "In" ? IN : NOT_IN, values, bound: 0 };
    case "Exists":
    case "DoesNotExist":
      if (values.length !== 0) return undefined;
      return { key, op: r.operator === "Exists" ? EXISTS : DOES_NOT_EXIST, values, bound: 0 };
    case "Gt":
    case "Lt": {
      const bound = values.length === 1 ? parseInteger(values[0]!) : undefined;
      if (bound === undefined) return undefined;
      return { key, op: r.operator === "Gt" ? GT : LT, values, bound };
    }
    default:
      return undefined;
  }
}

/** A term, or undefined for an empty term (which selects nothing and is left out). */
export function compileTerm(term: NodeSelectorTerm | undefined): CompiledTerm | undefined {
  const exprs = term?.matchExpressions ?? [];
  const fieldExprs = term?.matchFields ?? [];
  if (exprs.length === 0 && fieldExprs.length === 0) return undefined;
  const out: CompiledTerm = { labels: [], fields: [], invalid: false };
  for (const r of exprs) {
    const c = compileRequirement(r, false);
    if (c) out.labels.push(c);
    else out.invalid = true;
  }
  for (const r of fieldExprs) {
    const c = compileRequirement(r, true);
    if (c) out.fields.push(c);
    else out.invalid = true;
  }
  return out;
}

/** The non-empty terms of a node selector (an empty list matches no node). */
export function compileNodeSelector(selector: NodeSelector | undefined): CompiledTerm[] {
  const out: CompiledTerm[] = [];
  for (const t of selector?.nodeSelectorTerms ?? []) {
    const c = compileTerm(t);
    if (c) out.push(c);
  }
  return out;
}

function requirementMatches(r: Requirement, has: boolean, value: string | undefined): boolean {
  switch (r.op) {
    case IN:
      return has && r.values.includes(value!);
    case NOT_IN:
      return !has || !r.values.includes(value!);
    case EXISTS:
      return has;
    case DOES_NOT_EXIST:
      return !has;
    default: {
      if (!has) return false;
      const n = parseInteger(value!);
      if (n === undefined) return false;
      return r.op === GT ? n > r.bound : n < r.bound;
    }
  }
}

export function termMatches(term: CompiledTerm, node: Node): boolean {
  if (term.invalid) return false;
  const labels = node.metadata.labels;
  for (const r of term.labels) {
    const has = labels !== undefined && Object.hasOwn(labels, r.key);
    if (!requirementMatches(r, has, has ? labels[r.key] : undefined)) return false;
  }
  for (const r of term.fields) {
    // fields.Set{"metadata.name": …}: any other field reads as "".
    const value = r.key === "metadata.name" ? node.metadata.name : "";
    if (r.op === IN ? value !== r.values[0] : value === r.values[0]) return false;
  }
  return true;
}

/** The terms ORed: does any match the node? */
export function anyTermMatches(terms: readonly CompiledTerm[], node: Node): boolean {
  for (const t of terms) if (termMatches(t, node)) return true;
  return false;
}

/** A pod's required node affinity: nodeSelector (equality per key) and the required terms, ANDed. */
export interface RequiredNodeAffinity {
  selector: readonly (readonly [string, string])[];
  /** undefined: no required node affinity */
  terms: readonly CompiledTerm[] | undefined;
}

export function requiredNodeAffinity(
  nodeSelector: Record<string, string> | undefined,
  required: NodeSelector | undefined,
): RequiredNodeAffinity | undefined {
  const selector = Object.entries(nodeSelector ?? {}).map(([k, v]) => [k, String(v)] as const);
  if (selector.length === 0 && required === undefined) return undefined;
  return { selector, terms: required === undefined ? undefined : compileNodeSelector(required) };
}

export function matchesRequired(a: RequiredNodeAffinity, node: Node): boolean {
  const labels = node.metadata.labels;
  for (const [k, v] of a.selector) if (labels?.[k] !== v) return false;
  return a.terms === undefined || anyTermMatches(a.terms, node);
}

/** preferredDuringScheduling terms with their weights; weight 0 and empty terms are left out. */
export interface PreferredTerm {
  weight: number;
  term: CompiledTerm;
}

export function compilePreferred(terms: readonly PreferredSchedulingTerm[] | undefined): PreferredTerm[] {
  const out: PreferredTerm[] = [];
  for (const t of terms ?? []) {
    const weight = Number(t.weight) || 0;
    const term = compileTerm(t.preference);
    if (weight !== 0 && term) out.push({ weight, term });
  }
  return out;
}

/** PreferredSchedulingTerms.Score: the sum of the weights of the terms the node matches. */
export function preferredScore(terms: readonly PreferredTerm[], node: Node): number {
  let score = 0;
  for (const t of terms) if (termMatches(t.term, node)) score += t.weight;
  return score;
}

/**
 * NodeAffinity's Filter (nodeaffinity/node_affinity.go): the pod's nodeSelector and required node
 * affinity must match the node, else UnschedulableAndUnresolvable ("node(s) didn't match Pod's node
 * affinity/selector", ErrReasonPod).
 */
export function nodeAffinityFilter(
  required: RequiredNodeAffinity | undefined,
  node: Node,
  reasons: FilterReasons,
): FilterCode {
  if (!required || matchesRequired(required, node)) return PASS;
  reasons.add(slot("NodeAffinity"));
  return UNRESOLVABLE;
}
