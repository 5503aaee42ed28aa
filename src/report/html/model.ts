// What the HTML report shows, derived from the trace, the summary and the scenario: the headline, the
// steps of the player, per-second series (ready endpoints, pods by phase, requests by outcome) and the
// probe rows. Pure and DOM-free: the page runs it in the browser, the tests run it in Node to compare the
// page's figures with the command line's.

import type { DetectorAnalysis } from "../../detectors/analysis.ts";
import { matchesMap } from "../../kubernetes/labels.ts";
import { type KubeObject, podSpecOf } from "../../kubernetes/objects.ts";
import type { SimulationResult } from "../../run/simulate.ts";
import type { Scenario } from "../../scenario/types.ts";
import type { Lane, TraceEvent } from "../../trace/events.ts";
import { visibleEventIndexes } from "../../trace/visible.ts";
import { LOST_NODE_CAUSES } from "../../traffic/outcomes.ts";
import { proseOf } from "../messages/index.ts";

export const LANES: readonly Lane[] = ["kubelet", "app", "network", "control-plane", "operator"];
export const LANE_LABELS: Record<Lane, string> = {
  kubelet: "kubelet",
  app: "your app",
  network: "network",
  "control-plane": "control plane",
  operator: "operator",
};

/** The traffic part of a result, once the traffic model fills it (`result.traffic`). */
export interface TrafficSecond {
  t: number;
  sent: number;
  ok: number;
  timeout: number;
  refused: number;
  error: number;
}
export interface TrafficPart {
  totals: Partial<Record<"sent" | "ok" | "timeout" | "refused" | "error", number>>;
  perSecond: TrafficSecond[];
  causes: { cause: string; count: number; first?: number; last?: number }[];
  /** what each lever saves, when the run measured it */
  levers?: { lever: string; saves: number }[];
}
export type ReportResult = SimulationResult & { traffic?: TrafficPart };

export interface Variant {
  label: string;
  result: ReportResult;
}

/** Everything a simulate report embeds: the loaded scenario (for the what-if panel) and its run. */
export interface SimulatePayload {
  kind: "simulate";
  scenario: Scenario;
  result: ReportResult;
  /** `--vary` runs, shown side by side. */
  variants?: Variant[];
}

/** `faultline detector compare --report`. */
export interface DetectorPayload {
  kind: "detector";
  distribution: string;
  meanGapMs: number;
  nodes: number;
  watchersPerNode: number;
  detectors: DetectorAnalysis[];
}

export type ReportPayload = SimulatePayload | DetectorPayload;

// ---- headline ------------------------------------------------------------------------------------------

export interface Headline {
  failure: { t: number; message: string; node?: string; do: string } | null;
  /** The cluster noticed: the failed node's Ready condition left True (or at once for a planned action). */
  noticed: number | null;
  /** The last ready endpoint on the failed node stopped being ready: Services stop sending new requests. */
  trafficStopped: number | null;
  /** The last lost pod's replacement became Ready (null: nothing was replaced). */
  replaced: number | null;
  /** Lost pods nothing replaced by the end, e.g. a StatefulSet member waiting on its old pod. */
  notReplaced: string[];
  /** Requests that did not succeed; null when the run has no traffic part. */
  requestsLost: number | null;
  /** Pods on the failed node when it failed. */
  lostPods: string[];
  next: Lever;
}

export interface Lever {
  title: string;
  text: string;
}

/** The seed's "What you actually control", in its words. */
export const LEVERS = {
  callerChecks: {
    title: "Caller-side health checks",
    text: "The fastest lever, because it does not wait for the node controller at all. Outlier detection in a client library or service mesh stops sending to an endpoint that has stopped answering within seconds. Readiness probes cannot do this: the kubelet that runs them was on the node that disappeared.",
  },
  timeouts: {
    title: "Client timeouts and retries",
    text: "What determines the blast radius until the node's pods are marked not ready, and after that for any caller still holding connections to them. A caller with a 30-second timeout and no retry budget will queue up requests and exhaust its own connection pool.",
  },
  spread: {
    title: "Topology spread constraints",
    text: "Decides how much you lose. Three replicas on three nodes lose a third of capacity; three replicas that all landed on one node lose everything.",
  },
  toleration: {
    title: "tolerationSeconds on the node.kubernetes.io/unreachable taint",
    text: "Shortens the eviction wait. A node that stops heartbeating is Unknown, which applies unreachable, not not-ready, so that is the toleration to change. Tempting, and worth being careful with: the wait exists so that a brief network partition does not trigger a cluster-wide reschedule.",
  },
} as const satisfies Record<string, Lever>;

