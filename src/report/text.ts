// The human timeline, in the seed's form: steps grouped by time, each in a lane, each saying why it
// happened at that moment and what a user would see. Reads only the result (the state at t=0, the
// trace, the summary) and the scenario's names.

import { isWorkload } from "../kubernetes/objects.ts";
import type { Scenario } from "../scenario/types.ts";
import type { Lane, TraceEvent } from "../trace/events.ts";
import type { InitialState, SimulationResult } from "../trace/result.ts";
import { visibleEventIndexes } from "../trace/visible.ts";
import { proseOf } from "./messages/index.ts";

const LANE_WIDTH = 15;

export interface TextOptions {
  /** print every Lease renewal, not only the last one before a node goes silent */
  allLeases?: boolean;
}

export function formatTimeline(
  result: SimulationResult,
  scenario: Scenario,
  options: TextOptions = {},
): string {
  const out: string[] = [];
  const s = result.summary.settings;
  out.push(
    `faultline simulate · ${result.scenario} · Kubernetes ${result.kubernetesVersion} · seed ${result.seed} · ${clock(result.summary.duration)} simulated`,
  );
  out.push("");
  out.push("Starting state");
  out.push(...startingNodes(result.initial, scenario));
  const workloads = scenario.manifests.filter((m) => isWorkload(m.kind));
  if (workloads.length > 0)
    out.push(`  workloads: ${workloads.map((m) => `${m.kind} ${m.object.metadata.name}`).join(", ")}`);
  out.push(...startingPods(result.initial));
  if (scenario.ignored.length > 0)
    out.push(`  ignored (not modelled): ${scenario.ignored.map((i) => `${i.kind} ${i.name}`).join(", ")}`);
  if (scenario.notModelled.length > 0)
    out.push(`  not modelled: ${scenario.notModelled.map((n) => `${n.field} (${n.where})`).join(", ")}`);
  out.push(
    `  node-monitor-period=${s.nodeMonitorPeriod}s, node-monitor-grace-period=${s.nodeMonitorGracePeriod}s, ` +
      `default-unreachable-toleration-seconds=${s.defaultUnreachableTolerationSeconds}, node-eviction-rate=${s.nodeEvictionRate}, ` +
      `lease renewed every ${Number(s.nodeLeaseDurationSeconds) * 0.25}s`,
  );
  out.push("");

  const shown = visibleEvents(result.events, result.summary.duration, options);
  let lastTime: number | undefined;
  for (const e of shown) {
    const head = lastTime === e.t ? "" : `t+${clock(e.t)}`;
    if (lastTime !== e.t && lastTime !== undefined) out.push("");
    lastTime = e.t;
    const prose = proseOf(e);
    out.push(`${head.padEnd(12)}${laneLabel(e.lane).padEnd(LANE_WIDTH)}${headline(e, prose.message)}`);
    const indent = " ".repeat(12 + LANE_WIDTH);
    if (prose.why) out.push(`${indent}why now: ${prose.why}`);
    if (prose.see) {
      out.push(`${indent}you would see:`);
      for (const line of prose.see.split("\n")) out.push(`${indent}  ${line}`);
    }
  }
  out.push("");
  out.push(summaryText(result));
  if (result.traffic) out.push(trafficText(result.traffic));
  return `${out.join("\n")}\n`;
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

/** Every pod that is not Running and Ready at t=0, with why (trace/result.ts InitialPod). */
function startingPods(initial: InitialState): string[] {
  return initial.pods
    .filter((p) => p.reason !== undefined)
    .map(
      (p) =>
        `  not Running and Ready at t=0: ${p.pod.split("/")[1]} ${p.phase} on ${p.node ?? "no node"}: ${p.reason}${p.message ? ` (${p.message})` : ""}`,
    );
}

/** What the callers felt: requests lost, first and last failure, the loss window, the levers. */
export function trafficText(t: NonNullable<SimulationResult["traffic"]>): string {
  const lost = t.totals.timeout + t.totals.refused + t.totals.error;
  const pct = t.totals.sent > 0 ? ((100 * lost) / t.totals.sent).toFixed(2) : "0";
  const lines = [`Traffic (profile ${t.profile})`];
  lines.push(
    `  requests: ${t.totals.sent} sent, ${lost} lost (${pct}%): ${t.totals.timeout} timeouts, ${t.totals.refused} refused, ${t.totals.error} errors`,
  );
  if (t.firstFailure !== null && t.lastFailure !== null)
    lines.push(
      `  first failure t+${clock(t.firstFailure)}, last t+${clock(t.lastFailure)}: a loss window of ${t.lossWindow.toFixed(1)}s (by send time)`,
    );
  for (const c of t.causes) lines.push(`  ${String(c.count).padStart(7)}  ${c.cause}`);
  if (t.levers && t.levers.length > 0) {
    lines.push("  what shortens it (same scenario and seed, one lever pulled):");
    for (const l of t.levers)
      lines.push(
        `    ${l.lever}: ${l.lost} lost (${l.saves >= 0 ? `saves ${l.saves}` : `${-l.saves} more`}), window ${l.lossWindow.toFixed(1)}s (${l.shortensBy >= 0 ? `${l.shortensBy.toFixed(1)}s shorter` : `${(-l.shortensBy).toFixed(1)}s longer`})`,
      );
  }
  return lines.join("\n");
}

/** Lease renewals are the heartbeat: shown only where they stop (see trace/visible.ts). */
function visibleEvents(events: TraceEvent[], duration: number, options: TextOptions): TraceEvent[] {
  if (options.allLeases) return events;
  return visibleEventIndexes(events, duration).map((i) => events[i]!);
}

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
  const a = Math.abs(t);
  const m = Math.floor(a / 60);
  const s = a - m * 60;
  const ss = Number.isInteger(Math.round(s * 10) / 10)
    ? String(Math.round(s)).padStart(2, "0")
    : (Math.round(s * 10) / 10).toFixed(1).padStart(4, "0");
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
  const twice = result.events.filter((e) => e.type === "PodRunsTwice");
  if (twice.length > 0)
    lines.push(`  ${twice.length} pod(s) ran twice: ${[...new Set(twice.map((e) => e.object))].join(", ")}`);
  return lines.join("\n");
}
