// A scenario's `cluster:`: the output of `kubectl get nodes,pods,deployments,… -A -o yaml|json` (a
// List, in one file or a folder of them) as the cluster's starting state. Nodes become the scenario's
// nodes; the workloads, pods, Services, claims, volumes, classes and budgets become its objects,
// validated as manifests are (status, managedFields, resourceVersion and the rest the API server adds
// are accepted, each status key checked against its type: status-fields.ts); a pod keeps its node,
// name, IP and restart counts. What the controllers make again from the rest (EndpointSlices,
// ControllerRevisions, Leases, Events) is counted, not read, but for a node Lease's renewTime (it dates the dump and a NotReady node's silence); Secrets and ConfigMaps
// are read no further than their kind and name.

import type { PersistentVolume, PersistentVolumeClaim, Pod } from "../../kubernetes/objects.ts";
import { claimsOf } from "../../kubernetes/volumes.ts";
import type { ClusterDumpInfo, NodeSpec, NotReadyAtStart } from "../../scenario/types.ts";
import { fail, isObj, type Obj } from "../check.ts";
import { type Collected, collectObjects } from "../manifest/collect.ts";
import { objectKey } from "../manifest/references.ts";
import { MAX_NODES } from "../scenario/limits.ts";
import { type ReadManifest, readFiles } from "../scenario/manifests.ts";
import { type DocTransform, type Path, parseYamlFile, type SourceDoc } from "../source.ts";
import { parseJsonDump } from "./json.ts";
import { type DumpNode, dumpNode, notePressure, optTime } from "./node.ts";
import { OwnerGraph } from "./owners.ts";
import { checkStatusFields } from "./status-fields.ts";
import {
  checkConditions,
  checkLease,
  checkPodStatus,
  checkStoredMeta,
  checkTimeSpread,
  type DumpTime,
  nodeTimes,
} from "./validate.ts";

/**
 * A dump file may be far larger than a manifest: 30,000 pods with their managedFields are about
 * 150 MB of YAML. V8's longest string is 512 MiB; 256 MiB stays clear of it.
 */
export const MAX_DUMP_BYTES = 256 * 1024 * 1024;

/** Kinds the models make again from the other objects: their copies in the dump are not loaded. */
const REBUILT_KINDS = new Set(["EndpointSlice", "Endpoints", "ControllerRevision", "Lease", "Event"]);

export interface ClusterRead {
  nodes: NodeSpec[];
  info: ClusterDumpInfo;
  /** The node whose kubelet reports the newest version, to point at when that version is not supported. */
  newest?: { src: SourceDoc; path: Path; version: string };
}

/** kubectl writes a List's keys sorted: apiVersion, items, kind, metadata. A file cut short loses the last. */
function refuseCutShortList(doc: SourceDoc, value: unknown): void {
  if (!isObj(value) || !Array.isArray(value.items) || value.kind != null) return;
  fail(
    doc,
    value.items.length > 0 ? ["items", value.items.length - 1] : [],
    "invalid-object",
    'the List ends here without "kind: List": the file looks cut short; dump the cluster again',
  );
}

/**
 * Read the dump named at `path` of the scenario into `out` (objects) and the returned nodes. Longer
 * than a function should be (about 100 lines): one pass over the dump's documents, whose visitor
 * gathers what the checks after it read (times, owners, pods, the Running ones, Leases); each
 * check is a function of its own below.
 */