/** Faults of one pod's process: the kubelet notices through probes and restarts the container in place. */
const POD_FAULTS = new Set(["deadlock", "crash", "dependency-down"]);
const PLANNED = new Set(["drain", "cordon", "delete-node", "taint-out-of-service", "force-delete-pod"]);
const PHASE_EVENTS = new Set([
  "PodNotReady",
  "PodEvicted",
  "EndpointNotReady",
  "PodRunsTwice",
  "PodTerminated",
]);

export function headline(result: ReportResult, scenario: Scenario): Headline {
  const events = result.events;
  const fault = events.find(
    (e): e is Extract<TraceEvent, { type: "FaultInjected" }> => e.type === "FaultInjected",
  );
  const owners = podOwners(result, scenario);
  const requestsLost = lostRequests(result.traffic);
  if (!fault) {
    return {
      failure: null,
      noticed: null,
      trafficStopped: null,
      replaced: null,
      notReplaced: [],
      requestsLost,
      lostPods: [],
      next: LEVERS.spread,
    };
  }
  const node = fault.node;
  const after = events.filter((e) => e.t >= fault.t);
  let noticed: number | null = null;
  // The node controller's Unknown, or the kubelet's own Ready=False (a stopped container runtime).
  const notReady = after.find(
    (e) =>
      (e.type === "NodeNotReady" || e.type === "KubeletNodeNotReady") &&
      (node === undefined || e.node === node),
  );
  if (notReady) noticed = notReady.t;
  else if (PLANNED.has(fault.do)) noticed = fault.t;

  // Pods on the failed node: whatever the cluster did to them afterwards names the node.
  const lost = new Set<string>();
  if (node !== undefined)
    for (const e of after)
      if (PHASE_EVENTS.has(e.type) && e.node === node && isPod(e.object)) lost.add(e.object);

  // Endpoints on the node that were ready when it failed, and when each stopped being ready.
  const ready = readyEndpointsAt(result, scenario, fault.t);
  const onNode = [...ready].filter((k) => lost.has(k.slice(k.indexOf("|") + 1)));
  let trafficStopped: number | null = null;
  // With callers in the run, what they met says when traffic really stopped reaching the lost node:
  // the last request sent there (kube-proxy and the load balancer lag the EndpointSlice).
  const toLostNode = (result.traffic?.causes ?? []).filter(
    (c) => c.count > 0 && c.last !== undefined && LOST_NODE_CAUSES.has(c.cause),
  );
  if (toLostNode.length > 0) trafficStopped = Math.max(...toLostNode.map((c) => c.last!));
  else if (onNode.length > 0) {
    const pending = new Set(onNode);
    for (const e of after) {
      if (e.type !== "EndpointNotReady" && e.type !== "EndpointRemoved") continue;
      const k = `${e.service}|${e.object}`;
      if (pending.delete(k) && pending.size === 0) {
        trafficStopped = e.t;
        break;
      }
    }
  }

  // Replacements: pods created after the fault by the owners of the lost pods, counted once Ready.
  const lostReplaceable = [...lost].filter((p) => {
    const o = owners.get(p);
    return o !== undefined && !o.startsWith("DaemonSet/") && !o.startsWith("Pod/");
  });
  const need = new Map<string, number>();
  for (const p of lostReplaceable) {
    const o = owners.get(p)!;
    need.set(o, (need.get(o) ?? 0) + 1);
  }
  const created = new Map<string, string>();
  let replaced: number | null = null;
  const got = new Map<string, number>();
  for (const e of after) {
    if (e.type === "PodCreated" && need.has(e.owner)) created.set(e.object, e.owner);
    if (e.type === "PodReady" && created.has(e.object)) {
      const o = created.get(e.object)!;
      created.delete(e.object);
      if ((got.get(o) ?? 0) < need.get(o)!) {
        got.set(o, (got.get(o) ?? 0) + 1);
        replaced = e.t;
      }
    }
  }
  if (POD_FAULTS.has(fault.do)) {
    // Nothing is replaced: the kubelet notices (a failed probe's consequence) and restarts the container.
    const noticedBy = after.find(
      (e) => lost.has(e.object) && (e.type === "PodNotReady" || e.type === "ContainerKilled"),
    );
    const restarted = after.find(
      (e) => lost.has(e.object) && e.type === "ContainerStarted" && e.restartCount > 0 && e.t > fault.t,
    );
    return {
      failure: {
        t: fault.t,
        message: proseOf(fault).message,
        do: fault.do,
        ...(node !== undefined ? { node } : {}),
      },
      noticed: noticedBy?.t ?? null,
      trafficStopped,
      replaced: restarted?.t ?? null,
      notReplaced: [],
      requestsLost,
      lostPods: [...lost],
      next: nextLever(result, scenario, owners, lost, fault.t, trafficStopped),
    };
  }
  const notReplaced: string[] = [];
  const lostByOwner = new Map<string, string[]>();
  for (const p of lostReplaceable) {
    const o = owners.get(p)!;
    const list = lostByOwner.get(o) ?? [];
    list.push(p);
    lostByOwner.set(o, list);
  }
  for (const [o, n] of need)
    for (let i = got.get(o) ?? 0; i < n; i++)
      notReplaced.push(lostByOwner.get(o)![i]!.split("/").slice(-1)[0]!);

  return {
    failure: {
      t: fault.t,
      message: proseOf(fault).message,
      do: fault.do,
      ...(node !== undefined ? { node } : {}),
    },
    noticed,
    trafficStopped,
    replaced,
    notReplaced,
    requestsLost,
    lostPods: [...lost],
    next: nextLever(result, scenario, owners, lost, fault.t, trafficStopped),
  };
}

