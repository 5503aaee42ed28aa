// The pure core of load/: scenario YAML text (+ a reader for the manifests it names) → a validated
// Scenario, or one LoadError. No node: imports; the HTML report runs this in a browser.

import { KUBELET_FEATURE_GATES } from "../kubernetes/defaults.ts";
import type { KubeObject, PodSpec, Taint } from "../kubernetes/objects.ts";
import {
  type Behaviour,
  type ControlPlaneOverrides,
  type FaultAction,
  type KubeletFeatureGates,
  type KubeletOverrides,
  type KubernetesVersion,
  NEWEST_VERSION,
  NODE_ACTIONS,
  type NodeSpec,
  POD_ACTIONS,
  type Scenario,
  SUPPORTED_VERSIONS,
  type TimelineStep,
} from "../scenario/types.ts";
import {
  bool,
  closest,
  duration,
  fail,
  int,
  isObj,
  knownFields,
  list,
  num,
  obj,
  oneOf,
  optStr,
  quantity,
  type Range,
  show,
  str,
  stringMap,
} from "./check.ts";
import { LoadError, type LoadErrorCode } from "./errors.ts";
import { type Collected, collectObjects, dnsSubdomain, emptyCollected } from "./manifest.ts";
import { type Path, parseYamlFile, type SourceDoc } from "./source.ts";
import { resolvePodTarget, workloadsOf } from "./targets.ts";
import { parseNetwork, parseProfile, parseTraffic } from "./traffic.ts";

/** A manifest file as read: its text, and its name as it should appear in messages. */
export interface ManifestFile {
  text: string;
  file: string;
}

/**
 * Reads a `manifests:` entry (a path relative to the scenario file): one file, or every
 * .yaml/.yml/.json file of a folder sorted by name. `undefined` when nothing exists there; throws
 * ManifestReadError when it exists but cannot be used (too large, not a file).
 */
export type ReadManifest = (path: string) => ManifestFile[] | undefined;

