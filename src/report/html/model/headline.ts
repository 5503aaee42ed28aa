// The headline: every step of the scenario's timeline, in order, with what each caused (nodes and pods
// lost, endpoints, replacements or restarts, what did not recover), and the whole run's figures. Steps of
// one action at one moment (a zone's 250 power-offs) are one entry.

import type { FaultAction, Scenario } from "../../../scenario/types.ts";
import type { TraceEvent } from "../../../trace/events.ts";
import { LOST_NODE_CAUSES } from "../../../traffic/outcomes.ts";
import { proseOf } from "../../messages/index.ts";
import { type Lever, NEXT_LEVERS, nextLever } from "./levers.ts";
import type { ReportResult } from "./payload.ts";
import { isPod, podOwners, readyEndpointsAt } from "./pods.ts";

type Fault = Extract<TraceEvent, { type: "FaultInjected" }>;

/** One timeline action at one moment, on one or more nodes or pods, and what followed from it. */
export interface FaultEntry {
  t: number;
  do: FaultAction;
  /** the first step's prose (messages/), e.g. "a-1 loses power" */
  message: string;
  /** what the steps act on: node names, or pods as `<namespace>/<name>` */
  targets: string[];
  kind: "node" | "pod";
  /** a recovery (power-on, network-heal, uncordon, dependency-up…) or an operator's action (the out-of-service taint): no fault, it loses nothing */
  recovery: boolean;
  /** the step acted on no running pod (a pod action's outcome `not-running` or `no-pod`) */
  noEffect: boolean;
  /** the cluster noticed: the first NodeNotReady (node faults), the first failed check's consequence (pods) */
  noticed: number | null;
  /** pods on the failed nodes (node faults) or the pods acted on */
  lostPods: string[];
  /** endpoints of those pods that were ready when the fault struck */
  endpointsLost: number;
  /** the last of those endpoints stopped being ready (null: none was lost, or not by the end) */
  trafficStopped: number | null;
  /** node faults: the last replacement became Ready; pod faults: the last pod was Ready again */
  replaced: number | null;
  /** lost pods nothing replaced by the end (a StatefulSet member waiting on its old pod) */
  notReplaced: string[];
  /** pod faults: containers restarted in place after the step */
  restarts: number;
  /** the lengths of lostPods and notReplaced where the lists are cut (the page's first view) */
  lostPodCount?: number;
  notReplacedCount?: number;
}

export interface Headline {
  /** every timeline step, grouped by moment and action, in order */
  faults: FaultEntry[];
  /** the first fault's time (recoveries aside) */
  failed: number | null;
  /** the first moment the cluster noticed any fault */
  noticed: number | null;
  /** traffic stopped going to the last lost endpoint (callers' last request there when traffic ran) */
  trafficStopped: number | null;
  /** the last replacement (or restart) Ready */
  replaced: number | null;
  notReplaced: string[];
  /** the length of notReplaced where the list is cut (the page's first view) */
  notReplacedCount?: number;
  /** distinct nodes the faults acted on */
  nodesLost: number;
  /** distinct pods lost over the run */
  podsLost: number;
  endpointsLost: number;
  /** pods Running and Ready at the end, of all pods at the end */
  podsReady: number;
  podsAtEnd: number;
  /** zones whose state the node lifecycle controller changed (PartialDisruption, FullDisruption) */
  zones: { t: number; zone: string; state: string }[];
  /** requests that did not succeed; null when the run has no traffic part */
  requestsLost: number | null;
  next: Lever;
}

/** Steps that end a fault rather than start one. */
export const RECOVERIES: ReadonlySet<FaultAction> = new Set([
  "power-on",
  "network-heal",
  "kubelet-start",
  "uncordon",
  "dependency-up",
  "recover",
]);
/**
 * An operator's actions on a node already lost: the out-of-service taint (non-graceful node shutdown,
 * a person or an automation confirming the machine is off) ends no fault and is no second one; it is
 * shown as a step, like a recovery, while the loss it answers keeps its window.
 */