function nextLever(
  result: ReportResult,
  scenario: Scenario,
  owners: Map<string, string>,
  lost: Set<string>,
  faultT: number,
  trafficStopped: number | null,
): Lever {
  // A workload that lost every replica it had: spread decides how much you lose.
  const total = new Map<string, number>();
  const lostBy = new Map<string, number>();
  for (const p of initialPods(result, scenario)) {
    const o = owners.get(p);
    if (!o || o.startsWith("DaemonSet/")) continue;
    total.set(o, (total.get(o) ?? 0) + 1);
    if (lost.has(p)) lostBy.set(o, (lostBy.get(o) ?? 0) + 1);
  }
  for (const [o, n] of lostBy) if (n === total.get(o) && n > 1) return LEVERS.spread;
  // The traffic model measured what each lever saves: take the one that saves most.
  const measured = result.traffic?.levers?.filter((l) => l.saves > 0).sort((a, b) => b.saves - a.saves)[0];
  if (measured) {
    const known = leverFor(measured.lever);
    const saves = `Pulled in this scenario, it saves ${measured.saves.toLocaleString("en")} of the lost requests.`;
    return known
      ? { title: known.title, text: `${known.text} ${saves}` }
      : { title: measured.lever, text: saves };
  }
  if (trafficStopped === null || trafficStopped - faultT > 10) {
    if (result.traffic && (result.traffic.totals.timeout ?? 0) > 0 && trafficStopped !== null)
      return LEVERS.callerChecks;
    if (lost.size > 0) return LEVERS.callerChecks;
  }
  const evicted = result.events.find((e) => e.type === "PodEvicted" && e.t > faultT);
  if (evicted && evicted.t - faultT > 120) return LEVERS.toleration;
  return LEVERS.timeouts;
}

