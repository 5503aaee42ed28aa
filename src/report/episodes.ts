// Episodes in the text timeline: a pod that restarts again and again tells its
// first restart step by step (each step once, with why and what kubectl shows), and its later
// restarts as one line: how many, from when to when, and the kubelet's own reason for each kill
// ("Container web failed liveness probe, will be restarted": kuberuntime_manager.go
// computePodActions, v1.32) or exit, with the CrashLoopBackOff waits ("Back-off restarting failed
// container", kuberuntime_manager.go doBackOff). A probe's run of failed checks in a row shows its
// first check and the one that reaches failureThreshold (where the kubelet acts: prober/worker.go
// doProbe); the others are counted on the pod's next line. Reads the events only; decides what is
// shown, not what happened (the JSON and HTML outputs keep every event).

import type { Lane, TraceEvent } from "../trace/events.ts";

/** What the text timeline prints: an event (with a note under it), or an episode's one line. */
export type ShownEntry =
  | { kind: "event"; i: number; note?: string }
  | { kind: "episode"; t: number; lane: Lane; text: string };

/** The event types of a container's restart cycle: probe checks, kill, exit, start, back-off, Ready. */
const CYCLE = new Set<string>([
  "ProbeFailed",
  "ProbeSucceeded",
  "ContainerKilled",
  "ContainerExited",
  "ContainerStarted",
  "BackOff",
  "PreStopHookDone",
]);

interface Fold {
  /** time of the pod's second stop (a probe kill, or an exit of its own): the episode starts there */
  from: number;
  /** the pod whose first cycle, told step by step, this one repeats from its first stop */
  like?: string;
  first?: number;
  last: number;
  restarts: number;
  restartCount: number;
  containers: Set<string>;
  reasons: Map<string, number>;
  backOffs: number;
  maxBackOff: number;
  notReady: number;
  leftEndpoints: number;
}

/** A stop of a container: a probe kill, or an exit that no kill caused. */
function isStop(e: TraceEvent): boolean {
  return (
    (e.type === "ContainerKilled" && e.cause === "probe") ||
    (e.type === "ContainerExited" && e.cause !== "probe-kill")
  );
}

/** Whether the event is a step of its pod's restart cycle (the kubelet's, not a controller's). */
function isCycleStep(e: TraceEvent): boolean {
  if (CYCLE.has(e.type)) return true;
  if (e.type === "PodReady" || e.type === "PodNotReady") return e.by === "kubelet";
  if (e.type === "EndpointReady") return true;
  return e.type === "EndpointNotReady" && !e.removed;
}

/** A new episode of a pod from time `from`, told as another pod's (`like`) when it repeats that one. */
function newFold(from: number, like?: string): Fold {
  return {
    from,
    ...(like === undefined ? {} : { like }),
    last: from,
    restarts: 0,
    restartCount: 0,
    containers: new Set(),
    reasons: new Map(),
    backOffs: 0,
    maxBackOff: 0,
    notReady: 0,
    leftEndpoints: 0,
  };
}

/**
 * The pods that stop more than once, each with where its episode starts: the first pod to stop
 * again and again for some reasons is told step by step up to its second stop; another pod stopping
 * for the same reasons is told from its first stop as one line, as that first pod's cycle.
 */
function foldsOf(events: readonly TraceEvent[], shown: readonly number[]): Map<string, Fold> {
  const stops = new Map<string, { t: number[]; reasons: Set<string> }>();
  for (const i of shown) {
    const e = events[i]!;
    if (!isStop(e)) continue;
    const s = stops.get(e.object) ?? { t: [], reasons: new Set<string>() };
    s.t.push(e.t);
    s.reasons.add(reasonOf(e) ?? "");
    stops.set(e.object, s);
  }
  const folds = new Map<string, Fold>();
  const toldBy = new Map<string, string>();
  for (const [pod, s] of stops) {
    if (s.t.length < 2) continue;
    const key = [...s.reasons].sort().join("\n");
    const like = toldBy.get(key);
    if (like === undefined) toldBy.set(key, pod);
    folds.set(pod, like === undefined ? newFold(s.t[1]!) : newFold(s.t[0]!, like));
  }
  return folds;
}

