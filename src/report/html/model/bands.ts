// The state bands (Grafana's state timeline): a row per node, per pod (grouped under its workload) and
// per Service endpoint, each a run of intervals named in Kubernetes' words, with the run's events as
// marks on their row. Replayed from the same data `--json` prints: the state at t=0 (`initial`) and the
// events in order; the kubectl rows the events carry (nodeRow, podRow) say what kubectl would show.
// Pure and DOM-free: the page draws it, the tests compare it with `--json`.

import { applyEndpointEvent, initialReadyEndpoints } from "../../../trace/endpoints.ts";
import type { TraceEvent } from "../../../trace/events.ts";
import type { ReportResult } from "./payload.ts";
import { podOwners } from "./pods.ts";

/**
 * A node's Ready condition as `kubectl get nodes` and the node lifecycle controller name it: Ready; NotReady
 * with the condition's status, Unknown when the kubelet stopped posting (tryUpdateNodeHealth,
 * pkg/controller/nodelifecycle/node_lifecycle_controller.go) or False when the kubelet posted
 * KubeletNotReady (pkg/kubelet/nodestatus/setters.go ReadyCondition).
 */
export type NodeBandState = "Ready" | "NotReady (Unknown)" | "NotReady (False)";
/**
 * A pod as the page's pods chart counts it (series.ts PHASES): its phase, its Ready condition, and
 * Terminating from the moment its deletionTimestamp is set (kubectl's STATUS column,
 * pkg/printers/internalversion/printers.go printPod) until the object is gone; Failed/Succeeded as the phase.
 */
export type PodBandState = "Pending" | "Running, not ready" | "Running, ready" | "Terminating" | string;
/**
 * An EndpointSlice endpoint's conditions (discovery.k8s.io/v1 EndpointConditions: ready, serving,
 * terminating; KEP-1672), named by those that hold.
 */
export type EndpointBandState = "ready" | "serving, terminating" | "terminating" | "not ready";

export type BandKind = "node" | "pod" | "endpoint";

export interface Interval {
  from: number;
  /** the end: the next change, the object's removal, or the end of the run */
  to: number;
  state: string;
  /** the event that began it (an index into result.events); absent for the state at t=0 */
  cause?: number;
}

export interface BandRow {
  kind: BandKind;
  /** `Node/<name>`, `Pod/<ns>/<name>`, `<ns>/<service>|<ns>/<pod>` */
  key: string;
  label: string;
  /** the workload (`Kind/<ns>/<name>`) of a pod row, the Service of an endpoint row */
  group?: string;
  intervals: Interval[];
  /** the events on this row's object (indexes into result.events), in order */
  marks: number[];
}

/** Intervals of one object: a new state closes the open one; the same state again changes nothing. */
class Track {
  readonly intervals: Interval[] = [];
  readonly marks: number[] = [];
  open(t: number, state: string, cause?: number): void {
    const last = this.intervals[this.intervals.length - 1];
    if (last && last.to === Number.POSITIVE_INFINITY) {
      if (last.state === state) return;
      last.to = t;
    }
    this.intervals.push({
      from: t,
      to: Number.POSITIVE_INFINITY,
      state,
      ...(cause === undefined ? {} : { cause }),
    });
  }
  close(t: number): void {
    const last = this.intervals[this.intervals.length - 1];
    if (last && last.to === Number.POSITIVE_INFINITY) last.to = t;
  }
  get current(): string | undefined {
    const last = this.intervals[this.intervals.length - 1];
    return last && last.to === Number.POSITIVE_INFINITY ? last.state : undefined;
  }
}

/** kubectl's node STATUS column to the Ready condition: `Ready,SchedulingDisabled` is Ready. */
function nodeStateOf(status: string): NodeBandState {
  return status.split(",")[0] === "Ready" ? "Ready" : "NotReady (Unknown)";
}

function nodeEvent(track: Track, e: TraceEvent, i: number): void {
  switch (e.type) {
    case "NodeNotReady":
      track.open(e.t, e.status === "Unknown" ? "NotReady (Unknown)" : "NotReady (False)", i);
      break;
    case "KubeletNodeNotReady":
      track.open(e.t, "NotReady (False)", i);
      break;
    case "NodeReady":
    case "ScaledNodeReady":
    case "RepairedNodeReady":
      track.open(e.t, "Ready", i);
      break;
    case "NodeDeleted":
      track.close(e.t);
      break;
  }
}

function podEvent(track: Track, e: TraceEvent, i: number): void {
  const cur = track.current;
  // A deletionTimestamp is never taken back: Terminating until the object is gone.
  if (cur === "Terminating" && e.type !== "PodDeleted") return;
  switch (e.type) {
    case "PodCreated":
      track.open(e.t, "Pending", i);
      break;
    case "PodReady":
      track.open(e.t, "Running, ready", i);
      break;
    case "PodNotReady":
      if (cur !== "Pending") track.open(e.t, "Running, not ready", i);
      break;
    case "ContainerStarted":
      if (cur === "Pending") track.open(e.t, "Running, not ready", i);
      break;
    case "PodEvicted":
      track.open(e.t, "Terminating", i);
      break;
    case "PodShutDown":
      track.open(e.t, "Failed", i);
      break;
    case "PodDeleted":
      track.close(e.t);
      break;
    default:
      if ("podRow" in e && e.podRow?.status === "Terminating") track.open(e.t, "Terminating", i);
  }
}

