// The human timeline, in the seed's form: steps grouped by time, each in a lane, each saying why it
// happened at that moment and what a user would see. Reads only the result (the state at t=0, the
// trace, the summary) and the scenario's names.

import { isWorkload } from "../kubernetes/objects.ts";
import { PLATFORMS } from "../platforms/index.ts";
import type { SimulationResult } from "../run/result.ts";
import { splitReferences } from "../scenario/references.ts";
import type { ClusterDumpInfo, NotReadyAtStart, Scenario } from "../scenario/types.ts";
import type { Lane, TraceEvent } from "../trace/events.ts";
import type { DrainSummary, InitialState } from "../trace/result.ts";
import { shownEventIndexes, timelineEvents } from "../trace/visible.ts";
import { lostOrSlow } from "../traffic/result.ts";
import { autoRepairLines } from "./auto-repair.ts";
import { textEntries } from "./episodes.ts";
import { proseOf } from "./messages/index.ts";

const LANE_WIDTH = 15;

export interface TextOptions {
  /** print every Lease renewal, not only the last one before a node goes silent */
  allLeases?: boolean;
}

/** The whole timeline as one text (the library's call; the CLI writes timelineChunks as they come). */
export function formatTimeline(
  result: SimulationResult,
  scenario: Scenario,
  options: TextOptions = {},
): string {
  return [...timelineChunks(result, scenario, options)].join("");
}

/**
 * The timeline in pieces, in order, each ending in a newline: the starting state, one piece per event
 * shown, the end. Made piece by piece so that a large run is written as it is made, never held as one
 * text (as jsonChunks in json.ts).
 */
export function* timelineChunks(
  result: SimulationResult,
  scenario: Scenario,
  options: TextOptions = {},
): Generator<string> {
  const out: string[] = [];
  const s = result.summary.settings;
  out.push(
    `faultline simulate · ${result.scenario} · Kubernetes ${result.kubernetesVersion}${scenario.kubernetesPatch === undefined ? "" : `.${scenario.kubernetesPatch}`} · seed ${result.seed} · ${clock(result.summary.duration)} simulated`,
  );
  out.push("");
  out.push("Starting state");
  out.push(...startingNodes(result.initial, scenario));
  out.push(...startingPlacement(result.initial));
  if (scenario.cluster) out.push(...clusterLines(scenario.cluster, scenario));
  // A workload another one controls (a dump's ReplicaSets and pods) is told through its owner.
  const present = new Set(
    scenario.manifests.map((m) => `${m.kind}/${m.object.metadata.namespace}/${m.object.metadata.name}`),
  );
  const workloads = scenario.manifests.filter((m) => {
    if (!isWorkload(m.kind)) return false;
    const owner = m.object.metadata.ownerReferences?.find((o) => o.controller !== false);
    return !owner || !present.has(`${owner.kind}/${m.object.metadata.namespace}/${owner.name}`);
  });
  if (workloads.length > 0)
    out.push(`  workloads: ${workloads.map((m) => `${m.kind} ${m.object.metadata.name}`).join(", ")}`);
  out.push(...startingPods(result.initial));
  out.push(...trafficDistributionLines(scenario));
  const notModelledKinds = scenario.ignored.filter((i) => i.reason === undefined);
  if (notModelledKinds.length > 0)
    out.push(`  ignored (not modelled): ${notModelledKinds.map((i) => `${i.kind} ${i.name}`).join(", ")}`);
  for (const i of scenario.ignored)
    if (i.reason !== undefined) out.push(`  ignored: ${i.kind} ${i.name} (${i.reason})`);
  // References to absent objects apart: the models assume they exist; the other fields may change the answer.
  const { missing, fields } = splitReferences(scenario.notModelled);
  if (missing.length > 0)
    out.push(
      `  refers to objects not in the input (assumed to exist): ${missing.map((m) => `${m.kind} (${m.where})`).join(", ")}`,
    );
  if (fields.length > 0)
    out.push(`  not modelled: ${fields.map((n) => `${n.field} (${n.where})`).join(", ")}`);
  out.push(...autoRepairLines(scenario));
  out.push(
    `  node-monitor-period=${s.nodeMonitorPeriod}s, node-monitor-grace-period=${s.nodeMonitorGracePeriod}s, ` +
      `default-unreachable-toleration-seconds=${s.defaultUnreachableTolerationSeconds}, node-eviction-rate=${s.nodeEvictionRate}, ` +
      `lease renewed every ${Number(s.nodeLeaseDurationSeconds) * 0.25}s`,
  );
  out.push("");
  yield `${out.join("\n")}\n`;

  const indent = " ".repeat(12 + LANE_WIDTH);
  let lastTime: number | undefined;
  let lastSee: string | undefined;
  const events = timelineEvents(result, options.allLeases ?? false);
  const shown = shownEventIndexes(events, result.summary.duration, options.allLeases, !!result.leases);
  for (const entry of textEntries(events, shown, clock)) {
    const t = entry.kind === "event" ? events[entry.i]!.t : entry.t;
    const head = lastTime === t ? "" : `t+${clock(t)}`;
    let text = lastTime !== t && lastTime !== undefined ? "\n" : "";
    lastTime = t;
    if (entry.kind === "episode") {
      yield `${text}${head.padEnd(12)}${laneLabel(entry.lane).padEnd(LANE_WIDTH)}${entry.text}\n`;
      continue;
    }
    const e = events[entry.i]!;
    const prose = proseOf(e);
    text += `${head.padEnd(12)}${laneLabel(e.lane).padEnd(LANE_WIDTH)}${headline(e, prose.message)}\n`;
    if (entry.note) text += `${indent}${entry.note}\n`;
    if (prose.why) text += `${indent}why now: ${prose.why}\n`;
    // What kubectl shows, once: the same view as the line before's is not printed again.
    const see = prose.see === lastSee ? undefined : prose.see;
    lastSee = prose.see;
    if (see) {
      text += `${indent}you would see:\n`;
      for (const line of see.split("\n")) text += `${indent}  ${line}\n`;
    }
    yield text;
  }
  yield `\n${summaryText(result)}\n`;
  if (result.traffic) yield `${trafficText(result.traffic)}\n`;
}

