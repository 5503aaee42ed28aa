// The fault and its steps reconstructed from an incident's Events (and its audit log, when given),
// each step's time read from the Event Kubernetes' own component records for it:
// - NodeNotReady on the Node, from node-controller: the node lifecycle controller's
//   RecordNodeStatusChange when Ready turns Unknown (pkg/controller/nodelifecycle
//   node_lifecycle_controller.go monitorNodeHealth; pkg/controller/util/node/controller_utils.go).
//   The kubelet's own NodeNotReady (source kubelet) is Ready=False from a live kubelet, not a silence.
// - NodeNotReady on each of its pods, "Node is not ready": MarkPodsNotReady (controller_utils.go).
// - TaintManagerEviction, "Marking for deletion Pod NS/NAME": the taint-eviction-controller's
//   emitPodDeletionEvent (pkg/controller/tainteviction/taint_eviction.go, 1.29+; before it
//   nodelifecycle/scheduler/taint_manager.go), when a pod's tolerationSeconds run out.
// - SuccessfulCreate, "Created pod: NAME": the ReplicaSet controller (pkg/controller/controller_utils.go
//   CreatePods); "create Pod NAME in StatefulSet NAME successful" the StatefulSet controller.
// - Scheduled, "Successfully assigned NS/NAME to NODE": kube-scheduler (events.k8s.io, eventTime).
// - SuccessfulAttachVolume / FailedAttachVolume ("Multi-Attach error for volume …"): the
//   attach-detach controller's reconciler (pkg/controller/volume/attachdetach/reconciler).
// The audit log adds what no Event says: the node's last Lease renewal and the NoExecute taint.

import { LoadError } from "../load/errors.ts";
import type { KubeObject } from "../record/recording.ts";
import type { AuditLog } from "./audit-log.ts";
import type { EventsFile, IncidentEvent } from "./events.ts";
import type { StepKey, StepTimes } from "./steps.ts";

export interface Incident {
  node: string;
  /** NodeNotReady's first occurrence (whole seconds, or µs from the audit log) */
  notReadyAt: number;
  /** the node's last Lease renewal before it went NotReady, from the audit log */
  lastRenewal?: number;
  observedAt: StepTimes;
  /** each timed step: what it was read from */
  evidence: Partial<Record<StepKey, string>>;
  /** the events after the fault that are not a timed step, in order */
  others: IncidentEvent[];
  notes: string[];
}

const iso = (t: number) => new Date(Math.round(t * 1e6) / 1e3).toISOString();
const said = (e: IncidentEvent) =>
  `${e.reason} (${e.component || "no source"}) on ${e.kind} ${e.namespace ? `${e.namespace}/` : ""}${e.name}, ${e.from} ${iso(e.first)}${e.count > 1 ? ` (count ${e.count})` : ""}`;

/** Where each pod of the dump runs: `ns/name` → node. */
function podNodes(dump: KubeObject[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const o of dump)
    if (o.kind === "Pod")
      out.set(
        `${o.metadata?.namespace ?? ""}/${o.metadata?.name ?? ""}`,
        (o.spec as { nodeName?: string } | undefined)?.nodeName ?? "",
      );
  return out;
}

/** The node that failed: the first NodeNotReady the node controller recorded on a Node. */
function failedNode(ev: EventsFile, named?: string): IncidentEvent {
  const nodeEvents = ev.events.filter((e) => e.kind === "Node" && (named === undefined || e.name === named));
  const first = nodeEvents.find((e) => e.reason === "NodeNotReady" && e.component === "node-controller");
  if (first) return first;
  if (named !== undefined && nodeEvents.length === 0)
    throw ev.src.error("invalid-value", ["items"], `--node ${named}: no Event about Node ${named}`);
  const cordon = nodeEvents.find((e) => e.reason === "NodeNotSchedulable");
  const kubeletNotReady = nodeEvents.find((e) => e.reason === "NodeNotReady");
  const what = cordon
    ? `the events show a cordon of ${cordon.name} (NodeNotSchedulable at ${iso(cordon.first)}), a drain: replay does not reconstruct a drain yet (not modelled); it replays a node the node controller marked NotReady (a power-off, a lost network)`
    : kubeletNotReady
      ? `the kubelet of ${kubeletNotReady.name} reported NotReady itself (${said(kubeletNotReady)}): a live kubelet (a runtime down), not a silent node; replay does not reconstruct that yet (not modelled)`
      : "no node event: no NodeNotReady from node-controller on a Node, so the events show no node failure to replay (were they taken more than an hour later? kube-apiserver keeps Events for --event-ttl, 1h by default)";
  throw ev.src.error("invalid-value", ["items"], what);
}

