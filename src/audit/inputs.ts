// What the audit simulates: the user's manifests on a cluster, written as a scenario's source (a
// scenario text the audit generates, or the user's `--scenario` file with the manifests swapped in),
// so that every run, fix and experiment is that source plus patches, loaded through load/.
//
// The default cluster: 3 nodes in zones a, b, c, each sized so that the manifests still fit when the
// largest zone is lost (the audit asks about failures, not about an undersized cluster), and never
// smaller than the scenario default (4 cpu, 16Gi, 110 pods). The note that says so is printed.

import { isSeq, parseDocument, stringify } from "yaml";
import { DEFAULT_NODE_CAPACITY } from "../kubernetes/defaults.ts";
import type { ResourceList } from "../kubernetes/objects.ts";
import { LoadError, parseManifests, parseScenario } from "../load/core.ts";
import { PLATFORMS } from "../platforms/index.ts";
import type { ProfileName, Scenario } from "../scenario/types.ts";
import type { AuditNode, AuditSource, SourceFile } from "./types.ts";

/** The scenario default node (kubernetes/defaults.ts DEFAULT_NODE_CAPACITY): the floor of an assumed node. */
const FLOOR = DEFAULT_NODE_CAPACITY;
/** Headroom over what the survivors must hold: the scheduler never fills a node to the last byte. */
const HEADROOM = 1.25;
export const DEFAULT_ZONES = ["a", "b", "c"];
/** The fault is injected here, after the first Lease renewals of the recorded run. */
export const FAULT_AT = 10;
/**
 * Long enough to settle after the fault: NotReady ~50s, evictions at +300s (~5m50s), replacements
 * Ready, the 6-minute force detach of a volume whose pod object is gone, and a margin.
 */
export const DEFAULT_DURATION = 15 * 60;

export interface ClusterChoice {
  /** `--nodes N`: how many nodes */
  nodes?: number;
  /** `--zones a,b,c`: zones, given to the nodes in turn */
  zones?: string[];
}

export interface AuditInput {
  /** the manifests named on the command line, one entry per PATH (`-` for stdin) */
  entries: { entry: string; files: SourceFile[] }[];
  /** `--scenario FILE`: its text and the manifest entries it names */
  scenario?: AuditSource;
  /**
   * `--cluster DUMP`: a dump of a live cluster (a file or a folder), read as a scenario's `cluster:`
   * is: its nodes are the cluster's, its objects the workloads, its pods start where they run
   */
  dump?: { entry: string; files: SourceFile[] };
  cluster: ClusterChoice;
  duration?: number;
  /** `--traffic rate=100,…`: a caller on each Service with these fields */
  traffic?: Record<string, string | number>;
  /** `--kubernetes-version` (without a scenario) */
  kubernetesVersion?: string;
  /** `--profile`: over a scenario's profile and a dump's platform */
  profile?: ProfileName;
}

export interface Prepared {
  source: AuditSource;
  scenario: Scenario;
  nodes: AuditNode[];
  assumed: string | null;
  notes: string[];
}

/** Builds the audit's source and loads it (a LoadError, located in the user's file, on bad input). */
export function prepare(input: AuditInput): Prepared {
  const notes: string[] = [];
  const duration = input.duration ?? DEFAULT_DURATION;
  if (input.scenario) return fromScenario(input, input.scenario, duration, notes);
  if (input.dump) return fromDump(input, input.dump, duration, notes);
  const manifests: Record<string, SourceFile[]> = {};
  for (const e of input.entries) manifests[e.entry] = e.files;
  const loaded = parseManifests(input.entries.flatMap((e) => e.files));
  if (loaded.manifests.length === 0 && loaded.ignored.length === 0)
    throw new LoadError(
      "no-object",
      input.entries.map((e) => (e.entry === "-" ? "<stdin>" : e.entry)).join(", "),
      0,
      0,
      "",
      "no object to audit: the input is empty, only `---` or an empty List (a helm template that rendered nothing?)",
    );
  const zones = input.cluster.zones ?? (input.cluster.nodes === undefined ? DEFAULT_ZONES : []);
  const count = input.cluster.nodes ?? 3;
  const size = sizeNodes(loaded.manifests, count, zones);
  const nodes = Array.from({ length: count }, (_, i) => ({
    name: `worker-${i + 1}`,
    ...(zones.length > 0 ? { zone: zones[i % zones.length] } : {}),
    capacity: { cpu: size.cpu, memory: memoryText(size.memory), pods: size.pods },
  }));
  const doc: Record<string, unknown> = {
    name: "audit",
    ...(input.kubernetesVersion ? { kubernetesVersion: input.kubernetesVersion } : {}),
    ...(input.profile ? { profile: input.profile } : {}),
    duration,
    nodes,
    manifests: input.entries.map((e) => e.entry),
  };
  const source: AuditSource = { file: "audit", text: stringify(doc), manifests };
  let scenario = parseScenario(source.text, source.file, (entry) => manifests[entry]);
  const assumed = `${count} node${count === 1 ? "" : "s"}${zones.length > 0 ? ` in zone${zones.length === 1 ? "" : "s"} ${zones.join(", ")}` : " without zones"}, each ${size.cpu} cpu, ${memoryText(size.memory)} memory, ${size.pods} pods: sized so that the manifests fit on the nodes left after losing ${size.lost === 1 ? "one node" : `${size.lost} nodes (the largest zone)`}; give --nodes/--zones or --scenario for your own`;
  if (input.traffic) {
    source.text = withTraffic(source.text, scenario, input.traffic, notes);
    scenario = parseScenario(source.text, source.file, (entry) => manifests[entry]);
  }
  return { source, scenario, nodes: nodesOf(scenario), assumed, notes };
}

