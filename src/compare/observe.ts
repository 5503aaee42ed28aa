// What a recording shows of a node's failure: the fault (the last Lease renewal before the node went
// NotReady, or the one the user names), then each step's time from the server's own timestamps.

import type { KubeObject } from "../record/recording.ts";
import type { Change, Recording } from "./read.ts";
import { type StepTimes, seconds } from "./steps.ts";

type Cond = { type?: string; status?: string; lastTransitionTime?: string };
type Taint = { key?: string; effect?: string; timeAdded?: string };

const conditions = (o: KubeObject): Cond[] =>
  (o.status as { conditions?: Cond[] } | undefined)?.conditions ?? [];
const cond = (o: KubeObject, type: string) => conditions(o).find((c) => c.type === type);
const nodeName = (o: KubeObject) => (o.spec as { nodeName?: string } | undefined)?.nodeName;
const min = (xs: (number | undefined)[]) => {
  const ys = xs.filter((x): x is number => x !== undefined);
  return ys.length > 0 ? Math.min(...ys) : undefined;
};

export interface Fault {
  node: string;
  /** the last Lease renewal the node made (seconds since the Unix epoch) */
  lastRenewal: number | undefined;
  /** the fault's instant: the one given, or the last renewal */
  at: number;
  given: boolean;
}

/** The node that went NotReady first, and its last Lease renewal before it did. */
export function findFault(rec: Recording): Fault | undefined {
  let best: { node: string; t: number } | undefined;
  for (const c of rec.changes) {
    if (c.resource !== "nodes") continue;
    const ready = cond(c.object, "Ready");
    const t = seconds(ready?.lastTransitionTime);
    if (ready && ready.status !== "True" && t !== undefined && (!best || t < best.t))
      best = { node: c.object.metadata?.name ?? "", t };
  }
  if (!best) return undefined;
  const last = lastRenewal(rec, best.node, best.t);
  return { node: best.node, lastRenewal: last, at: last ?? best.t, given: false };
}

/** The node's last Lease renewTime at or before `before`. */
export function lastRenewal(rec: Recording, node: string, before: number): number | undefined {
  let last: number | undefined;
  const leases = [
    ...rec.dump.filter((o) => o.kind === "Lease"),
    ...rec.changes.filter((c) => c.resource === "leases").map((c) => c.object),
  ];
  for (const o of leases) {
    if (o.metadata?.name !== node) continue;
    const t = seconds((o.spec as { renewTime?: string } | undefined)?.renewTime);
    if (t !== undefined && t <= before && (last === undefined || t > last)) last = t;
  }
  return last;
}

interface Ctx {
  rec: Recording;
  fault: Fault;
  after: (t: number | undefined) => number | undefined;
  of: (resource: Change["resource"]) => KubeObject[];
}

/** Every step the recording times, for the failed node, after the fault. */
export function observe(rec: Recording, fault: Fault): StepTimes {
  const ctx: Ctx = {
    rec,
    fault,
    after: (t) => (t !== undefined && t >= fault.at - 1 ? t : undefined),
    of: (resource) => rec.changes.filter((c) => c.resource === resource).map((c) => c.object),
  };
  const failures = rec.requests
    .filter((r) => r.outcome !== "ok")
    .map((r) => seconds(r.sentAt)!)
    .filter((t) => t >= fault.at - 1);
  const out: StepTimes = {
    ...(fault.lastRenewal !== undefined ? { "lease-stops": fault.lastRenewal } : {}),
    ...nodeSteps(ctx),
    ...podSteps(ctx),
    ...otherSteps(ctx),
    ...(failures.length > 0
      ? { "requests-failing": Math.min(...failures), "requests-recovered": Math.max(...failures) }
      : {}),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as StepTimes;
}

function nodeSteps({ fault, after, of }: Ctx): StepTimes {
  const nodes = of("nodes").filter((o) => o.metadata?.name === fault.node);
  const notReady = min(
    nodes.map((o) => {
      const r = cond(o, "Ready");
      return r && r.status !== "True" ? after(seconds(r.lastTransitionTime)) : undefined;
    }),
  );
  const tainted = min(
    nodes.flatMap((o) =>
      ((o.spec as { taints?: Taint[] } | undefined)?.taints ?? [])
        .filter((t) => t.key === "node.kubernetes.io/unreachable" && t.effect === "NoExecute")
        .map((t) => after(seconds(t.timeAdded))),
    ),
  );
  return { "not-ready": notReady, tainted };
}

function podSteps({ rec, fault, after, of }: Ctx): StepTimes {
  const pods = of("pods");
  const onNode = pods.filter((p) => nodeName(p) === fault.node);
  const podsNotReady = min(
    onNode.map((p) => {
      const r = cond(p, "Ready");
      return r?.status === "False" ? after(seconds(r.lastTransitionTime)) : undefined;
    }),
  );
  const evicted = min(
    onNode.map((p) => {
      const d = seconds(p.metadata?.deletionTimestamp);
      return d === undefined ? undefined : after(d - (p.metadata?.deletionGracePeriodSeconds ?? 0));
    }),
  );
  const dumped = new Set(rec.dump.map((o) => o.metadata?.uid));
  const fresh = pods.filter(
    (p) =>
      !dumped.has(p.metadata?.uid) &&
      nodeName(p) !== fault.node &&
      (seconds(p.metadata?.creationTimestamp) ?? 0) >= fault.at - 1,
  );
  const condTime = (type: string) =>
    min(
      fresh.map((p) =>
        cond(p, type)?.status === "True" ? seconds(cond(p, type)?.lastTransitionTime) : undefined,
      ),
    );
  return {
    "pods-not-ready": podsNotReady,
    evicted,
    "replacement-created": min(fresh.map((p) => seconds(p.metadata?.creationTimestamp))),
    "replacement-scheduled": condTime("PodScheduled"),
    "replacement-ready": condTime("Ready"),
  };
}

function otherSteps({ rec, fault, after, of }: Ctx): StepTimes {
  const endpointsOut = min(
    of("endpointslices").map((s) => {
      const eps =
        (s.endpoints as { nodeName?: string; conditions?: { ready?: boolean } }[] | undefined) ?? [];
      const out = eps.some((e) => e.nodeName === fault.node && e.conditions?.ready === false);
      return out
        ? after(seconds(s.metadata?.annotations?.["endpoints.kubernetes.io/last-change-trigger-time"]))
        : undefined;
    }),
  );
  const dumped = new Set(rec.dump.map((o) => o.metadata?.uid));
  const attachments = of("volumeattachments");
  const vaNode = (o: KubeObject) => (o.spec as { nodeName?: string } | undefined)?.nodeName;
  const detached = min(
    attachments
      .filter((v) => vaNode(v) === fault.node)
      .map((v) => after(seconds(v.metadata?.deletionTimestamp))),
  );
  const attached = min(
    attachments
      .filter((v) => vaNode(v) !== fault.node && !dumped.has(v.metadata?.uid))
      .map((v) => after(seconds(v.metadata?.creationTimestamp))),
  );
  return { "endpoints-out": endpointsOut, "volume-detached": detached, "volume-attached": attached };
}