export function readCluster(
  src: SourceDoc,
  path: Path,
  entry: unknown,
  readManifest: ReadManifest,
  out: Collected,
  transform?: DocTransform,
): ClusterRead {
  const files = readFiles(src, path, entry, readManifest, MAX_DUMP_BYTES);
  const read: ClusterRead = {
    nodes: [],
    info: { files: files.map((f) => f.file), rebuilt: {}, notReady: [] },
  };
  const nodeAt = new Map<string, { src: SourceDoc; path: Path }>();
  const dumped: DumpNode[] = [];
  /** spec.renewTime of each node's Lease (kube-node-lease), epoch seconds. */
  const renewed = new Map<string, number>();
  /** The times that date the dump, where they stand: Lease renewals, Ready heartbeats and transitions. */
  const times: DumpTime[] = [];
  const owners = new OwnerGraph();
  const pods: { index: number; src: SourceDoc; path: Path }[] = [];
  /** The pods the dump has Running: their containers run, their volumes are mounted. */
  const running = new Set<Pod>();
  const visit = (doc: SourceDoc, p: Path, value: unknown): void => {
    if (p.length === 0) refuseCutShortList(doc, value);
    if (isObj(value) && Array.isArray(value.items) && isList(value)) {
      value.items.forEach((item, i) => {
        visit(doc, [...p, "items", i], item);
      });
      return;
    }
    const kind = isObj(value) ? value.kind : undefined;
    if (typeof kind === "string" && isObj(value) && !REBUILT_KINDS.has(kind)) {
      checkStoredMeta(doc, p, value);
      checkStatusFields(doc, p, kind, value);
      owners.add(doc, p, kind, value);
    }
    if (kind === "Node" && isObj(value) && value.apiVersion === "v1") {
      if (read.nodes.length === MAX_NODES) tooManyNodes(doc, p);
      if (isObj(value.status)) checkConditions(doc, [...p, "status", "conditions"], value.status.conditions);
      const node = dumpNode(doc, p, value);
      times.push(...nodeTimes(doc, p, value));
      notePressure(doc, p, value, out.manifests.length, out.notModelled);
      const first = nodeAt.get(node.spec.name);
      if (first) {
        const { line, col } = first.src.locate(first.path);
        fail(
          doc,
          [...p, "metadata", "name"],
          "duplicate-node",
          `duplicate node: Node "${node.spec.name}" is already in the dump at ${first.src.file}:${line}:${col}`,
        );
      }
      nodeAt.set(node.spec.name, { src: doc, path: p });
      read.nodes.push(node.spec);
      dumped.push(node);
      noteNode(read, node, doc, p);
      return;
    }
    if (kind === "Lease" && isObj(value)) {
      checkLease(doc, p, value);
      noteLease(doc, p, value, renewed, times);
    }
    if (typeof kind === "string" && REBUILT_KINDS.has(kind)) {
      read.info.rebuilt[kind] = (read.info.rebuilt[kind] ?? 0) + 1;
      return;
    }
    const before = out.manifests.length;
    collectObjects(doc, p, value, out);
    const added = out.manifests[before];
    // The NamespaceLifecycle admission plugin refuses an object in a namespace that does not exist,
    // so each dumped object's namespace was there, though the dump command does not list Namespaces.
    const namespace = added?.object.metadata.namespace;
    if (namespace) out.present.add(objectKey("Namespace", "", namespace));
    if (added?.kind === "Pod" && isObj(value)) {
      checkPodStatus(doc, p, value);
      // PodSpec.nodeName is `json:"nodeName,omitempty"` (core/v1): "" is no node, a pod not yet scheduled.
      if ((added.object as Pod).spec.nodeName === "") delete (added.object as Pod).spec.nodeName;
      observedStatus(added.object as Pod, value);
      if (isObj(value.status) && value.status.phase === "Running") running.add(added.object as Pod);
      pods.push({ index: before, src: doc, path: p });
    }
    if ((added?.kind === "PersistentVolumeClaim" || added?.kind === "PersistentVolume") && isObj(value))
      observedPhase(added.object as PersistentVolumeClaim | PersistentVolume, value);
  };
  for (const f of files) {
    const docs = [parseJsonDump(f.text, f.file) ?? parseYamlFile(f.text, f.file, MAX_DUMP_BYTES)].flat();
    for (const parsed of docs) {
      const doc = transform ? transform(parsed, "manifest") : parsed;
      visit(doc, [], doc.value);
    }
  }
  owners.check();
  checkTimeSpread(times);
  dropPodsOnMissingNodes(out, pods, nodeAt);
  noteVolumesInUse(read.nodes, out, running);
  startNotReady(read, dumped, renewed);
  return read;
}

/**
 * Each Node's status.volumesInUse as its kubelet has it: the claims its running pods mount (the
 * volume manager's GetVolumesInUse, put in the status by the VolumesInUse setter,
 * pkg/kubelet/nodestatus/setters.go). A dump records them as the CSI driver's unique volume names,
 * which the model does not keep (it names a volume by its claim): the running pods say the same.
 * Registered with them, the kubelet that starts those pods finds nothing changed and posts nothing
 * a real kubelet would not.
 */