/**
 * `--cluster DUMP`: the dump's nodes and objects, its pods where they run. The manifests on the
 * command line, if any, are added to the dump's objects; one the dump already holds (same kind,
 * namespace and name) is refused by the loader as a duplicate, located at both: replacing a
 * workload whose pods the dump holds would start a rollout, not audit the cluster as it runs.
 */
function fromDump(
  input: AuditInput,
  dump: NonNullable<AuditInput["dump"]>,
  duration: number,
  notes: string[],
): Prepared {
  const manifests: Record<string, SourceFile[]> = { [dump.entry]: dump.files };
  for (const e of input.entries) manifests[e.entry] = e.files;
  const doc: Record<string, unknown> = {
    name: "audit",
    ...(input.kubernetesVersion ? { kubernetesVersion: input.kubernetesVersion } : {}),
    ...(input.profile ? { profile: input.profile } : {}),
    duration,
    cluster: dump.entry,
    ...(input.entries.length > 0 ? { manifests: input.entries.map((e) => e.entry) } : {}),
  };
  const source: AuditSource = { file: "audit", text: stringify(doc), manifests };
  let scenario = parseScenario(source.text, source.file, (entry) => manifests[entry]);
  notes.push(dumpNote(dump.entry, scenario, input.entries.length));
  platformNote(scenario, notes);
  if (input.traffic) {
    source.text = withTraffic(source.text, scenario, input.traffic, notes);
    scenario = parseScenario(source.text, source.file, (entry) => manifests[entry]);
  }
  return { source, scenario, nodes: nodesOf(scenario), assumed: null, notes };
}

/** What the audit took from the dump: its nodes (cordoned, tainted, NotReady) and its pods. */
function dumpNote(entry: string, scenario: Scenario, added: number): string {
  const nodes = scenario.nodes;
  const cordoned = nodes.filter((n) => n.unschedulable).length;
  const tainted = nodes.filter((n) =>
    n.taints.some((t) => t.key !== "node.kubernetes.io/unschedulable"),
  ).length;
  const notReady = scenario.cluster?.notReady.length ?? 0;
  const pods = scenario.manifests.filter((m) => m.object.kind === "Pod").length;
  const states = [
    cordoned > 0 ? `${cordoned} cordoned` : "",
    tainted > 0 ? `${tainted} tainted` : "",
    notReady > 0 ? `${notReady} not Ready when dumped` : "",
  ].filter((x) => x !== "");
  return `the cluster from the dump ${entry}: ${nodes.length} node${nodes.length === 1 ? "" : "s"}${states.length > 0 ? ` (${states.join(", ")})` : ""} as they are, ${pods} pod${pods === 1 ? "" : "s"} starting where they run${added > 0 ? "; the manifests named on the command line are added to its objects" : ""}`;
}

/** A dump whose Nodes name a managed platform (platforms/index.ts): which, and the profile the runs use. */
function platformNote(scenario: Scenario, notes: string[]): void {
  const p = scenario.cluster?.platform;
  if (!p) return;
  const used = p.profileFromDump
    ? `the runs use its profile ${p.name}`
    : `the runs use profile ${scenario.profile ?? "stock"} as given`;
  notes.push(
    `the dump's nodes are ${PLATFORMS[p.name].title}'s (${p.evidence}): ${used} (its cloud controller, node auto-repair and load balancer; --profile sets another)`,
  );
}

/**
 * `--scenario FILE`: its nodes and settings; the manifests on the command line, if any, replace its
 * own; with `--cluster DUMP` too, the dump's nodes and objects replace its `nodes` and `manifests`
 * (as `simulate --cluster` does) and the command line's manifests are added to them.
 */