export const OPERATOR_ACTIONS: ReadonlySet<FaultAction> = new Set(["taint-out-of-service"]);
/** Faults of one pod's process: the kubelet notices through probes and restarts the container in place. */
export const POD_FAULTS: ReadonlySet<FaultAction> = new Set(["deadlock", "crash", "dependency-down"]);
/** Planned actions: the cluster knows at once. */
const PLANNED = new Set([
  "drain",
  "cordon",
  "delete-node",
  "taint-out-of-service",
  "force-delete-pod",
  "rollout-restart",
]);
/** What the cluster does to a pod on a lost node: each names the node. */
const PHASE_EVENTS = new Set([
  "PodNotReady",
  "PodEvicted",
  "EndpointNotReady",
  "PodRunsTwice",
  "PodTerminated",
]);

export function headline(result: ReportResult, _scenario?: Scenario): Headline {
  const events = result.events;
  const owners = podOwners(result);
  const groups = faultGroups(events);
  const claimed = new Set<string>();
  const faults = groups.map((g, i) => entry(result, owners, g, groups.slice(i + 1), claimed));
  const real = faults.filter((f) => !f.recovery && !f.noEffect);
  const max = (xs: (number | null)[]) => {
    const v = xs.filter((x): x is number => x !== null);
    return v.length > 0 ? Math.max(...v) : null;
  };
  const min = (xs: (number | null)[]) => {
    const v = xs.filter((x): x is number => x !== null);
    return v.length > 0 ? Math.min(...v) : null;
  };
  const lost = new Set(real.flatMap((f) => f.lostPods));
  const failed = real[0]?.t ?? null;
  // With callers in the run, what they met says when traffic really stopped reaching the lost nodes:
  // the last request sent there (kube-proxy and the load balancer lag the EndpointSlice).
  const toLostNode = (result.traffic?.causes ?? []).filter(
    (c) => c.count > 0 && c.last !== undefined && LOST_NODE_CAUSES.has(c.cause),
  );
  const trafficStopped =
    toLostNode.length > 0
      ? Math.max(...toLostNode.map((c) => c.last!))
      : max(real.map((f) => f.trafficStopped));
  return {
    faults,
    failed,
    noticed: min(real.map((f) => f.noticed)),
    trafficStopped,
    replaced: max(real.map((f) => f.replaced)),
    notReplaced: real.flatMap((f) => f.notReplaced),
    nodesLost: new Set(real.filter((f) => f.kind === "node").flatMap((f) => f.targets)).size,
    podsLost: lost.size,
    endpointsLost: real.reduce((a, f) => a + f.endpointsLost, 0),
    podsReady: result.summary.pods.filter((p) => p.ready).length,
    podsAtEnd: result.summary.pods.length,
    zones: events.flatMap((e) =>
      e.type === "ZoneStateChanged" ? [{ t: e.t, zone: e.zone, state: e.state }] : [],
    ),
    requestsLost: lostRequests(result.traffic),
    next:
      failed === null
        ? NEXT_LEVERS.spread
        : real.every((f) => POD_FAULTS.has(f.do))
          ? NEXT_LEVERS.probes
          : nextLever(result, owners, lost, failed, trafficStopped),
  };
}

/** FaultInjected events of one action at one moment, together. */
function faultGroups(events: readonly TraceEvent[]): Fault[][] {
  const out: Fault[][] = [];
  for (const e of events) {
    if (e.type !== "FaultInjected") continue;
    const last = out[out.length - 1];
    if (
      last &&
      last[0]!.t === e.t &&
      last[0]!.do === e.do &&
      (last[0]!.pod === undefined) === (e.pod === undefined)
    )
      last.push(e);
    else out.push([e]);
  }
  return out;
}

