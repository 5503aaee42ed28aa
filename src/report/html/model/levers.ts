// What to do next: the seed's "What you actually control", and the one this run points to.

import type { ReportResult } from "./payload.ts";
import { initialPods } from "./pods.ts";

export interface Lever {
  title: string;
  text: string;
}

/** The seed's "What you actually control", in its words. */
export const NEXT_LEVERS = {
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
  // Seed 002 (probes): what a pod's own fault is noticed and handled by.
  probes: {
    title: "Liveness and readiness probes",
    text: "Only a failing liveness or startup probe gets the container restarted; a failing readiness probe only takes the Pod out of its Services' endpoints and leaves it running. Pair readiness with a liveness probe for true hangs, and keep liveness from being hair-trigger: misconfigured liveness probes can cause cascading failures.",
  },
} as const satisfies Record<string, Lever>;

export function nextLever(
  result: ReportResult,
  owners: Map<string, string>,
  lost: Set<string>,
  faultT: number,
  trafficStopped: number | null,
): Lever {
  // A workload that lost every replica it had: spread decides how much you lose.
  const total = new Map<string, number>();
  const lostBy = new Map<string, number>();
  for (const p of initialPods(result)) {
    const o = owners.get(p);
    if (!o || o.startsWith("DaemonSet/")) continue;
    total.set(o, (total.get(o) ?? 0) + 1);
    if (lost.has(p)) lostBy.set(o, (lostBy.get(o) ?? 0) + 1);
  }
  for (const [o, n] of lostBy) if (n === total.get(o) && n > 1) return NEXT_LEVERS.spread;
  // The traffic model measured what each lever saves: take the one that saves most.
  const measured = result.traffic?.levers?.filter((l) => l.saves > 0).sort((a, b) => b.saves - a.saves)[0];
  if (measured) {
    const known = leverFor(measured.lever);
    const saves = `Pulled in this scenario, it saves ${measured.saves.toLocaleString("en")} of the lost requests.`;
    return known
      ? { title: known.title, text: `${known.text} ${saves}` }
      : { title: measured.lever, text: saves };
  }
  // Without callers in the run, caller-side advice (outlier detection, timeouts) fits nothing it
  // measured: the eviction wait, or the spread, is what it shows.
  if (!result.traffic) {
    const evicted = result.events.find((e) => e.type === "PodEvicted" && e.t > faultT);
    return evicted && evicted.t - faultT > 120 ? NEXT_LEVERS.toleration : NEXT_LEVERS.spread;
  }
  if (trafficStopped === null || trafficStopped - faultT > 10) {
    if (result.traffic && result.traffic.totals.timeout > 0 && trafficStopped !== null)
      return NEXT_LEVERS.callerChecks;
    if (lost.size > 0) return NEXT_LEVERS.callerChecks;
  }
  const evicted = result.events.find((e) => e.type === "PodEvicted" && e.t > faultT);
  if (evicted && evicted.t - faultT > 120) return NEXT_LEVERS.toleration;
  return NEXT_LEVERS.timeouts;
}

function leverFor(name: string): Lever | undefined {
  const n = name.toLowerCase();
  if (/outlier|health|eject|circuit/.test(n)) return NEXT_LEVERS.callerChecks;
  if (/timeout|retr/.test(n)) return NEXT_LEVERS.timeouts;
  if (/spread|topology/.test(n)) return NEXT_LEVERS.spread;
  if (/toleration/.test(n)) return NEXT_LEVERS.toleration;
  return undefined;
}