export class ManifestReadError extends Error {
  readonly code: LoadErrorCode;
  constructor(code: LoadErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

// Kubernetes' documented scalability limits ("Considerations for large clusters"): no more than
// 5,000 nodes, 150,000 total pods, 300,000 total containers. A scenario beyond them is a mistake.
export const MAX_NODES = 5_000;
export const MAX_PODS = 150_000;
export const MAX_CONTAINERS = 300_000;
export const MAX_DURATION_SECONDS = 7 * 24 * 3600;

export const SCENARIO_FIELDS = [
  "name",
  "kubernetesVersion",
  "seed",
  "duration",
  "start",
  "nodes",
  "manifests",
  "controlPlane",
  "kubelet",
  "behaviour",
  "timeline",
  "traffic",
  "network",
  "profile",
] as const;

/** Fields kept raw in `extra` for later stages (none at the moment). */
const EXTRA_FIELDS = [] as const;

export const NODE_FIELDS = ["name", "zone", "region", "labels", "capacity", "taints"] as const;
export const NODE_GROUP_FIELDS = ["count", "zones", "region", "labels", "capacity", "taints"] as const;
const CAPACITY_FIELDS = ["cpu", "memory", "pods"] as const;
const TAINT_FIELDS = ["key", "value", "effect"] as const;
const STEP_FIELDS = ["at", "do", "node", "pod"] as const;

const DEFAULT_CAPACITY = { cpu: 4, memory: 16 * 2 ** 30, pods: 110 };

type FieldKind = "duration" | "number" | "fraction" | "int" | "boolean";

/** kube-controller-manager flags: durations for periods, numbers for rates and thresholds. */
const CONTROL_PLANE_FIELDS: Record<keyof ControlPlaneOverrides, FieldKind> = {
  nodeMonitorGracePeriod: "duration",
  nodeMonitorPeriod: "duration",
  nodeStartupGracePeriod: "duration",
  nodeEvictionRate: "number",
  secondaryNodeEvictionRate: "number",
  largeClusterSizeThreshold: "int",
  unhealthyZoneThreshold: "fraction",
  defaultNotReadyTolerationSeconds: "int",
  defaultUnreachableTolerationSeconds: "int",
  disableForceDetachOnTimeout: "boolean",
  terminatedPodGcThreshold: "int",
};

const KUBELET_FIELDS: Record<
  Exclude<keyof KubeletOverrides, "probeSchedule" | "crashLoopBackOff" | "featureGates">,
  FieldKind
> = {
  nodeLeaseDurationSeconds: "int",
  nodeStatusUpdateFrequency: "duration",
  nodeStatusReportFrequency: "duration",
};

const BEHAVIOUR_FIELDS: Record<keyof Behaviour, FieldKind> = {
  bootSeconds: "duration",
  readyAfterSeconds: "duration",
  exitCode: "int",
  shutdownSeconds: "duration",
  capacityRps: "number",
  serviceTimeMs: "number",
  healthSharesRequestQueue: "boolean",
};

const FAULT_ACTIONS: readonly FaultAction[] = [...NODE_ACTIONS, ...POD_ACTIONS];

export function parseScenario(text: string, file: string, readManifest: ReadManifest): Scenario {
  const docs = parseYamlFile(text, file);
  const src = docs[0];
  if (!src) {
    throw new LoadError(
      "missing-field",
      file,
      1,
      1,
      "",
      "the scenario file is empty: it needs at least duration and nodes",
    );
  }
  if (docs.length > 1) {
    throw docs[1]!.error(
      "invalid-value",
      [],
      "a scenario file holds one YAML document; put Kubernetes objects in files listed under `manifests`",
    );
  }
  const root = obj(
    src,
    [],
    src.value,
    "a scenario (a mapping of settings such as duration, nodes, timeline)",
  );
  knownFields(src, [], root, SCENARIO_FIELDS);

  const name = optStr(src, ["name"], root.name) ?? baseName(file);
  const kubernetesVersion = version(src, root.kubernetesVersion);
  // The same range as `simulate --seed` (a 32-bit PRNG seed).
  const seed = root.seed == null ? 1 : int(src, ["seed"], root.seed, { min: 0, max: 0xffffffff });
  if (root.duration == null)
    fail(src, ["duration"], "missing-field", 'missing required field "duration" (e.g. duration: 15m)');
  const totalDuration = duration(src, ["duration"], root.duration, {
    min: 0,
    max: MAX_DURATION_SECONDS,
    maxText: "7 days (168h)",
  });
  if (totalDuration === 0) fail(src, ["duration"], "invalid-duration", "must be more than 0s");
  const start =
    root.start == null ? "running" : oneOf(src, ["start"], root.start, ["running", "created"] as const);

  if (root.nodes == null) {
    fail(
      src,
      ["nodes"],
      "missing-field",
      'missing required field "nodes" (a list, or {count: 3, zones: [a, b, c]})',
    );
  }
  const nodes = parseNodes(src, root.nodes);

  const collected = emptyCollected();
  if (typeof root.manifests === "string") {
    // A single path, as a shorthand for a list of one.
    readEntry(src, ["manifests"], root.manifests, readManifest, collected);
  } else if (root.manifests != null) {
    const entries = list(src, ["manifests"], root.manifests, "a list of manifest paths or objects");
    entries.forEach((entry, i) => {
      readEntry(src, ["manifests", i], entry, readManifest, collected);
    });
  }
  checkTotals(collected, nodes.length);

  const controlPlane = overrides(
    src,
    ["controlPlane"],
    root.controlPlane,
    CONTROL_PLANE_FIELDS,
  ) as ControlPlaneOverrides;
  const kubelet = parseKubelet(src, root.kubelet, kubernetesVersion);
  const behaviour = parseBehaviour(src, root.behaviour, collected);
  const timeline = parseTimeline(src, root.timeline, nodes, collected);
  const traffic = parseTraffic(src, root.traffic, collected, totalDuration);
  const network = parseNetwork(src, root.network);
  const profile = parseProfile(src, root.profile);

  const extra: Record<string, unknown> = {};
  for (const key of EXTRA_FIELDS as readonly string[]) if (root[key] !== undefined) extra[key] = root[key];

  const scenario: Scenario = {
    name,
    file,
    kubernetesVersion,
    seed,
    duration: totalDuration,
    start,
    nodes,
    manifests: collected.manifests,
    ignored: collected.ignored,
    controlPlane,
    kubelet,
    behaviour,
    timeline,
    extra,
  };
  if (traffic.length > 0) scenario.traffic = traffic;
  if (network) scenario.network = network;
  if (profile) scenario.profile = profile;
  return scenario;
}

function baseName(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

function version(src: SourceDoc, v: unknown): KubernetesVersion {
  if (v == null) return NEWEST_VERSION;
  const path = ["kubernetesVersion"];
  const supported = `supported: ${SUPPORTED_VERSIONS[0]} to ${SUPPORTED_VERSIONS[SUPPORTED_VERSIONS.length - 1]}`;
  let textValue: string;
  if (typeof v === "number") {
    // YAML reads 1.30 as the number 1.3; the source text tells us what was written.
    textValue = src.sourceText(path) ?? String(v);
  } else if (typeof v === "string") {
    textValue = v;
  } else {
    fail(src, path, "invalid-type", `${show(v)} is not a version (write it as a string, e.g. "1.32")`);
  }
  const m = /^v?(\d+\.\d+)(?:\.\d+)?$/.exec(textValue.trim());
  const minor = m?.[1];
  if (minor && (SUPPORTED_VERSIONS as readonly string[]).includes(minor)) return minor as KubernetesVersion;
  // A number hides trailing zeros (1.30 → 1.3): suggest quoting it.
  const hint = typeof v === "number" ? '; write it quoted, e.g. "1.30"' : "";
  const shown = typeof v === "number" ? String(textValue) : show(v);
  fail(src, path, "unsupported-version", `Kubernetes ${shown} is not supported (${supported}${hint})`);
}

function parseNodes(src: SourceDoc, v: unknown): NodeSpec[] {
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
        : list(src, [...path, "zones"], v.zones).map((z, i) => zoneName(src, [...path, "zones", i], z));
    const region = optStr(src, [...path, "region"], v.region);
    const labels = v.labels == null ? {} : stringMap(src, [...path, "labels"], v.labels);
    const capacity =
      v.capacity == null ? { ...DEFAULT_CAPACITY } : parseCapacity(src, [...path, "capacity"], v.capacity);
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
    const labels = o.labels == null ? {} : stringMap(src, [...p, "labels"], o.labels);
    const zone =
      o.zone == null ? labels["topology.kubernetes.io/zone"] : zoneName(src, [...p, "zone"], o.zone);
    const region =
      o.region == null ? labels["topology.kubernetes.io/region"] : str(src, [...p, "region"], o.region);
    const capacity =
      o.capacity == null ? { ...DEFAULT_CAPACITY } : parseCapacity(src, [...p, "capacity"], o.capacity);
    const taints = o.taints == null ? [] : parseTaints(src, [...p, "taints"], o.taints);
    return makeNode(name, zone, region, labels, capacity, taints);
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
  // The well-known labels the kubelet (hostname) and the cloud provider (zone, region) set.
  const all: Record<string, string> = { ...labels, "kubernetes.io/hostname": name };
  if (zone !== undefined) all["topology.kubernetes.io/zone"] = zone;
  if (region !== undefined) all["topology.kubernetes.io/region"] = region;
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

function nodeName(src: SourceDoc, path: Path, v: unknown): string {
  return dnsSubdomain(src, path, v, "node name");
}

function zoneName(src: SourceDoc, path: Path, v: unknown): string {
  if (typeof v === "number") return String(v);
  return str(src, path, v);
}

function parseCapacity(src: SourceDoc, path: Path, v: unknown): NodeSpec["capacity"] {
  const o = obj(src, path, v);
  knownFields(src, path, o, CAPACITY_FIELDS, "node capacity");
  const cpu = o.cpu == null ? DEFAULT_CAPACITY.cpu : quantity(src, [...path, "cpu"], o.cpu);
  const memory = o.memory == null ? DEFAULT_CAPACITY.memory : quantity(src, [...path, "memory"], o.memory);
  const pods = o.pods == null ? DEFAULT_CAPACITY.pods : int(src, [...path, "pods"], o.pods, { min: 1 });
  if (cpu <= 0) fail(src, [...path, "cpu"], "invalid-quantity", "a node needs more than 0 cpu");
  if (memory <= 0) fail(src, [...path, "memory"], "invalid-quantity", "a node needs more than 0 memory");
  return { cpu, memory, pods };
}

function parseTaints(src: SourceDoc, path: Path, v: unknown): Taint[] {
  return list(src, path, v).map((t, i) => {
    const p = [...path, i];
    const o = obj(src, p, t);
    knownFields(src, p, o, TAINT_FIELDS, "Taint");
    if (o.key == null) fail(src, [...p, "key"], "missing-field", 'missing required field "key" in Taint');
    if (o.effect == null)
      fail(src, [...p, "effect"], "missing-field", 'missing required field "effect" in Taint');
    const taint: Taint = {
      key: str(src, [...p, "key"], o.key),
      effect: oneOf(src, [...p, "effect"], o.effect, [
        "NoSchedule",
        "PreferNoSchedule",
        "NoExecute",
      ] as const),
    };
    const value = optStr(src, [...p, "value"], o.value);
    if (value !== undefined) taint.value = value;
    return taint;
  });
}

function readEntry(
  src: SourceDoc,
  path: Path,
  entry: unknown,
  readManifest: ReadManifest,
  out: Collected,
): void {
  if (isObj(entry)) {
    collectObjects(src, path, entry, out);
    return;
  }
  const p = str(src, path, entry);
  if (p.trim() === "") fail(src, path, "invalid-value", "an empty manifest path");
  let files: ManifestFile[] | undefined;
  try {
    files = readManifest(p);
  } catch (e) {
    if (e instanceof ManifestReadError) fail(src, path, e.code, e.message);
    throw e;
  }
  if (files === undefined) {
    fail(
      src,
      path,
      "file-not-found",
      `${JSON.stringify(p)}: no such file or folder (paths are relative to the scenario file)`,
    );
  }
  if (files.length === 0) {
    fail(src, path, "file-not-found", `${JSON.stringify(p)}: the folder holds no .yaml, .yml or .json files`);
  }
  for (const f of files) {
    for (const doc of parseYamlFile(f.text, f.file)) collectObjects(doc, [], doc.value, out);
  }
}

/**
 * Plain Kubernetes manifest files (no scenario around them), validated as a scenario's manifests
 * are: for `faultline probes`.
 */
export function parseManifests(files: readonly ManifestFile[]): Pick<Scenario, "manifests" | "ignored"> {
  const out = emptyCollected();
  for (const f of files) {
    for (const doc of parseYamlFile(f.text, f.file)) collectObjects(doc, [], doc.value, out);
  }
  return { manifests: out.manifests, ignored: out.ignored };
}

/** Pods and containers the manifests ask for, against Kubernetes' documented limits. */
function checkTotals(c: Collected, nodeCount: number): void {
  let pods = 0;
  let containers = 0;
  c.manifests.forEach(({ object }, i) => {
    let n: number;
    let spec: { containers: unknown[]; initContainers?: unknown[] };
    switch (object.kind) {
      case "Pod":
        n = 1;
        spec = object.spec;
        break;
      case "Deployment":
      case "ReplicaSet":
      case "StatefulSet":
        n = object.spec.replicas;
        spec = object.spec.template.spec;
        break;
      case "DaemonSet":
        n = nodeCount;
        spec = object.spec.template.spec;
        break;
      default:
        return;
    }
    pods += n;
    containers += n * (spec.containers.length + (spec.initContainers?.length ?? 0));
    const { src, path } = c.where[i]!;
    const at =
      object.kind === "Pod" || object.kind === "DaemonSet"
        ? [...path, "metadata", "name"]
        : [...path, "spec", "replicas"];
    if (pods > MAX_PODS) {
      fail(
        src,
        at,
        "too-large",
        `the manifests ask for ${pods.toLocaleString("en-US")} pods by here, more than Kubernetes' documented limit of ${MAX_PODS.toLocaleString("en-US")} pods per cluster`,
      );
    }
    if (containers > MAX_CONTAINERS) {
      fail(
        src,
        at,
        "too-large",
        `the manifests ask for ${containers.toLocaleString("en-US")} containers by here, more than Kubernetes' documented limit of ${MAX_CONTAINERS.toLocaleString("en-US")} containers per cluster`,
      );
    }
  });
}

function typedField(src: SourceDoc, path: Path, v: unknown, kind: FieldKind): number | boolean {
  switch (kind) {
    case "duration": {
      const s = duration(src, path, v, { min: 0, max: MAX_DURATION_SECONDS, maxText: "7 days (168h)" });
      if (s === 0) fail(src, path, "invalid-duration", "must be more than 0s");
      return s;
    }
    case "number":
      return num(src, path, v, { min: 0 });
    case "fraction":
      return num(src, path, v, { min: 0, max: 1 });
    case "int":
      return int(src, path, v, { min: 0 });
    case "boolean":
      return bool(src, path, v);
  }
}

function overrides(
  src: SourceDoc,
  path: Path,
  v: unknown,
  fields: Record<string, FieldKind>,
): Record<string, number | boolean> {
  if (v == null) return {};
  const o = obj(src, path, v);
  knownFields(src, path, o, Object.keys(fields));
  const out: Record<string, number | boolean> = {};
  for (const [key, value] of Object.entries(o)) {
    if (value == null) continue;
    out[key] = typedField(src, [...path, key], value, fields[key]!);
  }
  return out;
}

function parseKubelet(src: SourceDoc, v: unknown, version: KubernetesVersion): KubeletOverrides {
  if (v == null) return {};
  const path = ["kubelet"];
  const o = obj(src, path, v);
  const { probeSchedule, crashLoopBackOff, featureGates, ...rest } = o;
  knownFields(src, path, o, [
    ...Object.keys(KUBELET_FIELDS),
    "probeSchedule",
    "crashLoopBackOff",
    "featureGates",
  ]);
  const out = overrides(src, path, rest, KUBELET_FIELDS) as KubeletOverrides;
  if (featureGates != null)
    out.featureGates = parseKubeletGates(src, [...path, "featureGates"], featureGates, version);
  if (typeof crashLoopBackOff === "boolean") out.crashLoopBackOff = crashLoopBackOff;
  else if (crashLoopBackOff != null) {
    // KubeletConfiguration's crashLoopBackOff: {maxContainerRestartPeriod} (KEP-4603).
    const p = [...path, "crashLoopBackOff"];
    const c = obj(src, p, crashLoopBackOff, "true, false, or {maxContainerRestartPeriod: 1m}");
    knownFields(src, p, c, ["maxContainerRestartPeriod"]);
    const o2 = overrides(src, p, c, { maxContainerRestartPeriod: "duration" }) as {
      maxContainerRestartPeriod?: number;
    };
    const max = o2.maxContainerRestartPeriod;
    if (max !== undefined && (max < 1 || max > 300))
      fail(
        src,
        [...p, "maxContainerRestartPeriod"],
        "invalid-value",
        `${max}s is out of range: it must be from 1s to 300s`,
      );
    const m = Number(version.split(".")[1]);
    const gateOn = out.featureGates?.KubeletCrashLoopBackOffMax ?? m >= 35;
    if (!gateOn)
      fail(
        src,
        p,
        "invalid-value",
        `crashLoopBackOff.maxContainerRestartPeriod needs the KubeletCrashLoopBackOffMax feature gate (alpha in 1.32, on by default from 1.35): set featureGates: {KubeletCrashLoopBackOffMax: true}`,
      );
    out.crashLoopBackOff = max === undefined ? {} : { maxContainerRestartPeriod: max };
  }
  if (out.nodeLeaseDurationSeconds === 0) {
    fail(src, [...path, "nodeLeaseDurationSeconds"], "invalid-value", "0 is too small: must be at least 1");
  }
  if (probeSchedule != null) {
    out.probeSchedule = oneOf(src, [...path, "probeSchedule"], probeSchedule, [
      "kubernetes",
      "period-end",
    ] as const);
  }
  return out;
}

/** The kubelet feature gates the models read, each only from the version that has it. */
function parseKubeletGates(
  src: SourceDoc,
  path: (string | number)[],
  v: unknown,
  version: string,
): KubeletFeatureGates {
  const o = obj(src, path, v, "a mapping from feature gate name to true or false");
  const names = Object.keys(KUBELET_FEATURE_GATES) as (keyof typeof KUBELET_FEATURE_GATES)[];
  knownFields(src, path, o, names, "the kubelet feature gates faultline models");
  const m = Number(version.split(".")[1]);
  const out: KubeletFeatureGates = {};
  for (const name of names) {
    const raw = o[name];
    if (raw == null) continue;
    if (typeof raw !== "boolean")
      fail(src, [...path, name], "invalid-type", `${JSON.stringify(raw)} is not true or false`);
    if (m < KUBELET_FEATURE_GATES[name].since)
      fail(
        src,
        [...path, name],
        "invalid-value",
        `${name} is not a feature gate of Kubernetes ${version} (it appeared in 1.${KUBELET_FEATURE_GATES[name].since})`,
      );
    out[name] = raw as boolean;
  }
  return out;
}

function parseBehaviour(src: SourceDoc, v: unknown, c: Collected): Record<string, Behaviour> {
  if (v == null) return {};
  const path = ["behaviour"];
  const o = obj(src, path, v, "a mapping from workload name (or name/container) to behaviour");
  const out: Record<string, Behaviour> = {};
  for (const [key, value] of Object.entries(o)) {
    const p = [...path, key];
    checkBehaviourKey(src, p, key, c);
    const b = obj(src, p, value, "a behaviour (a mapping such as {bootSeconds: 20, readyAfterSeconds: 30})");
    knownFields(src, p, b, Object.keys(BEHAVIOUR_FIELDS), "Behaviour");
    const parsed: Record<string, number | boolean> = {};
    for (const [field, raw] of Object.entries(b)) {
      if (raw == null) continue;
      const kind = BEHAVIOUR_FIELDS[field as keyof Behaviour];
      const fp = [...p, field];
      if (field === "exitCode") parsed[field] = int(src, fp, raw, { min: 0, max: 255 });
      else if (kind === "duration")
        parsed[field] = duration(src, fp, raw, {
          min: 0,
          max: MAX_DURATION_SECONDS,
          maxText: "7 days (168h)",
        });
      else parsed[field] = typedField(src, fp, raw, kind);
    }
    out[key] = parsed as Behaviour;
  }
  return out;
}

function checkBehaviourKey(src: SourceDoc, path: Path, key: string, c: Collected): void {
  const [workload = "", containerName, ...more] = key.split("/");
  if (more.length > 0) {
    fail(
      src,
      path,
      "unknown-workload",
      `${JSON.stringify(key)}: use a workload name or <workload>/<container>`,
      "key",
    );
  }
  const matches = c.manifests.filter(
    (m) =>
      m.kind !== "Service" &&
      m.kind !== "PersistentVolumeClaim" &&
      m.kind !== "PodDisruptionBudget" &&
      m.object.metadata.name === workload,
  );
  if (matches.length === 0) {
    const names = c.manifests
      .filter(
        (m) => m.kind !== "Service" && m.kind !== "PersistentVolumeClaim" && m.kind !== "PodDisruptionBudget",
      )
      .map((m) => m.object.metadata.name);
    const near = closest(workload, names);
    fail(
      src,
      path,
      "unknown-workload",
      `no workload named "${workload}" in the manifests${near ? ` (did you mean "${near}"?)` : ""}`,
      "key",
    );
  }
  if (containerName === undefined) return;
  const containers = new Set<string>();
  for (const { object } of matches) {
    const spec = podSpecOf(object);
    for (const ctr of [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])])
      containers.add(ctr.name);
  }
  if (!containers.has(containerName)) {
    const near = closest(containerName, [...containers]);
    fail(
      src,
      path,
      "unknown-workload",
      `"${workload}" has no container named "${containerName}" (containers: ${[...containers].join(", ")})${near ? `; did you mean "${workload}/${near}"?` : ""}`,
      "key",
    );
  }
}

function podSpecOf(object: KubeObject): PodSpec | undefined {
  switch (object.kind) {
    case "Pod":
      return object.spec;
    case "Deployment":
    case "ReplicaSet":
    case "StatefulSet":
    case "DaemonSet":
      return object.spec.template.spec;
    default:
      return undefined;
  }
}

function parseTimeline(src: SourceDoc, v: unknown, nodes: NodeSpec[], c: Collected): TimelineStep[] {
  if (v == null) return [];
  const path = ["timeline"];
  const items = list(src, path, v, "a list of steps such as {at: 10s, do: power-off, node: worker-1}");
  const nodeNames = nodes.map((n) => n.name);
  const workloads = workloadsOf(c.manifests, nodes.length);
  const range: Range = { min: 0, max: MAX_DURATION_SECONDS, maxText: "7 days (168h)" };
  const steps = items.map((item, i): TimelineStep => {
    const p = [...path, i];
    const o = obj(src, p, item, "a step (a mapping such as {at: 10s, do: power-off, node: worker-1})");
    knownFields(src, p, o, STEP_FIELDS, "a timeline step");
    if (o.at == null)
      fail(src, [...p, "at"], "missing-field", 'missing required field "at" (when, e.g. at: 10s)');
    const at = duration(src, [...p, "at"], o.at, range);
    if (o.do == null)
      fail(
        src,
        [...p, "do"],
        "missing-field",
        'missing required field "do" (the action, e.g. do: power-off)',
      );
    const action = oneOf(src, [...p, "do"], o.do, FAULT_ACTIONS);
    const { line, col } = src.locate(p);
    const step: TimelineStep = { at, do: action, pos: { file: src.file, line, col } };
    if (NODE_ACTIONS.includes(action)) {
      if (o.pod != null)
        fail(
          src,
          [...p, "pod"],
          "invalid-value",
          `${action} acts on a node: use node: <name>, not pod`,
          "key",
        );
      if (o.node == null)
        fail(
          src,
          [...p, "node"],
          "missing-field",
          `${action} needs node: <name> (one of ${listNames(nodeNames)})`,
        );
      const node = str(src, [...p, "node"], o.node);
      if (!nodeNames.includes(node)) {
        const near = closest(node, nodeNames);
        fail(
          src,
          [...p, "node"],
          "unknown-node",
          `no node named "${node}"${near ? ` (did you mean "${near}"?)` : ""}; nodes: ${listNames(nodeNames)}`,
        );
      }
      step.node = node;
    } else {
      if (o.node != null)
        fail(
          src,
          [...p, "node"],
          "invalid-value",
          `${action} acts on a pod: use pod: <namespace>/<name> or <Kind>/<name>[i], not node`,
          "key",
        );
      if (o.pod == null)
        fail(
          src,
          [...p, "pod"],
          "missing-field",
          `${action} needs pod: <namespace>/<name>, <Kind>/<name> or <Kind>/<name>[i]`,
        );
      const pod = str(src, [...p, "pod"], o.pod);
      step.pod = pod;
      step.target = resolvePodTarget(src, [...p, "pod"], pod, workloads);
    }
    return step;
  });
  // Array.prototype.sort is stable: steps at the same time keep the file's order.
  return steps.sort((a, b) => a.at - b.at);
}

function listNames(names: string[]): string {
  return names.length <= 6 ? names.join(", ") : `${names.slice(0, 5).join(", ")}, … (${names.length} in all)`;
}