function leverFor(name: string): Lever | undefined {
  const n = name.toLowerCase();
  if (/outlier|health|eject|circuit/.test(n)) return LEVERS.callerChecks;
  if (/timeout|retr/.test(n)) return LEVERS.timeouts;
  if (/spread|topology/.test(n)) return LEVERS.spread;
  if (/toleration/.test(n)) return LEVERS.toleration;
  return undefined;
}

function lostRequests(traffic: TrafficPart | undefined): number | null {
  if (!traffic?.totals) return null;
  const t = traffic.totals;
  return (t.timeout ?? 0) + (t.refused ?? 0) + (t.error ?? 0);
}

function isPod(object: string): boolean {
  return object.startsWith("Pod/");
}

// ---- pods, owners, endpoints ---------------------------------------------------------------------------

const WORKLOAD_KINDS = new Set(["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Pod"]);

interface Workload {
  kind: string;
  namespace: string;
  name: string;
  labels: Record<string, string>;
  object: KubeObject;
}

export function workloads(scenario: Scenario): Workload[] {
  const out: Workload[] = [];
  for (const m of scenario.manifests) {
    if (!WORKLOAD_KINDS.has(m.kind)) continue;
    const o = m.object as KubeObject & {
      spec?: { template?: { metadata?: { labels?: Record<string, string> } } };
    };
    const labels = m.kind === "Pod" ? (o.metadata.labels ?? {}) : (o.spec?.template?.metadata?.labels ?? {});
    out.push({
      kind: m.kind,
      namespace: o.metadata.namespace ?? "default",
      name: o.metadata.name,
      labels,
      object: m.object,
    });
  }
  return out;
}

interface Derived {
  scenario: Scenario;
  owners?: Map<string, string>;
  initialPods?: string[];
  initialReady?: Set<string>;
}
const derived = new WeakMap<object, Derived>();

function cacheOf(result: ReportResult, scenario: Scenario): Derived {
  let d = derived.get(result);
  if (!d || d.scenario !== scenario) {
    d = { scenario };
    derived.set(result, d);
  }
  return d;
}

/** Every pod the run mentions (events and final state), mapped to `Kind/<ns>/<name>` of its workload. */
export function podOwners(result: ReportResult, scenario: Scenario): Map<string, string> {
  const cache = cacheOf(result, scenario);
  if (cache.owners) return cache.owners;
  const out = new Map<string, string>();
  for (const e of result.events) if (e.type === "PodCreated") out.set(e.object, e.owner);
  // Generated names: `<deploy>-<hash>-<suffix>`, `<sts>-<i>` or `<ds>-<suffix>`, or the bare Pod's own name.
  const byName = new Map<string, Map<string, Workload>>();
  for (const w of workloads(scenario)) {
    const k = `${w.namespace}/${w.name}`;
    const m = byName.get(k) ?? new Map<string, Workload>();
    m.set(w.kind, w);
    byName.set(k, m);
  }
  const set = (pod: string, w: Workload | undefined): boolean => {
    if (w) out.set(pod, `${w.kind}/${w.namespace}/${w.name}`);
    return w !== undefined;
  };
  const guess = (pod: string) => {
    if (out.has(pod)) return;
    const slash = pod.indexOf("/", 4);
    const ns = pod.slice(4, slash);
    const name = pod.slice(slash + 1);
    const d1 = name.lastIndexOf("-");
    if (d1 > 0) {
      const d2 = name.lastIndexOf("-", d1 - 1);
      if (d2 > 0 && set(pod, byName.get(`${ns}/${name.slice(0, d2)}`)?.get("Deployment"))) return;
      const one = byName.get(`${ns}/${name.slice(0, d1)}`);
      if (one && set(pod, one.get("StatefulSet") ?? one.get("DaemonSet") ?? one.get("ReplicaSet"))) return;
    }
    set(pod, byName.get(`${ns}/${name}`)?.get("Pod"));
  };
  for (const e of result.events) if (isPod(e.object)) guess(e.object);
  for (const p of result.summary.pods) guess(`Pod/${p.pod}`);
  cache.owners = out;
  return out;
}

