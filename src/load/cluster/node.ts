// A Node object of a cluster dump → the node faultline runs: its name, labels as they are (zone and
// region from topology.kubernetes.io/*), taints, spec.unschedulable (a cordoned node), capacity and
// allocatable, and the kubelet's version (status.nodeInfo.kubeletVersion). A node whose Ready
// condition is not True keeps that condition and the node lifecycle controller's taints
// (unreachable, not-ready, with timeAdded) aside, with their times: the run starts it NotReady.

import { type Ipv4Cidr, parseIpv4Cidr } from "../../kubernetes/cidr.ts";
import { LABEL_REGION, LABEL_ZONE } from "../../kubernetes/labels.ts";
import type { ResourceList, Taint } from "../../kubernetes/objects.ts";
import { isScalarResourceName } from "../../kubernetes/pod-resources.ts";
import { TAINT_NOT_READY, TAINT_UNREACHABLE } from "../../kubernetes/taints.ts";
import type { NodeSpec } from "../../scenario/types.ts";
import { fail, isObj, list, type Obj, obj, optBool, quantity, required, str } from "../check.ts";
import { labelMap } from "../manifest/meta.ts";
import type { NotModelled } from "../manifest/not-modelled.ts";
import { nodeName, parseTaints } from "../scenario/nodes.ts";
import type { Path, SourceDoc } from "../source.ts";
import { parseRfc3339 } from "../time.ts";
import { unusablePodCidr } from "./pod-cidr.ts";

/** core/v1 Taint: timeAdded is written by the API server for NoExecute taints. */
const TAINT_FIELDS = ["key", "value", "effect", "timeAdded"] as const;

export interface DumpNode {
  spec: NodeSpec;
  /** `v1.31.4` */
  kubeletVersion?: string;
  /** The Ready condition's lastHeartbeatTime (seconds since the Unix epoch), to date the dump by. */
  heartbeat?: number;
  /** A node that was NotReady when dumped: its Ready condition and its controller taints, times in epoch seconds. */
  notReady?: {
    status: "False" | "Unknown";
    reason?: string;
    message?: string;
    lastHeartbeatTime?: number;
    lastTransitionTime?: number;
    taints: Taint[];
  };
}

/** The taints the node lifecycle controller sets from the Ready condition (NoExecute and NoSchedule). */
const CONDITION_TAINTS = [TAINT_NOT_READY, TAINT_UNREACHABLE];

