// `simulate --brief`: one screen (at most 15 lines) instead of the timeline: what happened and when
// (the timeline's faults and the control plane's answers to them, in the timeline's own words), what
// it cost (each Service's seconds with fewer ready endpoints than at t=0, and without any), and the
// next thing to do. Read from the result only, as every printer is.

import { formatDuration } from "../engine/time.ts";
import type { SimulationResult } from "../run/result.ts";
import { applyEndpointEvent, initialReadyEndpoints } from "../trace/endpoints.ts";
import type { TraceEvent } from "../trace/events.ts";
import { proseOf } from "./messages/index.ts";
import { clock } from "./text.ts";

/** The most lines --brief prints. */
export const BRIEF_LINES = 15;

/** What the brief tells of the timeline: the faults, and the first answer of each kind per node. */
const MILESTONES = new Set(["FaultInjected", "NodeNotReady", "NodeTainted", "PodEvicted", "PodRunsTwice"]);

export function formatBrief(result: SimulationResult): string {
  const head = `faultline simulate · ${result.scenario} · Kubernetes ${result.kubernetesVersion} · seed ${result.seed} · ${clock(result.summary.duration)} simulated`;
  const cost = costLines(result);
  const next = nextStep(result, cost.length > 0);
  // Room for the head, the two section titles and the next step; the rest for what happened.
  const room = BRIEF_LINES - 4 - Math.min(cost.length, 4) - (cost.length > 0 ? 1 : 0);
  const happened = happenedLines(result.events, room);
  const lines = [head, "What happened", ...happened];
  if (cost.length > 0) lines.push("What it cost", ...cost.slice(0, 4));
  else lines.push("What it cost: every Service kept all its ready endpoints");
  lines.push(`Next: ${next}`);
  return `${lines.slice(0, BRIEF_LINES).join("\n")}\n`;
}

function happenedLines(events: readonly TraceEvent[], room: number): string[] {
  const seen = new Set<string>();
  const evicted = new Map<string, { t: number; n: number }>();
  const out: { t: number; text: string }[] = [];
  for (const e of events) {
    if (!MILESTONES.has(e.type)) continue;
    if (e.type === "PodEvicted") {
      const key = e.node ?? "";
      const seenAt = evicted.get(key);
      if (seenAt) seenAt.n++;
      else evicted.set(key, { t: e.t, n: 1 });
      continue;
    }
    if (e.type === "NodeTainted" && !e.taint.endsWith(":NoExecute")) continue;
    const key = `${e.type}/${e.node ?? e.object}`;
    if (e.type !== "FaultInjected" && seen.has(key)) continue;
    seen.add(key);
    out.push({ t: e.t, text: proseOf(e).message });
  }
  for (const [node, { t, n }] of evicted)
    out.push({
      t,
      text: `${n} pod${n === 1 ? "" : "s"} evicted${node ? ` from ${node}` : ""} (from this time on)`,
    });
  out.sort((a, b) => a.t - b.t);
  const lines = out.map((m) => `  t+${clock(m.t).padEnd(8)} ${m.text}`);
  if (lines.length === 0) return ["  no fault and no answer of the control plane in this run"];
  if (lines.length <= room) return lines;
  return [
    ...lines.slice(0, room - 1),
    `  … ${lines.length - room + 1} more: run without --brief for the timeline`,
  ];
}

/** Each Service that lost ready endpoints: for how long it had fewer than at t=0, and none. */
function costLines(result: SimulationResult): string[] {
  const ready = initialReadyEndpoints(result.initial);
  const want = new Map([...ready].map(([s, pods]) => [s, pods.size]));
  const since = new Map<string, { fewer: number | null; none: number | null }>();
  const total = new Map<string, { fewer: number; none: number }>();
  const settle = (s: string, t: number) => {
    const at = since.get(s) ?? { fewer: null, none: null };
    const sum = total.get(s) ?? { fewer: 0, none: 0 };
    const n = ready.get(s)?.size ?? 0;
    const w = want.get(s) ?? 0;
    if (n < w && at.fewer === null) at.fewer = t;
    if (n >= w && at.fewer !== null) {
      sum.fewer += t - at.fewer;
      at.fewer = null;
    }
    if (n === 0 && w > 0 && at.none === null) at.none = t;
    if (n > 0 && at.none !== null) {
      sum.none += t - at.none;
      at.none = null;
    }
    since.set(s, at);
    total.set(s, sum);
  };
  for (const e of result.events) {
    if (!applyEndpointEvent(ready, e)) continue;
    settle((e as { service: string }).service, e.t);
  }
  const end = result.summary.duration;
  const out: string[] = [];
  for (const [s, sum] of [...total].sort(([a], [b]) => a.localeCompare(b))) {
    const at = since.get(s)!;
    const fewer = sum.fewer + (at.fewer !== null ? end - at.fewer : 0);
    const none = sum.none + (at.none !== null ? end - at.none : 0);
    if (fewer === 0) continue;
    const still = at.fewer !== null ? ", still at the end" : "";
    out.push(
      Math.round(none) === Math.round(fewer)
        ? `  ${s}: no ready endpoint for ${rounded(none)}${still}`
        : `  ${s}: ${none > 0 ? `no ready endpoint for ${rounded(none)}` : "never without a ready endpoint"}; fewer than its ${want.get(s)} for ${rounded(fewer)}${still}`,
    );
  }
  return out;
}

/** The one thing to do next, from the state at the end. */
function nextStep(result: SimulationResult, lost: boolean): string {
  const down = new Set(result.summary.nodes.filter((n) => !n.status.startsWith("Ready")).map((n) => n.name));
  // A StatefulSet's pod on a lost node waits for a person (a replacement would share its identity and
  // volume: pkg/controller/statefulset never makes a second); a Deployment's is replaced already.
  const owner = new Map(result.initial.pods.map((p) => [p.pod, p.owner]));
  const stuck = result.summary.pods.filter(
    (p) =>
      p.status === "Terminating" &&
      p.node &&
      down.has(p.node) &&
      (owner.get(p.pod) ?? "").startsWith("StatefulSet/"),
  );
  if (stuck.length > 0) {
    const node = stuck[0]!.node!;
    // KEP-2268 (non-graceful node shutdown, GA in 1.28): the out-of-service taint lets the pods and
    // their volumes go once a person knows the node is off.
    return `${stuck.map((p) => p.pod.split("/")[1]).join(", ")} wait${stuck.length === 1 ? "s" : ""} for a person: once ${node} is known to be off, kubectl taint nodes ${node} node.kubernetes.io/out-of-service=nodeshutdown:NoExecute`;
  }
  if (lost)
    return "faultline audit on the same manifests measures which change removes this (replicas, spread, probes)";
  return "run without --brief for the timeline, each step with why it happened when it did";
}

/** A span as the timeline writes it, to the second past 10s (one screen has no room for 14m2.967s). */
function rounded(seconds: number): string {
  return formatDuration(seconds >= 10 ? Math.round(seconds) : Math.round(seconds * 10) / 10);
}