/** The endpoint's conditions as the slice carries them. */
function endpointState(v: { ready: boolean; serving: boolean; terminating: boolean }): EndpointBandState {
  if (v.ready) return "ready";
  if (v.terminating) return v.serving ? "serving, terminating" : "terminating";
  return "not ready";
}

function endpointEvent(tracks: Map<string, Track>, e: TraceEvent, i: number): void {
  if (e.type !== "EndpointReady" && e.type !== "EndpointNotReady" && e.type !== "EndpointRemoved") return;
  const key = `${e.service}|${e.object.slice("Pod/".length)}`;
  let track = tracks.get(key);
  if (!track) {
    track = new Track();
    tracks.set(key, track);
  }
  track.marks.push(i);
  if (e.type === "EndpointRemoved" || (e.type === "EndpointNotReady" && e.removed)) track.close(e.t);
  else track.open(e.t, endpointState(e.endpoint), i);
}

function initialPodState(p: { phase: string; ready: boolean }): PodBandState {
  if (p.phase === "Running") return p.ready ? "Running, ready" : "Running, not ready";
  return p.phase;
}

/** Every node's, pod's and endpoint's bands over the run, in that order (pods by workload). */
export function stateBands(result: ReportResult): BandRow[] {
  const end = result.summary.duration;
  const nodes = new Map<string, Track>();
  const pods = new Map<string, Track>();
  const endpoints = new Map<string, Track>();
  const track = (m: Map<string, Track>, key: string) => {
    let t = m.get(key);
    if (!t) {
      t = new Track();
      m.set(key, t);
    }
    return t;
  };
  for (const n of result.initial.nodes) track(nodes, `Node/${n.name}`).open(0, nodeStateOf(n.status));
  for (const p of result.initial.pods) track(pods, `Pod/${p.pod}`).open(0, initialPodState(p));
  for (const s of result.initial.endpoints)
    for (const p of s.pods)
      track(endpoints, `${s.service}|${p.pod}`).open(0, p.ready ? "ready" : "not ready");
  result.events.forEach((e, i) => {
    if (e.type === "LeaseRenewed") return;
    const kind = e.object.slice(0, e.object.indexOf("/"));
    if (kind === "Node") {
      const tr = track(nodes, e.object);
      tr.marks.push(i);
      nodeEvent(tr, e, i);
    } else if (kind === "Pod") {
      endpointEvent(endpoints, e, i);
      const tr = track(pods, e.object);
      tr.marks.push(i);
      podEvent(tr, e, i);
    }
  });
  const owners = podOwners(result);
  const rows = (
    kind: BandKind,
    m: Map<string, Track>,
    label: (k: string) => string,
    group?: (k: string) => string,
  ) =>
    [...m].map(([key, t]): BandRow => {
      for (const iv of t.intervals) if (iv.to === Number.POSITIVE_INFINITY) iv.to = end;
      const g = group?.(key);
      return {
        kind,
        key,
        label: label(key),
        ...(g ? { group: g } : {}),
        intervals: t.intervals,
        marks: t.marks,
      };
    });
  // One collator: localeCompare with options builds one per call (seconds for 30,000 pods).
  const cmp = new Intl.Collator("en", { numeric: true }).compare;
  const byName = (a: BandRow, b: BandRow) => cmp(a.group ?? "", b.group ?? "") || cmp(a.label, b.label);
  const short = (nsName: string) =>
    nsName.startsWith("default/") ? nsName.slice("default/".length) : nsName;
  return [
    ...rows("node", nodes, (k) => k.slice("Node/".length)).sort(byName),
    ...rows(
      "pod",
      pods,
      (k) => short(k.slice("Pod/".length)),
      (k) => owners.get(k) ?? k,
    ).sort(byName),
    ...rows(
      "endpoint",
      endpoints,
      (k) => short(k.slice(k.indexOf("|") + 1)),
      (k) => `Service/${k.slice(0, k.indexOf("|"))}`,
    ).sort(byName),
  ];
}

/**
 * The loss window every panel shades: with callers, the send times of the first and the last request
 * lost (the latency chart's window); without, from the first moment a Service has fewer ready endpoints
 * than at t=0 to the moment every Service is back (or the end of the run).
 */
export function lossWindow(result: ReportResult): { first: number; last: number } | null {
  const tr = result.traffic;
  if (tr)
    return tr.firstFailure === null || tr.lastFailure === null
      ? null
      : { first: tr.firstFailure, last: tr.lastFailure };
  const want = new Map(result.initial.endpoints.map((s) => [s.service, s.ready]));
  const ready = initialReadyEndpoints(result.initial);
  const isShort = () => [...want].some(([svc, n]) => (ready.get(svc)?.size ?? 0) < n);
  let first: number | null = null;
  for (const e of result.events) {
    if (!applyEndpointEvent(ready, e)) continue;
    const short = isShort();
    if (short && first === null) first = e.t;
    else if (!short && first !== null) return { first, last: e.t };
  }
  return first === null ? null : { first, last: result.summary.duration };
}
