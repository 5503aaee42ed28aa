// `faultline replay`: an incident's Events (and its audit log) stand in for a recording. The
// fault is reconstructed from them (incident.ts), placed on the model run from the
// cluster's dump, and each step the events time is held against the model's spread (compare.ts's
// rows), with why it came when it did. Then the audit's fixes are simulated against that incident.
//
// The instant: with an audit log, the node's last Lease renewal is read to the microsecond. Without
// one, nothing records it; it is inferred from NotReady less the model's own NotReady delay (its
// median over the seeds), and NotReady becomes the anchor every later step is timed from: a
// grace period unlike the model's then shows in no step (the audit log's Lease is what shows it).

import { resolveControlPlane, resolveKubelet } from "../kubernetes/defaults.ts";
import type { KubeObject } from "../record/recording.ts";
import type { ManifestFile, Scenario } from "../scenario/types.ts";
import type { AuditLog } from "./audit-log.ts";
import { type CompareRow, rowsFor } from "./compare.ts";
import type { EventsFile, IncidentEvent } from "./events.ts";
import { checkAuditCovers, type Incident, reconstruct } from "./incident.ts";
import { costs, type WorkloadCost } from "./incident-cost.ts";
import type { IncidentFixes } from "./incident-fixes.ts";
import { predict, SEEDS, scenarioFor } from "./predict.ts";
import { type StepKey, seconds } from "./steps.ts";
import { type ModelTimers, timingOf } from "./timing.ts";

export type { ModelTimers };

export interface ReplayInput {
  events: EventsFile;
  audit?: AuditLog;
  /** the `--cluster` dump: its files, and its objects (where each pod ran) */
  dump: { entry: string; files: ManifestFile[]; objects: KubeObject[] };
  seeds?: number[];
  /** `--node`: the node to follow when several went NotReady */
  node?: string;
}

export interface Replay {
  events: string;
  shapes: string[];
  eventCount: number;
  audit?: string;
  cluster: string;
  fault: {
    node: string;
    /** the last Lease renewal: read (audit log) or inferred, seconds since the Unix epoch */
    lastRenewal: number;
    /** ± seconds around lastRenewal */
    uncertainty: number;
    how: string;
    /** the kill lies in (lastRenewal, lastRenewal + killWithin] */
    killWithin: number;
  };
  /** the step the fault is placed from, when no Lease renewal is read */
  anchor?: StepKey;
  seeds: number[];
  timers: ModelTimers;
  rows: (CompareRow & { evidence?: string; why?: string })[];
  /** events after the fault that are not a timed step: each reason once, with its count */
  others: {
    reason: string;
    component: string;
    count: number;
    first: number;
    objects: string[];
    why: string;
  }[];
  /** each workload with pods on the failed node: what it lost and when a replacement started */
  costs: WorkloadCost[];
  notes: string[];
  fixes?: IncidentFixes;
}

function timersOf(s: Scenario, objects: KubeObject[], node: string): ModelTimers {
  const cp = resolveControlPlane(s.kubernetesVersion, s.controlPlane);
  const kl = resolveKubelet(s.kubernetesVersion, s.kubelet);
  const tolerations = objects
    .filter((o) => o.kind === "Pod" && (o.spec as { nodeName?: string } | undefined)?.nodeName === node)
    .flatMap(
      (p) =>
        (p.spec as { tolerations?: { key?: string; effect?: string; tolerationSeconds?: number }[] })
          .tolerations ?? [],
    )
    .filter((t) => t.key === "node.kubernetes.io/unreachable" && t.tolerationSeconds !== undefined)
    .map((t) => t.tolerationSeconds!);
  return {
    nodeMonitorGracePeriod: cp.nodeMonitorGracePeriod,
    nodeMonitorPeriod: cp.nodeMonitorPeriod,
    nodeEvictionRate: cp.nodeEvictionRate,
    leaseRenewInterval: kl.nodeLeaseDurationSeconds * 0.25,
    ...(tolerations.length > 0 ? { unreachableToleration: Math.min(...tolerations) } : {}),
    kubernetesVersion: s.kubernetesVersion,
  };
}

