// A kube-apiserver audit log read back for an incident replay (`faultline replay`): JSON lines of
// audit.k8s.io/v1 Events (k8s.io/apiserver pkg/apis/audit/v1 types.go: verb, user, objectRef,
// responseStatus, stageTimestamp, responseObject at level RequestResponse). What the events cannot
// say, the audit log can, to the microsecond: each node Lease renewal (the kubelet's update of
// kube-node-lease/NODE, its responseObject's spec.renewTime), the kubelet's status patches, the node
// controller's Ready=Unknown and its NoExecute taint (the responseObject's spec.taints[].timeAdded).
// Only ResponseComplete entries that succeeded (2xx) are read: an earlier stage has no response yet.

import { isObj } from "../load/check.ts";
import { LoadError } from "../load/errors.ts";
import { jsonLines } from "./json-lines.ts";
import { seconds } from "./steps.ts";

export interface AuditLog {
  file: string;
  /** node Lease renewals: the node, spec.renewTime (else stageTimestamp), the line */
  renewals: { node: string; t: number; line: number }[];
  /** writes to a Node (status or taints): who, when, its Ready status and NoExecute taint after it */
  nodes: {
    node: string;
    t: number;
    user: string;
    ready?: string;
    readySince?: number;
    noExecuteAt?: number;
    line: number;
  }[];
  /** lines read, and ResponseComplete entries used */
  lines: number;
  used: number;
}

type Obj = Record<string, unknown>;

function fail(file: string, line: number, col: number, path: string, message: string): never {
  throw new LoadError("invalid-value", file, line, col, path, message);
}

/** Parse an audit log (JSON lines; blank lines skipped). */
export function parseAuditLog(text: string, file: string): AuditLog {
  const out: AuditLog = { file, renewals: [], nodes: [], lines: 0, used: 0 };
  const notJson = (n: number, col: number, message: string): never => {
    throw new LoadError("yaml-syntax", file, n, col, "", `not JSON: ${message}`);
  };
  for (const { n, value: v } of jsonLines(text, notJson)) {
    out.lines++;
    if (!isObj(v) || v.kind !== "Event" || v.apiVersion !== "audit.k8s.io/v1")
      fail(
        file,
        n,
        1,
        "kind",
        "not an audit.k8s.io/v1 Event: expected the kube-apiserver's audit log (--audit-log-path, JSON lines)",
      );
    if (v.stage !== "ResponseComplete") continue;
    const code = isObj(v.responseStatus) ? Number(v.responseStatus.code) : 0;
    if (!(code >= 200 && code < 300)) continue;
    const ref = isObj(v.objectRef) ? v.objectRef : undefined;
    if (!ref) fail(file, n, 1, "objectRef", "a ResponseComplete entry without its objectRef");
    const at = seconds(typeof v.stageTimestamp === "string" ? v.stageTimestamp : undefined);
    if (at === undefined) fail(file, n, 1, "stageTimestamp", "missing or not an RFC 3339 time");
    const user = isObj(v.user) && typeof v.user.username === "string" ? v.user.username : "";
    const name = typeof ref.name === "string" ? ref.name : "";
    const obj = isObj(v.responseObject) ? v.responseObject : undefined;
    if (
      ref.resource === "leases" &&
      ref.namespace === "kube-node-lease" &&
      (v.verb === "update" || v.verb === "patch" || v.verb === "create")
    ) {
      const spec = obj && isObj(obj.spec) ? obj.spec : undefined;
      const renew = seconds(typeof spec?.renewTime === "string" ? spec.renewTime : undefined);
      out.renewals.push({ node: name, t: renew ?? at, line: n });
      out.used++;
    } else if (ref.resource === "nodes" && (v.verb === "update" || v.verb === "patch")) {
      out.nodes.push({ node: name, t: at, user, ...nodeState(obj), line: n });
      out.used++;
    }
  }
  return out;
}

function nodeState(obj: Obj | undefined): { ready?: string; readySince?: number; noExecuteAt?: number } {
  if (!obj) return {};
  const status = isObj(obj.status) ? obj.status : {};
  const conds = Array.isArray(status.conditions) ? (status.conditions as Obj[]) : [];
  const ready = conds.find((c) => isObj(c) && c.type === "Ready");
  const spec = isObj(obj.spec) ? obj.spec : {};
  const taints = Array.isArray(spec.taints) ? (spec.taints as Obj[]) : [];
  const noExecute = taints.find(
    (t) => isObj(t) && t.key === "node.kubernetes.io/unreachable" && t.effect === "NoExecute",
  );
  const since = seconds(typeof ready?.lastTransitionTime === "string" ? ready.lastTransitionTime : undefined);
  const added = seconds(typeof noExecute?.timeAdded === "string" ? noExecute.timeAdded : undefined);
  return {
    ...(typeof ready?.status === "string" ? { ready: ready.status } : {}),
    ...(since !== undefined ? { readySince: since } : {}),
    ...(added !== undefined ? { noExecuteAt: added } : {}),
  };
}
