// What one run did to each workload and Service, read from its events and end state (never from a
// formula): seconds with fewer serving than desired, seconds with none, when it was whole again for
// good, or why it was not by the end (in Kubernetes' terms), and what the callers lost.
//
// "Serving" is what a caller can reach: for a Service, an endpoint the EndpointSlice lists as ready
// whose node is up; for a workload, a Ready pod whose node is up. A node that lost power or its
// network stops answering at once, while the API still lists its pods as ready for ~50s: counting
// them would hide the part callers feel first (seed 000, "Your callers feel the first part before
// Kubernetes notices anything").

import { fitErrorMessage } from "../report/messages/scheduling.ts";
import type { SimulationResult } from "../run/result.ts";
import { applyEndpointEvent, initialReadyEndpoints, type ReadyEndpoints } from "../trace/endpoints.ts";
import type { TraceEvent } from "../trace/events.ts";
import type { Objects, StartState } from "./state.ts";
import type { FaultSpec, Figures, RunMeasure } from "./types.ts";

/** `serving` before the first count, so that the first refresh always sets the entity's state. */
const UNCOUNTED = -1;
const DOWN = new Set(["power-off", "vm-terminated", "network-partition"]);
const UP = new Set(["power-on", "network-heal"]);

interface Entity {
  figures: Figures;
  serving: number;
  desired: number;
  /** when the current degraded stretch began, or null */
  badSince: number | null;
  /** since when `serving` and `desired` hold: their seconds are added up when they change (settle) */
  since: number;
  wholeAgainAt: number | null;
  pods: () => Iterable<string>;
  dynamicDesired?: () => number;
}

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: split by the perf/kubelet change landing beside this
export function measureRun(
  result: SimulationResult,
  objects: Objects,
  start: StartState,
  fault: FaultSpec,
): Pick<RunMeasure, "services" | "workloads" | "blockedBy"> {
  const from = fault.class === "none" ? 0 : fault.at;
  const end = result.summary.duration;
  const owner = new Map<string, string>();
  const node = new Map<string, string | null>();
  const ready = new Map<string, boolean>();
  const byOwner = new Map<string, Set<string>>();
  const nodeUp = new Map<string, boolean>();
  const epReady: ReadyEndpoints = initialReadyEndpoints(result.initial);
  const addPod = (pod: string, o: string | null, n: string | null, r: boolean) => {
    if (o) {
      owner.set(pod, o);
      const set = byOwner.get(o) ?? new Set<string>();
      set.add(pod);
      byOwner.set(o, set);
    }
    node.set(pod, n);
    ready.set(pod, r);
  };
  for (const p of start.pods) addPod(p.pod, p.owner, p.node, p.ready);
  const up = (pod: string) => {
    const n = node.get(pod);
    return n != null && nodeUp.get(n) !== false;
  };

  const daemonNodes = new Map<string, string[]>();
  for (const p of start.pods)
    if (p.owner?.startsWith("DaemonSet/") && p.node)
      daemonNodes.set(p.owner, [...(daemonNodes.get(p.owner) ?? []), p.node]);
  const desiredOf = (w: string): number => {
    const wl = objects.workload.get(w);
    if (!wl) return 0;
    if (wl.kind !== "DaemonSet") return wl.replicas;
    // A DaemonSet wants a pod on each node that is up: a lost node's pod is not owed.
    return (daemonNodes.get(w) ?? []).filter((n) => nodeUp.get(n) !== false).length;
  };
  const servicesOf = new Map<string, string[]>();
  for (const s of objects.services)
    for (const b of s.backends) servicesOf.set(b, [...(servicesOf.get(b) ?? []), `s:${s.id}`]);

  const entities = new Map<string, Entity>();
  const blank = (desired: number): Figures => ({
    desired,
    degraded: 0,
    outage: 0,
    recovered: 0,
    reasons: [],
  });
  for (const w of objects.workloads) {
    if (w.kind === "DaemonSet") continue;
    const desired = desiredOf(w.id);
    if (desired === 0) continue;
    entities.set(`w:${w.id}`, {
      figures: blank(desired),
      serving: UNCOUNTED,
      desired,
      badSince: null,
      since: from,
      wholeAgainAt: null,
      pods: () => byOwner.get(w.id) ?? [],
    });
  }
  for (const s of objects.services) {
    if (s.backends.length === 0) continue;
    const dynamic = s.backends.some((b) => b.startsWith("DaemonSet/"));
    const desiredNow = () => s.backends.reduce((sum, b) => sum + desiredOf(b), 0);
    const desired = desiredNow();
    if (desired === 0) continue;
    entities.set(`s:${s.id}`, {
      figures: blank(desired),
      serving: UNCOUNTED,
      desired,
      badSince: null,
      since: from,
      wholeAgainAt: null,
      pods: () => epReady.get(s.id) ?? [],
      ...(dynamic ? { dynamicDesired: desiredNow } : {}),
    });
  }

  const servingOf = (key: string, e: Entity): number => {
    let n = 0;
    const isWorkload = key.startsWith("w:");
    for (const p of e.pods()) if ((!isWorkload || ready.get(p)) && up(p)) n++;
    return n;
  };
  /** entities whose serving count may have changed since the last refresh; all when a node changed */
  const dirty = new Set<string>();
  let allDirty = true;
  const touch = (pod: string) => {
    const o = owner.get(pod);
    if (!o) return;
    dirty.add(`w:${o}`);
    for (const s of servicesOf.get(o) ?? []) dirty.add(s);
  };
  /**
   * The seconds from `e.since` to `t` (within the fault and the end of the run) in the state it was
   * in: only entities whose state changes are settled, not every entity at every event time.
   */
  const settle = (e: Entity, t: number) => {
    const a = Math.max(e.since, from);
    const b = Math.min(t, end);
    if (b > a) {
      if (e.serving < e.desired) e.figures.degraded += b - a;
      if (e.serving === 0) e.figures.outage += b - a;
    }
    e.since = t;
  };
  const update = (key: string, e: Entity, t: number) => {
    const serving = servingOf(key, e);
    const desired = e.dynamicDesired ? e.dynamicDesired() : e.desired;
    if (serving === e.serving && desired === e.desired) return;
    settle(e, t);
    e.serving = serving;
    e.desired = desired;
    const bad = e.serving < e.desired;
    if (bad && e.badSince === null) e.badSince = t;
    if (!bad && e.badSince !== null) {
      e.badSince = null;
      if (t > from) e.wholeAgainAt = t;
    }
  };
  const refresh = (t: number) => {
    if (allDirty) for (const [key, e] of entities) update(key, e, t);
    else
      for (const key of dirty) {
        const e = entities.get(key);
        if (e) update(key, e, t);
      }
    allDirty = false;
    dirty.clear();
  };

  refresh(0);
  const events = result.events;
  const counts = { restarts: new Map<string, number>(), evicted: new Map<string, number>() };
  const replaced = new Map<string, { n: number; first: number }>();
  const bump = (m: Map<string, number>, k: string | undefined) => {
    if (k) m.set(k, (m.get(k) ?? 0) + 1);
  };
  const blockedBy = new Set<string>();
  const blockedPods = new Set<string>();
  let i = 0;
  while (i < events.length) {
    const t = events[i]!.t;
    for (; i < events.length && events[i]!.t === t; i++) {
      const e = events[i]!;
      const pod = e.object.startsWith("Pod/") ? e.object.slice(4) : "";
      apply(e, pod);
      if (pod) touch(pod);
    }
    refresh(t);
  }
  for (const e of entities.values()) settle(e, end);

  function apply(e: TraceEvent, pod: string): void {
    switch (e.type) {
      case "FaultInjected":
        if (e.node && DOWN.has(e.do)) nodeUp.set(e.node, false);
        if (e.node && UP.has(e.do)) nodeUp.set(e.node, true);
        allDirty = true;
        break;
      // A platform's node auto-repair boots the machine again (platforms/): its kubelet says so.
      case "NodeRegistered":
      case "NodeReady":
        if (e.node) nodeUp.set(e.node, true);
        allDirty = true;
        break;
      case "PodCreated":
        addPod(pod, e.owner, null, false);
        if (e.t >= from) {
          const r = replaced.get(e.owner) ?? { n: 0, first: e.t };
          r.n++;
          replaced.set(e.owner, r);
        }
        break;
      case "PodScheduled":
        node.set(pod, e.node ?? null);
        break;
      case "PodReady":
        ready.set(pod, true);
        break;
      case "PodNotReady":
        ready.set(pod, false);
        break;
      case "PodDeleted": {
        ready.set(pod, false);
        const o = owner.get(pod);
        if (o) byOwner.get(o)?.delete(pod);
        break;
      }
      case "EndpointReady":
      case "EndpointNotReady":
      case "EndpointRemoved":
        applyEndpointEvent(epReady, e);
        dirty.add(`s:${e.service}`);
        break;
      case "ContainerKilled":
        if (e.probe === "liveness" || e.probe === "startup") bump(counts.restarts, owner.get(pod));
        break;
      case "PodEvicted":
        bump(counts.evicted, owner.get(pod));
        break;
      case "EvictionBlocked":
        blockedBy.add(e.pdb);
        blockedPods.add(pod);
        break;
    }
  }

  const round = (s: number) => Math.round(s * 1000) / 1000;
  const reasons = explainer(result, objects, owner, nodeUp, blockedPods);
  const lost = new Map(
    (result.traffic?.services ?? []).map((s) => [
      s.service,
      { lost: s.totals.timeout + s.totals.refused + s.totals.error, sent: s.totals.sent },
    ]),
  );
  const services: Record<string, Figures> = {};
  const workloads: Record<string, Figures> = {};
  for (const [key, e] of entities) {
    const f = e.figures;
    f.degraded = round(f.degraded);
    f.outage = round(f.outage);
    const whole = e.serving >= e.desired;
    f.recovered = whole ? round(e.wholeAgainAt === null ? 0 : e.wholeAgainAt - from) : null;
    const id = key.slice(2);
    if (key.startsWith("w:")) {
      if (!whole) f.reasons = reasons([id]);
      const r = counts.restarts.get(id);
      if (r) f.restarts = r;
      const ev = counts.evicted.get(id);
      if (ev) f.evicted = ev;
      const rep = replaced.get(id);
      if (rep) {
        f.replaced = rep.n;
        f.firstReplacedAt = round(rep.first);
      }
      workloads[id] = f;
    } else {
      if (!whole) f.reasons = reasons(objects.services.find((s) => s.id === id)?.backends ?? []);
      const l = lost.get(id);
      if (l) {
        f.lost = l.lost;
        f.sent = l.sent;
      }
      services[id] = f;
    }
  }
  return { services, workloads, blockedBy: [...blockedBy].sort() };
}

