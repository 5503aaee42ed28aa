// The pure core of load/: scenario YAML text (+ a reader for the manifests it names) → a validated
// Scenario, or one LoadError. No node: imports; the HTML report runs this in a browser. Each section
// of the file has its own parser beside this one (nodes, manifests, settings, behaviour, timeline,
// traffic).

import { minor, SEPARATE_TAINT_EVICTION_CONTROLLER_SINCE_MINOR } from "../../kubernetes/defaults.ts";
import { recognisePlatform } from "../../platforms/index.ts";
import { PROFILES } from "../../scenario/profiles.ts";
import {
  type ControlPlaneOverrides,
  type KubernetesVersion,
  type ManifestFile,
  NEWEST_VERSION,
  type Scenario,
  SUPPORTED_VERSIONS,
} from "../../scenario/types.ts";
import {
  bool,
  duration,
  fail,
  int,
  knownFields,
  list,
  type Obj,
  obj,
  oneOf,
  optStr,
  show,
} from "../check.ts";
import { type ClusterRead, readCluster } from "../cluster/dump.ts";
import { LoadError } from "../errors.ts";
import { type Collected, emptyCollected } from "../manifest/collect.ts";
import { type DocTransform, parseYamlFile, type SourceDoc } from "../source.ts";
import { parseAutoscaler } from "./autoscaler.ts";
import { parseBehaviour } from "./behaviour.ts";
import { PERIOD } from "./limits.ts";
import {
  checkSleepActions,
  checkTotals,
  noteContainerRestartRules,
  notePodReplacementPolicy,
  noteSidecarGate,
  notModelledList,
  type ReadManifest,
  readEntry,
} from "./manifests.ts";
import { parseNetwork } from "./network.ts";
import { parseNodes } from "./nodes.ts";
import { checkPriorityClasses } from "./priority.ts";
import { parseProfileEntry } from "./profile-file.ts";
import { CONTROL_PLANE_FIELDS, overrides, parseKubelet } from "./settings.ts";
import { checkStatefulSetMaxUnavailable, patchOf } from "./statefulset-max-unavailable.ts";
import { parseTimeline } from "./timeline.ts";
import { parseTraffic } from "./traffic.ts";
import { checkTrafficDistribution } from "./traffic-distribution.ts";

export const SCENARIO_FIELDS = [
  "name",
  "kubernetesVersion",
  "seed",
  "duration",
  "start",
  "nodes",
  "cluster",
  "manifests",
  "controlPlane",
  "kubelet",
  "behaviour",
  "timeline",
  "traffic",
  "network",
  "profile",
  "autoscaler",
  "autoRepair",
] as const;

/** Fields kept raw in `extra` for later stages (none at the moment). */
const EXTRA_FIELDS = [] as const;

/**
 * A scenario from its text and a reader of the manifests it names. The scenario remembers what it was
 * loaded from (`origin`: the text and every manifest file read), for whatif/ to make variants of it.
 */
export function parseScenario(text: string, file: string, readManifest: ReadManifest): Scenario {
  const manifests: Record<string, ManifestFile[]> = {};
  const recording: ReadManifest = (entry, maxBytes) => {
    const files = readManifest(entry, maxBytes);
    if (files !== undefined) manifests[entry] = files;
    return files;
  };
  const scenario = parseScenarioWith(text, file, recording);
  scenario.origin = { source: { file, text, manifests }, patches: [] };
  return scenario;
}

/** The `controlPlane` section: kube-controller-manager's flags, each checked against the version. */
function parseControlPlane(
  src: SourceDoc,
  v: unknown,
  kubernetesVersion: KubernetesVersion,
): ControlPlaneOverrides {
  const controlPlane = overrides(src, ["controlPlane"], v, CONTROL_PLANE_FIELDS) as ControlPlaneOverrides;
  if (
    controlPlane.taintEvictionController === false &&
    minor(kubernetesVersion) < SEPARATE_TAINT_EVICTION_CONTROLLER_SINCE_MINOR
  )
    fail(
      src,
      ["controlPlane", "taintEvictionController"],
      "invalid-value",
      `Kubernetes ${kubernetesVersion} has no taint-eviction-controller to disable: taint-based eviction runs inside the node lifecycle controller until 1.29 (KEP-3902, SeparateTaintEvictionController)`,
    );
  return controlPlane;
}