/** The fault and every step the events (and the audit log) time. */
export function reconstruct(ev: EventsFile, dump: KubeObject[], audit?: AuditLog, named?: string): Incident {
  const nr = failedNode(ev, named);
  const node = nr.name;
  const nodes = dump.filter((o) => o.kind === "Node").map((o) => o.metadata?.name ?? "");
  if (!nodes.includes(node))
    throw ev.src.error(
      "unknown-node",
      nr.path,
      `the NodeNotReady Event names node ${node}, which the dump does not hold (its nodes: ${nodes.join(", ") || "none"}): is the dump the same cluster's?`,
    );
  const on = podNodes(dump);
  const since = nr.first - 1;
  const after = ev.events.filter((e) => e.first >= since);
  const onNode = (e: IncidentEvent) =>
    e.kind === "Pod" && (on.get(`${e.namespace}/${e.name}`) ?? node) === node;
  // A replacement: a pod the dump does not hold, or one it holds on the failed node (a StatefulSet's
  // replacement keeps its name); a pod the dump holds elsewhere was there before the fault.
  const fresh = (e: IncidentEvent) =>
    e.kind === "Pod" && (on.get(`${e.namespace}/${e.name}`) ?? node) === node;
  const observedAt: StepTimes = { "not-ready": nr.first };
  const evidence: Incident["evidence"] = { "not-ready": said(nr) };
  const used = new Set<IncidentEvent>([nr]);
  const step = (key: StepKey, pick: (e: IncidentEvent) => boolean) => {
    const es = after.filter(pick);
    const e = es[0];
    if (!e) return;
    for (const x of es) used.add(x);
    observedAt[key] = e.first;
    evidence[key] = `${said(e)}${es.length > 1 ? `; the first of ${es.length}` : ""}`;
  };
  step(
    "pods-not-ready",
    (e) => e.reason === "NodeNotReady" && e.component === "node-controller" && onNode(e),
  );
  step(
    "evicted",
    (e) => e.reason === "TaintManagerEviction" && e.message.startsWith("Marking for deletion") && onNode(e),
  );
  step("replacement-created", (e) => e.reason === "SuccessfulCreate");
  step("replacement-scheduled", (e) => e.reason === "Scheduled" && fresh(e));
  step("volume-attached", (e) => e.reason === "SuccessfulAttachVolume" && fresh(e));
  const notes: string[] = [];
  const out: Incident = {
    node,
    notReadyAt: nr.first,
    observedAt,
    evidence,
    others: after.filter((e) => !used.has(e)),
    notes,
  };
  if (audit) fromAuditLog(out, audit);
  const other = ev.events.filter(
    (e) =>
      e.kind === "Node" &&
      e.reason === "NodeNotReady" &&
      e.component === "node-controller" &&
      e.name !== node,
  );
  if (nr.count > 1)
    notes.push(
      `${node} went NotReady ${nr.count} times (the Event's first ${iso(nr.first)}, last ${iso(nr.last)}): replay takes the first; an earlier flap folded into the same Event would put the fault too early`,
    );
  if (other.length > 0)
    notes.push(
      `other nodes went NotReady too (${[...new Set(other.map((e) => e.name))].join(", ")}): replay follows ${named === undefined ? "the first" : "the one --node names"}, ${node}${named === undefined ? " (--node NAME follows another)" : ""}`,
    );
  return out;
}

/** The last Lease renewal, NotReady to the microsecond and the NoExecute taint, from the audit log. */
function fromAuditLog(inc: Incident, audit: AuditLog): void {
  const node = inc.node;
  // The node controller writes as its service account with --use-service-account-credentials
  // (kubeadm's default), else as kube-controller-manager itself.
  const writes = audit.nodes.filter(
    (w) =>
      w.node === node &&
      (w.user === "system:serviceaccount:kube-system:node-controller" ||
        w.user === "system:kube-controller-manager"),
  );
  const unknown = writes.find(
    (w) => w.ready !== undefined && w.ready !== "True" && w.t >= inc.notReadyAt - 1,
  );
  if (unknown) {
    inc.notReadyAt = unknown.t;
    inc.observedAt["not-ready"] = unknown.t;
    inc.evidence["not-ready"] =
      `the node controller's write of Node ${node} with Ready ${unknown.ready} (${audit.file}:${unknown.line}, stageTimestamp ${iso(unknown.t)})`;
  }
  const renewals = audit.renewals.filter((r) => r.node === node && r.t <= inc.notReadyAt);
  const last = renewals.at(-1);
  if (last) {
    inc.lastRenewal = last.t;
    inc.observedAt["lease-stops"] = last.t;
    inc.evidence["lease-stops"] =
      `the kubelet's last update of Lease kube-node-lease/${node} (${audit.file}:${last.line}, spec.renewTime ${iso(last.t)})`;
  } else
    inc.notes.push(
      `${audit.file}: no renewal of Lease kube-node-lease/${node} before it went NotReady: the kill instant is inferred from NotReady, as without an audit log`,
    );
  const taint = writes.find((w) => w.noExecuteAt !== undefined && w.noExecuteAt >= inc.notReadyAt - 1);
  if (taint?.noExecuteAt !== undefined) {
    inc.observedAt.tainted = taint.noExecuteAt;
    inc.evidence.tainted = `node.kubernetes.io/unreachable:NoExecute's timeAdded in the node controller's write (${audit.file}:${taint.line})`;
  }
}

/** Refuses an audit log that says nothing of the failed node (another cluster's, another day's). */
export function checkAuditCovers(inc: Incident, audit: AuditLog): void {
  if (audit.used === 0)
    throw new LoadError(
      "invalid-value",
      audit.file,
      0,
      0,
      "",
      "no Lease or Node write at ResponseComplete with a 2xx status: the audit policy must log leases and nodes at level RequestResponse",
    );
  if (!audit.renewals.some((r) => r.node === inc.node) && !audit.nodes.some((w) => w.node === inc.node))
    inc.notes.push(`${audit.file}: nothing about ${inc.node}, the node the events show failing`);
}
