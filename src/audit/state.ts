// The objects the audit reasons about, read from a loaded scenario: workloads (with the pod template
// their pods share), the Services in front of them, the PodDisruptionBudgets over them; and the
// cluster's state at t=0 (which pod runs where, Ready or not, which endpoints each Service has),
// from a run without a fault.

import { matchesMap, matchesSelector } from "../kubernetes/labels.ts";
import type { LabelSelector, PodSpec } from "../kubernetes/objects.ts";
import type { Scenario } from "../scenario/types.ts";
import type { InitialState } from "../trace/result.ts";
import { type WorkloadKind, workloadsOf } from "../trace/workloads.ts";

export interface Workload {
  /** `Kind/namespace/name` */
  id: string;
  kind: WorkloadKind;
  namespace: string;
  name: string;
  /** spec.replicas; for a DaemonSet, its pods at t=0 (one per eligible node) */
  replicas: number;
  labels: Record<string, string>;
  selector: LabelSelector | undefined;
  spec: PodSpec;
  /** path of the pod spec inside the object (`spec.template.spec`, or `spec` for a Pod) */
  specPath: string;
  /** StatefulSet volumeClaimTemplates names */
  claimTemplates: string[];
}

export interface ServiceInfo {
  /** `namespace/name` */
  id: string;
  namespace: string;
  name: string;
  headless: boolean;
  /** the workloads whose pods it selects (`Kind/ns/name`) */
  backends: string[];
}

export interface BudgetInfo {
  /** `namespace/name` */
  id: string;
  minAvailable?: number | string;
  maxUnavailable?: number | string;
  /** workloads whose pods it selects */
  covers: string[];
}

export interface Objects {
  workloads: Workload[];
  workload: Map<string, Workload>;
  services: ServiceInfo[];
  budgets: BudgetInfo[];
}

export function objectsOf(scenario: Scenario): Objects {
  // A pod or ReplicaSet with a controller (a cluster dump's) is part of that controller's workload,
  // as the runs name owners (cluster/api.ts workloadOf).
  const workloads: Workload[] = workloadsOf(scenario.manifests)
    .filter((w) => !w.controlled)
    .map((w) => ({
      id: w.id,
      kind: w.kind,
      namespace: w.namespace,
      name: w.name,
      replicas: w.replicas ?? 0,
      labels: w.labels,
      selector: w.selector,
      spec: w.spec,
      specPath: w.specPath,
      claimTemplates: w.claimTemplates,
    }));
  // Pods a controller owns are the controller's (a ReplicaSet's template matched by a Deployment's too).
  const services: ServiceInfo[] = [];
  const budgets: BudgetInfo[] = [];
  for (const { object } of scenario.manifests) {
    if (object.kind === "Service") {
      const ns = object.metadata.namespace;
      services.push({
        id: `${ns}/${object.metadata.name}`,
        namespace: ns,
        name: object.metadata.name,
        headless: object.spec.clusterIP === "None",
        backends: workloads
          .filter((w) => w.namespace === ns && matchesMap(object.spec.selector, w.labels))
          .map((w) => w.id),
      });
    } else if (object.kind === "PodDisruptionBudget") {
      const ns = object.metadata.namespace;
      const b: BudgetInfo = {
        id: `${ns}/${object.metadata.name}`,
        covers: workloads
          .filter((w) => w.namespace === ns && matchesSelector(object.spec.selector, w.labels))
          .map((w) => w.id),
      };
      if (object.spec.minAvailable !== undefined) b.minAvailable = object.spec.minAvailable;
      if (object.spec.maxUnavailable !== undefined) b.maxUnavailable = object.spec.maxUnavailable;
      budgets.push(b);
    }
  }
  return { workloads, workload: new Map(workloads.map((w) => [w.id, w])), services, budgets };
}

/** A pod at t=0. */
export interface PodAtStart {
  /** `namespace/name` */
  pod: string;
  node: string | null;
  ready: boolean;
  /** `Kind/ns/name` of its workload, or null if none is known */
  owner: string | null;
  status: string;
  /** the message that goes with the status: kube-scheduler's FailedScheduling one when Unschedulable */
  message?: string;
}

export interface StartState {
  pods: PodAtStart[];
  /** per Service `ns/name`: its endpoints (pods with an address) and whether each is ready */
  endpoints: Record<string, { pod: string; ready: boolean }[]>;
}

/** The state at t=0 as a run found it (its result's `initial`), for the audit's lookups. */
export function startStateOf(initial: InitialState): StartState {
  const pods: PodAtStart[] = initial.pods.map((p) => ({
    pod: p.pod,
    node: p.node,
    ready: p.ready,
    owner: p.owner,
    status: p.reason ?? p.phase,
    ...(p.message !== undefined ? { message: p.message } : {}),
  }));
  const endpoints: StartState["endpoints"] = {};
  for (const e of initial.endpoints) endpoints[e.service] = e.pods;
  return { pods, endpoints };
}

/** Which workloads run on each node at t=0, and how many pods of each. */
export function placement(start: StartState): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const p of start.pods) {
    if (!p.node || !p.owner) continue;
    const m = out.get(p.node) ?? new Map<string, number>();
    m.set(p.owner, (m.get(p.owner) ?? 0) + 1);
    out.set(p.node, m);
  }
  return out;
}

/** A DaemonSet wants one pod per eligible node: its count is what the state at t=0 shows. */
export function countDaemonPods(objects: Objects, start: StartState): Objects {
  for (const w of objects.workloads)
    if (w.kind === "DaemonSet") w.replicas = start.pods.filter((p) => p.owner === w.id).length;
  return objects;
}