/** Pods that existed at t=0: all pods, less those created during the run. */
export function initialPods(result: ReportResult, scenario: Scenario): string[] {
  const cache = cacheOf(result, scenario);
  if (cache.initialPods) return cache.initialPods;
  const created = new Set<string>();
  const all: string[] = [];
  const seen = new Set<string>();
  for (const e of result.events) {
    if (!isPod(e.object)) continue;
    if (e.type === "PodCreated" && !seen.has(e.object)) created.add(e.object);
    if (!seen.has(e.object)) {
      seen.add(e.object);
      all.push(e.object);
    }
  }
  for (const p of result.summary.pods) {
    const k = `Pod/${p.pod}`;
    if (!seen.has(k)) {
      seen.add(k);
      all.push(k);
    }
  }
  cache.initialPods = all.filter((p) => !created.has(p));
  return cache.initialPods;
}

/** Endpoint keys `<ns>/<service>|Pod/<ns>/<pod>` ready at time t (inclusive of events at t only if `before` is false). */
export function readyEndpointsAt(result: ReportResult, scenario: Scenario, t: number): Set<string> {
  const ready = new Set(initialReadyEndpoints(result, scenario));
  for (const e of result.events) {
    if (e.t >= t) break;
    applyEndpoint(ready, e);
  }
  return ready;
}

function applyEndpoint(ready: Set<string>, e: TraceEvent): boolean {
  if (e.type === "EndpointReady") {
    const k = `${e.service}|${e.object}`;
    if (ready.has(k)) return false;
    ready.add(k);
    return true;
  }
  if (e.type === "EndpointNotReady" || e.type === "EndpointRemoved")
    return ready.delete(`${e.service}|${e.object}`);
  return false;
}

/**
 * Ready endpoints at t=0. An endpoint's first event tells its state before (a NotReady means it was
 * ready); endpoints the run never touches keep their state, which the selector and the final
 * readiness give.
 */
export function initialReadyEndpoints(result: ReportResult, scenario: Scenario): Set<string> {
  const cache = cacheOf(result, scenario);
  if (cache.initialReady) return cache.initialReady;
  const ready = new Set<string>();
  const first = new Map<string, string>();
  for (const e of result.events) {
    if (e.type !== "EndpointReady" && e.type !== "EndpointNotReady" && e.type !== "EndpointRemoved") continue;
    const k = `${e.service}|${e.object}`;
    if (!first.has(k)) first.set(k, e.type);
  }
  for (const [k, type] of first) if (type === "EndpointNotReady") ready.add(k);
  const services = scenario.manifests
    .filter((m) => m.kind === "Service")
    .map((m) => {
      const o = m.object as KubeObject & { spec: { selector?: Record<string, string> } };
      return { key: `${o.metadata.namespace ?? "default"}/${o.metadata.name}`, selector: o.spec.selector };
    });
  const owners = podOwners(result, scenario);
  const labelsOf = new Map(workloads(scenario).map((w) => [`${w.kind}/${w.namespace}/${w.name}`, w.labels]));
  const finalReady = new Map(result.summary.pods.map((p) => [`Pod/${p.pod}`, p.ready]));
  const podReadyEvents = new Set<string>();
  for (const e of result.events)
    if (e.type === "PodReady" || e.type === "PodNotReady") podReadyEvents.add(e.object);
  // Which Services select each workload's pods: workloads × Services, not pods × Services.
  const selecting = new Map<string, string[]>();
  for (const [owner, labels] of labelsOf) {
    const ns = owner.split("/")[1];
    selecting.set(
      owner,
      services.filter((s) => s.key.split("/")[0] === ns && matchesMap(s.selector, labels)).map((s) => s.key),
    );
  }
  for (const pod of initialPods(result, scenario)) {
    for (const svc of selecting.get(owners.get(pod) ?? "") ?? []) {
      const k = `${svc}|${pod}`;
      if (first.has(k)) continue;
      // Untouched endpoint: its state never changed, so it is what the pod's readiness was all along.
      if (!podReadyEvents.has(pod) && finalReady.get(pod) === true) ready.add(k);
    }
  }
  cache.initialReady = ready;
  return ready;
}