/** The nodes at t=0: all Ready in one line, else which are not. */
function startingNodes(initial: InitialState, scenario: Scenario): string[] {
  const zones = new Set(scenario.nodes.map((n) => n.zone ?? ""));
  const names = scenario.nodes.map((n) => `${n.name}${n.zone ? ` (${n.zone})` : ""}`).join(", ");
  const head = `  ${scenario.nodes.length} nodes in ${zones.size} zone${zones.size === 1 ? "" : "s"}`;
  const notReady = initial.nodes.filter((n) => !n.status.startsWith("Ready"));
  if (notReady.length === 0) return [`${head}, all Ready: ${names}`];
  return [
    `${head}, ${initial.nodes.length - notReady.length} Ready: ${names}`,
    ...notReady.map((n) => `  not Ready at t=0: ${n.name} ${n.status}`),
  ];
}

/** Nodes listed one per line with their pods at most; more are told as a range. */
const PLACEMENT_NODES = 12;
/** Pod names shown per node before "+N more". */
const PLACEMENT_PODS = 6;

/**
 * Which pods each node runs at t=0 (as `kubectl get pods -o wide` groups them by NODE), so that a
 * step written from it (a drain, a power-off) names a node that holds what it means to hit.
 */
function startingPlacement(initial: InitialState): string[] {
  const counts = new Map<string, number>(initial.nodes.map((n) => [n.name, 0]));
  if (counts.size > PLACEMENT_NODES) {
    // Only the counts are printed: no pod's name is cut out (150,000 of them at 5,000 nodes).
    for (const p of initial.pods) {
      const n = p.node ? counts.get(p.node) : undefined;
      if (n !== undefined) counts.set(p.node!, n + 1);
    }
    const all = [...counts.values()];
    return [
      `  pods per node: ${Math.min(...all)} to ${Math.max(...all)} (--dump-at 0s prints where each one runs)`,
    ];
  }
  const byNode = new Map<string, string[]>(initial.nodes.map((n) => [n.name, []]));
  for (const p of initial.pods) if (p.node) byNode.get(p.node)?.push(p.pod.slice(p.pod.indexOf("/") + 1));
  return [...byNode].map(([node, pods]) => {
    if (pods.length === 0) return `  on ${node}: no pods`;
    const shown = pods.slice(0, PLACEMENT_PODS).join(", ");
    const more = pods.length > PLACEMENT_PODS ? ` +${pods.length - PLACEMENT_PODS} more` : "";
    return `  on ${node}: ${shown}${more}`;
  });
}