function noteVolumesInUse(nodes: NodeSpec[], out: Collected, running: ReadonlySet<Pod>): void {
  const claims = new Set<string>();
  for (const m of out.manifests)
    if (m.object.kind === "PersistentVolumeClaim")
      claims.add(`${m.object.metadata.namespace}/${m.object.metadata.name}`);
  const byNode = new Map<string, Set<string>>();
  for (const m of out.manifests) {
    if (m.object.kind !== "Pod") continue;
    const pod = m.object as Pod;
    if (!pod.spec.nodeName || !running.has(pod) || pod.metadata.deletionTimestamp !== undefined) continue;
    for (const c of claimsOf(pod)) {
      if (!claims.has(c)) continue;
      const set = byNode.get(pod.spec.nodeName) ?? new Set<string>();
      set.add(c);
      byNode.set(pod.spec.nodeName, set);
    }
  }
  for (const n of nodes) {
    const inUse = byNode.get(n.name);
    if (inUse) n.volumesInUse = [...inUse].sort();
  }
}

/** A node's Lease (kube-node-lease/<node>): when its kubelet last renewed it. */
function noteLease(
  src: SourceDoc,
  path: Path,
  o: Obj,
  renewed: Map<string, number>,
  times: DumpTime[],
): void {
  const meta = isObj(o.metadata) ? o.metadata : {};
  const spec = isObj(o.spec) ? o.spec : {};
  const at = [...path, "spec", "renewTime"];
  const t = optTime(src, at, spec.renewTime);
  if (meta.namespace !== "kube-node-lease" || typeof meta.name !== "string") return;
  if (t === undefined) return;
  renewed.set(meta.name, t);
  times.push({ time: t, src, path: at });
}

/** A dump holds at most as many nodes as a scenario: Kubernetes' documented limit. */
function tooManyNodes(src: SourceDoc, path: Path): never {
  fail(
    src,
    path,
    "too-large",
    `more than ${MAX_NODES.toLocaleString("en-US")} nodes: Kubernetes' documented limit is ${MAX_NODES.toLocaleString("en-US")} nodes per cluster`,
  );
}

/**
 * The dump's time, t=0: the newest of what its nodes say had happened by then (their Lease renewals,
 * every 10 s from a running kubelet; else their Ready heartbeats, posted at least every
 * nodeStatusReportFrequency, 5 min, and a NotReady node's transition and taints). The NotReady
 * nodes keep their condition, taints and Lease with times counted from it.
 */
function startNotReady(read: ClusterRead, nodes: DumpNode[], renewed: ReadonlyMap<string, number>): void {
  const newest = (ts: number[]) => ts.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
  const leases = newest([...renewed.values()]);
  const status = newest(
    nodes.flatMap((n) => [
      ...(n.heartbeat === undefined ? [] : [n.heartbeat]),
      ...(n.notReady?.lastTransitionTime === undefined ? [] : [n.notReady.lastTransitionTime]),
      ...(n.notReady?.taints.flatMap((t) => (t.timeAdded === undefined ? [] : [t.timeAdded])) ?? []),
    ]),
  );
  const taken = Math.max(leases, status);
  // A dump with no time at all (no Lease, no heartbeat) still starts its NotReady nodes NotReady.
  const dated = Number.isFinite(taken);
  const from = leases >= status ? "node Leases" : "node status";
  if (dated)
    read.info.takenAt = { time: `${new Date(taken * 1000).toISOString().replace(/\.000Z$/, "Z")}`, from };
  const at = (t: number | undefined) => (t === undefined || !dated ? undefined : Math.min(0, t - taken));
  for (const n of nodes) {
    const d = n.notReady;
    if (!d) continue;
    const { taints, status, reason, message } = d;
    const ready: NotReadyAtStart["ready"] = { status };
    if (reason !== undefined) ready.reason = reason;
    if (message !== undefined) ready.message = message;
    const heartbeat = at(d.lastHeartbeatTime);
    if (heartbeat !== undefined) ready.lastHeartbeatTime = heartbeat;
    const transition = at(d.lastTransitionTime);
    if (transition !== undefined) ready.lastTransitionTime = transition;
    const lease = at(renewed.get(n.spec.name));
    n.spec.notReady = {
      ready,
      machine: status === "Unknown" ? "powered-off" : "runtime-down",
      taints: taints.map((t) => (t.timeAdded === undefined ? t : { ...t, timeAdded: at(t.timeAdded)! })),
      ...(lease !== undefined ? { leaseRenewTime: lease } : {}),
    };
  }
}