// ---- steps (the player) --------------------------------------------------------------------------------

export interface Step {
  t: number;
  /** indexes into result.events */
  events: number[];
}

/** Re-exported: the page and the text timeline show the same events. */
export { visibleEventIndexes };

export function steps(result: ReportResult): Step[] {
  const out: Step[] = [];
  for (const i of visibleEventIndexes(result.events, result.summary.duration)) {
    const e = result.events[i]!;
    const last = out[out.length - 1];
    if (last && last.t === e.t) last.events.push(i);
    else out.push({ t: e.t, events: [i] });
  }
  return out;
}

// ---- per-second series ---------------------------------------------------------------------------------

export const PHASES = ["Pending", "Running, not ready", "Running, ready", "Terminating"] as const;
export type Phase = (typeof PHASES)[number];

export interface Series {
  /** seconds 0…duration */
  t: number[];
  readyEndpoints: number[];
  /** one array per PHASES entry */
  phases: number[][];
}

/** Sampled at the end of each second (state after every event up to and including t). */
export function clusterSeries(result: ReportResult, scenario: Scenario): Series {
  const duration = Math.ceil(result.summary.duration);
  const n = duration + 1;
  const t = Array.from({ length: n }, (_, i) => i);
  const readyEndpoints = new Array<number>(n).fill(0);
  const phases = PHASES.map(() => new Array<number>(n).fill(0));

  const ready = new Set(initialReadyEndpoints(result, scenario));
  const state = new Map<string, number>();
  const count = [0, 0, 0, 0];
  const firstReadiness = new Map<string, string>();
  const firstAny = new Map<string, string>();
  for (const e of result.events) {
    if (!isPod(e.object)) continue;
    if (!firstAny.has(e.object)) firstAny.set(e.object, e.type);
    if ((e.type === "PodReady" || e.type === "PodNotReady") && !firstReadiness.has(e.object))
      firstReadiness.set(e.object, e.type);
  }
  const finalReady = new Map(result.summary.pods.map((p) => [`Pod/${p.pod}`, p]));
  for (const pod of initialPods(result, scenario)) {
    let s: number;
    const fa = firstAny.get(pod);
    if (fa === "PodScheduled" || fa === "FailedScheduling") s = 0;
    else {
      const fr = firstReadiness.get(pod);
      const ready0 = fr ? fr === "PodNotReady" : (finalReady.get(pod)?.ready ?? true);
      s = ready0 ? 2 : 1;
    }
    state.set(pod, s);
    count[s]!++;
  }
  const set = (pod: string, s: number | undefined) => {
    const prev = state.get(pod);
    if (prev !== undefined) count[prev]!--;
    if (s === undefined) state.delete(pod);
    else {
      state.set(pod, s);
      count[s]!++;
    }
  };
  let i = 0;
  const events = result.events;
  for (let sec = 0; sec < n; sec++) {
    while (i < events.length && events[i]!.t <= sec) {
      const e = events[i++]!;
      applyEndpoint(ready, e);
      if (!isPod(e.object)) continue;
      const cur = state.get(e.object);
      switch (e.type) {
        case "PodCreated":
          set(e.object, 0);
          break;
        case "PodReady":
          if (cur !== 3) set(e.object, 2);
          break;
        case "ContainerStarted":
        case "PodNotReady":
          if (cur !== 3) set(e.object, 1);
          break;
        case "PodEvicted":
          set(e.object, 3);
          break;
        case "PodDeleted":
          set(e.object, undefined);
          break;
      }
    }
    readyEndpoints[sec] = ready.size;
    for (let p = 0; p < 4; p++) phases[p]![sec] = count[p]!;
  }
  return { t, readyEndpoints, phases };
}

// ---- probes --------------------------------------------------------------------------------------------

export const PROBES = ["startup", "readiness", "liveness"] as const;

export interface ProbeCheck {
  t: number;
  ok: boolean;
  consecutive?: number;
}