export function dumpNode(src: SourceDoc, path: Path, o: Obj): DumpNode {
  const mp = [...path, "metadata"];
  const metadata = obj(src, mp, required(src, path, o, "metadata", "Node"));
  const name = nodeName(src, [...mp, "name"], required(src, mp, metadata, "name", "ObjectMeta"));
  const labels = metadata.labels == null ? {} : labelMap(src, [...mp, "labels"], metadata.labels);
  const sp = [...path, "spec"];
  const spec = o.spec == null ? {} : obj(src, sp, o.spec);
  const status = o.status == null ? {} : obj(src, [...path, "status"], o.status);
  const capacity = resources(src, [...path, "status", "capacity"], status.capacity);
  const allocatable = resources(
    src,
    [...path, "status", "allocatable"],
    status.allocatable ?? status.capacity,
  );
  const taints = spec.taints == null ? [] : parseTaints(src, [...sp, "taints"], spec.taints, TAINT_FIELDS);
  const node: NodeSpec = {
    name,
    labels,
    taints,
    capacity,
    allocatable,
    labelsAsRegistered: true,
  };
  if (labels[LABEL_ZONE] !== undefined) node.zone = labels[LABEL_ZONE];
  if (labels[LABEL_REGION] !== undefined) node.region = labels[LABEL_REGION];
  if (optBool(src, [...sp, "unschedulable"], spec.unschedulable)) node.unschedulable = true;
  if (typeof spec.providerID === "string" && spec.providerID !== "") node.providerID = spec.providerID;
  const podCIDR = podCidrOf(src, sp, spec);
  if (podCIDR) node.podCIDR = podCIDR;
  const out: DumpNode = { spec: node };
  const info = status.nodeInfo;
  if (isObj(info) && typeof info.kubeletVersion === "string") out.kubeletVersion = info.kubeletVersion;
  readAddresses(src, [...path, "status"], status, node);
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  const at = conditions.findIndex((c) => isObj(c) && c.type === "Ready");
  const cp = [...path, "status", "conditions", at];
  const ready = at < 0 ? neverPosted(src, mp, metadata) : (conditions[at] as Obj);
  const heartbeat = at < 0 ? undefined : optTime(src, [...cp, "lastHeartbeatTime"], ready.lastHeartbeatTime);
  if (heartbeat !== undefined) out.heartbeat = heartbeat;
  if (ready.status !== "False" && ready.status !== "Unknown") return out;
  // The controller's condition taints are set again at t=0, with their timeAdded (run/not-ready-at-start.ts).
  const raw = Array.isArray(spec.taints) ? spec.taints : [];
  const held: Taint[] = [];
  node.taints = taints.filter((t, i) => {
    if (!CONDITION_TAINTS.includes(t.key)) return true;
    const r = raw[i] as Obj;
    const added = optTime(src, [...sp, "taints", i, "timeAdded"], r.timeAdded);
    held.push(added === undefined ? t : { ...t, timeAdded: added });
    return false;
  });
  const lastTransitionTime =
    at < 0 ? undefined : optTime(src, [...cp, "lastTransitionTime"], ready.lastTransitionTime);
  out.notReady = {
    status: ready.status,
    ...(typeof ready.reason === "string" ? { reason: ready.reason } : {}),
    ...(typeof ready.message === "string" ? { message: ready.message } : {}),
    ...(heartbeat !== undefined ? { lastHeartbeatTime: heartbeat } : {}),
    ...(at < 0 && typeof ready.lastHeartbeatTime === "number"
      ? { lastHeartbeatTime: ready.lastHeartbeatTime }
      : {}),
    ...(lastTransitionTime !== undefined ? { lastTransitionTime } : {}),
    taints: held,
  };
  return out;
}

/**
 * status.addresses and status.nodeInfo as the dump has them (faultline serve shows them; no model
 * reads them): each address a {type, address} of strings, nodeInfo's string fields.
 */
function readAddresses(src: SourceDoc, path: Path, status: Obj, node: NodeSpec): void {
  if (Array.isArray(status.addresses)) {
    node.addresses = status.addresses.map((a, i) => {
      const ap = [...path, "addresses", i];
      const o = obj(src, ap, a);
      for (const f of ["type", "address"])
        if (typeof o[f] !== "string") fail(src, [...ap, f], "invalid-value", `${f} must be a string`);
      return { type: o.type as string, address: o.address as string };
    });
  }
  if (isObj(status.nodeInfo)) {
    const info: Record<string, string> = {};
    for (const [k, v] of Object.entries(status.nodeInfo)) if (typeof v === "string") info[k] = v;
    node.nodeInfo = info;
  }
}

/**
 * A node with no Ready condition: its kubelet never posted a status. The node lifecycle controller
 * (node_lifecycle_controller.go, tryUpdateNodeHealth) then takes its Ready as Unknown, reason
 * NodeStatusNeverUpdated, "Kubelet never posted node status.", heartbeat at the node's
 * creationTimestamp; the run starts it so (its lastHeartbeatTime, when known, in epoch seconds).
 */
function neverPosted(src: SourceDoc, mp: Path, metadata: Obj): Obj {
  const created = optTime(src, [...mp, "creationTimestamp"], metadata.creationTimestamp);
  return {
    status: "Unknown",
    reason: "NodeStatusNeverUpdated",
    message: "Kubelet never posted node status.",
    ...(created !== undefined ? { lastHeartbeatTime: created } : {}),
  };
}