/** parseScenario's work, with each parsed document passed through `transform` (patches) first. */
export function parseScenarioWith(
  text: string,
  file: string,
  readManifest: ReadManifest,
  transform?: DocTransform,
): Scenario {
  const { src, root } = scenarioRoot(text, file, transform);
  knownFields(src, [], root, SCENARIO_FIELDS);

  const name = optStr(src, ["name"], root.name) ?? baseName(file);

  // The same range as `simulate --seed` (a 32-bit PRNG seed).
  const seed = root.seed == null ? 1 : int(src, ["seed"], root.seed, { min: 0, max: 0xffffffff });
  if (root.duration == null)
    fail(src, ["duration"], "missing-field", 'missing required field "duration" (e.g. duration: 15m)');
  const totalDuration = duration(src, ["duration"], root.duration, PERIOD);
  const start =
    root.start == null ? "running" : oneOf(src, ["start"], root.start, ["running", "created"] as const);

  const collected = emptyCollected();
  const cluster = readClusterOf(src, root, start, readManifest, collected, transform);
  const nodes = cluster?.nodes ?? parseNodes(src, root.nodes);
  const kubernetesVersion =
    root.kubernetesVersion == null && cluster?.newest
      ? dumpVersion(cluster.newest)
      : version(src, root.kubernetesVersion);

  const kubernetesPatch = root.kubernetesVersion == null ? undefined : patchOf(src, root.kubernetesVersion);

  readManifests(src, root, readManifest, collected, transform);
  checkTotals(collected, nodes.length);
  checkSleepActions(collected, kubernetesVersion);
  noteSidecarGate(collected, kubernetesVersion);
  noteContainerRestartRules(collected, kubernetesVersion);
  checkTrafficDistribution(collected, kubernetesVersion);
  checkStatefulSetMaxUnavailable(collected, kubernetesVersion, kubernetesPatch);
  notePodReplacementPolicy(collected, kubernetesVersion);
  checkPriorityClasses(collected, cluster !== undefined);

  const controlPlane = parseControlPlane(src, root.controlPlane, kubernetesVersion);
  const kubelet = parseKubelet(src, root.kubelet, kubernetesVersion);
  const behaviour = parseBehaviour(src, root.behaviour, collected);
  const timeline = parseTimeline(src, root.timeline, nodes, collected, totalDuration);
  const traffic = parseTraffic(src, root.traffic, collected, totalDuration);
  const { name: profile, file: profileFile } = parseProfileEntry(
    src,
    root.profile,
    readManifest,
    kubernetesVersion,
  );
  const network = parseNetwork(src, root.network, profile);

  const extra: Record<string, unknown> = {};
  for (const key of EXTRA_FIELDS as readonly string[]) if (root[key] !== undefined) extra[key] = root[key];

  const scenario: Scenario = {
    name,
    file,
    kubernetesVersion,
    ...(kubernetesPatch !== undefined ? { kubernetesPatch } : {}),
    seed,
    duration: totalDuration,
    start,
    nodes,
    manifests: collected.manifests,
    ignored: collected.ignored,
    notModelled: notModelledList(collected),
    controlPlane,
    kubelet,
    behaviour,
    timeline,
    extra,
  };
  if (cluster)
    scenario.cluster = {
      ...cluster.info,
      ...(root.kubernetesVersion == null && cluster.newest ? { versionFromKubelets: true } : {}),
    };
  if (traffic.length > 0) scenario.traffic = traffic;
  if (network) scenario.network = network;
  if (profile) scenario.profile = profile;
  if (profileFile) scenario.profileFile = profileFile;
  if (scenario.cluster) recognise(scenario);
  if (root.autoscaler != null) scenario.autoscaler = parseAutoscaler(src, root.autoscaler, scenario);
  if (root.autoRepair != null) scenario.autoRepair = parseAutoRepair(src, root.autoRepair, scenario);
  checkSpot(scenario);
  return scenario;
}

/**
 * `autoRepair: true | false` turns the platform profile's node auto-repair on or off; a profile
 * whose platform documents none (stock, doks, a profile file) refuses it.
 */
function parseAutoRepair(src: SourceDoc, v: unknown, scenario: Scenario): boolean {
  const on = bool(src, ["autoRepair"], v);
  const name = scenario.profile ?? "stock";
  if (!PROFILES[name].platform?.autoRepair)
    fail(
      src,
      ["autoRepair"],
      "invalid-value",
      `autoRepair needs a platform profile whose platform repairs nodes (profile: eks, gke or aks); profile ${name} has none`,
    );
  return on;
}