/** Why the workloads are not whole at the end, in Kubernetes' terms, from the end state and events. */
function explainer(
  result: SimulationResult,
  objects: Objects,
  owner: Map<string, string>,
  nodeUp: Map<string, boolean>,
  blockedPods: Set<string>,
): (workloads: string[]) => string[] {
  const notReadyNodes = new Set(result.summary.nodes.filter((n) => n.status !== "Ready").map((n) => n.name));
  // The last FailedScheduling per pod, in kube-scheduler's own words (FitError.Error).
  const failedScheduling = new Map<string, string>();
  const failedAttach = new Set<string>();
  for (const e of result.events) {
    if (e.type === "FailedScheduling") failedScheduling.set(e.object.slice(4), fitErrorMessage(e));
    if (e.type === "FailedAttachVolume") failedAttach.add(e.object.slice(4));
  }
  return (workloads) => {
    const out: string[] = [];
    const want = new Set(workloads);
    // Pods in the same state are named once: "3 pods Pending (web-1, …): …".
    const grouped = new Map<string, string[]>();
    const add = (text: string, pod: string) => grouped.set(text, [...(grouped.get(text) ?? []), pod]);
    for (const p of result.summary.pods) {
      const w = owner.get(p.pod);
      if (!w || !want.has(w)) continue;
      const kind = w.split("/")[0];
      if (
        p.status === "Terminating" &&
        p.node &&
        (notReadyNodes.has(p.node) || nodeUp.get(p.node) === false)
      ) {
        add(
          kind === "StatefulSet"
            ? `stuck Terminating on ${p.node}: the StatefulSet waits until the old pod object is gone, and no kubelet is left to confirm it stopped`
            : `stuck Terminating on ${p.node}`,
          p.pod,
        );
      } else if (p.status === "Pending" || p.status === "ContainerCreating") {
        if (failedAttach.has(p.pod)) add("waits for its volume (FailedAttachVolume)", p.pod);
        else if (failedScheduling.has(p.pod))
          add(`Pending (FailedScheduling): ${failedScheduling.get(p.pod)}`, p.pod);
        else add(p.status, p.pod);
      } else if (blockedPods.has(p.pod) && p.status !== "Terminating") {
        add("not evicted: the drain is blocked by a PodDisruptionBudget", p.pod);
      }
    }
    for (const [text, pods] of grouped)
      out.push(pods.length === 1 ? `${pods[0]} ${text}` : `${pods.length} pods (${pods[0]}, …) ${text}`);
    for (const v of result.summary.volumes) {
      if (!notReadyNodes.has(v.node)) continue;
      const claimOwner = objects.workloads.find(
        (w) =>
          want.has(w.id) &&
          w.claimTemplates.some((t) => v.claim.startsWith(`${w.namespace}/${t}-${w.name}-`)),
      );
      if (claimOwner) out.push(`volume ${v.claim} still attached to ${v.node}, which is not Ready`);
    }
    if (out.length === 0) out.push("not whole by the end of the run");
    return [...new Set(out)];
  };
}
