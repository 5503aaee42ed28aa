// What one run did to each workload and Service, read from its events and end state (never from a
// formula): seconds with fewer serving than desired, seconds with none, when it was whole again for
// good, or why it was not by the end (in Kubernetes' terms), and what the callers lost.
//
// "Serving" is what a caller can reach: for a Service, an endpoint the EndpointSlice lists as ready
// whose node is up; for a workload, a Ready pod whose node is up. A node that lost power or its
// network stops answering at once, while the API still lists its pods as ready for ~50s: counting
// them would hide the part callers feel first ("What happens if a Kubernetes node suddenly
// disappears?": "Your callers feel the first part before Kubernetes notices anything"). The
// bookkeeping is in measure-tally.ts.

import { fitErrorMessage } from "../report/messages/scheduling.ts";
import type { SimulationResult } from "../run/result.ts";
import { RunTally } from "./measure-tally.ts";
import type { Objects, StartState } from "./state.ts";
import type { FaultSpec, Figures, RunMeasure } from "./types.ts";

export function measureRun(
  result: SimulationResult,
  objects: Objects,
  start: StartState,
  fault: FaultSpec,
): Pick<RunMeasure, "services" | "workloads" | "blockedBy"> {
  const from = fault.class === "none" ? 0 : fault.at;
  const tally = new RunTally(result, objects, start, from, result.summary.duration);
  tally.read(result.events);
  const { services, workloads } = figuresOf(tally, result, objects, from);
  return { services, workloads, blockedBy: [...tally.blockedBy].sort() };
}

const round = (s: number) => Math.round(s * 1000) / 1000;

/** Each workload's and Service's figures, rounded, with why it is not whole and what its callers lost. */
function figuresOf(
  tally: RunTally,
  result: SimulationResult,
  objects: Objects,
  from: number,
): { services: Record<string, Figures>; workloads: Record<string, Figures> } {
  const reasons = explainer(result, objects, tally.owner, tally.nodeUp, tally.blockedPods);
  const lost = new Map(
    (result.traffic?.services ?? []).map((s) => [
      s.service,
      { lost: s.totals.timeout + s.totals.refused + s.totals.error, sent: s.totals.sent },
    ]),
  );
  const services: Record<string, Figures> = {};
  const workloads: Record<string, Figures> = {};
  for (const [key, e] of tally.entities) {
    const f = e.figures;
    f.degraded = round(f.degraded);
    f.outage = round(f.outage);
    const whole = e.serving >= e.desired;
    f.recovered = whole ? round(e.wholeAgainAt === null ? 0 : e.wholeAgainAt - from) : null;
    const id = key.slice(2);
    if (key.startsWith("w:")) {
      if (!whole) f.reasons = reasons([id]);
      const r = tally.restarts.get(id);
      if (r) f.restarts = r;
      const ev = tally.evicted.get(id);
      if (ev) f.evicted = ev;
      const rep = tally.replaced.get(id);
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
  return { services, workloads };
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