export interface PodProbes {
  pod: string;
  owner: string;
  node: string | null;
  /** per probe kind (startup, readiness, liveness), each check */
  checks: Record<(typeof PROBES)[number], ProbeCheck[]>;
  starts: { t: number; restartCount: number; container: string }[];
  kills: { t: number; container: string; probe?: string }[];
  backOffs: { t: number; delaySeconds: number; container: string }[];
  restarts: number;
}

export function probeKind(probe: string): (typeof PROBES)[number] | undefined {
  const p = probe.toLowerCase();
  return p.startsWith("startup")
    ? "startup"
    : p.startsWith("readiness")
      ? "readiness"
      : p.startsWith("liveness")
        ? "liveness"
        : undefined;
}

/** Probe rows per pod; `hasProbeEvents` false when the run carries no prober events at all. */
export function probeRows(
  result: ReportResult,
  scenario: Scenario,
): { pods: PodProbes[]; hasProbeEvents: boolean } {
  const owners = podOwners(result, scenario);
  const byPod = new Map<string, PodProbes>();
  const nodeOf = new Map<string, string | null>(result.summary.pods.map((p) => [`Pod/${p.pod}`, p.node]));
  const get = (pod: string): PodProbes => {
    let r = byPod.get(pod);
    if (!r) {
      r = {
        pod,
        owner: owners.get(pod) ?? "Pod",
        node: nodeOf.get(pod) ?? null,
        checks: { startup: [], readiness: [], liveness: [] },
        starts: [],
        kills: [],
        backOffs: [],
        restarts: 0,
      };
      byPod.set(pod, r);
    }
    return r;
  };
  let hasProbeEvents = false;
  for (const p of initialPods(result, scenario)) get(p);
  for (const e of result.events) {
    if (!isPod(e.object)) continue;
    const r = get(e.object);
    if (e.node && r.node === null) r.node = e.node;
    switch (e.type) {
      case "ProbeFailed":
      case "ProbeSucceeded": {
        hasProbeEvents = true;
        const k = probeKind(e.probe);
        if (k)
          r.checks[k].push({
            t: e.t,
            ok: e.type === "ProbeSucceeded",
            ...(e.type === "ProbeFailed" ? { consecutive: e.consecutive } : {}),
          });
        break;
      }
      case "ContainerStarted":
        r.starts.push({ t: e.t, restartCount: e.restartCount, container: e.container });
        r.restarts = Math.max(r.restarts, e.restartCount);
        break;
      case "ContainerKilled":
        hasProbeEvents ||= e.probe !== undefined;
        r.kills.push({
          t: e.t,
          container: e.container,
          ...(e.probe !== undefined ? { probe: e.probe } : {}),
        });
        break;
      case "BackOff":
        hasProbeEvents = true;
        r.backOffs.push({ t: e.t, delaySeconds: e.delaySeconds, container: e.container });
        break;
    }
  }
  return { pods: [...byPod.values()], hasProbeEvents };
}

/** Probe settings as written in the manifests, per workload container. */
export interface ProbeSetting {
  workload: string;
  container: string;
  probe: (typeof PROBES)[number];
  periodSeconds: number;
  failureThreshold: number;
  timeoutSeconds: number;
}

export function probeSettings(scenario: Scenario): ProbeSetting[] {
  const out: ProbeSetting[] = [];
  for (const w of workloads(scenario)) {
    const spec = podSpecOf(w.object);
    for (const c of spec?.containers ?? []) {
      for (const probe of PROBES) {
        const p = c[`${probe}Probe`];
        if (!p) continue;
        out.push({
          workload: `${w.kind}/${w.name}`,
          container: c.name,
          probe,
          // The API server's defaults (core/v1 SetDefaults_Probe).
          periodSeconds: p.periodSeconds ?? 10,
          failureThreshold: p.failureThreshold ?? 3,
          timeoutSeconds: p.timeoutSeconds ?? 1,
        });
      }
    }
  }
  return out;
}

// ---- swimlanes by node or by workload ------------------------------------------------------------------