/** `List` (kubectl's), a built-in kind's list (`PodList`), or any other `…List` (a CRD's): read item by item. */
function isList(o: Obj): boolean {
  return typeof o.kind === "string" && o.kind.endsWith("List");
}

function noteNode(read: ClusterRead, node: DumpNode, src: SourceDoc, path: Path): void {
  if (node.notReady) read.info.notReady.push(node.spec.name);
  const v = node.kubeletVersion;
  if (v === undefined) return;
  const newest = read.newest;
  if (!newest || compareVersions(v, newest.version) > 0) {
    read.newest = { src, path: [...path, "status", "nodeInfo", "kubeletVersion"], version: v };
    read.info.kubeletVersion = v;
  }
}

function compareVersions(a: string, b: string): number {
  const parts = (v: string) => (/(\d+)\.(\d+)(?:\.(\d+))?/.exec(v) ?? []).slice(1).map((x) => Number(x ?? 0));
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/**
 * What the dump says of a pod that the run starts from: its IP (the kubelet keeps it), each
 * container's restartCount (it climbs from there), and the scheduler's PodScheduled condition (for
 * a pod not yet bound, with its reason and message).
 */
function observedStatus(pod: Pod, o: Obj): void {
  const status = isObj(o.status) ? o.status : {};
  if (typeof status.podIP === "string" && status.podIP !== "") pod.status.podIP = status.podIP;
  const containers = Array.isArray(status.containerStatuses) ? status.containerStatuses : [];
  for (const c of containers) {
    if (!isObj(c) || typeof c.name !== "string") continue;
    const restartCount = typeof c.restartCount === "number" ? c.restartCount : 0;
    pod.status.containerStatuses.push({
      name: c.name,
      ready: false,
      started: false,
      restartCount,
      state: "waiting",
    });
  }
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  const scheduled = conditions.find((c): c is Obj => isObj(c) && c.type === "PodScheduled");
  if (scheduled && (scheduled.status === "True" || scheduled.status === "False")) {
    pod.status.conditions.push({
      type: "PodScheduled",
      status: scheduled.status,
      ...(typeof scheduled.reason === "string" ? { reason: scheduled.reason } : {}),
      ...(typeof scheduled.message === "string" ? { message: scheduled.message } : {}),
    });
  }
}

/** A claim's or volume's phase as the PersistentVolume controller left it (Bound, Available…). */
function observedPhase(o: PersistentVolumeClaim | PersistentVolume, value: Obj): void {
  const phase = isObj(value.status) ? value.status.phase : undefined;
  if (o.kind === "PersistentVolumeClaim" && (phase === "Pending" || phase === "Bound" || phase === "Lost"))
    o.status = { phase };
  if (
    o.kind === "PersistentVolume" &&
    (phase === "Pending" ||
      phase === "Available" ||
      phase === "Bound" ||
      phase === "Released" ||
      phase === "Failed")
  )
    o.status = { phase };
}

/**
 * A pod bound to a node the dump does not hold: PodGC would delete it (gcOrphaned, after its
 * quarantine), so it is left out and listed as ignored with the reason, rather than run nowhere.
 */
function dropPodsOnMissingNodes(
  out: Collected,
  pods: { index: number; src: SourceDoc; path: Path }[],
  nodes: ReadonlyMap<string, unknown>,
): void {
  const drop = new Set<number>();
  for (const { index } of pods) {
    const m = out.manifests[index]!;
    const node = (m.object as Pod).spec.nodeName;
    if (node === undefined || nodes.has(node)) continue;
    drop.add(index);
    out.ignored.push({
      apiVersion: "v1",
      kind: "Pod",
      name: `${m.object.metadata.namespace}/${m.object.metadata.name}`,
      pos: m.pos,
      reason: `on node ${node}, which is not in the dump`,
    });
    out.seen.delete(`Pod/${m.object.metadata.namespace}/${m.object.metadata.name}`);
  }
  if (drop.size === 0) return;
  out.manifests = out.manifests.filter((_, i) => !drop.has(i));
  out.where = out.where.filter((_, i) => !drop.has(i));
}
