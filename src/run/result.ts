// The result of a run: the trace, the state at t=0 (`initial`, after the warm-up) and at the end
// (`summary`), both read from the store, and, with callers, what they felt. The two states' types
// are in trace/result.ts.

import { podReady, workloadOf } from "../cluster/api.ts";
import { controllerOf, type Store } from "../cluster/store.ts";
import type { ControlPlaneSettings, KubeletSettings } from "../kubernetes/defaults.ts";
import { nodeStatus, podStatusColumn } from "../kubernetes/kubectl.ts";
import { LABEL_ZONE } from "../kubernetes/labels.ts";
import type { Pod } from "../kubernetes/objects.ts";
import { taintString } from "../kubernetes/taints.ts";
import type { TraceEvent } from "../trace/events.ts";
import type { RunLeases } from "../trace/lease-renewals.ts";
import type { DrainSummary, InitialPod, InitialState, Summary } from "../trace/result.ts";
import type { TrafficResult } from "../traffic/index.ts";

export interface SimulationResult {
  scenario: string;
  kubernetesVersion: string;
  seed: number;
  /**
   * What happened, in order. With `leases`, the Lease renewals in it are only those the timeline
   * shows (before a silence); all of them are in `leases`, a schedule (trace/lease-renewals.ts).
   */
  events: TraceEvent[];
  /** Every Lease renewal of the run, as each node's schedule. */
  leases?: RunLeases;
  /** The cluster as the run found it at t=0, after the warm-up: shown, not assumed. */
  initial: InitialState;
  summary: Summary;
  /** What the callers felt; present when the scenario has a `traffic` section. */
  traffic?: TrafficResult;
}

/** The cluster at t=0: every node, every pod (with why it is not Running and Ready), every Service's endpoints. */
export function initialState(store: Store): InitialState {
  const names = store.keys("Pod");
  const owners = workloads(store);
  return {
    nodes: store.list("Node").map((n) => ({
      name: n.metadata.name,
      zone: n.metadata.labels?.[LABEL_ZONE] ?? null,
      status: nodeStatus(n),
      taints: (n.spec.taints ?? []).map(taintString),
    })),
    pods: store.list("Pod").map((p, i) => initialPod(store, p, names[i]!, owners(p))),
    endpoints: store.list("EndpointSlice").map((s) => ({
      service: s.service,
      ready: s.endpoints.filter((e) => e.conditions.ready).length,
      total: s.endpoints.length,
      pods: s.endpoints.map((e) => ({
        // joined: one flat string kept by the result (cluster/store.ts keyOf)
        pod: [e.targetRef.namespace, e.targetRef.name].join("/"),
        ready: e.conditions.ready,
      })),
    })),
  };
}

function initialPod(store: Store, pod: Pod, name: string, owner: string): InitialPod {
  const ready = podReady(pod);
  const out: InitialPod = {
    pod: name,
    node: pod.spec.nodeName ?? null,
    phase: pod.status.phase,
    ready,
    owner,
  };
  if (pod.status.phase === "Running" && ready) return out;
  return { ...out, ...notRunningReason(store, pod) };
}

/**
 * Each pod's workload; a bare Pod is its own (`Pod/<ns>/<name>`). Found once per controller (150,000
 * pods have a few hundred owners) by its key, which the pods share: workloadOf would look the
 * ReplicaSet up in the store again for every pod.
 */
function workloads(store: Store): (pod: Pod) => string {
  const byController = new Map<string, string>();
  return (pod) => {
    const controller = controllerOf(pod);
    if (controller === undefined) return `Pod/${pod.metadata.namespace}/${pod.metadata.name}`;
    let workload = byController.get(controller);
    if (workload === undefined) {
      workload = workloadOf({ store }, pod) ?? controller;
      byController.set(controller, workload);
    }
    return workload;
  };
}

/**
 * Why a pod is not Running and Ready, in Kubernetes' words: an unbound pod has the scheduler's
 * PodScheduled=False condition (reason Unschedulable, and the scheduler's message); otherwise
 * kubectl's STATUS column (CrashLoopBackOff, Error, Terminating…), the Ready condition's reason for
 * a running pod that is not ready, ContainerCreating for a bound pod whose containers have not
 * started. A claim that does not exist is named as the API's NotFound error names it (the message
 * the scheduler's VolumeBinding plugin reports, pkg/scheduler/framework/plugins/volumebinding).
 */