/** `spot-interruption` is a platform's (its notice and handler): a profile without spot capacity refuses it. */
function checkSpot(scenario: Scenario): void {
  const step = scenario.timeline.find((s) => s.do === "spot-interruption");
  if (!step) return;
  const name = scenario.profile ?? "stock";
  if ((PROFILES[name]?.platform?.spot.seconds ?? 0) > 0) return;
  throw new LoadError(
    "invalid-value",
    step.pos.file,
    step.pos.line,
    step.pos.col,
    "timeline",
    `spot-interruption needs a platform profile with spot instances and their notice (profile: eks, gke or aks); profile ${name} has none`,
  );
}

/**
 * A dump's platform, from its Nodes (platforms/index.ts recognisePlatform): named in the report's
 * "assumed:" line, and the run's profile when the scenario (or --profile) names none.
 */
function recognise(scenario: Scenario): void {
  const found = recognisePlatform(scenario.nodes);
  if (!found || !scenario.cluster) return;
  const fromDump = scenario.profile === undefined;
  scenario.cluster.platform = {
    name: found.platform,
    evidence: found.evidence,
    nodeGroups: found.nodeGroups,
    profileFromDump: fromDump,
  };
  if (fromDump) scenario.profile = found.platform;
}

/** The scenario file's one document (after `transform`), and its root mapping. */
function scenarioRoot(text: string, file: string, transform?: DocTransform): { src: SourceDoc; root: Obj } {
  const docs = parseYamlFile(text, file);
  const parsed = docs[0];
  if (!parsed) {
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
  const src = transform ? transform(parsed, "scenario") : parsed;
  const root = obj(
    src,
    [],
    src.value,
    "a scenario (a mapping of settings such as duration, nodes, timeline)",
  );
  return { src, root };
}

/** The cluster dump the scenario names, or undefined where it lists its nodes (one of the two is needed). */
function readClusterOf(
  src: SourceDoc,
  root: Obj,
  start: string,
  readManifest: ReadManifest,
  collected: Collected,
  transform?: DocTransform,
): ClusterRead | undefined {
  if (root.cluster != null) {
    if (root.nodes != null)
      fail(src, ["nodes"], "invalid-value", "the nodes come from the cluster dump: remove `nodes`", "key");
    if (start !== "running")
      fail(
        src,
        ["start"],
        "invalid-value",
        "a cluster dump is a running cluster: `start: created` does not apply",
      );
    const cluster = readCluster(src, ["cluster"], root.cluster, readManifest, collected, transform);
    if (cluster.nodes.length === 0)
      fail(
        src,
        ["cluster"],
        "invalid-value",
        "the dump holds no Node: dump them with the rest (kubectl get nodes,pods,… -A -o yaml)",
      );
    return cluster;
  }
  if (root.nodes == null) {
    fail(
      src,
      ["nodes"],
      "missing-field",
      'missing required field "nodes" (a list, or {count: 3, zones: [a, b, c]}), or "cluster" (a dump of a cluster)',
    );
  }
  return undefined;
}

/** `manifests`: one path, or a list of paths and objects, read into `collected`. */
function readManifests(
  src: SourceDoc,
  root: Obj,
  readManifest: ReadManifest,
  collected: Collected,
  transform?: DocTransform,
): void {
  if (typeof root.manifests === "string") {
    // A single path, as a shorthand for a list of one.
    readEntry(src, ["manifests"], root.manifests, readManifest, collected, transform);
  } else if (root.manifests != null) {
    const entries = list(src, ["manifests"], root.manifests, "a list of manifest paths or objects");
    entries.forEach((entry, i) => {
      readEntry(src, ["manifests", i], entry, readManifest, collected, transform);
    });
  }
}

function baseName(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/** The dump's version: its newest kubelet's minor (the control plane is at least as new). */
function dumpVersion(at: NonNullable<ClusterRead["newest"]>): KubernetesVersion {
  const minor = /^v?(\d+\.\d+)/.exec(at.version)?.[1];
  if (minor && (SUPPORTED_VERSIONS as readonly string[]).includes(minor)) return minor as KubernetesVersion;
  fail(
    at.src,
    at.path,
    "unsupported-version",
    `Kubernetes ${show(at.version)} is not supported (supported: ${SUPPORTED_VERSIONS[0]} to ${NEWEST_VERSION}); set the scenario's kubernetesVersion to the nearest`,
  );
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
