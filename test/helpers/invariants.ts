// Invariants checked by replaying a trace. Each checker returns the violations it found (empty when
// the trace keeps the invariant), so a failing test prints what went wrong and when.
//
// The replay starts from the cluster as it is at t=0 (`initialState`: the warm-up is not traced),
// then applies the events in trace order. A pod name can have several incarnations (a StatefulSet
// recreates db-0 with the same name): an incarnation runs from its PodCreated to its PodDeleted.

import type { SimulationResult } from "../../src/run/simulate.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import { nameOf } from "./sim.ts";

type Summary = SimulationResult["summary"];

// ---- tolerations, written out here from Toleration.ToleratesTaint and DefaultTolerationSeconds --
// (k8s.io/api/core/v1/toleration.go, plugin/pkg/admission/defaulttolerationseconds; not taken from the model)

export interface Tol {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}

export interface TaintRef {
  key: string;
  value?: string;
  effect: string;
}

const NOT_READY = "node.kubernetes.io/not-ready";
const UNREACHABLE = "node.kubernetes.io/unreachable";
const UNSCHEDULABLE = "node.kubernetes.io/unschedulable";

/** Toleration.ToleratesTaint. */
export function tolerates(tol: Tol, taint: TaintRef): boolean {
  if (tol.effect && tol.effect !== taint.effect) return false;
  if (!tol.key) return tol.operator === "Exists";
  if (tol.key !== taint.key) return false;
  if (tol.operator === "Exists") return true;
  return (tol.value ?? "") === (taint.value ?? "");
}

/** The DefaultTolerationSeconds admission plugin (§4.1): not-ready and unreachable NoExecute, unless covered. */
export function withDefaultTolerations(tols: Tol[]): Tol[] {
  const covers = (key: string) =>
    tols.some((t) => (t.key === key || !t.key) && (t.effect === "NoExecute" || !t.effect));
  const out = [...tols];
  for (const key of [NOT_READY, UNREACHABLE])
    if (!covers(key)) out.push({ key, operator: "Exists", effect: "NoExecute" });
  return out;
}

/** AddOrUpdateDaemonPodTolerations (§4.2), without hostNetwork. */
export const DAEMONSET_TOLERATIONS: Tol[] = [
  { key: NOT_READY, operator: "Exists", effect: "NoExecute" },
  { key: UNREACHABLE, operator: "Exists", effect: "NoExecute" },
  { key: "node.kubernetes.io/disk-pressure", operator: "Exists", effect: "NoSchedule" },
  { key: "node.kubernetes.io/memory-pressure", operator: "Exists", effect: "NoSchedule" },
  { key: "node.kubernetes.io/pid-pressure", operator: "Exists", effect: "NoSchedule" },
  { key: UNSCHEDULABLE, operator: "Exists", effect: "NoSchedule" },
];

/** `key[=value]:Effect` (summary.nodes[].taints, NodeTainted.taint) → a taint. */
export function parseTaint(s: string): TaintRef {
  const colon = s.lastIndexOf(":");
  const kv = s.slice(0, colon);
  const eq = kv.indexOf("=");
  return eq < 0
    ? { key: kv, effect: s.slice(colon + 1) }
    : { key: kv.slice(0, eq), value: kv.slice(eq + 1), effect: s.slice(colon + 1) };
}

interface Workload {
  kind: string;
  namespace: string;
  name: string;
  tolerations: Tol[];
}

function workloadsOf(s: Scenario): Workload[] {
  const out: Workload[] = [];
  for (const m of s.manifests) {
    const o = m.object as {
      kind: string;
      metadata: { name: string; namespace?: string };
      spec?: { tolerations?: Tol[]; template?: { spec?: { tolerations?: Tol[] } } };
    };
    const ns = o.metadata.namespace ?? "default";
    if (o.kind === "Pod")
      out.push({
        kind: o.kind,
        namespace: ns,
        name: o.metadata.name,
        tolerations: o.spec?.tolerations ?? [],
      });
    else if (["Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"].includes(o.kind))
      out.push({
        kind: o.kind,
        namespace: ns,
        name: o.metadata.name,
        tolerations: o.spec?.template?.spec?.tolerations ?? [],
      });
  }
  return out;
}