function entry(
  result: ReportResult,
  owners: Map<string, string>,
  group: Fault[],
  later: Fault[][],
  claimed: Set<string>,
): FaultEntry {
  const first = group[0]!;
  const t = first.t;
  const kind = first.pod !== undefined ? "pod" : "node";
  const applied = group.filter((e) => e.outcome === undefined || e.outcome === "applied");
  const targets = [...new Set(group.map((e) => (kind === "pod" ? e.pod! : e.node!)))];
  const base: FaultEntry = {
    t,
    do: first.do,
    message: proseOf(first).message,
    targets,
    kind,
    recovery: RECOVERIES.has(first.do) || OPERATOR_ACTIONS.has(first.do),
    noEffect: applied.length === 0,
    noticed: null,
    lostPods: [],
    endpointsLost: 0,
    trafficStopped: null,
    replaced: null,
    notReplaced: [],
    restarts: 0,
  };
  if (base.recovery || base.noEffect) return base;
  // A node fault lasts until a later step recovers its nodes; a pod fault until the next fault on its
  // pods (the dependency's return ends nothing: the pod still has to pass its probes).
  const targetSet = new Set(targets);
  const ends = (g: Fault[]) =>
    (kind === "node" ? RECOVERIES.has(g[0]!.do) : !RECOVERIES.has(g[0]!.do)) &&
    g.some((e) => targetSet.has(kind === "pod" ? e.pod! : e.node!));
  const end = later.find(ends)?.[0]?.t ?? Number.POSITIVE_INFINITY;
  const after = result.events.filter((e) => e.t >= t && e.t < end);

  const lost = new Set<string>();
  if (kind === "pod") for (const e of applied) lost.add(`Pod/${e.pod}`);
  else
    for (const e of after)
      if (PHASE_EVENTS.has(e.type) && e.node !== undefined && targetSet.has(e.node) && isPod(e.object))
        lost.add(e.object);
  base.lostPods = [...lost];

  if (POD_FAULTS.has(first.do)) {
    // The kubelet notices (a failed probe's consequence) and restarts the container or waits: the pod is
    // Ready again, nothing is replaced.
    const noticed = after.find(
      (e) =>
        lost.has(e.object) &&
        (e.type === "PodNotReady" || e.type === "ContainerKilled" || e.type === "ContainerExited"),
    );
    base.noticed = noticed?.t ?? null;
    if (noticed) {
      const back = new Map<string, number>();
      for (const e of after)
        if (e.type === "PodReady" && lost.has(e.object) && e.t > noticed.t && !back.has(e.object))
          back.set(e.object, e.t);
      base.replaced = back.size === lost.size ? Math.max(...back.values()) : null;
    }
    base.restarts = after.filter(
      (e) => e.type === "ContainerStarted" && lost.has(e.object) && e.restartCount > 0,
    ).length;
  } else {
    // The node controller's Unknown, or the kubelet's own Ready=False (a stopped container runtime).
    const notReady = after.find(
      (e) => (e.type === "NodeNotReady" || e.type === "KubeletNodeNotReady") && targetSet.has(e.node ?? ""),
    );
    base.noticed = notReady ? notReady.t : PLANNED.has(first.do) ? t : null;
    replacements(base, after, owners, claimed);
  }

  // Endpoints of the lost pods that were ready when the fault struck, and when each stopped being ready.
  const pending = new Set(
    [...readyEndpointsAt(result, t)].filter((k) => lost.has(k.slice(k.indexOf("|") + 1))),
  );
  base.endpointsLost = pending.size;
  for (const e of after) {
    if (pending.size === 0) break;
    if (e.type !== "EndpointNotReady" && e.type !== "EndpointRemoved") continue;
    if (pending.delete(`${e.service}|${e.object}`) && pending.size === 0) base.trafficStopped = e.t;
  }
  return base;
}

/**
 * Replacements: pods the lost pods' owners create after the fault, counted once Ready. A replacement
 * counts for one fault only (`claimed`), the earliest that still needs one from its owner.
 */
function replacements(
  f: FaultEntry,
  after: readonly TraceEvent[],
  owners: Map<string, string>,
  claimed: Set<string>,
): void {
  const byOwner = new Map<string, string[]>();
  for (const p of f.lostPods) {
    const o = owners.get(p);
    if (o === undefined || o.startsWith("DaemonSet/") || o.startsWith("Pod/")) continue;
    byOwner.set(o, [...(byOwner.get(o) ?? []), p]);
  }
  const created = new Map<string, string>();
  const got = new Map<string, number>();
  for (const e of after) {
    if (e.type === "PodCreated" && byOwner.has(e.owner) && !claimed.has(e.object))
      created.set(e.object, e.owner);
    if (e.type === "PodReady" && created.has(e.object)) {
      const o = created.get(e.object)!;
      created.delete(e.object);
      if ((got.get(o) ?? 0) < byOwner.get(o)!.length) {
        got.set(o, (got.get(o) ?? 0) + 1);
        claimed.add(e.object);
        f.replaced = e.t;
      }
    }
  }
  for (const [o, pods] of byOwner)
    for (let i = got.get(o) ?? 0; i < pods.length; i++) f.notReplaced.push(pods[i]!.split("/").slice(-1)[0]!);
}

function lostRequests(traffic: ReportResult["traffic"]): number | null {
  if (!traffic) return null;
  const t = traffic.totals;
  return t.timeout + t.refused + t.error;
}