/** Where a `cluster:` dump's state came from, and what of it the models rebuild rather than read. */
function clusterLines(cluster: ClusterDumpInfo, scenario: Scenario): string[] {
  const pods = scenario.manifests.filter((m) => m.kind === "Pod").length;
  const rebuilt = Object.entries(cluster.rebuilt).map(([kind, n]) => `${n} ${kind}${n === 1 ? "" : "s"}`);
  const lines = [
    `  from the cluster dump ${cluster.files.join(", ")}: ${pods} pod${pods === 1 ? "" : "s"} on their nodes${cluster.kubeletVersion ? `, kubelets ${cluster.kubeletVersion}` : ""}`,
  ];
  if (rebuilt.length > 0)
    lines.push(`  made again by the controllers, not read from the dump: ${rebuilt.join(", ")}`);
  lines.push(`  assumed: ${assumedValues(cluster, scenario)}`);
  if (cluster.takenAt)
    lines.push(`  t=0 is when the dump was taken: ${cluster.takenAt.time}, from its ${cluster.takenAt.from}`);
  for (const n of scenario.nodes) if (n.notReady) lines.push(`  ${notReadyAtStart(n.name, n.notReady)}`);
  return lines;
}

/** A dump's NotReady node as the run starts it (run/not-ready-at-start.ts). */
function notReadyAtStart(name: string, d: NotReadyAtStart): string {
  const { status, reason, lastTransitionTime } = d.ready;
  const since = lastTransitionTime === undefined ? "" : ` since ${clock(lastTransitionTime)}`;
  const lease = d.leaseRenewTime === undefined ? "" : `, Lease last renewed at ${clock(d.leaseRenewTime)}`;
  const taints = d.taints.map(
    (t) => `${t.key}:${t.effect}${t.timeAdded === undefined ? "" : ` at ${clock(t.timeAdded)}`}`,
  );
  const how =
    d.machine === "powered-off"
      ? "its kubelet stopped posting: modelled as its machine powered off"
      : "its kubelet posts NotReady: modelled as its container runtime down";
  return `NotReady in the dump, NotReady here: ${name} Ready=${status}${reason ? ` (${reason})` : ""}${since}${lease}${taints.length > 0 ? `, taints ${taints.join(", ")}` : ""}; ${how}`;
}

/**
 * What a dump does not say and the run assumes: the Kubernetes version (the kubelets'
 * unless the scenario or --kubernetes-version gives one) and the control plane's flags (that version's defaults unless the
 * scenario's controlPlane sets them; a managed platform may run others).
 */
function assumedValues(cluster: ClusterDumpInfo, scenario: Scenario): string {
  const v = scenario.kubernetesVersion;
  const version = cluster.versionFromKubelets
    ? `Kubernetes ${v} from the kubelets' version ${cluster.kubeletVersion} (a scenario's kubernetesVersion sets another)`
    : `Kubernetes ${v} as given (kubernetesVersion or --kubernetes-version)`;
  const set = Object.keys(scenario.controlPlane).map((k) =>
    k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
  );
  const flags =
    set.length === 0
      ? `kube-controller-manager's ${v} defaults for every flag (a managed platform may change them: set them under controlPlane)`
      : `kube-controller-manager's ${v} defaults but ${set.join(", ")} from the scenario's controlPlane`;
  return `${version}; ${flags}${platformText(cluster, scenario)}`;
}