function notRunningReason(store: Store, pod: Pod): { reason: string; message?: string } {
  const missing = (pod.spec.volumes ?? [])
    .map((v) => v.persistentVolumeClaim?.claimName)
    .find((c) => c !== undefined && !store.get("PersistentVolumeClaim", `${pod.metadata.namespace}/${c}`));
  const claimMessage =
    missing !== undefined ? { message: `persistentvolumeclaim "${missing}" not found` } : {};
  if (!pod.spec.nodeName) {
    const scheduled = pod.status.conditions.find((c) => c.type === "PodScheduled");
    if (scheduled?.status === "False")
      return {
        reason: scheduled.reason ?? "Unschedulable",
        ...(scheduled.message ? { message: scheduled.message } : claimMessage),
      };
    return { reason: "Pending", ...claimMessage };
  }
  const column = podStatusColumn(pod);
  if (column !== "Running" && column !== "Pending") return { reason: column, ...claimMessage };
  if (column === "Running")
    return {
      reason: pod.status.conditions.find((c) => c.type === "Ready")?.reason ?? "NotReady",
      ...claimMessage,
    };
  return { reason: "ContainerCreating", ...claimMessage };
}

/** The state at the end of the run, the resolved settings and the count of events by type. */
export function summarize(
  store: Store,
  events: readonly TraceEvent[],
  settings: { controlPlane: ControlPlaneSettings; kubelet: KubeletSettings },
  duration: number,
  processed: number,
  drains: DrainSummary[],
  /** Lease renewals kept as a schedule, not among `events` */
  renewals = 0,
  /**
   * `pods` worked out when first read, from the store as it is then (the same list, if it is read
   * before the run moves on): the audit's measure reads it only to say why a workload is not whole,
   * and at 1,000 nodes it is 30,000 pods' status columns, about 40 ms of a forked run's 0.27 s.
   */
  podsWhenRead = false,
): Summary {
  const counts: Record<string, number> = {};
  for (const e of events) counts[e.type] = (counts[e.type] ?? 0) + 1;
  if (renewals > 0) counts.LeaseRenewed = (counts.LeaseRenewed ?? 0) + renewals;
  const cp = settings.controlPlane;
  const podsOf = (): Summary["pods"] => {
    const names = store.keys("Pod");
    return store.list("Pod").map((p, i) => ({
      pod: names[i]!,
      node: p.spec.nodeName ?? null,
      status: podStatusColumn(p),
      ready: p.status.conditions.some((c) => c.type === "Ready" && c.status === "True"),
    }));
  };
  const summary: Summary = {
    duration,
    engineEvents: processed,
    settings: {
      nodeMonitorPeriod: cp.nodeMonitorPeriod,
      nodeMonitorGracePeriod: cp.nodeMonitorGracePeriod,
      nodeEvictionRate: cp.nodeEvictionRate,
      secondaryNodeEvictionRate: cp.secondaryNodeEvictionRate,
      largeClusterSizeThreshold: cp.largeClusterSizeThreshold,
      unhealthyZoneThreshold: cp.unhealthyZoneThreshold,
      defaultNotReadyTolerationSeconds: cp.defaultNotReadyTolerationSeconds,
      defaultUnreachableTolerationSeconds: cp.defaultUnreachableTolerationSeconds,
      disableForceDetachOnTimeout: cp.disableForceDetachOnTimeout,
      nodeLeaseDurationSeconds: settings.kubelet.nodeLeaseDurationSeconds,
    },
    nodes: store.list("Node").map((n) => ({
      name: n.metadata.name,
      status: nodeStatus(n),
      taints: (n.spec.taints ?? []).map(taintString),
    })),
    pods: podsWhenRead ? [] : podsOf(),
    volumes: store.list("VolumeAttachment").map((v) => ({ claim: v.spec.claim, node: v.spec.nodeName })),
    drains,
    eventCounts: Object.fromEntries(Object.entries(counts).sort()),
  };
  if (podsWhenRead) {
    let pods: Summary["pods"] | undefined;
    // In its place among the keys, so that a result written out is the same.
    Object.defineProperty(summary, "pods", {
      enumerable: true,
      configurable: true,
      get: () => (pods ??= podsOf()),
    });
  }
  return summary;
}
