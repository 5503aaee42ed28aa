// The scenario's `nodes`: a list, or {count, zones} for generated worker-1…; the labels, capacity
// and taints each node registers with.

import { DEFAULT_NODE_CAPACITY } from "../../kubernetes/defaults.ts";
import { LABEL_HOSTNAME, LABEL_REGION, LABEL_ZONE } from "../../kubernetes/labels.ts";
import type { Taint } from "../../kubernetes/objects.ts";
import { isScalarResourceName } from "../../kubernetes/pod-resources.ts";
import type { NodeSpec } from "../../scenario/types.ts";
import {
  bool,
  fail,
  int,
  isObj,
  knownFields,
  list,
  obj,
  oneOf,
  optStr,
  quantity,
  show,
  str,
} from "../check.ts";
import { check, dnsSubdomain, labelMap } from "../manifest/meta.ts";
import { isLabelKey, isLabelValue } from "../manifest/names.ts";
import { formatPath, type Path, type SourceDoc } from "../source.ts";
import { MAX_NODES } from "./limits.ts";

export const NODE_FIELDS = [
  "name",
  "zone",
  "region",
  "labels",
  "capacity",
  "taints",
  "unschedulable",
] as const;
export const NODE_GROUP_FIELDS = ["count", "zones", "region", "labels", "capacity", "taints"] as const;
const CAPACITY_FIELDS = ["cpu", "memory", "pods"] as const;
const TAINT_FIELDS = ["key", "value", "effect"] as const;

export function parseNodes(src: SourceDoc, v: unknown): NodeSpec[] {
  const path = ["nodes"];
  if (isObj(v)) {
    knownFields(src, path, v, NODE_GROUP_FIELDS);
    if (v.count == null) fail(src, [...path, "count"], "missing-field", 'missing required field "count"');
    const count = int(src, [...path, "count"], v.count, { min: 1 });
    if (count > MAX_NODES) {
      fail(
        src,
        [...path, "count"],
        "too-large",
        `${count} nodes is more than Kubernetes' documented limit of ${MAX_NODES.toLocaleString("en-US")} nodes per cluster`,
      );
    }
    const zones =
      v.zones == null
        ? []
        : list(src, [...path, "zones"], v.zones).map((z, i) => topologyValue(src, [...path, "zones", i], z));
    const region = v.region == null ? undefined : topologyValue(src, [...path, "region"], v.region);
    const labels = v.labels == null ? {} : labelMap(src, [...path, "labels"], v.labels);
    zones.forEach((zone, i) => {
      agree(src, [...path, "labels"], labels, LABEL_ZONE, zone, [...path, "zones", i]);
    });
    if (region !== undefined)
      agree(src, [...path, "labels"], labels, LABEL_REGION, region, [...path, "region"]);
    const capacity =
      v.capacity == null
        ? { ...DEFAULT_NODE_CAPACITY }
        : parseCapacity(src, [...path, "capacity"], v.capacity);
    const taints = v.taints == null ? [] : parseTaints(src, [...path, "taints"], v.taints);
    const out: NodeSpec[] = [];
    for (let i = 0; i < count; i++) {
      const name = `worker-${i + 1}`;
      const zone = zones.length > 0 ? zones[i % zones.length] : undefined;
      out.push(makeNode(name, zone, region, labels, capacity, taints));
    }
    return out;
  }
  const items = list(src, path, v, "a list of nodes or {count: N, zones: [...]}");
  if (items.length === 0) fail(src, path, "invalid-value", "a scenario needs at least one node");
  if (items.length > MAX_NODES) {
    fail(
      src,
      [...path, MAX_NODES],
      "too-large",
      `${items.length} nodes is more than Kubernetes' documented limit of ${MAX_NODES.toLocaleString("en-US")} nodes per cluster`,
    );
  }
  const seen = new Map<string, number>();
  return items.map((item, i) => {
    const p = [...path, i];
    const o = obj(src, p, item, "a node (a mapping with name, zone, capacity…)");
    knownFields(src, p, o, NODE_FIELDS, "a node");
    if (o.name == null) fail(src, [...p, "name"], "missing-field", 'missing required field "name" in a node');
    const name = nodeName(src, [...p, "name"], o.name);
    const first = seen.get(name);
    if (first !== undefined) {
      const { line } = src.locate([...path, first, "name"]);
      fail(
        src,
        [...p, "name"],
        "duplicate-node",
        `duplicate node name "${name}" (first defined as nodes[${first}] on line ${line})`,
      );
    }
    seen.set(name, i);
    const labels = o.labels == null ? {} : labelMap(src, [...p, "labels"], o.labels);
    const zone = o.zone == null ? labels[LABEL_ZONE] : topologyValue(src, [...p, "zone"], o.zone);
    const region = o.region == null ? labels[LABEL_REGION] : topologyValue(src, [...p, "region"], o.region);
    if (o.zone != null) agree(src, [...p, "labels"], labels, LABEL_ZONE, zone!, [...p, "zone"]);
    if (o.region != null) agree(src, [...p, "labels"], labels, LABEL_REGION, region!, [...p, "region"]);
    const capacity =
      o.capacity == null ? { ...DEFAULT_NODE_CAPACITY } : parseCapacity(src, [...p, "capacity"], o.capacity);
    const taints = o.taints == null ? [] : parseTaints(src, [...p, "taints"], o.taints);
    const node = makeNode(name, zone, region, labels, capacity, taints);
    // spec.unschedulable, as `kubectl cordon` sets it, from the start.
    if (o.unschedulable != null && bool(src, [...p, "unschedulable"], o.unschedulable))
      node.unschedulable = true;
    return node;
  });
}