/** How the timeline's swimlanes are cut: the five components, or one row per node or per workload. */
export type LaneGrouping = "component" | "node" | "workload";
export const LANE_GROUPINGS: readonly LaneGrouping[] = ["component", "node", "workload"];

/** The row of events with no node (by node), and of events on objects no workload owns (by workload). */
export const CLUSTER_ROW = "cluster";
/** By workload: the row of events on Nodes and their Leases. */
export const NODES_ROW = "nodes";

export interface LaneRow {
  /** the node's name, `Kind/<ns>/<name>` of the workload, or CLUSTER_ROW / NODES_ROW */
  key: string;
  label: string;
  /** events the timeline shows in this row (heartbeats aside) */
  count: number;
  /** per component, the steps (indexes into the steps) with an event of it in this row, ascending */
  points: Partial<Record<Lane, number[]>>;
}

/**
 * One row per node (or per workload) that has events in the run, most shown events first. A node whose
 * only events are its heartbeats still has its row, empty. Built on demand: one pass over the events.
 */
export function laneRows(
  result: ReportResult,
  scenario: Scenario,
  st: readonly Step[],
  by: Exclude<LaneGrouping, "component">,
): LaneRow[] {
  const rowOf = by === "node" ? (e: TraceEvent) => e.node ?? CLUSTER_ROW : workloadRowOf(result, scenario);
  const rows = new Map<string, LaneRow>();
  const get = (key: string): LaneRow => {
    let r = rows.get(key);
    if (!r) {
      r = { key, label: key, count: 0, points: {} };
      rows.set(key, r);
    }
    return r;
  };
  for (const e of result.events) get(rowOf(e));
  for (let si = 0; si < st.length; si++)
    for (const i of st[si]!.events) {
      const e = result.events[i]!;
      const r = get(rowOf(e));
      r.count++;
      const list = r.points[e.lane];
      if (!list) r.points[e.lane] = [si];
      else if (list[list.length - 1] !== si) list.push(si);
    }
  const out = [...rows.values()];
  if (by === "workload") {
    // `web`, or `<ns>/web` outside the default namespace; the kind too where two workloads share a name.
    const short = (key: string) => {
      const [kind, ns, name] = key.split("/");
      if (name === undefined) return { kind: "", label: key };
      return { kind: kind!, label: ns === "default" ? name : `${ns}/${name}` };
    };
    const seen = new Map<string, number>();
    for (const r of out) seen.set(short(r.key).label, (seen.get(short(r.key).label) ?? 0) + 1);
    for (const r of out) {
      const s = short(r.key);
      r.label = seen.get(s.label)! > 1 && s.kind ? `${s.label} (${s.kind})` : s.label;
    }
  }
  return out.sort((a, b) => b.count - a.count || a.label.localeCompare(b.label, "en", { numeric: true }));
}

/** An event's workload row: a pod's owner (podOwners), a claim's StatefulSet, NODES_ROW for Nodes and Leases. */
function workloadRowOf(result: ReportResult, scenario: Scenario): (e: TraceEvent) => string {
  const owners = podOwners(result, scenario);
  const statefulSets = workloads(scenario).filter((w) => w.kind === "StatefulSet");
  const memo = new Map<string, string>();
  const compute = (object: string): string => {
    const kind = object.slice(0, object.indexOf("/"));
    if (kind === "Pod") return owners.get(object) ?? object;
    if (kind === "Node" || kind === "Lease") return NODES_ROW;
    if (kind === "PersistentVolumeClaim") {
      // A volumeClaimTemplate's claim: `<template>-<statefulset>-<ordinal>`.
      const [, ns, name] = object.split("/");
      const stem = name?.replace(/-\d+$/, "") ?? "";
      const sts = statefulSets.find((w) => w.namespace === ns && stem.endsWith(`-${w.name}`));
      if (sts) return `StatefulSet/${sts.namespace}/${sts.name}`;
    }
    return CLUSTER_ROW;
  };
  return (e) => {
    let row = memo.get(e.object);
    if (row === undefined) {
      row = compute(e.object);
      memo.set(e.object, row);
    }
    return row;
  };
}
