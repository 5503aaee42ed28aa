// Label and field selectors as the API server parses them (k8s.io/apimachinery/pkg/labels
// selector.go Parse, pkg/fields selector.go ParseSelector) and the field labels each resource
// supports (its registry's GetAttrs / field label conversion; an unsupported one is a 400, as in
// kube-apiserver: "field label not supported").

import type { ApiObject } from "./api-types.ts";

export class SelectorError extends Error {}

type LabelOp = "=" | "!=" | "in" | "notin" | "exists" | "!" | ">" | "<";
interface LabelRequirement {
  key: string;
  op: LabelOp;
  values: string[];
}

const KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Split on commas outside parentheses. */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of s) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

function checkKey(key: string): string {
  if (!KEY.test(key) || key.length > 317)
    throw new SelectorError(`unable to parse requirement: invalid label key "${key}"`);
  return key;
}

function checkValue(v: string): string {
  if (!VALUE.test(v) || v.length > 63)
    throw new SelectorError(`unable to parse requirement: invalid label value: "${v}"`);
  return v;
}

export function parseLabelSelector(text: string): LabelRequirement[] {
  const reqs: LabelRequirement[] = [];
  if (text.trim() === "") return reqs;
  for (const raw of splitTop(text)) {
    const part = raw.trim();
    if (part === "") throw new SelectorError("found '', expected: !, identifier, or 'end of string'");
    let m = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(part);
    if (m) {
      const values = m[3]!.split(",").map((v) => checkValue(v.trim()));
      reqs.push({ key: checkKey(m[1]!), op: m[2] as "in", values });
      continue;
    }
    if (part.startsWith("!")) {
      reqs.push({ key: checkKey(part.slice(1).trim()), op: "!", values: [] });
      continue;
    }
    m = /^([^=!<>\s]+)\s*(==|=|!=|>|<)\s*(.*)$/.exec(part);
    if (m) {
      const op = m[2] === "==" ? "=" : (m[2] as LabelOp);
      const value = m[3]!.trim();
      if ((op === ">" || op === "<") && !/^-?\d+$/.test(value)) {
        throw new SelectorError(
          `unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer`,
        );
      }
      reqs.push({ key: checkKey(m[1]!), op, values: [checkValue(value)] });
      continue;
    }
    if (/^\S+$/.test(part)) {
      reqs.push({ key: checkKey(part), op: "exists", values: [] });
      continue;
    }
    throw new SelectorError(`unable to parse requirement: "${part}"`);
  }
  return reqs;
}

export function matchesLabels(reqs: LabelRequirement[], labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  return reqs.every((r) => {
    const has = Object.hasOwn(l, r.key);
    const v = l[r.key];
    switch (r.op) {
      case "=":
        return has && v === r.values[0];
      case "!=":
        return !has || v !== r.values[0];
      case "in":
        return has && r.values.includes(v!);
      case "notin":
        return !has || !r.values.includes(v!);
      case "exists":
        return has;
      case "!":
        return !has;
      case ">":
        return has && /^-?\d+$/.test(v!) && Number(v) > Number(r.values[0]);
      case "<":
        return has && /^-?\d+$/.test(v!) && Number(v) < Number(r.values[0]);
      default:
        return false;
    }
  });
}

interface FieldRequirement {
  field: string;
  equal: boolean;
  value: string;
}

/** fields.ParseSelector: "a=b,c!=d" ("==" is "="); a backslash escapes ",", "=", "!" and "\". */
export function parseFieldSelector(text: string): FieldRequirement[] {
  const out: FieldRequirement[] = [];
  if (text.trim() === "") return out;
  const terms: string[] = [];
  let cur = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\\" && i + 1 < text.length) {
      cur += ch + text[++i];
    } else if (ch === ",") {
      terms.push(cur);
      cur = "";
    } else cur += ch;
  }
  terms.push(cur);
  for (const term of terms) {
    const m = /^([^=!]+)(==|=|!=)(.*)$/s.exec(term);
    if (!m) throw new SelectorError(`invalid selector: '${text}'; can't understand '${term}'`);
    out.push({ field: m[1]!.trim(), equal: m[2] !== "!=", value: m[3]!.replace(/\\(.)/g, "$1") });
  }
  return out;
}

type FieldGetter = (o: ApiObject) => string;

const META: Record<string, FieldGetter> = {
  "metadata.name": (o) => o.metadata.name,
  "metadata.namespace": (o) => o.metadata.namespace ?? "",
};

/** The field labels each resource supports (pkg/registry/<group>/<resource>/strategy.go GetAttrs / ToSelectableFields). */
const FIELDS: Record<string, Record<string, FieldGetter>> = {
  pods: {
    "spec.nodeName": (o) => o.spec?.nodeName ?? "",
    "spec.restartPolicy": (o) => o.spec?.restartPolicy ?? "",
    "spec.schedulerName": (o) => o.spec?.schedulerName ?? "",
    "spec.serviceAccountName": (o) => o.spec?.serviceAccountName ?? "",
    "spec.hostNetwork": (o) => String(Boolean(o.spec?.hostNetwork)),
    "status.phase": (o) => o.status?.phase ?? "",
    "status.podIP": (o) => o.status?.podIP ?? "",
    "status.podIPs": (o) => o.status?.podIPs?.[0]?.ip ?? "",
    "status.nominatedNodeName": (o) => o.status?.nominatedNodeName ?? "",
  },
  nodes: { "spec.unschedulable": (o) => String(Boolean(o.spec?.unschedulable)) },
  namespaces: { "status.phase": (o) => o.status?.phase ?? "" },
  replicasets: { "status.replicas": (o) => String(o.status?.replicas ?? 0) },
  events: {
    "involvedObject.kind": (o) => o.involvedObject?.kind ?? "",
    "involvedObject.namespace": (o) => o.involvedObject?.namespace ?? "",
    "involvedObject.name": (o) => o.involvedObject?.name ?? "",
    "involvedObject.uid": (o) => o.involvedObject?.uid ?? "",
    "involvedObject.apiVersion": (o) => o.involvedObject?.apiVersion ?? "",
    "involvedObject.resourceVersion": (o) => o.involvedObject?.resourceVersion ?? "",
    "involvedObject.fieldPath": (o) => o.involvedObject?.fieldPath ?? "",
    reason: (o) => o.reason ?? "",
    reportingComponent: (o) => o.reportingComponent ?? "",
    source: (o) => o.source?.component ?? "",
    type: (o) => o.type ?? "",
  },
};

/** Check every field label is supported by the resource; returns a matcher over served objects. */
export function fieldMatcher(resource: string, text: string): (o: ApiObject) => boolean {
  const reqs = parseFieldSelector(text);
  const fields = { ...META, ...(FIELDS[resource] ?? {}) };
  const getters = reqs.map((r) => {
    const get = fields[r.field];
    if (!get) throw new SelectorError(`field label not supported: ${r.field}`);
    return { get, r };
  });
  return (o) => getters.every(({ get, r }) => (get(o) === r.value) === r.equal);
}