/**
 * The tolerations of a pod (`<ns>/<name>`), from its workload in the scenario's manifests: the
 * owner named by its PodCreated event if known, else the workload whose name is the longest prefix.
 */
export function tolerationResolver(s: Scenario): (pod: string, owner?: string) => Tol[] {
  const workloads = workloadsOf(s);
  return (pod, owner) => {
    const [ns, name] = pod.split("/") as [string, string];
    let w: Workload | undefined;
    if (owner && owner !== "none") {
      const [kind, ons, oname] = owner.split("/");
      w = workloads.find((x) => x.kind === kind && x.namespace === ons && x.name === oname);
    }
    if (!w)
      w = workloads
        .filter(
          (x) => x.namespace === ns && (x.kind === "Pod" ? name === x.name : name.startsWith(`${x.name}-`)),
        )
        .sort((a, b) => b.name.length - a.name.length)[0];
    if (!w) throw new Error(`no workload in the scenario for pod ${pod}`);
    return w.kind === "DaemonSet"
      ? [...w.tolerations, ...DAEMONSET_TOLERATIONS]
      : withDefaultTolerations(w.tolerations);
  };
}

// ---- pod incarnations ----------------------------------------------------------------------------

interface PodState {
  ready: boolean;
  terminating: boolean;
  since: number;
}

/**
 * (a) An endpoint is reported ready only for a pod that exists, is Ready and is not terminating
 * (EndpointSlice `ready = serving && !terminating`, staging/src/k8s.io/endpointslice/utils.go).
 */
export function endpointReadinessViolations(r: SimulationResult, initial: Summary): string[] {
  const pods = new Map<string, PodState>();
  for (const p of initial.pods)
    pods.set(p.pod, { ready: p.ready, terminating: p.status === "Terminating", since: 0 });
  const out: string[] = [];
  for (const e of r.events) {
    if (!e.object.startsWith("Pod/")) continue;
    const pod = nameOf(e.object);
    const st = pods.get(pod);
    switch (e.type) {
      case "PodCreated":
        pods.set(pod, { ready: false, terminating: false, since: e.t });
        break;
      case "PodReady":
      case "PodNotReady":
        if (st) st.ready = e.type === "PodReady";
        else out.push(`${e.t}: ${e.type} for ${pod}, which does not exist`);
        break;
      case "PodEvicted":
        if (st) st.terminating = true;
        break;
      case "PodDeleted":
        pods.delete(pod);
        break;
      case "EndpointReady":
        if (!st) out.push(`${e.t}: EndpointReady for ${pod}, which does not exist`);
        else if (!st.ready)
          out.push(`${e.t}: EndpointReady for ${pod} (created at ${st.since}), which is not Ready`);
        else if (st.terminating)
          out.push(`${e.t}: EndpointReady for ${pod} (created at ${st.since}), which is terminating`);
        break;
    }
  }
  return out;
}

/**
 * (b) At most one pod object per StatefulSet identity: no PodCreated for `<sts>-<i>` while a
 * previous pod of that name exists (between its PodCreated and its PodDeleted).
 */
export function statefulSetIdentityViolations(
  r: SimulationResult,
  initial: Summary,
  sets: string[],
): string[] {
  const isMember = (pod: string) => sets.some((s) => new RegExp(`^[^/]+/${s}-\\d+$`).test(pod));
  const exists = new Map<string, number>();
  for (const p of initial.pods) if (isMember(p.pod)) exists.set(p.pod, 0);
  const out: string[] = [];
  for (const e of r.events) {
    if (!e.object.startsWith("Pod/")) continue;
    const pod = nameOf(e.object);
    if (!isMember(pod)) continue;
    if (e.type === "PodCreated") {
      if (exists.has(pod))
        out.push(`${e.t}: PodCreated ${pod} while the one created at ${exists.get(pod)} still exists`);
      exists.set(pod, e.t);
    } else if (e.type === "PodDeleted") {
      if (!exists.has(pod)) out.push(`${e.t}: PodDeleted ${pod}, which does not exist`);
      exists.delete(pod);
    }
  }
  return out;
}