/** Reconstruct, run the model and compare (the fixes are added by the caller: fixesFor is async). */
export function replay(input: ReplayInput): Replay {
  const inc: Incident = reconstruct(input.events, input.dump.objects, input.audit, input.node);
  if (input.audit) checkAuditCovers(inc, input.audit);
  const seeds = input.seeds ?? SEEDS;
  const node = inc.node;
  // A first load for the model's own timers, then the fault where they put it.
  const first = scenarioFor(input.dump.files, { node, at: inc.lastRenewal ?? inc.notReadyAt }, 600);
  const timers = timersOf(first, input.dump.objects, node);
  const at = inc.lastRenewal ?? inc.notReadyAt - timers.nodeMonitorGracePeriod - timers.nodeMonitorPeriod / 2;
  const scenario =
    at === (inc.lastRenewal ?? inc.notReadyAt) ? first : scenarioFor(input.dump.files, { node, at }, 600);
  const predicted = predict(scenario, seeds);
  const nr = predicted.steps["not-ready"];
  const anchored = inc.lastRenewal === undefined;
  const base = inc.lastRenewal ?? inc.notReadyAt - (nr?.median ?? timers.nodeMonitorGracePeriod);
  const rows = rowsFor(inc.observedAt, base, predicted).map((r) => {
    const row = { ...r, ...(inc.evidence[r.step] ? { evidence: inc.evidence[r.step] } : {}) };
    if (anchored && r.step === "not-ready") {
      delete row.difference;
      delete row.inside;
    }
    const why = timingOf(r.step, timers, row);
    return why ? { ...row, why } : row;
  });
  const fault: Replay["fault"] = anchored
    ? {
        node,
        lastRenewal: base,
        // Events carry whole seconds (NotReady lies in [t, t+1)), and the model's NotReady delay spreads.
        uncertainty: (nr ? (nr.max - nr.min) / 2 : timers.nodeMonitorPeriod / 2) + 1,
        how: `NotReady (${inc.evidence["not-ready"]}) less the model's NotReady delay after the last renewal (median ${nr ? nr.median.toFixed(1) : "?"}s of ${seeds.length} seeds, node-monitor-grace-period=${timers.nodeMonitorGracePeriod}s checked every node-monitor-period=${timers.nodeMonitorPeriod}s); no Event records a Lease renewal: give --audit-log to read it`,
        killWithin: timers.leaseRenewInterval * 1.04,
      }
    : {
        node,
        lastRenewal: base,
        uncertainty: 0,
        how: `read from the audit log: ${inc.evidence["lease-stops"]}`,
        killWithin: timers.leaseRenewInterval * 1.04,
      };
  return {
    events: input.events.file,
    shapes: input.events.shapes,
    eventCount: input.events.events.length,
    ...(input.audit ? { audit: input.audit.file } : {}),
    cluster: input.dump.entry,
    fault,
    ...(anchored ? { anchor: "not-ready" as const } : {}),
    seeds,
    timers,
    rows,
    others: othersOf(inc.others, base),
    costs: costs(input.dump.objects, input.events.events, node, inc.notReadyAt - 1),
    notes: [...inc.notes, ...dumpNotes(scenario, inc.notReadyAt)],
  };
}

/** A dump taken after NotReady shows the incident's aftermath, not the cluster it hit. */
function dumpNotes(s: Scenario, notReadyAt: number): string[] {
  const taken = seconds(s.cluster?.takenAt?.time);
  if (taken === undefined || taken <= notReadyAt) return [];
  return [
    `the dump was taken ${(taken - notReadyAt).toFixed(0)}s after the node went NotReady (${new Date(taken * 1000).toISOString()}): the model starts from it with the fault at its start, so if it already shows the incident (the node NotReady, pods replaced) it is not the cluster the incident hit; take the dump before, or from a backup`,
  ];
}

const OTHER_WHY: Record<string, string> = {
  Created: "the kubelet created a container (pkg/kubelet/events CreatedContainer)",
  Started:
    "the kubelet started a container (pkg/kubelet/events StartedContainer); the pod is Ready when its readiness probe first passes, which no Event records",
  Pulling: "the kubelet pulls the image (pkg/kubelet/events PullingImage)",
  Pulled: "the image is on the node (pkg/kubelet/events PulledImage)",
  Unhealthy:
    "a probe failed (pkg/kubelet/prober): a readiness failure takes the pod out of its endpoints, a liveness failure restarts it",
  Killing:
    "the kubelet stopped a container (pkg/kubelet/events KillingContainer): a lost node's kubelet records none, so this is a live node's",
  FailedAttachVolume:
    'the attach-detach controller would not attach the volume yet; "Multi-Attach error" means it is still attached to the lost node (ReadWriteOnce), until the force detach 6 min after the pod is gone (maxWaitForUnmountDuration) or the node.kubernetes.io/out-of-service taint',
  FailedScheduling: "kube-scheduler found no node for the pod (its message says why)",
  NodeNotSchedulable: "the node was cordoned (spec.unschedulable), recorded by its kubelet",
  RemovingNode: "the node lifecycle controller saw the Node object deleted",
  DeletingNode: "the cloud node lifecycle controller deleted the Node: the cloud says the instance is gone",
  NodeNotReady: "the node controller marked another pod not ready",
  TaintManagerEviction: "the taint-eviction-controller (a cancelled or repeated deletion)",
  SuccessfulCreate: "a controller created a pod",
  Scheduled: "kube-scheduler bound a pod",
};

function othersOf(events: IncidentEvent[], base: number): Replay["others"] {
  const by = new Map<string, Replay["others"][number]>();
  for (const e of events) {
    const key = `${e.reason}\u0000${e.component}`;
    const o = by.get(key) ?? {
      reason: e.reason,
      component: e.component,
      count: 0,
      first: e.first - base,
      objects: [],
      why: OTHER_WHY[e.reason] ?? "not a step the model's comparison times",
    };
    o.count += e.count;
    const name = `${e.kind.toLowerCase()}/${e.name}`;
    if (!o.objects.includes(name)) o.objects.push(name);
    by.set(key, o);
  }
  return [...by.values()].sort(
    (a, b) => a.first - b.first || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0),
  );
}