function makeNode(
  name: string,
  zone: string | undefined,
  region: string | undefined,
  labels: Record<string, string>,
  capacity: NodeSpec["capacity"],
  taints: Taint[],
): NodeSpec {
  // The well-known labels the kubelet (hostname) and the cloud provider (zone, region) set; the
  // scenario's own labels may set any of them (a hostname other than the node's name, as
  // --hostname-override gives), and `zone`/`region` must agree with them (checked by the caller).
  const all: Record<string, string> = { [LABEL_HOSTNAME]: name };
  if (zone !== undefined) all[LABEL_ZONE] = zone;
  if (region !== undefined) all[LABEL_REGION] = region;
  Object.assign(all, labels);
  const node: NodeSpec = {
    name,
    labels: all,
    taints: taints.map((t) => ({ ...t })),
    capacity: { ...capacity },
  };
  if (zone !== undefined) node.zone = zone;
  if (region !== undefined) node.region = region;
  return node;
}

export function nodeName(src: SourceDoc, path: Path, v: unknown): string {
  return dnsSubdomain(src, path, v, "node name");
}

/** A zone or region: it becomes a label value (topology.kubernetes.io/zone, /region). */
function topologyValue(src: SourceDoc, path: Path, v: unknown): string {
  const s = typeof v === "number" ? String(v) : str(src, path, v);
  check(src, path, s, isLabelValue, "label value");
  return s;
}

/** `zone: a` and a label topology.kubernetes.io/zone: b say two things: refuse rather than pick one. */
function agree(
  src: SourceDoc,
  labelsPath: Path,
  labels: Record<string, string>,
  key: string,
  value: string,
  at: Path,
): void {
  const label = labels[key];
  if (label !== undefined && label !== value)
    fail(
      src,
      [...labelsPath, key],
      "invalid-value",
      `${show(label)} disagrees with ${formatPath(at)}: ${show(value)}; set one of them`,
    );
}

/**
 * A scenario node's capacity: cpu, memory and pods (defaults 4, 16Gi, 110), and any resource the
 * scheduler counts by name (kubernetes/pod-resources.ts isScalarResourceName): ephemeral-storage,
 * hugepages-<size>, an extended resource such as nvidia.com/gpu. A node that lists none of the
 * latter has none, ephemeral-storage aside (scheduler/plugins/node-resources-fit.ts).
 */
function parseCapacity(src: SourceDoc, path: Path, v: unknown): NodeSpec["capacity"] {
  const o = obj(src, path, v);
  const named = Object.keys(o).filter((k) => !(CAPACITY_FIELDS as readonly string[]).includes(k));
  const scalar: Record<string, number> = {};
  for (const k of named) {
    if (!isScalarResourceName(k)) continue;
    const q = quantity(src, [...path, k], o[k]);
    if (q < 0) fail(src, [...path, k], "invalid-quantity", `${k} must be 0 or more`);
    scalar[k] = q;
  }
  knownFields(
    src,
    path,
    Object.fromEntries(Object.entries(o).filter(([k]) => !isScalarResourceName(k))),
    CAPACITY_FIELDS,
    "node capacity",
  );
  const cpu = o.cpu == null ? DEFAULT_NODE_CAPACITY.cpu : quantity(src, [...path, "cpu"], o.cpu);
  const memory =
    o.memory == null ? DEFAULT_NODE_CAPACITY.memory : quantity(src, [...path, "memory"], o.memory);
  const pods = o.pods == null ? DEFAULT_NODE_CAPACITY.pods : int(src, [...path, "pods"], o.pods, { min: 1 });
  if (cpu <= 0) fail(src, [...path, "cpu"], "invalid-quantity", "a node needs more than 0 cpu");
  if (memory <= 0) fail(src, [...path, "memory"], "invalid-quantity", "a node needs more than 0 memory");
  return Object.keys(scalar).length > 0 ? { cpu, memory, pods, scalar } : { cpu, memory, pods };
}

/** Node taints; `fields`: a Node object's taints also carry timeAdded (set by the API server). */
export function parseTaints(
  src: SourceDoc,
  path: Path,
  v: unknown,
  fields: readonly string[] = TAINT_FIELDS,
): Taint[] {
  const seen = new Map<string, number>();
  return list(src, path, v).map((t, i) => {
    const p = [...path, i];
    const o = obj(src, p, t);
    knownFields(src, p, o, fields, "Taint");
    if (o.key == null) fail(src, [...p, "key"], "missing-field", 'missing required field "key" in Taint');
    if (o.effect == null)
      fail(src, [...p, "effect"], "missing-field", 'missing required field "effect" in Taint');
    // validateNodeTaints (pkg/apis/core/validation): a qualified-name key, a label value, unique by
    // key and effect.
    const key = str(src, [...p, "key"], o.key);
    check(src, [...p, "key"], key, isLabelKey, "taint key");
    const taint: Taint = {
      key,
      effect: oneOf(src, [...p, "effect"], o.effect, [
        "NoSchedule",
        "PreferNoSchedule",
        "NoExecute",
      ] as const),
    };
    const value = optStr(src, [...p, "value"], o.value);
    if (value !== undefined) {
      check(src, [...p, "value"], value, isLabelValue, "taint value");
      taint.value = value;
    }
    const first = seen.get(`${taint.key}\x00${taint.effect}`);
    if (first !== undefined)
      fail(
        src,
        p,
        "invalid-value",
        `taints must be unique by key and effect pair (${formatPath([...path, first])} has the same)`,
      );
    seen.set(`${taint.key}\x00${taint.effect}`, i);
    return taint;
  });
}