/** The kubelet's words for why a container stopped: its Killing message, or the exit. */
function reasonOf(e: TraceEvent): string | undefined {
  if (e.type === "ContainerKilled" && e.cause === "probe")
    return `Container ${e.container} failed ${e.probe} probe, will be restarted`;
  if (e.type === "ContainerExited" && e.cause !== "probe-kill")
    return `container ${e.container} exited with code ${e.exitCode}`;
  return undefined;
}

/** Counts one folded step into its pod's episode. */
function count(f: Fold, e: TraceEvent): void {
  f.first ??= e.t;
  f.last = e.t;
  const reason = reasonOf(e);
  if (reason) f.reasons.set(reason, (f.reasons.get(reason) ?? 0) + 1);
  if (e.type === "ContainerStarted") {
    f.restarts++;
    f.restartCount = e.restartCount;
    f.containers.add(e.container);
  } else if (e.type === "BackOff") {
    f.backOffs++;
    f.maxBackOff = Math.max(f.maxBackOff, e.delaySeconds);
  } else if (e.type === "PodNotReady") f.notReady++;
  else if (e.type === "EndpointNotReady") f.leftEndpoints++;
}

/** The addresses each pod's endpoints had, from the endpoint events. */
function addressesOf(events: readonly TraceEvent[]): Map<string, string> {
  const pods = new Map<string, string>();
  for (const e of events)
    if (e.type === "EndpointReady" || e.type === "EndpointNotReady") pods.set(e.endpoint.address, e.object);
  return pods;
}

/** A kube-proxy sync that only follows folded pods' endpoints. */
function foldedSync(e: TraceEvent, folds: Map<string, Fold>, pods: Map<string, string>): boolean {
  if (e.type !== "KubeProxySynced") return false;
  const ips = [...e.stopped, ...e.started];
  return (
    ips.length > 0 &&
    ips.every((ip) => {
      const f = folds.get(pods.get(ip) ?? "");
      return f !== undefined && e.t >= f.from;
    })
  );
}

/** One pod's episode as a line. */
function episodeText(pod: string, f: Fold, clock: (t: number) => string): string {
  const name = pod.split("/").slice(2).join("/") || pod;
  const containers = [...f.containers].join(", ") || "its container";
  const more = f.like === undefined ? " more" : "";
  const times = f.restarts === 1 ? `once${more}` : `${f.restarts}${more} times`;
  const as = f.like === undefined ? "its" : `${f.like.split("/").slice(2).join("/")}'s`;
  const parts = [
    `${name}: container ${containers} restarted ${times} from t+${clock(f.first ?? f.from)} to t+${clock(f.last)} (RESTARTS ${f.restartCount}), each time as ${as} first restart above`,
  ];
  for (const [reason, n] of f.reasons) parts.push(`${reason} (${n}×)`);
  if (f.backOffs > 0)
    parts.push(
      `Back-off restarting failed container ${f.backOffs}× (CrashLoopBackOff, up to ${f.maxBackOff}s)`,
    );
  if (f.notReady > 0)
    parts.push(
      `not Ready ${f.notReady}×${f.leftEndpoints > 0 ? `, out of its Services' ready endpoints ${f.leftEndpoints}× until its readiness probe passed again` : ""}`,
    );
  return parts.join("; ");
}

interface Streak {
  at: number[];
  from: number;
  to: number;
  probe: string;
  container: string;
}

/**
 * Whether a failed check is inside a run (after its first). The one that reaches failureThreshold is
 * told by what it causes: the pod's not Ready line, or the kill, each naming the threshold.
 */
function midRun(e: TraceEvent): e is Extract<TraceEvent, { type: "ProbeFailed" }> {
  return e.type === "ProbeFailed" && e.consecutive >= 2;
}

/**
 * The failed checks inside runs to leave out (each run told in a note on its pod's next line), and
 * those notes by the index of the line they go under. A run its pod says nothing after is shown whole.
 */