/** metav1.Time / MicroTime (RFC 3339) → seconds since the Unix epoch; absent (or null) → undefined. */
export function optTime(src: SourceDoc, path: Path, v: unknown): number | undefined {
  if (v == null) return undefined;
  const ms = typeof v === "string" ? parseRfc3339(v) : Number.NaN;
  if (Number.isNaN(ms))
    fail(
      src,
      path,
      "invalid-value",
      `${JSON.stringify(v)} is not a time in RFC 3339 form (e.g. "2025-01-01T00:00:00Z")`,
    );
  return ms / 1000;
}

/**
 * The node's IPv4 pod CIDR: spec.podCIDRs (one per IP family, dual-stack) or spec.podCIDR (its first),
 * as the range allocator set them. Absent, or IPv6 only: new pods get addresses from the plan of
 * kubelet/pod-host.ts podCidr (an address's family changes nothing the models do).
 */
function podCidrOf(src: SourceDoc, path: Path, spec: Obj): Ipv4Cidr | undefined {
  const [field, values] =
    spec.podCIDRs == null
      ? (["podCIDR", spec.podCIDR == null ? [] : [spec.podCIDR]] as const)
      : (["podCIDRs", list(src, [...path, "podCIDRs"], spec.podCIDRs)] as const);
  for (const [i, v] of values.entries()) {
    const at = field === "podCIDRs" ? [...path, field, i] : [...path, field];
    const s = str(src, at, v);
    const unusable = unusablePodCidr(s);
    if (unusable) fail(src, at, "invalid-value", unusable);
    const cidr = parseIpv4Cidr(s);
    if (cidr) return cidr;
    if (!s.includes(":"))
      fail(src, at, "invalid-value", `${JSON.stringify(s)} is not a CIDR (e.g. "10.244.1.0/24")`);
  }
  return undefined;
}

/**
 * status.capacity / allocatable: cpu, memory and pods, and every other resource the node lists by
 * name (ephemeral-storage, hugepages-1Gi, hugepages-2Mi, nvidia.com/gpu…), which NodeResourcesFit
 * compares the pods' requests with (kubernetes/pod-resources.ts).
 */
function resources(src: SourceDoc, path: Path, v: unknown): ResourceList {
  if (v == null)
    fail(src, path, "missing-field", "a Node needs status.capacity (cpu, memory, pods) to place pods on it");
  const o = obj(src, path, v);
  const out: ResourceList = {};
  for (const [key, value] of Object.entries(o)) {
    if (value == null) continue;
    const n = quantity(src, [...path, key], value);
    if (key === "cpu" || key === "memory" || key === "pods") out[key] = n;
    else if (isScalarResourceName(key)) out.scalar = { ...out.scalar, [key]: n };
  }
  return out;
}

/**
 * The node-pressure conditions the kubelet's eviction manager sets (pkg/kubelet/eviction,
 * MemoryPressure, DiskPressure, PIDPressure): faultline models neither eviction under pressure nor
 * these conditions (nor, from them, the node lifecycle controller's node.kubernetes.io/*-pressure
 * taints), so a dumped node under pressure is listed as not modelled, never passed over in silence.
 */
const PRESSURE = ["MemoryPressure", "DiskPressure", "PIDPressure"];

export function notePressure(src: SourceDoc, path: Path, o: Obj, object: number, out: NotModelled): void {
  const status = isObj(o.status) ? o.status : undefined;
  const conditions = status && Array.isArray(status.conditions) ? status.conditions : [];
  conditions.forEach((c, i) => {
    if (!isObj(c) || c.status !== "True" || typeof c.type !== "string" || !PRESSURE.includes(c.type)) return;
    const name = `NodeStatus.conditions[${c.type}=True]`;
    if (out.has(name)) return;
    const { line } = src.locate([...path, "status", "conditions", i], "key");
    out.set(name, { where: `${src.file}:${line}`, object, line });
  });
}