/**
 * (c) No pod is scheduled onto a node that, at that moment, is cordoned or carries a NoSchedule or
 * NoExecute taint the pod does not tolerate, or is deleted. Node state is replayed from the initial
 * taints, NodeTainted/NodeTaintRemoved, FaultInjected cordon/uncordon/drain and NodeDeleted/NodeRegistered.
 */
export function schedulingViolations(r: SimulationResult, initial: Summary, s: Scenario): string[] {
  const tolerationsOf = tolerationResolver(s);
  const taints = new Map<string, string[]>();
  const cordoned = new Set<string>();
  const deleted = new Set<string>();
  for (const n of initial.nodes) {
    taints.set(
      n.name,
      n.taints.map((t) => {
        const p = parseTaint(t);
        return `${p.key}:${p.effect}`;
      }),
    );
    if (n.status.includes("SchedulingDisabled")) cordoned.add(n.name);
  }
  const owners = new Map<string, string>();
  const out: string[] = [];
  for (const e of r.events) {
    const node = e.object.startsWith("Node/") ? nameOf(e.object) : undefined;
    switch (e.type) {
      case "NodeTainted":
        if (node) taints.set(node, [...(taints.get(node) ?? []), e.taint]);
        break;
      case "NodeTaintRemoved":
        if (node) {
          const list = taints.get(node) ?? [];
          const i = list.indexOf(e.taint);
          if (i < 0) out.push(`${e.t}: NodeTaintRemoved ${e.taint} from ${node}, which does not carry it`);
          else list.splice(i, 1);
        }
        break;
      case "FaultInjected":
        if (node && (e.do === "cordon" || e.do === "drain")) cordoned.add(node);
        if (node && e.do === "uncordon") cordoned.delete(node);
        break;
      case "NodeDeleted":
        if (node) deleted.add(node);
        break;
      case "NodeRegistered":
        if (node) deleted.delete(node);
        break;
      case "PodCreated":
        owners.set(nameOf(e.object), e.owner);
        break;
      case "PodScheduled": {
        const pod = nameOf(e.object);
        const target = e.node;
        if (!target) {
          out.push(`${e.t}: PodScheduled ${pod} names no node`);
          break;
        }
        const tols = tolerationsOf(pod, owners.get(pod));
        if (deleted.has(target)) out.push(`${e.t}: ${pod} scheduled onto deleted node ${target}`);
        if (
          cordoned.has(target) &&
          !tols.some((t) => tolerates(t, { key: UNSCHEDULABLE, effect: "NoSchedule" }))
        )
          out.push(`${e.t}: ${pod} scheduled onto cordoned node ${target}`);
        for (const taint of taints.get(target) ?? []) {
          const ref = parseTaint(taint);
          if (ref.effect !== "NoSchedule" && ref.effect !== "NoExecute") continue;
          if (!tols.some((t) => tolerates(t, ref)))
            out.push(`${e.t}: ${pod} scheduled onto ${target}, which has untolerated taint ${taint}`);
        }
        break;
      }
    }
  }
  return out;
}

/**
 * A PodRunsTwice event names a pod the control plane has given up on: evicted (deletionTimestamp
 * set, so its controller counted a replacement: FilterActivePods) or deleted from the API, while
 * its containers still run on a node nobody can reach. A live, never-evicted pod is not "replaced".
 * (A StatefulSet name is reused; the old copy's incarnation was deleted, so any earlier deletion counts.)
 */
