// A Node object of a cluster dump → the node faultline runs: its name, labels as they are (zone and
// region from topology.kubernetes.io/*), taints, spec.unschedulable (a cordoned node), capacity and
// allocatable, and the kubelet's version (status.nodeInfo.kubeletVersion).

import { LABEL_REGION, LABEL_ZONE } from "../../kubernetes/labels.ts";
import type { ResourceList } from "../../kubernetes/objects.ts";
import type { NodeSpec } from "../../scenario/types.ts";
import { fail, isObj, type Obj, obj, optBool, quantity, required } from "../check.ts";
import { labelMap } from "../manifest/meta.ts";
import { nodeName, parseTaints } from "../scenario/nodes.ts";
import type { Path, SourceDoc } from "../source.ts";

/** core/v1 Taint: timeAdded is written by the API server for NoExecute taints. */
const TAINT_FIELDS = ["key", "value", "effect", "timeAdded"] as const;

export interface DumpNode {
  spec: NodeSpec;
  /** `v1.31.4` */
  kubeletVersion?: string;
  /** The Ready condition's status when it is not True (a node that was NotReady when dumped). */
  notReady?: string;
}

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
  const node: NodeSpec = {
    name,
    labels,
    taints: spec.taints == null ? [] : parseTaints(src, [...sp, "taints"], spec.taints, TAINT_FIELDS),
    capacity,
    allocatable,
    labelsAsRegistered: true,
  };
  if (labels[LABEL_ZONE] !== undefined) node.zone = labels[LABEL_ZONE];
  if (labels[LABEL_REGION] !== undefined) node.region = labels[LABEL_REGION];
  if (optBool(src, [...sp, "unschedulable"], spec.unschedulable)) node.unschedulable = true;
  const out: DumpNode = { spec: node };
  const info = status.nodeInfo;
  if (isObj(info) && typeof info.kubeletVersion === "string") out.kubeletVersion = info.kubeletVersion;
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  const ready = conditions.find((c): c is Obj => isObj(c) && c.type === "Ready");
  if (ready && ready.status !== "True") out.notReady = String(ready.status);
  return out;
}

/** status.capacity / allocatable: cpu, memory and pods are what the scheduler's fit reads. */
function resources(src: SourceDoc, path: Path, v: unknown): ResourceList {
  if (v == null)
    fail(src, path, "missing-field", "a Node needs status.capacity (cpu, memory, pods) to place pods on it");
  const o = obj(src, path, v);
  const out: ResourceList = {};
  if (o.cpu != null) out.cpu = quantity(src, [...path, "cpu"], o.cpu);
  if (o.memory != null) out.memory = quantity(src, [...path, "memory"], o.memory);
  if (o.pods != null) out.pods = quantity(src, [...path, "pods"], o.pods);
  return out;
}