/** The platform the dump's Nodes name, and whether the run took its profile from it. */
function platformText(cluster: ClusterDumpInfo, scenario: Scenario): string {
  const p = cluster.platform;
  if (!p) return "";
  const title = PLATFORMS[p.name].title;
  const groups =
    p.nodeGroups.length === 0
      ? ""
      : ` (node group${p.nodeGroups.length === 1 ? "" : "s"} ${p.nodeGroups.join(", ")})`;
  const profile = p.profileFromDump
    ? `profile ${p.name}, its documented behaviour (--profile or the scenario's profile sets another)`
    : `profile ${scenario.profile ?? "stock"} as given`;
  return `; ${title} from ${p.evidence}${groups}: ${profile}`;
}

/** Every pod that is not Running and Ready at t=0, with why (trace/result.ts InitialPod). */
function startingPods(initial: InitialState): string[] {
  return initial.pods
    .filter((p) => p.reason !== undefined)
    .map(
      (p) =>
        `  not Running and Ready at t=0: ${p.pod.split("/")[1]} ${p.phase} on ${p.node ?? "no node"}: ${p.reason}${p.message ? ` (${p.message})` : ""}`,
    );
}

/** What the callers felt: requests lost (or slow), how long they waited, the loss window, the levers. */
export function trafficText(t: NonNullable<SimulationResult["traffic"]>): string {
  const lost = t.totals.timeout + t.totals.refused + t.totals.error;
  const slow = t.totals.slow;
  const bad = lostOrSlow(t.totals);
  const pct = t.totals.sent > 0 ? ((100 * bad) / t.totals.sent).toFixed(2) : "0";
  const lines = [`Traffic (profile ${t.profile})`];
  lines.push(
    slow === undefined
      ? `  requests: ${t.totals.sent} sent, ${lost} lost (${pct}%): ${t.totals.timeout} timeouts, ${t.totals.refused} refused, ${t.totals.error} errors`
      : `  requests: ${t.totals.sent} sent, ${bad} lost or slow (${pct}%): ${t.totals.timeout} timeouts, ${t.totals.refused} refused, ${t.totals.error} errors, ${slow} slower than the SLO`,
  );
  const lat = t.totals.latencyMs;
  if (lat)
    lines.push(
      `  latency (creation to answer or timeout): p50 ${lat.p50}ms, p90 ${lat.p90}ms, p99 ${lat.p99}ms, p99.9 ${lat.p999}ms, max ${lat.max}ms`,
    );
  if (t.firstFailure !== null && t.lastFailure !== null)
    lines.push(
      `  first ${slow === undefined ? "failure" : "failure or slow answer"} t+${clock(t.firstFailure)}, last t+${clock(t.lastFailure)}: a loss window of ${t.lossWindow.toFixed(1)}s (by send time)`,
    );
  for (const c of t.causes) lines.push(`  ${String(c.count).padStart(7)}  ${c.cause}`);
  if (t.levers && t.levers.length > 0) {
    lines.push(
      `  what shortens it (same scenario and seed, one lever pulled${lat ? `; p99 now ${lat.p99}ms` : ""}):`,
    );
    for (const l of t.levers)
      lines.push(
        `    ${l.lever}: ${l.lost} ${slow === undefined ? "lost" : "lost or slow"} (${l.saves >= 0 ? `saves ${l.saves}` : `${-l.saves} more`}), window ${l.lossWindow.toFixed(1)}s (${l.shortensBy >= 0 ? `${l.shortensBy.toFixed(1)}s shorter` : `${(-l.shortensBy).toFixed(1)}s longer`})${l.p99Ms === null ? "" : `, p99 ${l.p99Ms}ms`}`,
      );
  }
  return lines.join("\n");
}

/** Lease renewals are the heartbeat: shown only where they stop (see trace/visible.ts). */
export function headline(e: TraceEvent, message: string): string {
  if (e.type === "LeaseRenewed") return `${message} — the last renewal before it goes silent`;
  return message;
}

export function laneLabel(lane: Lane): string {
  return lane === "app" ? "your app" : lane;
}

/** 62.126 → "1:02.1"; whole seconds print without a fraction. */
export function clock(t: number): string {
  const sign = t < 0 ? "-" : "";
  // Round to the tenth first, then split into minutes: 59.96 s is 1:00, never 0:60.
  const tenths = Math.round(Math.abs(t) * 10);
  const m = Math.floor(tenths / 600);
  const rest = tenths - m * 600;
  const ss = rest % 10 === 0 ? String(rest / 10).padStart(2, "0") : (rest / 10).toFixed(1).padStart(4, "0");
  return `${sign}${m}:${ss}`;
}