export function runsTwiceViolations(r: SimulationResult): string[] {
  const givenUp = new Set<string>();
  const out: string[] = [];
  for (const e of r.events) {
    if (!e.object.startsWith("Pod/")) continue;
    const pod = nameOf(e.object);
    if (e.type === "PodEvicted" || e.type === "PodDeleted") givenUp.add(pod);
    if (e.type === "PodRunsTwice" && !givenUp.has(pod))
      out.push(`${e.t}: PodRunsTwice for ${pod} (${e.copies} copies), which was neither evicted nor deleted`);
  }
  return out;
}

/**
 * Node taints the node lifecycle and taint eviction controllers keep (SwapNodeControllerTaint,
 * processPodOnNode):
 * never unreachable:NoExecute and not-ready:NoExecute together once an instant is over; no taint
 * added twice; a DeletionByTaintManager eviction only while the pod's node carries a NoExecute taint.
 * SwapNodeControllerTaint (pkg/controller/controller_utils.go) is two API writes, the new taint
 * added (AddOrUpdateTaintOnNode) and then the old one removed (RemoveTaintOffNode), so within the
 * instant of a swap the node briefly carries both: the rule is judged at the end of each instant.
 */
export function taintViolations(r: SimulationResult, initial: Summary): string[] {
  const taints = new Map<string, string[]>();
  for (const n of initial.nodes)
    taints.set(
      n.name,
      n.taints.map((t) => {
        const p = parseTaint(t);
        return `${p.key}:${p.effect}`;
      }),
    );
  const out: string[] = [];
  /** the nodes whose taints changed at the current instant, judged when it is over */
  let changed = new Set<string>();
  let instant = Number.NEGATIVE_INFINITY;
  const judge = () => {
    for (const node of changed) {
      const list = taints.get(node) ?? [];
      if (list.includes(`${UNREACHABLE}:NoExecute`) && list.includes(`${NOT_READY}:NoExecute`))
        out.push(`${instant}: ${node} carries both unreachable and not-ready NoExecute taints`);
    }
    changed = new Set();
  };
  for (const e of r.events) {
    if (e.t !== instant) {
      judge();
      instant = e.t;
    }
    if (e.type === "NodeTainted" || e.type === "NodeTaintRemoved") {
      const node = nameOf(e.object);
      const list = taints.get(node) ?? [];
      if (e.type === "NodeTainted") {
        if (list.includes(e.taint)) out.push(`${e.t}: ${node} tainted twice with ${e.taint}`);
        list.push(e.taint);
      } else {
        const i = list.indexOf(e.taint);
        if (i >= 0) list.splice(i, 1);
      }
      taints.set(node, list);
      changed.add(node);
    }
    if (e.type === "PodEvicted" && e.reason === "DeletionByTaintManager") {
      const node = e.node;
      if (!node || !(taints.get(node) ?? []).some((t) => t.endsWith(":NoExecute")))
        out.push(`${e.t}: taint eviction of ${nameOf(e.object)} on ${node}, which has no NoExecute taint`);
    }
  }
  judge();
  return out;
}

/**
 * The node controller never declares a node Unknown early (tryUpdateNodeHealth, strict `now >
 * probeTimestamp + grace`, and probeTimestamp is never earlier than the last renewal): every
 * NodeNotReady comes more than node-monitor-grace-period after that node's last LeaseRenewed.
 */
export function notReadyTooEarlyViolations(r: SimulationResult): string[] {
  const grace = Number(r.summary.settings.nodeMonitorGracePeriod);
  const lastLease = new Map<string, number>();
  const out: string[] = [];
  for (const e of r.events) {
    if (e.type === "LeaseRenewed") lastLease.set(nameOf(e.object).replace(/^kube-node-lease\//, ""), e.t);
    if (e.type === "NodeNotReady") {
      const node = nameOf(e.object);
      const last = lastLease.get(node);
      if (last === undefined) {
        if (e.t <= grace) out.push(`${e.t}: ${node} NotReady with no renewal missing for ${grace}s yet`);
      } else if (!(e.t - last > grace))
        out.push(`${e.t}: ${node} NotReady only ${e.t - last}s after its last LeaseRenewed at ${last}`);
    }
  }
  return out;
}