function streaksOf(
  events: readonly TraceEvent[],
  shown: readonly number[],
  hidden: Set<number>,
  clock: (t: number) => string,
): Map<number, string> {
  const notes = new Map<number, string>();
  // Each pod's open runs, one per container and probe, in the order they began.
  const open = new Map<string, Streak[]>();
  for (const i of shown) {
    if (hidden.has(i)) continue;
    const e = events[i]!;
    const runs = open.get(e.object) ?? [];
    if (midRun(e)) {
      const s = runs.find((r) => r.probe === e.probe && r.container === e.container);
      if (s) {
        s.at.push(i);
        s.to = e.t;
      } else {
        runs.push({ at: [i], from: e.t, to: e.t, probe: e.probe, container: e.container });
        open.set(e.object, runs);
      }
      continue;
    }
    if (runs.length === 0) continue;
    open.delete(e.object);
    for (const r of runs) for (const k of r.at) hidden.add(k);
    notes.set(i, `before this, ${runs.map((r) => streakNote(r, clock)).join("; and ")}`);
  }
  return notes;
}

function streakNote(s: Streak, clock: (t: number) => string): string {
  const checks = s.at.length === 1 ? "1 more check" : `${s.at.length} more checks`;
  const when = s.from === s.to ? `at t+${clock(s.from)}` : `from t+${clock(s.from)} to t+${clock(s.to)}`;
  return `${s.container}'s ${s.probe} probe failed ${checks} in a row ${when}, each as the first above`;
}

/**
 * kube-proxy on each node applies the same EndpointSlice change at the same moment (every node's
 * informer sees it after endpointPropagationSeconds): the first node's line is shown, the others
 * named in a note under it.
 */
function sameSyncs(
  events: readonly TraceEvent[],
  shown: readonly number[],
  hidden: Set<number>,
  notes: Map<number, string>,
): void {
  let first: (TraceEvent & { type: "KubeProxySynced" }) | undefined;
  let at = -1;
  let others: string[] = [];
  const close = () => {
    if (first && others.length > 0) {
      const note = `and so does kube-proxy on ${others.join(", ")}, in the same sync`;
      const before = notes.get(at);
      notes.set(at, before === undefined ? note : `${before}; ${note}`);
    }
    others = [];
  };
  for (const i of shown) {
    if (hidden.has(i)) continue;
    const e = events[i]!;
    if (e.type !== "KubeProxySynced") continue;
    const same =
      first !== undefined &&
      e.t === first.t &&
      e.service === first.service &&
      e.stopped.join() === first.stopped.join() &&
      e.started.join() === first.started.join() &&
      e.node !== first.node;
    if (same) {
      others.push(e.node ?? e.object);
      hidden.add(i);
      continue;
    }
    close();
    first = e;
    at = i;
  }
  close();
}

/**
 * The entries the text timeline prints, in order: each shown event, but a restarting pod's steps
 * after its second stop as one episode line (at the first of them), and a probe's failed checks in a
 * row between the first and the one at failureThreshold counted in a note on the pod's next line.
 */
export function textEntries(
  events: readonly TraceEvent[],
  shown: readonly number[],
  clock: (t: number) => string,
): ShownEntry[] {
  const folds = foldsOf(events, shown);
  const pods = folds.size > 0 ? addressesOf(events) : new Map<string, string>();
  const hidden = new Set<number>();
  for (const i of shown) {
    const e = events[i]!;
    const f = folds.get(e.object);
    if ((f && e.t >= f.from && isCycleStep(e)) || foldedSync(e, folds, pods)) {
      hidden.add(i);
      if (f && e.t >= f.from) count(f, e);
    }
  }
  const folded = new Set(hidden);
  const notes = streaksOf(events, shown, hidden, clock);
  sameSyncs(events, shown, hidden, notes);
  const out: ShownEntry[] = [];
  const told = new Set<string>();
  for (const i of shown) {
    const e = events[i]!;
    if (folded.has(i)) {
      const f = folds.get(e.object);
      if (f && !told.has(e.object)) {
        told.add(e.object);
        out.push({ kind: "episode", t: e.t, lane: "kubelet", text: episodeText(e.object, f, clock) });
      }
      continue;
    }
    if (hidden.has(i)) continue;
    const note = notes.get(i);
    out.push(note === undefined ? { kind: "event", i } : { kind: "event", i, note });
  }
  return out;
}