function summaryText(result: SimulationResult): string {
  const lines = ["At the end"];
  for (const n of result.summary.nodes)
    lines.push(
      `  node ${n.name}: ${n.status}${n.taints.length > 0 ? `, taints ${n.taints.join(", ")}` : ""}`,
    );
  const notRunning = result.summary.pods.filter((p) => p.status !== "Running" || !p.ready);
  lines.push(
    `  pods: ${result.summary.pods.length} (${result.summary.pods.length - notRunning.length} Running and Ready)` +
      (notRunning.length > 0
        ? `; ${notRunning.map((p) => `${p.pod.split("/")[1]} ${p.status}${p.ready ? "" : " not ready"} on ${p.node ?? "no node"}`).join("; ")}`
        : ""),
  );
  const notReadyNodes = new Set(
    result.summary.nodes.filter((n) => !n.status.startsWith("Ready")).map((n) => n.name),
  );
  const present = new Set(result.summary.nodes.map((n) => n.name));
  for (const v of result.summary.volumes ?? []) {
    if (present.has(v.node) && !notReadyNodes.has(v.node)) continue;
    lines.push(
      `  volume of ${v.claim} still attached to ${v.node}, which ${present.has(v.node) ? "is not Ready" : "no longer exists"}: a pod elsewhere cannot attach it until it is detached`,
    );
  }
  for (const d of result.summary.drains) lines.push(`  ${drainText(d)}`);
  const twice = result.events.filter((e) => e.type === "PodRunsTwice");
  if (twice.length > 0)
    lines.push(`  ${twice.length} pod(s) ran twice: ${[...new Set(twice.map((e) => e.object))].join(", ")}`);
  return lines.join("\n");
}

/** How a drain stands at the end: kubectl's state, not one line per retry. */
function drainText(d: DrainSummary): string {
  const head = `drain of ${d.node} (t+${clock(d.at)}):`;
  const pods = (n: number) => `${n} pod${n === 1 ? "" : "s"}`;
  switch (d.status) {
    case "drained":
      return `${head} drained, ${pods(d.evicted)} evicted and gone`;
    case "evicting":
      return `${head} ${pods(d.evicted)} evicted, ${d.terminating ?? 0} still terminating: kubectl drain is still waiting`;
    case "failed":
      return `${head} failed: ${d.error ?? ""}; ${d.node} stays cordoned`;
    case "blocked":
      return `${head} still blocked: ${(d.blocked ?? [])
        .map(
          (b) =>
            `${b.pod.slice(b.pod.indexOf("/") + 1)} refused by PodDisruptionBudget ${b.pdb} since t+${clock(b.since)} (${b.refusals} refusal${b.refusals === 1 ? "" : "s"}, kubectl retrying every 5s)`,
        )
        .join(
          "; ",
        )}${d.evicted > 0 ? `; ${pods(d.evicted)} evicted` : ""}${d.error !== undefined ? `; ${d.error}` : ""}`;
  }
}

/**
 * Services with trafficDistribution (KEP-4444, KEP-3015), said once at t=0: how each node's
 * kube-proxy picks their endpoints (pkg/proxy/topology.go CategorizeEndpoints).
 */
function trafficDistributionLines(scenario: Scenario): string[] {
  const out: string[] = [];
  for (const m of scenario.manifests) {
    if (m.kind !== "Service" || m.object.kind !== "Service") continue;
    const td = m.object.spec.trafficDistribution;
    if (!td) continue;
    const where =
      td === "PreferSameNode"
        ? "the ready endpoints on its own node (hints.forNodes), else in its zone (hints.forZones)"
        : "the ready endpoints in its own zone (hints.forZones)";
    out.push(
      `  Service ${m.object.metadata.namespace}/${m.object.metadata.name}: trafficDistribution: ${td}: each node's kube-proxy sends to ${where}, and to every ready endpoint when none is there`,
    );
  }
  return out;
}