function fromScenario(input: AuditInput, given: AuditSource, duration: number, notes: string[]): Prepared {
  const doc = parseDocument(given.text);
  // The scenario's own manifests are read only when nothing replaces them.
  const manifests = input.entries.length > 0 || input.dump ? {} : { ...given.manifests };
  let text = given.text;
  const edits: Record<string, unknown> = {};
  if (input.entries.length > 0) {
    for (const e of input.entries) manifests[e.entry] = e.files;
    edits.manifests = input.entries.map((e) => e.entry);
  }
  if (input.dump) {
    manifests[input.dump.entry] = input.dump.files;
    edits.cluster = input.dump.entry;
    edits.nodes = undefined;
    if (input.entries.length === 0) edits.manifests = undefined;
  }
  if (doc.has("timeline")) {
    edits.timeline = undefined;
    notes.push(`${given.file}: its timeline is left out: the audit runs each fault of the sweep instead`);
  }
  if (input.duration !== undefined || !doc.has("duration")) edits.duration = duration;
  if (input.profile !== undefined) edits.profile = input.profile;
  if (Object.keys(edits).length > 0 && doc.errors.length === 0) {
    for (const [k, v] of Object.entries(edits)) {
      if (v === undefined) doc.delete(k);
      else doc.set(k, v);
    }
    text = doc.toString();
  }
  const source: AuditSource = { file: given.file, text, manifests };
  let scenario = parseScenario(text, given.file, (entry) => manifests[entry]);
  if (input.dump) notes.push(dumpNote(input.dump.entry, scenario, input.entries.length));
  platformNote(scenario, notes);
  if (input.traffic) {
    if (scenario.traffic?.length)
      notes.push(`${given.file}: its traffic section is kept; --traffic adds callers only where it has none`);
    source.text = withTraffic(source.text, scenario, input.traffic, notes);
    scenario = parseScenario(source.text, source.file, (entry) => manifests[entry]);
  }
  return { source, scenario, nodes: nodesOf(scenario), assumed: null, notes };
}

/** The scenario text with a caller on each Service that has none: `--traffic rate=100`. */
function withTraffic(
  text: string,
  scenario: Scenario,
  fields: Record<string, string | number>,
  notes: string[],
): string {
  const doc = parseDocument(text);
  const have = new Set((scenario.traffic ?? []).map((t) => t.service));
  const entries: Record<string, unknown>[] = [];
  for (const { object } of scenario.manifests) {
    if (object.kind !== "Service" || !object.spec.selector) continue;
    const id = `${object.metadata.namespace}/${object.metadata.name}`;
    if (have.has(id)) continue;
    if (object.spec.clusterIP === "None") {
      notes.push(`--traffic: ${id} is headless (clusterIP: None): no proxy to simulate, no caller added`);
      continue;
    }
    const type = object.spec.type ?? "ClusterIP";
    const entry =
      type === "LoadBalancer" ? "load-balancer" : type === "NodePort" ? "node-port" : "cluster-ip";
    entries.push({ service: id, entry, ...fields });
  }
  const existing = doc.get("traffic");
  if (isSeq(existing)) for (const e of entries) existing.add(doc.createNode(e));
  else if (entries.length > 0) doc.set("traffic", entries);
  return doc.toString();
}

function nodesOf(scenario: Scenario): AuditNode[] {
  return scenario.nodes.map((n) => ({
    name: n.name,
    zone: n.zone ?? null,
    cpu: n.capacity.cpu ?? 0,
    memory: n.capacity.memory ?? 0,
    pods: n.capacity.pods ?? 0,
    ...(n.unschedulable ? { unschedulable: true as const } : {}),
    ...(n.taints.length > 0
      ? { taints: n.taints.map((t) => `${t.key}${t.value ? `=${t.value}` : ""}:${t.effect}`) }
      : {}),
  }));
}

interface Size {
  cpu: number;
  memory: number;
  pods: number;
  /** nodes the sizing assumes lost */
  lost: number;
}

/** Per-node capacity so that the workloads fit on the nodes left after the largest zone (or one node) is lost. */
export function sizeNodes(manifests: Scenario["manifests"], count: number, zones: string[]): Size {
  const perZone = zones.length > 0 ? Math.ceil(count / zones.length) : 1;
  const lost = Math.min(count - 1, Math.max(1, perZone));
  const survivors = Math.max(1, count - lost);
  const total = { cpu: 0, memory: 0, pods: 0 };
  const daemon = { cpu: 0, memory: 0, pods: 0 };
  for (const { object } of manifests) {
    let spec: { containers: { resources?: { requests?: ResourceList } }[] } | undefined;
    let n = 0;
    let into = total;
    if (object.kind === "Pod") [spec, n] = [object.spec, 1];
    else if (object.kind === "Deployment" || object.kind === "ReplicaSet" || object.kind === "StatefulSet")
      [spec, n] = [object.spec.template.spec, object.spec.replicas];
    else if (object.kind === "DaemonSet") [spec, n, into] = [object.spec.template.spec, 1, daemon];
    if (!spec) continue;
    into.pods += n;
    for (const c of spec.containers) {
      into.cpu += n * (c.resources?.requests?.cpu ?? 0);
      into.memory += n * (c.resources?.requests?.memory ?? 0);
    }
  }
  const need = (sum: number, perNode: number) => (sum / survivors) * HEADROOM + perNode;
  return {
    cpu: Math.max(FLOOR.cpu, Math.ceil(need(total.cpu, daemon.cpu))),
    memory: Math.max(FLOOR.memory, Math.ceil(need(total.memory, daemon.memory) / 2 ** 30) * 2 ** 30),
    pods: Math.max(FLOOR.pods, Math.ceil(need(total.pods, daemon.pods))),
    lost,
  };
}

function memoryText(bytes: number): string {
  return `${Math.round(bytes / 2 ** 30)}Gi`;
}
